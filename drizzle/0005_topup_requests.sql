CREATE TABLE "topup_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" text,
	"grant_id" text,
	"decision_note" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topup_requests_amount_positive" CHECK ("topup_requests"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "topup_requests" ADD CONSTRAINT "topup_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topup_requests" ADD CONSTRAINT "topup_requests_grant_id_credit_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."credit_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "topup_requests_org_idx" ON "topup_requests" USING btree ("organization_id","id");