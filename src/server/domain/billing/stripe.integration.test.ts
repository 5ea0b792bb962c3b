import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as webhook } from '../../../app/api/stripe/webhook/route';
import { startFakeStripe, type FakeStripe } from '../../../test/fake-stripe';
import { makeOrg } from '../../../test/db';
import { getDb } from '../../db/client';
import { billingAccounts, creditGrants } from '../../db/schema';
import { getBalance } from './credits';
import { createCheckout } from './stripe';

const SECRET = 'whsec_test_swish';
let fake: FakeStripe;
const saved = { key: process.env.STRIPE_SECRET_KEY, secret: process.env.STRIPE_WEBHOOK_SECRET, base: process.env.STRIPE_API_BASE };

beforeAll(async () => {
  fake = await startFakeStripe();
  process.env.STRIPE_SECRET_KEY = 'sk_test_swish';
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  process.env.STRIPE_API_BASE = fake.url;
});

afterAll(async () => {
  for (const [k, v] of [['STRIPE_SECRET_KEY', saved.key], ['STRIPE_WEBHOOK_SECRET', saved.secret], ['STRIPE_API_BASE', saved.base]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await fake?.close();
});

/** Delivers a webhook to the route handler, as Stripe would POST it. */
async function deliver(body: string, signature: string | null) {
  const res = await webhook(
    new Request('http://swish.test/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body,
    }),
  );
  return { status: res.status, body: await res.json() };
}

/** An admin pays a Checkout for `cents`: returns the signed `checkout.session.completed` delivery. */
async function paidCheckout(orgId: string, cents: number) {
  const checkout = await createCheckout(getDb(), { organizationId: orgId, amountCents: cents, returnUrl: 'http://swish.test/billing' });
  const session = fake.completeCheckout(checkout.id);
  return fake.sign(fake.event('checkout.session.completed', session), SECRET);
}

describe('Stripe top-ups', () => {
  it('creates one Customer per organization and a payment-mode Checkout that saves the card', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const first = await createCheckout(db, { organizationId: org.id, amountCents: 2_500, returnUrl: 'http://swish.test/billing' });
    const second = await createCheckout(db, { organizationId: org.id, amountCents: 1_000_000, returnUrl: 'http://swish.test/billing' });
    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(first.id).toMatch(/^cs_test_/);
    expect(second.id).not.toBe(first.id);

    const customerCreates = fake.requests.filter((r) => r.path === '/v1/customers' && (r.body.metadata as { organization_id: string }).organization_id === org.id);
    expect(customerCreates).toHaveLength(1);
    const [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org.id));
    expect(account.stripeCustomerId).toMatch(/^cus_test_/);

    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === org.id);
    expect(created).toHaveLength(2);
    expect(created[0].body).toMatchObject({
      mode: 'payment',
      customer: account.stripeCustomerId,
      metadata: { organization_id: org.id },
      payment_intent_data: { setup_future_usage: 'off_session' },
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '2500' } }],
      success_url: 'http://swish.test/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://swish.test/billing?checkout=cancelled',
    });
  });

  it('refuses amounts outside $10 – $10,000 before calling Stripe', async () => {
    const { db, org } = await makeOrg();
    const before = fake.requests.length;
    for (const cents of [999, 1_000_001, 10.5]) {
      await expect(createCheckout(db, { organizationId: org.id, amountCents: cents, returnUrl: 'http://x' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount_cents' });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('a webhook delivered twice, and five times at once, grants once and saves the card', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const delivery = await paidCheckout(org.id, 5_000);
    const once = await deliver(delivery.body, delivery.signature);
    expect(once.status).toBe(200);
    expect(once.body).toMatchObject({ received: true, handled: true });
    const again = await deliver(delivery.body, delivery.signature);
    expect(again.status).toBe(200);
    expect(again.body.granted).toBe(once.body.granted);
    const burst = await Promise.all(Array.from({ length: 5 }, () => deliver(delivery.body, delivery.signature)));
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const grants = await db.select().from(creditGrants).where(eq(creditGrants.organizationId, org.id));
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ amountCents: 5_000, source: 'purchase', externalId: expect.stringMatching(/^cs_test_/) });
    expect(grants[0].expiresAt.getTime() - grants[0].createdAt.getTime()).toBeGreaterThan(364 * 86_400_000);
    expect((await getBalance(db, org.id)).credit_cents).toBe(5_000);
    const [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, org.id));
    expect(account.stripePaymentMethodId).toMatch(/^pm_test_/);
  });

  it('two different concurrent Checkouts of one organization both grant', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const [a, b] = [await paidCheckout(org.id, 1_000), await paidCheckout(org.id, 2_000)];
    const results = await Promise.all([deliver(a.body, a.signature), deliver(b.body, b.signature), deliver(a.body, a.signature)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await getBalance(db, org.id)).credit_cents).toBe(3_000);
  });

  it('answers 400 to a bad or missing signature and grants nothing', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const delivery = await paidCheckout(org.id, 1_000);
    const forged = fake.sign(JSON.parse(delivery.body), 'whsec_someone_else');
    expect((await deliver(delivery.body, forged.signature)).status).toBe(400);
    expect((await deliver(delivery.body, null)).status).toBe(400);
    const tampered = delivery.body.replace('"amount_total": 1000', '"amount_total": 900000');
    expect(tampered).not.toBe(delivery.body);
    expect((await deliver(tampered, delivery.signature)).status).toBe(400);
    expect(await db.select().from(creditGrants).where(eq(creditGrants.organizationId, org.id))).toHaveLength(0);
  });

  it('acknowledges events it does not handle, and an unpaid Checkout grants nothing', async () => {
    const { db, org } = await makeOrg({ grantCents: 0 });
    const other = fake.sign(fake.event('customer.created', { id: 'cus_test_x', object: 'customer' }), SECRET);
    expect(await deliver(other.body, other.signature)).toMatchObject({ status: 200, body: { received: true, handled: false } });
    const checkout = await createCheckout(db, { organizationId: org.id, amountCents: 1_000, returnUrl: 'http://x' });
    const session = { ...fake.completeCheckout(checkout.id), payment_status: 'unpaid' };
    const unpaid = fake.sign(fake.event('checkout.session.completed', session), SECRET);
    expect(await deliver(unpaid.body, unpaid.signature)).toMatchObject({ status: 200, body: { handled: false } });
    expect(await db.select().from(creditGrants).where(and(eq(creditGrants.organizationId, org.id), eq(creditGrants.source, 'purchase')))).toHaveLength(0);
  });
});
