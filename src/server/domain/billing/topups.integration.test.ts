import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { creditGrants } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { getBalance, grantCredits } from './credits';
import { expireCredits, ledgerSum, placeHold, settleHold } from './holds';
import { creditStatement } from './statement';
import { approveTopup, listTopups, pendingTopups, rejectTopup, requestTopup } from './topups';
import { newId } from '../ids';

describe('top-up requests (no card provider)', () => {
  it('an approved request grants its credit exactly once; a rejected one grants nothing', async () => {
    const { db, org } = await makeOrg();
    const a = await requestTopup(db, { organizationId: org.id, amountCents: 50_000, reference: 'PO-1234' });
    const b = await requestTopup(db, { organizationId: org.id, amountCents: 2_000 });
    expect(a).toMatchObject({ object: 'topup_request', status: 'pending', amount_cents: 50_000, reference: 'PO-1234', grant: null });
    const queue = (await pendingTopups(db)).filter((p) => p.request.organizationId === org.id);
    expect(queue.map((p) => p.request.id)).toEqual([a.id, b.id]);

    const approved = await approveTopup(db, { id: a.id, note: 'invoice 88 paid' });
    expect(approved).toMatchObject({ status: 'approved', note: 'invoice 88 paid' });
    await expect(approveTopup(db, { id: a.id })).rejects.toMatchObject({ code: 'parameter_invalid' });
    const [grant] = await db.select().from(creditGrants).where(eq(creditGrants.id, approved.grant!));
    expect(grant).toMatchObject({ amountCents: 50_000, source: 'purchase' });
    expect(grant.expiresAt.getTime() - grant.createdAt.getTime()).toBeGreaterThan(364 * 86_400_000);

    expect((await rejectTopup(db, { id: b.id })).status).toBe('rejected');
    await expect(approveTopup(db, { id: b.id })).rejects.toMatchObject({ code: 'parameter_invalid' });
    expect((await getBalance(db, org.id)).credit_cents).toBe(50_000);
    expect((await listTopups(db, org.id)).map((t) => t.status)).toEqual(['rejected', 'approved']);
  });

  it('two operators approving at once grant once', async () => {
    const { db, org } = await makeOrg();
    const t = await requestTopup(db, { organizationId: org.id, amountCents: 10_000 });
    const results = await Promise.allSettled([approveTopup(db, { id: t.id }), approveTopup(db, { id: t.id })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await getBalance(db, org.id)).credit_cents).toBe(10_000);
  });

  it('refuses amounts outside $10 – $10,000', async () => {
    const { db, org } = await makeOrg();
    for (const amount of [999, 1_000_001, 1500.5]) {
      await expect(requestTopup(db, { organizationId: org.id, amountCents: amount })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount_cents' });
    }
  });
});

describe('credit statement', () => {
  it('reconciles to the cent: opening + grants + settlements + expiries = closing = ledger', async () => {
    const { db, org } = await makeOrg();
    const t0 = new Date(Date.now() - 10 * 86_400_000);
    await db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: 1_000, source: 'manual', now: t0, expiresAt: new Date(t0.getTime() + 5 * 86_400_000) }));
    const mid = new Date(t0.getTime() + 86_400_000);
    await db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: 3_000, source: 'purchase', now: mid }));
    const sessionId = newId('session');
    await db.transaction((tx) => placeHold(tx, { organizationId: org.id, sessionId, groupId: org.defaultGroupId, apiKeyId: null, heldSeconds: 600, now: mid }));
    await db.transaction((tx) => settleHold(tx, { sessionId, measuredSeconds: 700, runVersion: 1, now: new Date(mid.getTime() + 3_600_000) }));
    await expireCredits(db, new Date(t0.getTime() + 6 * 86_400_000));

    const whole = await creditStatement(db, { organizationId: org.id, from: new Date(t0.getTime() - 1000), to: new Date() });
    expect(whole.opening_cents).toBe(0);
    expect(whole.grants_cents).toBe(4_000);
    expect(whole.settlements_cents).toBe(-98); // 700 s at 500 c/h = 97.2 → 98, from the soonest-expiring grant
    expect(whole.expiries_cents).toBe(-(1_000 - 98));
    expect(whole.closing_cents).toBe(whole.opening_cents + whole.grants_cents + whole.settlements_cents + whole.expiries_cents);
    expect(whole.closing_cents).toBe(await ledgerSum(db, org.id));
    expect(whole.closing_cents).toBe((await getBalance(db, org.id)).credit_cents);

    const later = await creditStatement(db, { organizationId: org.id, from: new Date(mid.getTime() + 1000), to: new Date() });
    expect(later.opening_cents).toBe(4_000);
    expect(later.closing_cents).toBe(whole.closing_cents);
  });
});
