import { and, desc, eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { organizations, topupRequests } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { grantCredits } from './credits';

/** Smallest and largest top-up an admin can ask for ($10 – $10,000). */
export const MIN_TOPUP_CENTS = 1_000;
export const MAX_TOPUP_CENTS = 1_000_000;

type Row = typeof topupRequests.$inferSelect;
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function toApiTopup(row: Row) {
  return {
    id: row.id,
    object: 'topup_request' as const,
    amount_cents: row.amountCents,
    reference: row.reference,
    status: row.status,
    grant: row.grantId,
    note: row.decisionNote,
    created: unix(row.createdAt)!,
    decided_at: unix(row.decidedAt),
  };
}

export type ApiTopup = ReturnType<typeof toApiTopup>;

export function validateTopupAmount(amountCents: number): void {
  if (!Number.isInteger(amountCents) || amountCents < MIN_TOPUP_CENTS || amountCents > MAX_TOPUP_CENTS) {
    throw new AppError('parameter_invalid', {
      message: `A top-up is between $${MIN_TOPUP_CENTS / 100} and $${(MAX_TOPUP_CENTS / 100).toLocaleString('en-US')} (whole cents).`,
      param: 'amount_cents',
    });
  }
}

/** An admin asks for credit to be added (paid by invoice); an operator decides. */
export async function requestTopup(
  db: DbOrTx,
  opts: { organizationId: string; amountCents: number; reference?: string | null; requestedBy?: string | null },
): Promise<ApiTopup> {
  validateTopupAmount(opts.amountCents);
  const reference = opts.reference?.trim() || null;
  if (reference && reference.length > 200) {
    throw new AppError('parameter_invalid', { message: 'The reference is longer than 200 characters.', param: 'reference' });
  }
  const [row] = await db
    .insert(topupRequests)
    .values({ id: newId('topupRequest'), organizationId: opts.organizationId, amountCents: opts.amountCents, reference, requestedBy: opts.requestedBy ?? null })
    .returning();
  return toApiTopup(row);
}

/** An organization's requests, newest first (the billing page shows their status). */
export async function listTopups(db: DbOrTx, organizationId: string, limit = 20): Promise<ApiTopup[]> {
  const rows = await db.select().from(topupRequests).where(eq(topupRequests.organizationId, organizationId)).orderBy(desc(topupRequests.id)).limit(limit);
  return rows.map(toApiTopup);
}

/** The operator's queue: every pending request with its organization's name. */
export async function pendingTopups(db: DbOrTx) {
  return db
    .select({ request: topupRequests, organizationName: organizations.name })
    .from(topupRequests)
    .innerJoin(organizations, eq(organizations.id, topupRequests.organizationId))
    .where(eq(topupRequests.status, 'pending'))
    .orderBy(topupRequests.id);
}

async function lockPending(tx: DbOrTx, id: string): Promise<Row> {
  const [row] = await tx.select().from(topupRequests).where(eq(topupRequests.id, id)).for('update');
  if (!row) throw notFound('top-up request');
  if (row.status !== 'pending') {
    throw new AppError('parameter_invalid', { message: `This top-up request was already ${row.status}.`, param: 'id' });
  }
  return row;
}

/** Approves a pending request: grants the credit (one year expiry) in the same transaction. Approving twice is refused. */
export async function approveTopup(db: Database, opts: { id: string; note?: string | null }): Promise<ApiTopup> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, opts.id);
    const grant = await grantCredits(tx, {
      organizationId: row.organizationId,
      amountCents: row.amountCents,
      source: 'purchase',
      reason: row.reference ? `top-up ${row.id} (ref ${row.reference})` : `top-up ${row.id}`,
    });
    const [updated] = await tx
      .update(topupRequests)
      .set({ status: 'approved', grantId: grant.id, decisionNote: opts.note ?? null, decidedAt: new Date() })
      .where(and(eq(topupRequests.id, row.id), eq(topupRequests.status, 'pending')))
      .returning();
    return toApiTopup(updated);
  });
}

export async function rejectTopup(db: Database, opts: { id: string; note?: string | null }): Promise<ApiTopup> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, opts.id);
    const [updated] = await tx
      .update(topupRequests)
      .set({ status: 'rejected', decisionNote: opts.note ?? null, decidedAt: new Date() })
      .where(eq(topupRequests.id, row.id))
      .returning();
    return toApiTopup(updated);
  });
}
