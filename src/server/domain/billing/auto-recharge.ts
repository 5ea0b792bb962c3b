import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { autoRechargeAttempts, billingAccounts } from '../../db/schema';
import { logger } from '../../logger';
import { AppError } from '../errors';
import { newId } from '../ids';
import { getBalance, grantOnce } from './credits';
import { billingAccount, chargeOffSession, stripeConfigured } from './stripe';
import { MAX_TOPUP_CENTS, validateTopupAmount } from './topups';

const log = logger.child({ component: 'auto-recharge' });

/** Consecutive failed charges after which auto-recharge turns itself off. */
export const MAX_CONSECUTIVE_FAILURES = 3;

/** The settings of an organization that never touched them (the column defaults). */
const DEFAULTS = {
  stripePaymentMethodId: null,
  autoRechargeEnabled: false,
  autoRechargeThresholdCents: 1_000,
  autoRechargeAmountCents: 5_000,
  autoRechargeFailures: 0,
  autoRechargeDisabledReason: null,
  autoRechargeDisabledAt: null,
} as const;

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** Why auto-recharge cannot be turned on here, or null when it can. */
function unavailableReason(account: { stripePaymentMethodId: string | null }): string | null {
  if (!stripeConfigured()) return 'Auto-recharge charges a saved card, and card payments are not configured on this deployment.';
  if (!account.stripePaymentMethodId) return 'Add credit with a card once first: auto-recharge charges the card saved by your last card top-up.';
  return null;
}

/** The settings as the dashboard shows them, with the last attempts. */
export async function getAutoRecharge(db: DbOrTx, organizationId: string) {
  // read-only (the app shell asks on every page): an organization without a row has the defaults
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
  const account = row ?? DEFAULTS;
  const attempts = await db
    .select()
    .from(autoRechargeAttempts)
    .where(eq(autoRechargeAttempts.organizationId, organizationId))
    .orderBy(desc(autoRechargeAttempts.id))
    .limit(5);
  return {
    object: 'auto_recharge' as const,
    enabled: account.autoRechargeEnabled,
    threshold_cents: account.autoRechargeThresholdCents,
    amount_cents: account.autoRechargeAmountCents,
    card_payments: stripeConfigured(),
    card_saved: Boolean(account.stripePaymentMethodId),
    unavailable_reason: unavailableReason(account),
    consecutive_failures: account.autoRechargeFailures,
    disabled_reason: account.autoRechargeDisabledReason,
    disabled_at: unix(account.autoRechargeDisabledAt),
    attempts: attempts.map((a) => ({
      id: a.id,
      amount_cents: a.amountCents,
      status: a.status,
      error_code: a.errorCode,
      error_message: a.errorMessage,
      grant: a.grantId,
      created: unix(a.createdAt)!,
    })),
  };
}

export type AutoRechargeSettings = Awaited<ReturnType<typeof getAutoRecharge>>;

/**
 * Admins change the settings. Turning it on needs card payments and a saved card
 * (`payment_provider_missing` otherwise) and clears a previous automatic disable.
 */
export async function updateAutoRecharge(
  db: Database,
  opts: { organizationId: string; enabled: boolean; thresholdCents: number; amountCents: number },
): Promise<AutoRechargeSettings> {
  validateTopupAmount(opts.amountCents);
  if (!Number.isInteger(opts.thresholdCents) || opts.thresholdCents < 0 || opts.thresholdCents > MAX_TOPUP_CENTS) {
    throw new AppError('parameter_invalid', { message: 'The threshold is between $0 and $10,000 (whole cents).', param: 'threshold_cents' });
  }
  const account = await billingAccount(db, opts.organizationId);
  const why = unavailableReason(account);
  if (opts.enabled && why) throw new AppError('payment_provider_missing', { message: why, param: 'enabled' });
  await db
    .update(billingAccounts)
    .set({
      autoRechargeEnabled: opts.enabled,
      autoRechargeThresholdCents: opts.thresholdCents,
      autoRechargeAmountCents: opts.amountCents,
      ...(opts.enabled ? { autoRechargeFailures: 0, autoRechargeDisabledReason: null, autoRechargeDisabledAt: null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(billingAccounts.organizationId, opts.organizationId));
  return getAutoRecharge(db, opts.organizationId);
}

/** True when auto-recharge is on and the available balance is below the threshold (checked after each settlement). */
export async function autoRechargeDue(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
  if (!account?.autoRechargeEnabled || !account.stripePaymentMethodId || !stripeConfigured()) return false;
  const balance = await getBalance(db, organizationId);
  return balance.available_cents < account.autoRechargeThresholdCents;
}

export type RechargeOutcome =
  | { status: 'skipped'; reason: string }
  | { status: 'succeeded'; grant: string; attempt: string }
  | { status: 'failed'; code: string; attempt: string; disabled: boolean };

/**
 * One auto-recharge: re-checks that it is still due, charges `amount_cents` off-session
 * (the idempotency key makes a retried step charge once), then records the attempt. A
 * success grants `auto_recharge` credit (once per PaymentIntent) and resets the failure
 * count; a failure increments it, and the third in a row disables auto-recharge with a
 * reason the dashboard shows to admins as a banner.
 */
export async function runAutoRecharge(db: Database, opts: { organizationId: string; idempotencyKey: string }): Promise<RechargeOutcome> {
  if (!(await autoRechargeDue(db, opts.organizationId))) return { status: 'skipped', reason: 'not due' };
  const account = await billingAccount(db, opts.organizationId);
  if (!account.stripeCustomerId || !account.stripePaymentMethodId) return { status: 'skipped', reason: 'no saved card' };
  const amountCents = account.autoRechargeAmountCents;
  const charge = await chargeOffSession({
    organizationId: opts.organizationId,
    customer: account.stripeCustomerId,
    paymentMethod: account.stripePaymentMethodId,
    amountCents,
    idempotencyKey: opts.idempotencyKey,
  });
  const attemptId = newId('autoRechargeAttempt');
  if (charge.ok) {
    return db.transaction(async (tx) => {
      const { grant, created } = await grantOnce(tx, {
        organizationId: opts.organizationId,
        amountCents,
        source: 'auto_recharge',
        reason: `auto-recharge (Stripe ${charge.paymentIntentId})`,
        externalId: charge.paymentIntentId,
      });
      if (created) {
        await tx.insert(autoRechargeAttempts).values({ id: attemptId, organizationId: opts.organizationId, amountCents, status: 'succeeded', paymentIntentId: charge.paymentIntentId, grantId: grant.id });
        await tx.update(billingAccounts).set({ autoRechargeFailures: 0, updatedAt: new Date() }).where(eq(billingAccounts.organizationId, opts.organizationId));
      }
      log.info({ organizationId: opts.organizationId, amountCents, paymentIntent: charge.paymentIntentId }, 'auto-recharge succeeded');
      return { status: 'succeeded' as const, grant: grant.id, attempt: attemptId };
    });
  }
  return db.transaction(async (tx) => {
    await tx.insert(autoRechargeAttempts).values({
      id: attemptId,
      organizationId: opts.organizationId,
      amountCents,
      status: 'failed',
      paymentIntentId: charge.paymentIntentId,
      errorCode: charge.code,
      errorMessage: charge.message.slice(0, 500),
    });
    const [updated] = await tx
      .update(billingAccounts)
      .set({ autoRechargeFailures: sql`${billingAccounts.autoRechargeFailures} + 1`, updatedAt: new Date() })
      .where(eq(billingAccounts.organizationId, opts.organizationId))
      .returning();
    let disabled = false;
    if (updated.autoRechargeFailures >= MAX_CONSECUTIVE_FAILURES && updated.autoRechargeEnabled) {
      const reason = `Auto-recharge was turned off after ${updated.autoRechargeFailures} failed charges in a row (last: ${charge.code}). Update the card with a card top-up, then turn it on again.`;
      await tx
        .update(billingAccounts)
        .set({ autoRechargeEnabled: false, autoRechargeDisabledReason: reason, autoRechargeDisabledAt: new Date() })
        .where(and(eq(billingAccounts.organizationId, opts.organizationId)));
      disabled = true;
      log.warn({ event: 'auto_recharge.disabled', organizationId: opts.organizationId, failures: updated.autoRechargeFailures, code: charge.code }, 'auto-recharge disabled');
    } else {
      log.warn({ organizationId: opts.organizationId, code: charge.code, failures: updated.autoRechargeFailures }, 'auto-recharge charge failed');
    }
    return { status: 'failed' as const, code: charge.code, attempt: attemptId, disabled };
  });
}
