import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, idColumn, ts } from './columns';
import { organizations } from './organizations';

/**
 * Prepaid credit, one row per purchase or grant. `remainingCents` is a cache of the sum of
 * this grant's ledger entries (an invariant the tests check); a grant is spendable only
 * while `expiresAt` is in the future.
 */
export const creditGrants = pgTable(
  'credit_grants',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    amountCents: integer('amount_cents').notNull(),
    remainingCents: integer('remaining_cents').notNull(),
    source: text('source', { enum: ['purchase', 'auto_recharge', 'manual', 'signup'] }).notNull(),
    reason: text('reason'),
    /**
     * The payment provider's object that paid for the grant (Stripe Checkout Session `cs_…`
     * or PaymentIntent `pi_…`). Unique: a redelivered webhook can never grant twice.
     */
    externalId: text('external_id').unique(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when the expiry job wrote the grant's expiry entry. */
    expiredAt: ts('expired_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_grants_org_expiry_idx').on(t.organizationId, t.expiresAt),
    check('credit_grants_amount_positive', sql`${t.amountCents} > 0`),
    check('credit_grants_remaining_range', sql`${t.remainingCents} >= 0 and ${t.remainingCents} <= ${t.amountCents}`),
  ],
);

/**
 * Append-only money ledger. Positive entries add credit, negative ones spend it. An entry
 * with a null grant is debt: a settlement that exceeded the remaining credit (negative) or
 * its repayment from a later grant (positive). Credit = sum of all entries of the
 * organization less what expired unrecorded (read-time expiry).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    grantId: text('grant_id').references(() => creditGrants.id),
    usageEventId: text('usage_event_id'),
    kind: text('kind', { enum: ['grant', 'settlement', 'expiry', 'debt_repayment'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_org_idx').on(t.organizationId, t.id),
    index('ledger_entries_grant_idx').on(t.grantId),
  ],
);

/**
 * One per billable job (SPEC §2.7). While `status` is `held`, `heldCents` is reserved from
 * the available balance; settlement writes the ledger entries and the final cost.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    sessionId: text('session_id').notNull().unique(),
    groupId: text('group_id').notNull(),
    apiKeyId: text('api_key_id'),
    sku: text('sku').notNull().default('video_processing'),
    status: text('status', { enum: ['held', 'settled', 'voided'] }).notNull(),
    runVersion: integer('run_version').notNull().default(0),
    heldSeconds: integer('held_seconds').notNull(),
    heldCents: integer('held_cents').notNull(),
    quantitySeconds: integer('quantity_seconds').notNull().default(0),
    rateCentsPerHour: integer('rate_cents_per_hour').notNull(),
    costCents: integer('cost_cents').notNull().default(0),
    settledAt: ts('settled_at'),
    voidedAt: ts('voided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('usage_events_org_idx').on(t.organizationId, t.id),
    index('usage_events_org_held_idx').on(t.organizationId).where(sql`${t.status} = 'held'`),
  ],
);

/**
 * A top-up an admin asked for without a card provider (invoiced customers): an operator
 * approves it (which grants the credit) or rejects it with the CLI.
 */
export const topupRequests = pgTable(
  'topup_requests',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    amountCents: integer('amount_cents').notNull(),
    /** The customer's purchase order or reference, printed on the operator's list. */
    reference: text('reference'),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull().default('pending'),
    requestedBy: text('requested_by'),
    /** The grant made on approval. */
    grantId: text('grant_id').references(() => creditGrants.id),
    decisionNote: text('decision_note'),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('topup_requests_org_idx').on(t.organizationId, t.id),
    check('topup_requests_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

/**
 * Card payments and auto-recharge settings of an organization (one row, created on first
 * use). `stripeCustomerId` is made on the first Checkout; `stripePaymentMethodId` is the card
 * saved by the last paid Checkout, charged off-session by auto-recharge.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    organizationId: text('organization_id')
      .primaryKey()
      .references(() => organizations.id),
    stripeCustomerId: text('stripe_customer_id').unique(),
    stripePaymentMethodId: text('stripe_payment_method_id'),
    autoRechargeEnabled: boolean('auto_recharge_enabled').notNull().default(false),
    autoRechargeThresholdCents: integer('auto_recharge_threshold_cents').notNull().default(1_000),
    autoRechargeAmountCents: integer('auto_recharge_amount_cents').notNull().default(5_000),
    /** Failed charges in a row; the third disables auto-recharge. Reset by a success or by re-enabling. */
    autoRechargeFailures: integer('auto_recharge_failures').notNull().default(0),
    /** Why auto-recharge was turned off by the service (shown as a banner to admins until they re-enable it). */
    autoRechargeDisabledReason: text('auto_recharge_disabled_reason'),
    autoRechargeDisabledAt: ts('auto_recharge_disabled_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('billing_accounts_threshold_range', sql`${t.autoRechargeThresholdCents} >= 0`),
    check('billing_accounts_amount_range', sql`${t.autoRechargeAmountCents} > 0`),
  ],
);

/** Every off-session charge auto-recharge tried, successful or not (the billing page lists them). */
export const autoRechargeAttempts = pgTable(
  'auto_recharge_attempts',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    paymentIntentId: text('payment_intent_id'),
    /** Stripe's error code on failure (`card_declined`, `authentication_required`, …). */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    grantId: text('grant_id').references(() => creditGrants.id),
    createdAt: createdAt(),
  },
  (t) => [index('auto_recharge_attempts_org_idx').on(t.organizationId, t.id)],
);
