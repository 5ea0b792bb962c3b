import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditGrants, ledgerEntries, organizations } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { grantExpiry } from './money';

export type GrantSource = 'purchase' | 'auto_recharge' | 'manual' | 'signup';

export interface Balance {
  object: 'balance';
  currency: 'usd';
  available_cents: number;
  held_cents: number;
  credit_cents: number;
  rate_cents_per_hour: number;
  soonest_expiry: number | null;
}

/**
 * Adds credit. Outstanding debt (settlements that exceeded the credit left) is repaid from
 * the new grant first, in the same transaction. Must run inside a transaction.
 */
export async function grantCredits(
  tx: DbOrTx,
  opts: {
    organizationId: string;
    amountCents: number;
    source: GrantSource;
    reason?: string | null;
    now?: Date;
    expiresAt?: Date;
    /** The provider's object that paid for it; see `grantOnce`. */
    externalId?: string | null;
  },
) {
  if (!Number.isInteger(opts.amountCents) || opts.amountCents <= 0) {
    throw new AppError('parameter_invalid', { message: 'The amount must be a positive whole number of cents.', param: 'amount_cents' });
  }
  const [org] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, opts.organizationId))
    .for('update');
  if (!org) throw notFound('organization', 'organization');
  const now = opts.now ?? new Date();
  const grantId = newId('creditGrant');
  const [grant] = await tx
    .insert(creditGrants)
    .values({
      id: grantId,
      organizationId: opts.organizationId,
      amountCents: opts.amountCents,
      remainingCents: opts.amountCents,
      source: opts.source,
      reason: opts.reason ?? null,
      externalId: opts.externalId ?? null,
      expiresAt: opts.expiresAt ?? grantExpiry(now),
      createdAt: now,
    })
    .returning();
  await tx.insert(ledgerEntries).values({
    id: newId('ledgerEntry'),
    organizationId: opts.organizationId,
    grantId,
    kind: 'grant',
    amountCents: opts.amountCents,
    description: opts.reason ?? `${opts.source} credit`,
    createdAt: now,
  });
  const debt = await outstandingDebt(tx, opts.organizationId);
  if (debt > 0) {
    const repay = Math.min(debt, opts.amountCents);
    await tx.insert(ledgerEntries).values([
      { id: newId('ledgerEntry'), organizationId: opts.organizationId, grantId, kind: 'debt_repayment', amountCents: -repay, description: 'debt repaid', createdAt: now },
      { id: newId('ledgerEntry'), organizationId: opts.organizationId, grantId: null, kind: 'debt_repayment', amountCents: repay, description: 'debt repaid', createdAt: now },
    ]);
    await tx.update(creditGrants).set({ remainingCents: opts.amountCents - repay }).where(eq(creditGrants.id, grantId));
    grant.remainingCents = opts.amountCents - repay;
  }
  return grant;
}

/**
 * A paid grant, made at most once per provider object (Checkout Session, PaymentIntent):
 * the organization row is locked before the look-up, so concurrent duplicate deliveries
 * of one webhook are checked one after another, and the unique `external_id` backs it up.
 * Returns the grant and whether this call created it. Must run inside a transaction.
 */
export async function grantOnce(
  tx: DbOrTx,
  opts: Parameters<typeof grantCredits>[1] & { externalId: string },
): Promise<{ grant: typeof creditGrants.$inferSelect; created: boolean }> {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, opts.organizationId)).for('update');
  const [existing] = await tx.select().from(creditGrants).where(eq(creditGrants.externalId, opts.externalId));
  if (existing) return { grant: existing, created: false };
  return { grant: await grantCredits(tx, opts), created: true };
}

/** Debt in cents (≥ 0): the sum of the organization's grant-less ledger entries, negated. */
export async function outstandingDebt(db: DbOrTx, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.organizationId, organizationId), isNull(ledgerEntries.grantId)));
  return Math.max(0, -Number(row.sum));
}

/**
 * The balance as the API shows it. Expiry is applied at read time: a grant past its
 * `expires_at` never counts, even before the expiry job has written its entry.
 */
export async function getBalance(db: DbOrTx, organizationId: string, now = new Date()): Promise<Balance> {
  const rows = await db.execute<{
    rate: number;
    unexpired: string;
    soonest: Date | string | null;
    debt: string;
    held: string;
  }>(sql`
    with now as (select ${now.toISOString()}::timestamptz as t)
    select o.rate_cents_per_hour as rate,
      (select coalesce(sum(remaining_cents), 0) from credit_grants g
        where g.organization_id = o.id and g.expires_at > (select t from now)) as unexpired,
      (select min(expires_at) from credit_grants g
        where g.organization_id = o.id and g.expires_at > (select t from now) and g.remaining_cents > 0) as soonest,
      (select coalesce(sum(amount_cents), 0) from ledger_entries l
        where l.organization_id = o.id and l.grant_id is null) as debt,
      (select coalesce(sum(held_cents), 0) from usage_events u
        where u.organization_id = o.id and u.status = 'held') as held
    from organizations o where o.id = ${organizationId}`);
  const row = rows[0];
  if (!row) throw notFound('organization', 'organization');
  const credit = Number(row.unexpired) + Number(row.debt);
  const held = Number(row.held);
  return {
    object: 'balance',
    currency: 'usd',
    available_cents: credit - held,
    held_cents: held,
    credit_cents: credit,
    rate_cents_per_hour: Number(row.rate),
    soonest_expiry: row.soonest ? Math.floor(new Date(row.soonest).getTime() / 1000) : null,
  };
}

/** Unexpired grants with credit left, soonest expiry first: the order settlement draws from. */
export async function spendableGrants(tx: DbOrTx, organizationId: string, now = new Date()) {
  return tx
    .select()
    .from(creditGrants)
    .where(and(eq(creditGrants.organizationId, organizationId), gt(creditGrants.expiresAt, now), gt(creditGrants.remainingCents, 0)))
    .orderBy(asc(creditGrants.expiresAt), asc(creditGrants.id))
    .for('update');
}
