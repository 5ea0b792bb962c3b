CREATE TABLE "inngest_apps" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"sdk" text,
	"framework" text,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inngest_crons" (
	"function_id" text NOT NULL,
	"cron" text NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inngest_crons_function_id_cron_pk" PRIMARY KEY("function_id","cron")
);
--> statement-breakpoint
CREATE TABLE "inngest_events" (
	"id" text PRIMARY KEY NOT NULL,
	"external_id" text,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inngest_functions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"name" text NOT NULL,
	"config" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inngest_queue" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"run_id" text NOT NULL,
	"step_id" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"lease_token" text,
	"leased_until" timestamp with time zone,
	"concurrency_keys" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inngest_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text,
	"event" jsonb NOT NULL,
	"status" text NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"disable_immediate_execution" boolean DEFAULT false NOT NULL,
	"concurrency" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rate_limit_key" text,
	"idempotency_key" text,
	"parent_run_id" text,
	"parent_step_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inngest_steps" (
	"run_id" text NOT NULL,
	"step_id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"result" jsonb NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inngest_steps_run_id_step_id_pk" PRIMARY KEY("run_id","step_id")
);
--> statement-breakpoint
CREATE TABLE "inngest_waits" (
	"run_id" text NOT NULL,
	"step_id" text NOT NULL,
	"kind" text NOT NULL,
	"event_name" text,
	"expression" text,
	"expires_at" timestamp with time zone,
	"invoked_run_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inngest_waits_run_id_step_id_pk" PRIMARY KEY("run_id","step_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inngest_events_external_id_idx" ON "inngest_events" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "inngest_events_unprocessed_idx" ON "inngest_events" USING btree ("received_at") WHERE processed_at is null;--> statement-breakpoint
CREATE INDEX "inngest_events_name_idx" ON "inngest_events" USING btree ("name","received_at");--> statement-breakpoint
CREATE INDEX "inngest_functions_app_idx" ON "inngest_functions" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inngest_queue_step_idx" ON "inngest_queue" USING btree ("run_id","step_id") WHERE step_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "inngest_queue_discovery_idx" ON "inngest_queue" USING btree ("run_id") WHERE step_id is null and status = 'queued';--> statement-breakpoint
CREATE INDEX "inngest_queue_due_idx" ON "inngest_queue" USING btree ("app_id","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inngest_runs_fn_event_idx" ON "inngest_runs" USING btree ("function_id","event_id");--> statement-breakpoint
CREATE INDEX "inngest_runs_fn_created_idx" ON "inngest_runs" USING btree ("function_id","created_at");--> statement-breakpoint
CREATE INDEX "inngest_runs_rate_limit_idx" ON "inngest_runs" USING btree ("rate_limit_key","created_at");--> statement-breakpoint
CREATE INDEX "inngest_runs_idempotency_idx" ON "inngest_runs" USING btree ("idempotency_key","created_at");--> statement-breakpoint
CREATE INDEX "inngest_waits_event_idx" ON "inngest_waits" USING btree ("event_name");--> statement-breakpoint
CREATE INDEX "inngest_waits_expiry_idx" ON "inngest_waits" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "inngest_waits_invoked_idx" ON "inngest_waits" USING btree ("invoked_run_id");