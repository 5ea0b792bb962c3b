import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerEntries } from '../../db/schema';

export interface StatementLine {
  id: string;
  created: number;
  kind: 'grant' | 'settlement' | 'expiry' | 'debt_repayment';
  amount_cents: number;
  description: string | null;
  grant: string | null;
}

export interface Statement {
  organization: string;
  from: number;
  to: number;
  opening_cents: number;
  grants_cents: number;
  settlements_cents: number;
  expiries_cents: number;
  closing_cents: number;
  lines: StatementLine[];
}

/**
 * The credit statement of a period [from, to): opening balance, every ledger entry of the
 * period (grants, settlements, expiries), closing balance. Built from the append-only
 * ledger, so it reconciles to the cent: opening + Σ lines = closing. Debt repayments move
 * credit between a grant and the debt and net to zero. Run `expireCredits` first so expiries
 * up to now are in the ledger.
 */
export async function creditStatement(db: DbOrTx, opts: { organizationId: string; from: Date; to: Date }): Promise<Statement> {
  const org = eq(ledgerEntries.organizationId, opts.organizationId);
  const [opening] = await db
    .select({ s: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(and(org, lt(ledgerEntries.createdAt, opts.from)));
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(org, gte(ledgerEntries.createdAt, opts.from), lt(ledgerEntries.createdAt, opts.to)))
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
  const lines: StatementLine[] = rows.map((r) => ({
    id: r.id,
    created: Math.floor(r.createdAt.getTime() / 1000),
    kind: r.kind,
    amount_cents: r.amountCents,
    description: r.description,
    grant: r.grantId,
  }));
  const sum = (kind: StatementLine['kind']) => lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.amount_cents, 0);
  const openingCents = Number(opening.s);
  return {
    organization: opts.organizationId,
    from: Math.floor(opts.from.getTime() / 1000),
    to: Math.floor(opts.to.getTime() / 1000),
    opening_cents: openingCents,
    grants_cents: sum('grant'),
    settlements_cents: sum('settlement'),
    expiries_cents: sum('expiry'),
    closing_cents: openingCents + lines.reduce((s, l) => s + l.amount_cents, 0),
    lines,
  };
}
