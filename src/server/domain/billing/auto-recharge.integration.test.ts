import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../../test/fake-stripe';
import { makeOrg } from '../../../test/db';
import { getDb } from '../../db/client';
import { autoRechargeAttempts, billingAccounts, creditGrants } from '../../db/schema';
import { startTestInngest, type TestInngest } from '../../jobs/engine/testing';
import { autoRechargeRequested } from '../../jobs/events';
import { createAutoRecharge } from '../../jobs/functions/auto-recharge';
import { newId } from '../ids';
import { getBalance } from './credits';
import { autoRechargeDue, getAutoRecharge, runAutoRecharge, updateAutoRecharge } from './auto-recharge';
import { placeHold, settleHold } from './holds';
import { createCheckout, handleStripeEvent } from './stripe';

/**
 * Auto-recharge end to end: the real `auto-recharge` function run by the embedded engine
 * (under an app id of this test, so other test files' engines never see its runs), the real
 * `stripe` SDK against the wire-format fake, the test database. The engine's clock is moved
 * forward to cross the hourly rate limit instead of waiting an hour.
 */

const HOUR = 3_600_000;
const client = new Inngest({ id: `recharge-test-${randomBytes(4).toString('hex')}` });
const fn = createAutoRecharge(client);
const fnId = `${client.id}-auto-recharge`;
let jobs: TestInngest;
let fake: FakeStripe;
let clockOffset = 0;
const saved = { key: process.env.STRIPE_SECRET_KEY, secret: process.env.STRIPE_WEBHOOK_SECRET, base: process.env.STRIPE_API_BASE };

function restoreEnv() {
  for (const [k, v] of [['STRIPE_SECRET_KEY', saved.key], ['STRIPE_WEBHOOK_SECRET', saved.secret], ['STRIPE_API_BASE', saved.base]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
function configureStripe() {
  process.env.STRIPE_SECRET_KEY = 'sk_test_recharge';
  process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_recharge';
  process.env.STRIPE_API_BASE = fake.url;
}

beforeAll(async () => {
  fake = await startFakeStripe();
  configureStripe();
  jobs = await startTestInngest({ client, functions: [fn], engine: { clock: () => Date.now() + clockOffset } });
});

afterAll(async () => {
  await jobs?.stop();
  await fake?.close();
  restoreEnv();
});

/** An organization that bought $10 by card (so a card is saved), with auto-recharge on. */
async function orgWithCard(opts: { thresholdCents: number; amountCents: number }) {
  const { db, org } = await makeOrg({ grantCents: 0 });
  const checkout = await createCheckout(db, { organizationId: org.id, amountCents: 1_000, returnUrl: 'http://swish.test/billing' });
  await handleStripeEvent(db, fake.event('checkout.session.completed', fake.completeCheckout(checkout.id)));
  await updateAutoRecharge(db, { organizationId: org.id, enabled: true, thresholdCents: opts.thresholdCents, amountCents: opts.amountCents });
  const [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org.id));
  return { db, org, customer: account.stripeCustomerId! };
}

/** A one-minute job held and settled, then what the pipeline does after its settle step. */
async function settleOne(orgId: string, groupId: string) {
  const db = getDb();
  const sessionId = newId('session');
  await db.transaction((tx) => placeHold(tx, { organizationId: orgId, sessionId, groupId, apiKeyId: null, heldSeconds: 60 }));
  await db.transaction((tx) => settleHold(tx, { sessionId, measuredSeconds: 60, runVersion: 1 }));
  if (await autoRechargeDue(db, orgId)) await sendAndWait(orgId);
}

/** Sends the request and waits until the engine has matched it to runs (or dropped it: rate limit). */
async function sendAndWait(orgId: string) {
  const { ids } = await client.send(autoRechargeRequested.create({ organization_id: orgId }));
  for (let i = 0; ; i++) {
    const pending = await getDb().execute(sql`select 1 from inngest_events where id = ${ids[0]} and processed_at is null`);
    if (pending.length === 0) return;
    if (i > 200) throw new Error('the engine did not process the event');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const runsOf = async (orgId: string) =>
  (await jobs.engine.listRuns(fnId)).filter((r) => (r.event as { data: { organization_id: string } }).data.organization_id === orgId);
const chargesOf = (customer: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.body.customer === customer);

async function settledRuns(orgId: string) {
  const runs = await runsOf(orgId);
  return Promise.all(runs.map((r) => jobs.engine.waitForRun(r.id)));
}

function advanceAnHour() {
  clockOffset += HOUR + 1_000;
  jobs.engine.kick();
}

describe('auto-recharge', () => {
  it('charges once in an hour under 20 settlements below the threshold, and again after the hour', async () => {
    // every settlement leaves the balance below $1,000, so each one asks for a recharge
    const { db, org, customer } = await orgWithCard({ thresholdCents: 100_000, amountCents: 2_000 });
    for (let i = 0; i < 20; i++) await settleOne(org.id, org.defaultGroupId);

    const first = await settledRuns(org.id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ status: 'completed' });
    expect(chargesOf(customer)).toHaveLength(1);
    expect(chargesOf(customer)[0].body).toMatchObject({ amount: '2000', currency: 'usd', off_session: 'true', confirm: 'true' });
    expect(chargesOf(customer)[0].idempotencyKey).toMatch(/^swish-auto-recharge-/);

    advanceAnHour();
    await settleOne(org.id, org.defaultGroupId);
    const second = await settledRuns(org.id);
    expect(second.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(chargesOf(customer)).toHaveLength(2);

    const grants = await db.select().from(creditGrants).where(and(eq(creditGrants.organizationId, org.id), eq(creditGrants.source, 'auto_recharge')));
    expect(grants.map((g) => g.amountCents)).toEqual([2_000, 2_000]);
    expect(grants.every((g) => g.externalId?.startsWith('pi_test_'))).toBe(true);
    // $10 bought + 2 × $20 recharged − 21 one-minute jobs at 9 cents
    expect((await getBalance(db, org.id)).credit_cents).toBe(1_000 + 4_000 - 21 * 9);
    const settings = await getAutoRecharge(db, org.id);
    expect(settings.attempts.map((a) => a.status)).toEqual(['succeeded', 'succeeded']);
    expect(settings).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });

  it('does not ask while the balance stays at or above the threshold', async () => {
    const { db, org, customer } = await orgWithCard({ thresholdCents: 500, amountCents: 1_000 });
    await settleOne(org.id, org.defaultGroupId);
    expect(await autoRechargeDue(db, org.id)).toBe(false);
    expect(await runsOf(org.id)).toHaveLength(0);
    expect(chargesOf(customer)).toHaveLength(0);
  });

  it('three failed charges in a row disable it, with a reason for the admins', async () => {
    const { db, org, customer } = await orgWithCard({ thresholdCents: 100_000, amountCents: 1_000 });
    fake.declineNextCharges(3);
    for (let i = 1; i <= 3; i++) {
      if (i > 1) advanceAnHour();
      await settleOne(org.id, org.defaultGroupId);
      const runs = await settledRuns(org.id);
      expect(runs).toHaveLength(i);
      expect(runs[i - 1].status).toBe('completed');
      expect((await getAutoRecharge(db, org.id)).consecutive_failures).toBe(i);
    }
    const settings = await getAutoRecharge(db, org.id);
    expect(settings).toMatchObject({ enabled: false, consecutive_failures: 3, disabled_reason: expect.stringContaining('3 failed charges') });
    expect(settings.disabled_at).toEqual(expect.any(Number));
    expect(settings.attempts.map((a) => [a.status, a.error_code])).toEqual([
      ['failed', 'card_declined'],
      ['failed', 'card_declined'],
      ['failed', 'card_declined'],
    ]);
    expect(await db.select().from(creditGrants).where(and(eq(creditGrants.organizationId, org.id), eq(creditGrants.source, 'auto_recharge')))).toHaveLength(0);

    // disabled: a later settlement below the threshold charges nothing
    advanceAnHour();
    await settleOne(org.id, org.defaultGroupId);
    expect(await runsOf(org.id)).toHaveLength(3);
    expect(chargesOf(customer)).toHaveLength(3);

    // the admin turns it back on: the banner goes and charges work again
    const again = await updateAutoRecharge(db, { organizationId: org.id, enabled: true, thresholdCents: 100_000, amountCents: 1_000 });
    expect(again).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
    await settleOne(org.id, org.defaultGroupId);
    expect((await settledRuns(org.id)).map((r) => r.status)).toHaveLength(4);
    expect((await getAutoRecharge(db, org.id)).attempts[0].status).toBe('succeeded');
  });

  it('a failure between successes does not add up: the count is of failures in a row', async () => {
    const { db, org } = await makeOrgWithTwoFailuresThenSuccess();
    expect((await getAutoRecharge(db, org.id)).consecutive_failures).toBe(0);
    expect((await getAutoRecharge(db, org.id)).enabled).toBe(true);
  });

  it('a retried charge with the same idempotency key charges and grants once', async () => {
    const { db, org, customer } = await orgWithCard({ thresholdCents: 100_000, amountCents: 1_500 });
    const key = `swish-auto-recharge-retry-${org.id}`;
    const a = await runAutoRecharge(db, { organizationId: org.id, idempotencyKey: key });
    const b = await runAutoRecharge(db, { organizationId: org.id, idempotencyKey: key });
    expect(a.status).toBe('succeeded');
    expect(b).toMatchObject({ status: 'succeeded', grant: (a as { grant: string }).grant });
    expect(chargesOf(customer)).toHaveLength(2); // the SDK sent it twice; Stripe (the fake) replayed the first
    expect(new Set(chargesOf(customer).map((r) => r.idempotencyKey)).size).toBe(1);
    expect(await db.select().from(creditGrants).where(and(eq(creditGrants.organizationId, org.id), eq(creditGrants.source, 'auto_recharge')))).toHaveLength(1);
    expect((await getAutoRecharge(db, org.id)).attempts).toHaveLength(1);
  });

  it('cannot be turned on without card payments, nor before a card is saved', async () => {
    const { db, org } = await makeOrg();
    await expect(updateAutoRecharge(db, { organizationId: org.id, enabled: true, thresholdCents: 1_000, amountCents: 5_000 })).rejects.toMatchObject({
      code: 'payment_provider_missing',
      message: expect.stringContaining('card top-up'),
    });
    delete process.env.STRIPE_SECRET_KEY;
    try {
      const settings = await getAutoRecharge(db, org.id);
      expect(settings).toMatchObject({ card_payments: false, unavailable_reason: expect.stringContaining('not configured') });
      await expect(updateAutoRecharge(db, { organizationId: org.id, enabled: true, thresholdCents: 1_000, amountCents: 5_000 })).rejects.toMatchObject({
        code: 'payment_provider_missing',
      });
      // saving the amounts with it off is allowed
      expect(await updateAutoRecharge(db, { organizationId: org.id, enabled: false, thresholdCents: 2_000, amountCents: 5_000 })).toMatchObject({ enabled: false, threshold_cents: 2_000 });
    } finally {
      configureStripe();
    }
    await expect(updateAutoRecharge(db, { organizationId: org.id, enabled: false, thresholdCents: 1_000, amountCents: 999 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount_cents' });
  });
});

/** Two declines, then a success (direct runs, as the job would make them an hour apart). */
async function makeOrgWithTwoFailuresThenSuccess() {
  const made = await orgWithCard({ thresholdCents: 100_000, amountCents: 1_000 });
  fake.declineNextCharges(2);
  for (const n of [1, 2, 3]) await runAutoRecharge(made.db, { organizationId: made.org.id, idempotencyKey: `k-${made.org.id}-${n}` });
  const attempts = (await getAutoRecharge(made.db, made.org.id)).attempts.map((a) => a.status);
  expect(attempts).toEqual(['succeeded', 'failed', 'failed']);
  return made;
}
