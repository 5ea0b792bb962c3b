import type { Database } from '../../db/client';
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

/**
 * Completes an organization created by a dashboard sign-up (better-auth inserted the row):
 * its default group and the starter credit, in one transaction.
 */
export async function setUpDashboardOrganization(db: Database, opts: { organizationId: string; grantCents?: number }): Promise<void> {
  const cents = opts.grantCents ?? signupCreditCents();
  await db.transaction(async (tx) => {
    await ensureDefaultGroup(tx, opts.organizationId);
    if (cents > 0) {
      await grantCredits(tx, { organizationId: opts.organizationId, amountCents: cents, source: 'signup', reason: 'starter credit' });
    }
  });
}
