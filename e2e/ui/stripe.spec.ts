import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../../src/test/fake-stripe';
import { expectAccessible, signUpOwner, swishCliAt } from '../helpers';
import { startFixtureServer, type FixtureServer } from '../media-fixtures';

/**
 * Card top-ups and auto-recharge end to end, in Chromium, against a second server started
 * with Stripe configured. Stripe cannot be reached from here: the server's real `stripe` SDK
 * talks to the wire-format fake (STRIPE_API_BASE), whose hosted Checkout page POSTs the
 * signed `checkout.session.completed` webhook to the server over HTTP, as Stripe would.
 * Admin pays $50 by card → credit once, even when the webhook is delivered again → turns
 * auto-recharge on → a processed game settles below the threshold → the saved card is
 * charged off-session and the credit appears.
 */
test.describe.configure({ timeout: 400_000 });

// its own server, on ports derived from the suite's (E2E_PORT / E2E_DB_PORT, like the crash test's) so parallel suites never collide
const PORT = Number(process.env.E2E_PORT ?? 3100) + 22;
const DB_PORT = String(Number(process.env.E2E_DB_PORT ?? 54349) + 42);
const DATA_DIR = `${process.env.E2E_DATA_DIR ?? '.data/e2e'}-stripe`;
const base = `http://localhost:${PORT}`;
const WEBHOOK_SECRET = 'whsec_e2e_swish';
const cli = (args: string[]) => swishCliAt({ DATA_DIR, SWISH_DB_PORT: DB_PORT }, args);

let fake: FakeStripe;
let fixtures: FixtureServer;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000); // rendering the synthetic fixtures, on a machine busy with other suites
  fake = await startFakeStripe({ hosted: { webhookUrl: `${base}/api/stripe/webhook`, webhookSecret: WEBHOOK_SECRET } });
  fixtures = await startFixtureServer(join('test-results', 'stripe-fixtures'), { only: ['game.mp4'] });
  rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn('node', ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR,
      SWISH_DB_PORT: DB_PORT,
      SWISH_PUBLIC_URL: base,
      SWISH_ALLOW_PRIVATE_SOURCES: '1',
      SWISH_SIGNUP_CREDITS_CENTS: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      STRIPE_SECRET_KEY: 'sk_test_e2e_swish',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    },
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // starting
    }
    if (i > 240) throw new Error('the Stripe-configured server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  // a graceful stop, so the server also stops its embedded PostgreSQL
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await fixtures?.close();
  await fake?.close();
});

test('an admin pays by card through Checkout, credit arrives once; auto-recharge charges the saved card after a settlement', async ({ page }, info) => {
  const orgId = await signUpOwner(page, `card-${Date.now()}@example.com`, 'Card Academy', base);
  const credit = page.getByTestId('balance');

  await test.step('pay $50 by card through Stripe Checkout', async () => {
    await page.goto(`${base}/billing`);
    await expect(credit).toContainText('$10.00');
    await expect(page.getByLabel('PO or reference (optional)')).toHaveCount(0);
    await expect(page.getByText('Unavailable: Add credit with a card once first')).toBeVisible();
    await page.getByLabel('Amount (USD)').fill('50');
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await expect(page).toHaveURL(new RegExp(`^${fake.url}/pay/cs_test_`));
    await expect(page.getByRole('heading', { name: 'Pay $50.00' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(/\/billing\?checkout=success&session_id=cs_test_/);
    await expect(page.getByText('Payment received')).toBeVisible();
    await expect(credit).toContainText('$60.00');
  });

  await test.step('a redelivered webhook grants nothing more; a forged one is refused', async () => {
    const [delivery] = fake.deliveries;
    const again = await fetch(`${base}/api/stripe/webhook`, { method: 'POST', headers: { 'stripe-signature': delivery.signature }, body: delivery.body });
    expect(again.status).toBe(200);
    const forged = await fetch(`${base}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'stripe-signature': delivery.signature },
      body: delivery.body.replace('"amount_total": 5000', '"amount_total": 500000'),
    });
    expect(forged.status).toBe(400);
    expect(await cli(['balance', '--org', orgId])).toMatchObject({ credit_cents: 6_000 });
  });

  await test.step('turn auto-recharge on: below $100, add $25', async () => {
    await page.reload();
    await page.getByLabel('When available credit falls below (USD)').fill('100');
    await page.getByLabel('Add (USD)').fill('25');
    await page.getByLabel('Enable auto-recharge').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Auto-recharge is on')).toBeVisible();
  });

  await test.step('a processed game settles below the threshold: the saved card is charged off-session once', async () => {
    const key = await cli(['keys:create', '--org', orgId, '--env', 'production', '--no-rate-limit']);
    const auth = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
    const created = await (await fetch(`${base}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ source: { url: fixtures.url('game.mp4') } }) })).json();
    let session;
    for (let i = 0; ; i++) {
      session = await (await fetch(`${base}/v1/sessions/${created.id}`, { headers: auth })).json();
      if (session.status === 'processed' || session.status === 'failed') break;
      expect(i, 'the session finishes').toBeLessThan(600);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(session.status, JSON.stringify(session.error)).toBe('processed');
    await expect
      .poll(async () => (await (await fetch(`${base}/v1/balance`, { headers: auth })).json()).credit_cents, { timeout: 30_000 })
      .toBe(6_000 - session.cost_cents + 2_500);
    const charges = fake.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST');
    expect(charges).toHaveLength(1);
    expect(charges[0].body).toMatchObject({ amount: '2500', off_session: 'true', confirm: 'true', payment_method: expect.stringMatching(/^pm_test_/) });

    await page.reload();
    await expect(page.getByRole('list', { name: 'Auto-recharge attempts' })).toContainText('succeeded');
    await expect(page.getByTestId('statement-grants')).toHaveText('$85.00');
    await page.screenshot({ path: info.outputPath('billing-stripe.png'), fullPage: true });
    await expectAccessible(page, 'billing with Stripe');
  });
});
