CREATE TABLE "auto_recharge_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"payment_intent_id" text,
	"error_code" text,
	"error_message" text,
	"grant_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_accounts" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text,
	"stripe_payment_method_id" text,
	"auto_recharge_enabled" boolean DEFAULT false NOT NULL,
	"auto_recharge_threshold_cents" integer DEFAULT 1000 NOT NULL,
	"auto_recharge_amount_cents" integer DEFAULT 5000 NOT NULL,
	"auto_recharge_failures" integer DEFAULT 0 NOT NULL,
	"auto_recharge_disabled_reason" text,
	"auto_recharge_disabled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_accounts_stripe_customer_id_unique" UNIQUE("stripe_customer_id"),
	CONSTRAINT "billing_accounts_threshold_range" CHECK ("billing_accounts"."auto_recharge_threshold_cents" >= 0),
	CONSTRAINT "billing_accounts_amount_range" CHECK ("billing_accounts"."auto_recharge_amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "credit_grants" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "auto_recharge_attempts" ADD CONSTRAINT "auto_recharge_attempts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_attempts" ADD CONSTRAINT "auto_recharge_attempts_grant_id_credit_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."credit_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_recharge_attempts_org_idx" ON "auto_recharge_attempts" USING btree ("organization_id","id");--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_external_id_unique" UNIQUE("external_id");