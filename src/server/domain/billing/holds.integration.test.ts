import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { creditGrants, ledgerEntries, usageEvents } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { newId } from '../ids';
import { getBalance, grantCredits, grantOnce } from './credits';
import { expireCredits, ledgerSum, placeHold, settleHold, voidHold } from './holds';
import { costCents } from './money';
import { approveTopup, requestTopup } from './topups';

const DAY = 86_400_000;

async function hold(orgId: string, groupId: string, seconds: number, now?: Date) {
  const db = getDb();
  const sessionId = newId('session');
  await db.transaction((tx) => placeHold(tx, { organizationId: orgId, sessionId, groupId, apiKeyId: null, heldSeconds: seconds, now }));
  return sessionId;
}

describe('holds, settlement and voids', () => {
  it('holds the estimate, settles the measured length and voids without charge', async () => {
    const { db, org } = await makeOrg({ grantCents: 1000 });
    const a = await hold(org.id, org.defaultGroupId, 3600); // 500 cents at 500/h
    expect(await getBalance(db, org.id)).toMatchObject({ credit_cents: 1000, held_cents: 500, available_cents: 500 });
    const settled = await db.transaction((tx) => settleHold(tx, { sessionId: a, measuredSeconds: 61, runVersion: 3 }));
    expect(settled).toMatchObject({ status: 'settled', quantitySeconds: 61, costCents: costCents(61, 500), runVersion: 3 });
    expect(costCents(61, 500)).toBe(9); // 61 × 500 / 3600 = 8.47 → 9
    expect(await getBalance(db, org.id)).toMatchObject({ credit_cents: 991, held_cents: 0, available_cents: 991 });

    const b = await hold(org.id, org.defaultGroupId, 600);
    await db.transaction((tx) => voidHold(tx, { sessionId: b }));
    expect(await getBalance(db, org.id)).toMatchObject({ credit_cents: 991, held_cents: 0, available_cents: 991 });
  });

  it('is idempotent: a retried settlement or void never charges twice', async () => {
    const { db, org } = await makeOrg({ grantCents: 1000 });
    const s = await hold(org.id, org.defaultGroupId, 100);
    await db.transaction((tx) => settleHold(tx, { sessionId: s, measuredSeconds: 720, runVersion: 1 }));
    await db.transaction((tx) => settleHold(tx, { sessionId: s, measuredSeconds: 720, runVersion: 1 }));
    expect((await getBalance(db, org.id)).credit_cents).toBe(900);
    await expect(db.transaction((tx) => voidHold(tx, { sessionId: s }))).rejects.toThrow(/settled/);
    const v = await hold(org.id, org.defaultGroupId, 100);
    await db.transaction((tx) => voidHold(tx, { sessionId: v }));
    await db.transaction((tx) => voidHold(tx, { sessionId: v }));
    await expect(db.transaction((tx) => settleHold(tx, { sessionId: v, measuredSeconds: 1, runVersion: 1 }))).rejects.toThrow(/voided/);
  });

  it('refuses a hold the available balance cannot cover, with needed and available cents', async () => {
    const { db, org } = await makeOrg({ grantCents: 100 });
    await expect(hold(org.id, org.defaultGroupId, 7200)).rejects.toMatchObject({
      code: 'insufficient_credits',
      extra: { needed_cents: 1000, available_cents: 100 },
    });
    expect((await db.select().from(usageEvents).where(eq(usageEvents.organizationId, org.id))).length).toBe(0);
  });

  it('draws the soonest-expiring grant first, one ledger entry per grant touched', async () => {
    const { db, org } = await makeOrg();
    const now = Date.now();
    const [late, soon, mid] = await db.transaction(async (tx) => [
      await grantCredits(tx, { organizationId: org.id, amountCents: 100, source: 'manual', expiresAt: new Date(now + 300 * DAY) }),
      await grantCredits(tx, { organizationId: org.id, amountCents: 100, source: 'manual', expiresAt: new Date(now + 10 * DAY) }),
      await grantCredits(tx, { organizationId: org.id, amountCents: 100, source: 'manual', expiresAt: new Date(now + 100 * DAY) }),
    ]);
    const s = await hold(org.id, org.defaultGroupId, 1800);
    const ue = await db.transaction((tx) => settleHold(tx, { sessionId: s, measuredSeconds: 1080, runVersion: 1 })); // 150 cents
    expect(ue.costCents).toBe(150);
    const remaining = async (id: string) => (await db.select().from(creditGrants).where(eq(creditGrants.id, id)))[0].remainingCents;
    expect(await remaining(soon.id)).toBe(0);
    expect(await remaining(mid.id)).toBe(50);
    expect(await remaining(late.id)).toBe(100);
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.usageEventId, ue.id), eq(ledgerEntries.kind, 'settlement')));
    expect(entries.map((e) => [e.grantId, e.amountCents]).sort()).toEqual([[mid.id, -50], [soon.id, -100]].sort());
  });

  it('records a settlement beyond the remaining credit as debt, and blocks new holds until repaid', async () => {
    const { db, org } = await makeOrg({ grantCents: 10 });
    const s = await hold(org.id, org.defaultGroupId, 60); // 9 cents
    await db.transaction((tx) => settleHold(tx, { sessionId: s, measuredSeconds: 3600, runVersion: 1 })); // 500 cents
    expect(await getBalance(db, org.id)).toMatchObject({ credit_cents: -490, available_cents: -490 });
    await expect(hold(org.id, org.defaultGroupId, 1)).rejects.toMatchObject({ code: 'insufficient_credits' });
    await db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: 1000, source: 'manual' }));
    expect(await getBalance(db, org.id)).toMatchObject({ credit_cents: 510, available_cents: 510 });
  });

  it('settles from grants still valid at settlement when one expired after the hold', async () => {
    const { db, org } = await makeOrg();
    const t0 = new Date();
    const [expiring, lasting] = await db.transaction(async (tx) => [
      await grantCredits(tx, { organizationId: org.id, amountCents: 500, source: 'manual', expiresAt: new Date(t0.getTime() + DAY) }),
      await grantCredits(tx, { organizationId: org.id, amountCents: 500, source: 'manual', expiresAt: new Date(t0.getTime() + 50 * DAY) }),
    ]);
    const s = await hold(org.id, org.defaultGroupId, 3600, t0);
    const later = new Date(t0.getTime() + 2 * DAY);
    await db.transaction((tx) => settleHold(tx, { sessionId: s, measuredSeconds: 3600, runVersion: 1, now: later }));
    expect((await db.select().from(creditGrants).where(eq(creditGrants.id, expiring.id)))[0].remainingCents).toBe(500);
    expect((await db.select().from(creditGrants).where(eq(creditGrants.id, lasting.id)))[0].remainingCents).toBe(0);
    expect((await getBalance(db, org.id, later)).credit_cents).toBe(0);
  });

  it('expiry boundary: a grant expiring between hold and settle is spendable until its expires_at, never at or after it', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const t0 = new Date();
    const expiresAt = new Date(t0.getTime() + DAY);
    const [card] = await db.transaction(async (tx) => [
      await grantCredits(tx, { organizationId: org.id, amountCents: 1_000, source: 'purchase', expiresAt, externalId: `cs_test_${newId('request')}` }),
      await grantCredits(tx, { organizationId: org.id, amountCents: 1_000, source: 'auto_recharge', expiresAt: new Date(t0.getTime() + 300 * DAY) }),
    ]);
    const justBefore = new Date(expiresAt.getTime() - 1);
    expect((await getBalance(db, org.id, justBefore)).soonest_expiry).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect((await getBalance(db, org.id, expiresAt)).credit_cents).toBe(1_000);

    // held while both were valid; the first settles a millisecond before expiry (drawn from the card grant) …
    const a = await hold(org.id, org.defaultGroupId, 720, t0);
    const b = await hold(org.id, org.defaultGroupId, 720, t0);
    await db.transaction((tx) => settleHold(tx, { sessionId: a, measuredSeconds: 720, runVersion: 1, now: justBefore }));
    expect((await db.select().from(creditGrants).where(eq(creditGrants.id, card.id)))[0].remainingCents).toBe(900);
    // … the second exactly at it: the card grant is no longer spendable, even before the expiry job ran
    await db.transaction((tx) => settleHold(tx, { sessionId: b, measuredSeconds: 720, runVersion: 1, now: expiresAt }));
    expect((await db.select().from(creditGrants).where(eq(creditGrants.id, card.id)))[0].remainingCents).toBe(900);
    expect((await getBalance(db, org.id, expiresAt)).credit_cents).toBe(900);
    await expireCredits(db, expiresAt);
    expect(await ledgerSum(db, org.id)).toBe(2_000 - 200 - 900);
  });

  it('expireCredits writes one expiry entry per expired grant and is safe to repeat', async () => {
    const { db, org } = await makeOrg();
    const t0 = new Date();
    await db.transaction((tx) => grantCredits(tx, { organizationId: org.id, amountCents: 700, source: 'manual', expiresAt: new Date(t0.getTime() + DAY) }));
    const later = new Date(t0.getTime() + 2 * DAY);
    expect(await expireCredits(db, later)).toBeGreaterThanOrEqual(1);
    await expireCredits(db, later);
    const expiries = await db.select().from(ledgerEntries).where(and(eq(ledgerEntries.organizationId, org.id), eq(ledgerEntries.kind, 'expiry')));
    expect(expiries.map((e) => e.amountCents)).toEqual([-700]);
    expect(await ledgerSum(db, org.id)).toBe(0);
  });
});

describe('concurrency and the ledger invariant', () => {
  it('50 concurrent holds against a balance for exactly K: exactly K succeed, available never negative', async () => {
    const K = 7;
    const { db, org } = await makeOrg({ grantCents: K * 500 + 499 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => hold(org.id, org.defaultGroupId, 3600)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(K);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'insufficient_credits' });
    const b = await getBalance(db, org.id);
    expect(b.held_cents).toBe(K * 500);
    expect(b.available_cents).toBe(499);
  });

  it('property: grants, card and invoiced top-ups (webhooks redelivered), holds, settles, voids and expiries never create or lose credit', async () => {
    type Op =
      | { kind: 'grant'; cents: number; days: number }
      | { kind: 'hold'; seconds: number }
      | { kind: 'settle'; pick: number; seconds: number }
      | { kind: 'void'; pick: number }
      | { kind: 'advance'; days: number }
      | { kind: 'paid'; cents: number; redeliver: boolean; source: 'purchase' | 'auto_recharge' }
      | { kind: 'invoiced'; cents: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('grant' as const), cents: fc.integer({ min: 1, max: 5000 }), days: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('hold' as const), seconds: fc.integer({ min: 1, max: 7200 }) }),
      fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), seconds: fc.integer({ min: 1, max: 9000 }) }),
      fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 30 }) }),
      // a card top-up or auto-recharge, granted once per provider object; `redeliver` repeats the last one
      fc.record({
        kind: fc.constant('paid' as const),
        cents: fc.integer({ min: 1_000, max: 20_000 }),
        redeliver: fc.boolean(),
        source: fc.constantFrom('purchase' as const, 'auto_recharge' as const),
      }),
      fc.record({ kind: fc.constant('invoiced' as const), cents: fc.integer({ min: 1_000, max: 20_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { db, org } = await makeOrg();
        let now = new Date();
        const open: string[] = [];
        let granted = 0;
        let charged = 0;
        let expired = 0;
        type Paid = { externalId: string; cents: number; source: 'purchase' | 'auto_recharge' };
        let lastPaid: Paid | null = null;
        for (const o of ops) {
          if (o.kind === 'grant') {
            await db.transaction((tx) =>
              grantCredits(tx, { organizationId: org.id, amountCents: o.cents, source: 'manual', now, expiresAt: new Date(now.getTime() + o.days * DAY) }),
            );
            granted += o.cents;
          } else if (o.kind === 'hold') {
            try {
              open.push(await hold(org.id, org.defaultGroupId, o.seconds, now));
            } catch (err) {
              expect(err).toMatchObject({ code: 'insufficient_credits' });
            }
          } else if (o.kind === 'settle' && open.length) {
            const [id] = open.splice(o.pick % open.length, 1);
            const ue = await db.transaction((tx) => settleHold(tx, { sessionId: id, measuredSeconds: o.seconds, runVersion: 1, now }));
            charged += ue.costCents;
          } else if (o.kind === 'void' && open.length) {
            const [id] = open.splice(o.pick % open.length, 1);
            await db.transaction((tx) => voidHold(tx, { sessionId: id, now }));
          } else if (o.kind === 'paid') {
            const paid: Paid = o.redeliver && lastPaid ? lastPaid : { externalId: `cs_test_${newId('request')}`, cents: o.cents, source: o.source };
            const { created } = await db.transaction((tx) =>
              grantOnce(tx, { organizationId: org.id, amountCents: paid.cents, source: paid.source, externalId: paid.externalId, now }),
            );
            expect(created).toBe(paid !== lastPaid);
            if (created) granted += paid.cents;
            lastPaid = paid;
          } else if (o.kind === 'invoiced') {
            const request = await requestTopup(db, { organizationId: org.id, amountCents: o.cents });
            await approveTopup(db, { id: request.id });
            await expect(approveTopup(db, { id: request.id })).rejects.toMatchObject({ code: 'parameter_invalid' });
            granted += o.cents;
          } else if (o.kind === 'advance') {
            now = new Date(now.getTime() + o.days * DAY);
            const before = await db.select().from(creditGrants).where(and(eq(creditGrants.organizationId, org.id), sql`${creditGrants.expiresAt} <= ${now.toISOString()}::timestamptz`, sql`${creditGrants.expiredAt} is null`));
            await expireCredits(db, now);
            expired += before.reduce((s, g) => s + g.remainingCents, 0);
          }
          const b = await getBalance(db, org.id, now);
          // credits are conserved: what was granted is spent, expired or still there
          expect(await ledgerSum(db, org.id)).toBe(granted - charged - expired);
          expect(b.credit_cents).toBe(granted - charged - expired);
          expect(b.available_cents).toBe(b.credit_cents - b.held_cents);
          // each grant's remaining equals the sum of its ledger entries
          const mismatched = await db.execute(sql`
            select g.id from credit_grants g
            where g.organization_id = ${org.id}
              and g.remaining_cents <> (select coalesce(sum(amount_cents), 0) from ledger_entries l where l.grant_id = g.id)`);
          expect(mismatched.length).toBe(0);
        }
      }),
      { numRuns: 25 },
    );
  });
});
