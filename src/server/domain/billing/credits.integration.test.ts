import { describe, expect, it } from 'vitest';
import { creditGrants, ledgerEntries } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { getBalance, grantCredits, outstandingDebt } from './credits';
import { newId } from '../ids';
import { eq } from 'drizzle-orm';

const DAY = 86_400_000;

describe('credit grants and balance', () => {
  it('shows granted credit, the rate and the soonest expiry one year out', async () => {
    const { db, org } = await makeOrg({ grantCents: 5000 });
    const b = await getBalance(db, org.id);
    expect(b).toMatchObject({ object: 'balance', currency: 'usd', available_cents: 5000, credit_cents: 5000, held_cents: 0, rate_cents_per_hour: 500 });
    const inAYear = Date.now() / 1000 + 365 * 86400;
    expect(b.soonest_expiry).toBeGreaterThan(inAYear - 86400 * 2);
    expect(b.soonest_expiry).toBeLessThan(inAYear + 86400 * 2);
  });

  it('never counts an expired grant, even before the expiry job ran', async () => {
    const { db, org } = await makeOrg();
    const now = new Date();
    await db.transaction(async (tx) => {
      await grantCredits(tx, { organizationId: org.id, amountCents: 300, source: 'manual', expiresAt: new Date(now.getTime() + DAY) });
      await grantCredits(tx, { organizationId: org.id, amountCents: 700, source: 'manual', expiresAt: new Date(now.getTime() + 10 * DAY) });
    });
    expect((await getBalance(db, org.id, now)).credit_cents).toBe(1000);
    expect((await getBalance(db, org.id, now)).soonest_expiry).toBe(Math.floor((now.getTime() + DAY) / 1000));
    const later = new Date(now.getTime() + 2 * DAY);
    const b = await getBalance(db, org.id, later);
    expect(b.credit_cents).toBe(700);
    expect(b.soonest_expiry).toBe(Math.floor((now.getTime() + 10 * DAY) / 1000));
    expect((await getBalance(db, org.id, new Date(now.getTime() + 11 * DAY))).soonest_expiry).toBeNull();
  });

  it('repays debt from the next grant first', async () => {
    const { db, org } = await makeOrg();
    // a settlement that exceeded the credit left 250 cents of debt
    await db.insert(ledgerEntries).values({ id: newId('ledgerEntry'), organizationId: org.id, grantId: null, kind: 'settlement', amountCents: -250 });
    expect(await outstandingDebt(db, org.id)).toBe(250);
    expect((await getBalance(db, org.id)).available_cents).toBe(-250);
    const grant = await db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: 1000, source: 'manual' }));
    expect(grant.remainingCents).toBe(750);
    expect(await outstandingDebt(db, org.id)).toBe(0);
    expect((await getBalance(db, org.id)).available_cents).toBe(750);
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.grantId, grant.id));
    expect(entries.reduce((s, e) => s + e.amountCents, 0)).toBe(750);
    const [row] = await db.select().from(creditGrants).where(eq(creditGrants.id, grant.id));
    expect(row.remainingCents).toBe(750);
  });

  it('rejects non-positive or fractional grants', async () => {
    const { db, org } = await makeOrg();
    for (const amount of [0, -5, 1.5]) {
      await expect(db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: amount, source: 'manual' }))).rejects.toMatchObject({
        code: 'parameter_invalid',
      });
    }
  });
});
