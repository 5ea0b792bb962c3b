import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { creditGrants } from '../../db/schema';
import { grantCredits } from '../billing/credits';
import { ensureDefaultGroup } from '../groups/groups';

/** True when the app runs on its embedded PostgreSQL (the zero-setup default), not an operator's DATABASE_URL. */
export function usesEmbeddedDatabase(url = process.env.DATABASE_URL ?? ''): boolean {
  // the embedded server's fixed role and password (db/embedded.ts), on loopback
  return /^postgres:\/\/postgres:swish-local@127\.0\.0\.1:\d+\/swish$/.test(url);
}

/**
 * Starter credit for an organization created in the dashboard: SWISH_SIGNUP_CREDITS_CENTS,
 * by default 1000 (¢) on the embedded database, so a newcomer who ran `npm start` can try
 * the product at once, and 0 on an operator's database unless set.
 */
export function signupCreditCents(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SWISH_SIGNUP_CREDITS_CENTS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error(`SWISH_SIGNUP_CREDITS_CENTS must be a whole number of cents ≥ 0, got "${raw}"`);
    return n;
  }
  return usesEmbeddedDatabase(env.DATABASE_URL) ? 1000 : 0;
}

/** The external id of an account's starter credit: one per account (the column is unique). */
const starterCreditId = (userId: string) => `starter:${userId}`;

/**
 * Completes an organization created in the dashboard (better-auth inserted the row): its
 * default group and the starter credit, in one transaction. The credit comes once per
 * account — with its first organization — so that creating organization after organization
 * does not mint credit (`createdBy`: the account; without it, as for the operator's own
 * set-ups, the organization gets it).
 */
export async function setUpDashboardOrganization(db: Database, opts: { organizationId: string; grantCents?: number; createdBy?: string }): Promise<void> {
  const cents = opts.grantCents ?? signupCreditCents();
  await db.transaction(async (tx) => {
    await ensureDefaultGroup(tx, opts.organizationId);
    let credited = false;
    if (cents > 0 && opts.createdBy) {
      // two organizations created at once by one account: the second waits and sees the first's
      // grant (whose unique external id backs this up)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${starterCreditId(opts.createdBy)}, 0))`);
      const [earlier] = await tx.select({ id: creditGrants.id }).from(creditGrants).where(eq(creditGrants.externalId, starterCreditId(opts.createdBy)));
      credited = !!earlier;
    }
    if (cents > 0 && !credited) {
      await grantCredits(tx, {
        organizationId: opts.organizationId,
        amountCents: cents,
        source: 'signup',
        reason: 'starter credit',
        externalId: opts.createdBy ? starterCreditId(opts.createdBy) : null,
      });
    }
  });
}
