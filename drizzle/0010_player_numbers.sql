ALTER TABLE "players" ADD COLUMN "number" integer;--> statement-breakpoint
-- Existing players keep the label the dashboard gave them: their place in the session's list (by id).
UPDATE "players" AS p SET "number" = r.n
FROM (SELECT "id", row_number() OVER (PARTITION BY "session_id" ORDER BY "id") AS n FROM "players") AS r
WHERE p."id" = r."id";
