import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * Stripe cannot be reached from the tests, so they run the real `stripe` SDK against this
 * HTTP server. It answers exactly the calls Swish makes — `POST /v1/customers`,
 * `POST /v1/checkout/sessions`, `POST /v1/payment_intents` (off-session, confirmed) and
 * `GET /v1/payment_intents/:id` — with Stripe's documented objects and error shape
 * (`{ error: { type, code, message, … } }`, 402 `card_error`/`card_declined` for a
 * declined card), replays a POST with a seen `Idempotency-Key`, and builds the webhook
 * events Stripe would send, signed with the SDK's own test-header helper.
 */
export interface FakeStripe {
  /** `http://127.0.0.1:<port>`, for STRIPE_API_BASE. */
  url: string;
  /** Every request received: method, path and the decoded form body. */
  requests: { method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | null }[];
  /** Webhook deliveries the hosted Checkout page made (option `hosted`), to replay them. */
  deliveries: { body: string; signature: string }[];
  /** The next `n` off-session charges are declined (402 card_declined). */
  declineNextCharges(n: number): void;
  /** The customer pays: the session becomes `complete`/`paid` with a PaymentIntent whose card is saved. */
  completeCheckout(sessionId: string): Stripe.Checkout.Session;
  /** A `checkout.session.completed` event for a session, as Stripe would deliver it. */
  event(type: string, object: unknown): Stripe.Event;
  /** The raw body and `Stripe-Signature` header of a webhook delivery signed with `secret`. */
  sign(event: Stripe.Event, secret: string): { body: string; signature: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Decodes `a[b][0][c]=1` form bodies (how the SDK encodes parameters) into objects and arrays. */
function decodeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length && keys.every((k, i) => k === String(i))) return keys.map((k) => arrays(o[k]));
    return Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  };
  return arrays(root) as Record<string, unknown>;
}

export interface FakeStripeOptions {
  /**
   * Host a Checkout page too (end-to-end tests in a browser): the session's `url` opens a page
   * on this server whose Pay button completes the session, POSTs the signed
   * `checkout.session.completed` to `webhookUrl`, and sends the browser to `success_url`.
   */
  hosted?: { webhookUrl: string; webhookSecret: string };
}

export async function startFakeStripe(opts: FakeStripeOptions = {}): Promise<FakeStripe> {
  const customers = new Map<string, Record<string, unknown>>();
  const sessions = new Map<string, Stripe.Checkout.Session>();
  const intents = new Map<string, Record<string, unknown>>();
  const replays = new Map<string, { status: number; body: unknown }>();
  const requests: FakeStripe['requests'] = [];
  let declines = 0;
  let url = '';

  const error = (status: number, err: Record<string, unknown>) => ({ status, body: { error: { ...err, request_log_url: null } } });

  function paymentIntent(fields: Record<string, unknown>) {
    const pi = { id: id('pi'), object: 'payment_intent', currency: 'usd', created: now(), livemode: false, metadata: {}, ...fields };
    intents.set(pi.id, pi);
    return pi;
  }

  function handle(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/customers') {
      const c = { id: id('cus'), object: 'customer', created: now(), livemode: false, name: body.name ?? null, email: body.email ?? null, metadata: body.metadata ?? {}, invoice_settings: { default_payment_method: null } };
      customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (!['payment', 'setup', 'subscription'].includes(String(body.mode))) {
        return error(400, { type: 'invalid_request_error', code: 'parameter_invalid_empty', param: 'mode', message: 'Missing required param: mode.' });
      }
      const items = (body.line_items as { quantity: string; price_data: { unit_amount: string; currency: string } }[] | undefined) ?? [];
      const total = items.reduce((s, i) => s + Number(i.price_data.unit_amount) * Number(i.quantity ?? 1), 0);
      const sid = id('cs');
      const s = {
        id: sid,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_subtotal: total,
        amount_total: total,
        currency: items[0]?.price_data.currency ?? 'usd',
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        payment_intent: null,
        success_url: String(body.success_url ?? '').replace('{CHECKOUT_SESSION_ID}', sid),
        cancel_url: body.cancel_url ?? null,
        url: opts.hosted ? `${url}/pay/${sid}` : `https://checkout.stripe.com/c/pay/${sid}`,
        livemode: false,
        created: now(),
        expires_at: now() + 86_400,
      } as unknown as Stripe.Checkout.Session;
      sessions.set(sid, s);
      return { status: 200, body: s };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const fields = { amount: Number(body.amount), currency: body.currency, customer: body.customer, payment_method: body.payment_method, metadata: body.metadata ?? {}, description: body.description ?? null };
      if (!customers.has(String(body.customer))) {
        return error(400, { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${body.customer}'` });
      }
      if (declines > 0) {
        declines--;
        const pi = paymentIntent({ ...fields, status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' } });
        return error(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_intent: pi });
      }
      return { status: 200, body: paymentIntent({ ...fields, status: 'succeeded', amount_received: Number(body.amount) }) };
    }
    const pi = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && pi) {
      const found = intents.get(pi[1]);
      return found ? { status: 200, body: found } : error(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'intent', message: `No such payment_intent: '${pi[1]}'` });
    }
    return error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  /** The hosted Checkout page (option `hosted`): GET shows it, POST pays. */
  async function hostedPage(method: string, sid: string, res: ServerResponse) {
    const session = sessions.get(sid);
    if (!session || !opts.hosted) return void res.writeHead(404).end('No such Checkout Session');
    if (method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(
        `<!doctype html><html lang="en"><head><title>Checkout (Stripe test)</title></head><body><main><h1>Pay $${(session.amount_total! / 100).toFixed(2)}</h1>` +
          `<form method="post" action="/pay/${sid}"><button type="submit">Pay</button></form><a href="${session.cancel_url}">Cancel</a></main></body></html>`,
      );
    }
    const paid = fakeApi.completeCheckout(sid);
    const delivery = fakeApi.sign(fakeApi.event('checkout.session.completed', paid), opts.hosted.webhookSecret);
    fakeApi.deliveries.push(delivery);
    const answer = await fetch(opts.hosted.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature }, body: delivery.body });
    if (!answer.ok) return void res.writeHead(502).end(`webhook answered ${answer.status}`);
    res.writeHead(303, { location: paid.success_url! }).end();
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const method = req.method ?? 'GET';
      const pay = /^\/pay\/([^/]+)$/.exec(path);
      if (pay) return void hostedPage(method, pay[1], res).catch((err) => res.writeHead(500).end(String(err)));
      const body = decodeForm(raw);
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
      requests.push({ method, path, body, idempotencyKey });
      let out: { status: number; body: unknown };
      if (!/^Bearer sk_test_\w+/.test(req.headers.authorization ?? '')) {
        out = error(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
      } else if (method === 'POST' && idempotencyKey && replays.has(idempotencyKey)) {
        out = replays.get(idempotencyKey)!;
      } else {
        out = handle(method, path, body);
        if (method === 'POST' && idempotencyKey) replays.set(idempotencyKey, out);
      }
      res.writeHead(out.status, { 'content-type': 'application/json', 'request-id': id('req'), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signer = new Stripe('sk_test_signer');

  const fakeApi: FakeStripe = {
    url,
    requests,
    deliveries: [],
    declineNextCharges: (n) => void (declines = n),
    completeCheckout(sessionId) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`fake stripe: no checkout session ${sessionId}`);
      const pi = paymentIntent({ amount: s.amount_total, customer: s.customer, status: 'succeeded', payment_method: id('pm'), setup_future_usage: 'off_session', amount_received: s.amount_total });
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: pi.id });
      return structuredClone(s);
    },
    event(type, object) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: now(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      } as unknown as Stripe.Event;
    },
    sign(event, secret) {
      const body = JSON.stringify(event, null, 2);
      return { body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret }) };
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  return fakeApi;
}
