import { getDb } from '@/server/db/client';
import { handleStripeEvent, stripeConfigured, verifyWebhook } from '@/server/domain/billing/stripe';
import { logger } from '@/server/logger';

export const dynamic = 'force-dynamic';

const log = logger.child({ component: 'stripe-webhook' });

/**
 * Stripe's webhook (register `https://<host>/api/stripe/webhook` for
 * `checkout.session.completed` and `checkout.session.async_payment_succeeded`). The raw
 * body is verified with the SDK and `STRIPE_WEBHOOK_SECRET`: 400 on a bad signature, 404
 * when card payments are not configured, 200 for events handled or ignored; an error while
 * applying one is a 500, so Stripe redelivers it (granting is idempotent).
 */
export async function POST(req: Request) {
  if (!stripeConfigured()) return Response.json({ error: 'Stripe is not configured on this deployment.' }, { status: 404 });
  const body = await req.text();
  const event = verifyWebhook(body, req.headers.get('stripe-signature'));
  if (!event) return Response.json({ error: 'Invalid Stripe-Signature.' }, { status: 400 });
  try {
    const result = await handleStripeEvent(getDb(), event);
    return Response.json({ received: true, ...result });
  } catch (err) {
    log.error({ err, event: event.id, type: event.type }, 'stripe webhook: event not applied');
    return Response.json({ error: 'The event could not be applied; Stripe will redeliver it.' }, { status: 500 });
  }
}
