CREATE TABLE "reel_shares" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"reel_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_viewed_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reels" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"session_id" text NOT NULL,
	"title" text,
	"kind" text NOT NULL,
	"orientation" text NOT NULL,
	"criteria" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"highlight_ids" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"storage_key" text,
	"poster_key" text,
	"duration_seconds" real,
	"width" integer,
	"height" integer,
	"error_message" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "highlights" ALTER COLUMN "shot_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "highlights" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "highlights" ADD COLUMN "start_seconds" real;--> statement-breakpoint
ALTER TABLE "highlights" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "reel_shares" ADD CONSTRAINT "reel_shares_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reel_shares" ADD CONSTRAINT "reel_shares_reel_id_reels_id_fk" FOREIGN KEY ("reel_id") REFERENCES "public"."reels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reels" ADD CONSTRAINT "reels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reels" ADD CONSTRAINT "reels_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reel_shares_token_idx" ON "reel_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "reel_shares_reel_idx" ON "reel_shares" USING btree ("reel_id","id");--> statement-breakpoint
CREATE INDEX "reels_org_session_idx" ON "reels" USING btree ("organization_id","session_id","id");