ALTER TABLE "players" ADD COLUMN "colour" text;--> statement-breakpoint
ALTER TABLE "players" ADD COLUMN "thumbnail_key" text;