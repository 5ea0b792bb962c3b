import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Database, DbOrTx } from '../../db/client';
import { billingAccounts, organizations } from '../../db/schema';
import { logger } from '../../logger';
import { AppError, notFound } from '../errors';
import { grantOnce } from './credits';
import { validateTopupAmount } from './topups';

const log = logger.child({ component: 'stripe' });

/** Card payments are on when both Stripe secrets are set (the webhook cannot be verified without the second). */
export function stripeConfigured(): boolean {
  return Boolean(process.env.STRIPE_SECRET_KEY && process.env.STRIPE_WEBHOOK_SECRET);
}

let cached: { config: string; client: Stripe } | undefined;

/**
 * The Stripe client, or null when card payments are not configured. `STRIPE_API_BASE`
 * (e.g. `http://127.0.0.1:12111`) points the SDK at another host, port and protocol: a
 * Stripe mock, or the wire-format fake the tests run. The client is rebuilt when the
 * environment changes.
 */
export function getStripe(): Stripe | null {
  if (!stripeConfigured()) return null;
  const key = process.env.STRIPE_SECRET_KEY!;
  const base = process.env.STRIPE_API_BASE || '';
  const config = `${key}\n${base}`;
  if (cached?.config !== config) {
    const url = base ? new URL(base) : null;
    const protocol = url?.protocol === 'http:' ? 'http' : 'https';
    cached = {
      config,
      client: new Stripe(key, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: 'swish' },
        ...(url ? { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol } : {}),
      }),
    };
  }
  return cached.client;
}

function requireStripe(): Stripe {
  const stripe = getStripe();
  if (!stripe) {
    throw new AppError('payment_provider_missing', {
      message: 'Card payments are not configured on this deployment: request a top-up instead (paid by invoice).',
    });
  }
  return stripe;
}

/** The organization's billing row, created on first use. */
export async function billingAccount(db: DbOrTx, organizationId: string) {
  await db.insert(billingAccounts).values({ organizationId }).onConflictDoNothing();
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
  return row;
}

/**
 * The organization's Stripe Customer, created on first use. The idempotency key makes
 * concurrent first uses create one Customer; the conditional update keeps the first id
 * stored if two calls still raced.
 */
export async function ensureCustomer(db: Database, organizationId: string): Promise<string> {
  const stripe = requireStripe();
  const account = await billingAccount(db, organizationId);
  if (account.stripeCustomerId) return account.stripeCustomerId;
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw notFound('organization', 'organization');
  const customer = await stripe.customers.create(
    { name: org.name, metadata: { organization_id: organizationId } },
    { idempotencyKey: `swish-customer-${organizationId}` },
  );
  const [row] = await db
    .update(billingAccounts)
    .set({ stripeCustomerId: sql`coalesce(${billingAccounts.stripeCustomerId}, ${customer.id})`, updatedAt: new Date() })
    .where(eq(billingAccounts.organizationId, organizationId))
    .returning();
  return row.stripeCustomerId!;
}

/**
 * A Stripe Checkout Session for a card top-up ($10 – $10,000): one line item for the
 * amount, the card saved for off-session use (auto-recharge), the organization in
 * `client_reference_id` and metadata. Credit is granted by the webhook, never here.
 */
export async function createCheckout(
  db: Database,
  opts: { organizationId: string; amountCents: number; returnUrl: string },
): Promise<{ id: string; url: string }> {
  validateTopupAmount(opts.amountCents);
  const stripe = requireStripe();
  const customer = await ensureCustomer(db, opts.organizationId);
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    customer,
    client_reference_id: opts.organizationId,
    metadata: { organization_id: opts.organizationId },
    line_items: [
      {
        quantity: 1,
        price_data: { currency: 'usd', unit_amount: opts.amountCents, product_data: { name: 'Swish processing credit' } },
      },
    ],
    payment_intent_data: { setup_future_usage: 'off_session', metadata: { organization_id: opts.organizationId } },
    success_url: `${opts.returnUrl}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${opts.returnUrl}?checkout=cancelled`,
  });
  if (!session.url) throw new AppError('payment_failed', { message: 'Stripe did not return a Checkout URL.' });
  return { id: session.id, url: session.url };
}

/** Verifies a webhook's `Stripe-Signature` with the SDK; null when the signature (or body) is not valid. */
export function verifyWebhook(rawBody: string, signature: string | null): Stripe.Event | null {
  const stripe = requireStripe();
  if (!signature) return null;
  try {
    return stripe.webhooks.constructEvent(rawBody, signature, process.env.STRIPE_WEBHOOK_SECRET!);
  } catch {
    return null;
  }
}

/**
 * Applies a verified Stripe event. A paid `checkout.session.completed` (or a later
 * `checkout.session.async_payment_succeeded`) grants the amount paid as `purchase`
 * credit, once per Checkout Session however often Stripe delivers it, and stores the card
 * it saved for auto-recharge. Every other event is acknowledged and ignored.
 */
export async function handleStripeEvent(db: Database, event: Stripe.Event): Promise<{ handled: boolean; granted?: string }> {
  if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') return { handled: false };
  const session = event.data.object;
  const organizationId = session.client_reference_id ?? session.metadata?.organization_id;
  if (session.payment_status !== 'paid' || !organizationId || session.mode !== 'payment') return { handled: false };
  if (session.currency !== 'usd' || !session.amount_total) {
    log.warn({ session: session.id, currency: session.currency }, 'stripe: paid Checkout Session without a USD amount ignored');
    return { handled: false };
  }
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) {
    log.warn({ session: session.id, organizationId }, 'stripe: Checkout Session of an unknown organization ignored');
    return { handled: false };
  }
  const paymentMethod = await savedPaymentMethod(session);
  const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
  return db.transaction(async (tx) => {
    const { grant, created } = await grantOnce(tx, {
      organizationId,
      amountCents: session.amount_total!,
      source: 'purchase',
      reason: `card top-up (Stripe ${session.id})`,
      externalId: session.id,
    });
    if (created) {
      await billingAccount(tx, organizationId);
      await tx
        .update(billingAccounts)
        .set({
          ...(paymentMethod ? { stripePaymentMethodId: paymentMethod } : {}),
          ...(customer ? { stripeCustomerId: sql`coalesce(${billingAccounts.stripeCustomerId}, ${customer})` } : {}),
          updatedAt: new Date(),
        })
        .where(eq(billingAccounts.organizationId, organizationId));
    }
    return { handled: true, granted: grant.id };
  });
}

/** The card a Checkout payment saved (`setup_future_usage`): the PaymentIntent's payment method. */
async function savedPaymentMethod(session: Stripe.Checkout.Session): Promise<string | null> {
  const pi = session.payment_intent;
  if (!pi) return null;
  if (typeof pi !== 'string') return typeof pi.payment_method === 'string' ? pi.payment_method : (pi.payment_method?.id ?? null);
  const intent = await requireStripe().paymentIntents.retrieve(pi);
  return typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null);
}

export type ChargeResult = { ok: true; paymentIntentId: string } | { ok: false; paymentIntentId: string | null; code: string; message: string };

/**
 * Charges the saved card without the customer present (auto-recharge). A decline or an
 * authentication requirement is a result, not an exception; network and configuration
 * errors throw (the job retries with the same idempotency key, so Stripe charges once).
 */
export async function chargeOffSession(opts: {
  organizationId: string;
  customer: string;
  paymentMethod: string;
  amountCents: number;
  idempotencyKey: string;
}): Promise<ChargeResult> {
  const stripe = requireStripe();
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: opts.amountCents,
        currency: 'usd',
        customer: opts.customer,
        payment_method: opts.paymentMethod,
        off_session: true,
        confirm: true,
        description: 'Swish auto-recharge',
        metadata: { organization_id: opts.organizationId, swish_purpose: 'auto_recharge' },
      },
      { idempotencyKey: opts.idempotencyKey },
    );
    if (intent.status === 'succeeded') return { ok: true, paymentIntentId: intent.id };
    return { ok: false, paymentIntentId: intent.id, code: intent.status, message: `The payment is ${intent.status.replace(/_/g, ' ')}.` };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) {
      const raw = err.raw as { payment_intent?: { id?: string } } | undefined;
      return { ok: false, paymentIntentId: raw?.payment_intent?.id ?? null, code: err.code ?? err.type, message: err.message };
    }
    throw err;
  }
}
