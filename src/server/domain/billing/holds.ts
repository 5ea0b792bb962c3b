import { ANALYSER_RUN_VERSION } from '../../analysis/run-version';
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { creditGrants, ledgerEntries, organizations, usageEvents } from '../../db/schema';
import { AppError } from '../errors';

const cents = (n: number) => `${n} ${Math.abs(n) === 1 ? 'cent' : 'cents'}`;
import { newId } from '../ids';
import { getBalance, spendableGrants } from './credits';
import { costCents } from './money';

type UsageEventRow = typeof usageEvents.$inferSelect;

/**
 * Reserves the estimated cost of a job. Runs in the caller's transaction, which must also
 * create the session: the organization row is locked first, so concurrent submits of one
 * organization are checked one after another and `available` never goes negative.
 * Throws 402 `insufficient_credits` (with `needed_cents`, `available_cents`) when the
 * available balance cannot cover it.
 */
export async function placeHold(
  tx: DbOrTx,
  opts: { organizationId: string; sessionId: string; groupId: string; apiKeyId: string | null; heldSeconds: number; now?: Date },
): Promise<{ usageEvent: UsageEventRow; heldCents: number; availableAfter: number }> {
  const [org] = await tx.select().from(organizations).where(eq(organizations.id, opts.organizationId)).for('update');
  const rate = org.rateCentsPerHour;
  const heldCents = costCents(opts.heldSeconds, rate);
  const balance = await getBalance(tx, opts.organizationId, opts.now);
  if (balance.available_cents < heldCents || (heldCents === 0 && balance.available_cents < 0)) {
    throw new AppError('insufficient_credits', {
      message: `Insufficient credits: this video needs a hold of ${cents(heldCents)} and ${cents(balance.available_cents)} ${balance.available_cents === 1 ? 'is' : 'are'} available. Top up credits and try again.`,
      extra: { needed_cents: heldCents, available_cents: balance.available_cents },
    });
  }
  const [usageEvent] = await tx
    .insert(usageEvents)
    .values({
      id: newId('usageEvent'),
      organizationId: opts.organizationId,
      sessionId: opts.sessionId,
      groupId: opts.groupId,
      apiKeyId: opts.apiKeyId,
      status: 'held',
      // the analyser the job is submitted to (a settlement writes the one that ran; a void keeps this)
      runVersion: ANALYSER_RUN_VERSION,
      heldSeconds: opts.heldSeconds,
      heldCents,
      rateCentsPerHour: rate,
      ...(opts.now ? { createdAt: opts.now } : {}),
    })
    .returning();
  return { usageEvent, heldCents, availableAfter: balance.available_cents - heldCents };
}

async function lockUsageEvent(tx: DbOrTx, sessionId: string): Promise<UsageEventRow> {
  const [ue] = await tx.select().from(usageEvents).where(eq(usageEvents.sessionId, sessionId)).for('update');
  if (!ue) throw new Error(`no usage event for session ${sessionId}`);
  return ue;
}

/**
 * Settles a held job for the measured seconds at the rate fixed when it was held: draws
 * from the soonest-expiring unexpired grants first, one ledger entry per grant touched;
 * what the grants cannot cover becomes debt (a grant-less entry). Idempotent: settling an
 * already settled job returns it unchanged, so a retried step never charges twice.
 */
export async function settleHold(
  tx: DbOrTx,
  opts: { sessionId: string; measuredSeconds: number; runVersion: number; now?: Date },
): Promise<UsageEventRow> {
  const now = opts.now ?? new Date();
  const ue = await lockUsageEvent(tx, opts.sessionId);
  if (ue.status === 'settled') return ue;
  if (ue.status === 'voided') throw new Error(`usage event ${ue.id} was voided; it cannot be settled`);
  const cost = costCents(opts.measuredSeconds, ue.rateCentsPerHour);
  let left = cost;
  for (const grant of await spendableGrants(tx, ue.organizationId, now)) {
    if (left === 0) break;
    const take = Math.min(left, grant.remainingCents);
    await tx.update(creditGrants).set({ remainingCents: grant.remainingCents - take }).where(eq(creditGrants.id, grant.id));
    await tx.insert(ledgerEntries).values({
      id: newId('ledgerEntry'),
      organizationId: ue.organizationId,
      grantId: grant.id,
      usageEventId: ue.id,
      kind: 'settlement',
      amountCents: -take,
      description: `session ${ue.sessionId}`,
      createdAt: now,
    });
    left -= take;
  }
  if (left > 0) {
    await tx.insert(ledgerEntries).values({
      id: newId('ledgerEntry'),
      organizationId: ue.organizationId,
      grantId: null,
      usageEventId: ue.id,
      kind: 'settlement',
      amountCents: -left,
      description: `session ${ue.sessionId} (exceeded the remaining credit: debt)`,
      createdAt: now,
    });
  }
  const [settled] = await tx
    .update(usageEvents)
    .set({ status: 'settled', quantitySeconds: opts.measuredSeconds, costCents: cost, runVersion: opts.runVersion, settledAt: now })
    .where(eq(usageEvents.id, ue.id))
    .returning();
  return settled;
}

/** Releases a hold without charging. Idempotent; a settled job cannot be voided. */
export async function voidHold(tx: DbOrTx, opts: { sessionId: string; now?: Date }): Promise<UsageEventRow> {
  const ue = await lockUsageEvent(tx, opts.sessionId);
  if (ue.status === 'voided') return ue;
  if (ue.status === 'settled') throw new Error(`usage event ${ue.id} is settled; it cannot be voided`);
  const [voided] = await tx
    .update(usageEvents)
    .set({ status: 'voided', voidedAt: opts.now ?? new Date() })
    .where(eq(usageEvents.id, ue.id))
    .returning();
  return voided;
}

/**
 * Writes the expiry of every grant past its `expires_at`: an `expiry` ledger entry for
 * what was left, remaining set to 0. Safe to run repeatedly and concurrently (rows are
 * locked and skipped once marked). `organizationId` limits it to one organization (before
 * its statement is read). Returns the number of grants expired.
 */
export async function expireCredits(db: Database, now = new Date(), organizationId?: string): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(creditGrants)
      .where(
        and(lte(creditGrants.expiresAt, now), isNull(creditGrants.expiredAt), organizationId ? eq(creditGrants.organizationId, organizationId) : undefined),
      )
      .for('update', { skipLocked: true });
    for (const grant of due) {
      if (grant.remainingCents > 0) {
        await tx.insert(ledgerEntries).values({
          id: newId('ledgerEntry'),
          organizationId: grant.organizationId,
          grantId: grant.id,
          kind: 'expiry',
          amountCents: -grant.remainingCents,
          description: 'credit expired',
          createdAt: now,
        });
      }
      await tx.update(creditGrants).set({ remainingCents: 0, expiredAt: now }).where(eq(creditGrants.id, grant.id));
    }
    return due.length;
  });
}

/** Sum of all ledger entries of an organization (tests: must equal credit + expired-unrecorded). */
export async function ledgerSum(db: DbOrTx, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.organizationId, organizationId));
  return Number(row.s);
}
