CREATE TABLE "session_corrections" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"actor_user_id" text,
	"actor_api_key_id" text,
	"kind" text NOT NULL,
	"request" jsonb NOT NULL,
	"summary" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	"undone_by_user_id" text,
	"undone_by_api_key_id" text
);
--> statement-breakpoint
ALTER TABLE "session_corrections" ADD CONSTRAINT "session_corrections_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_corrections" ADD CONSTRAINT "session_corrections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_corrections_session_idx" ON "session_corrections" USING btree ("session_id","id");