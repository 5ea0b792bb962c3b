import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeOrg } from '../../../test/db';
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from '../../db/schema';
import { inngest } from '../../jobs/client';
import { startTestInngest, type TestInngest } from '../../jobs/engine/testing';
import { eventRecorded } from '../../jobs/events';
import { webhookDeliver } from '../../jobs/functions/webhook-deliver';
import { webhookFanOut } from '../../jobs/functions/webhook-fan-out';
import { notifyWebhookDeliveryRequested } from '../../jobs/notify';
import { listEvents, recordEvent, type ApiEvent, type EventType } from '../events/events';
import { createSession } from '../sessions/create-session';
import { createEventDeliveries, createRedelivery, createTestDelivery, deliveryRetentionDays, getWebhookDelivery, listWebhookDeliveries, purgeWebhookDeliveries, type ApiWebhookDelivery } from './deliveries';
import { MAX_ENDPOINTS_PER_ORGANIZATION } from './config';
import { createWebhookEndpoint, getWebhookEndpoint, rotateWebhookSecret } from './endpoints';
import { newId } from '../ids';
import { startLocalReceiver, type LocalReceiver, type ReceiverReply } from './local-receiver';
import { until as pollUntil } from '../../../test/until';

/** Polls `probe` every 50 ms until it is truthy (default 15_000 ms). */
const until = <T>(what: string, probe: Parameters<typeof pollUntil<T>>[1], timeoutMs = 15_000) => pollUntil<T>(what, probe, { timeoutMs, intervalMs: 50 });

/**
 * Webhook delivery end to end: the real Inngest functions on the embedded engine, real
 * HTTP receivers on loopback verifying signatures with the standardwebhooks library, and
 * events recorded exactly as the processing pipeline records them (recordEvent, then
 * `swish/event.recorded`). The retry schedule is configured short, as any deployment may.
 */

let jobs: TestInngest;
const receivers: LocalReceiver[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
  process.env.SWISH_WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3';
  jobs = await startTestInngest({ client: inngest, functions: [webhookFanOut, webhookDeliver] });
});

afterAll(async () => {
  await jobs?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

afterEach(() => {
  process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
  process.env.SWISH_WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3';
  delete process.env.SWISH_WEBHOOK_DISABLE_AFTER;
});

async function receiver() {
  const r = await startLocalReceiver();
  receivers.push(r);
  return r;
}

/** Records an event for a new session of the organization and announces it, as the pipeline does. */
async function emit(org: { id: string }, type: EventType = 'session.processed'): Promise<ApiEvent> {
  const { db } = await makeOrg();
  const created = await createSession(db, {
    organizationId: org.id,
    apiKeyId: null,
    input: { source: { url: 'https://videos.example.com/game.mp4' }, duration_seconds: 60, metadata: { team: 'Eagles' } },
  });
  const event = await recordEvent(db, { organizationId: org.id, type, session: created.session });
  await inngest.send(eventRecorded.create({ event_id: event.id, organization_id: org.id }));
  return event;
}


async function deliveriesOf(db: Awaited<ReturnType<typeof makeOrg>>['db'], orgId: string, endpointId: string) {
  return (await listWebhookDeliveries(db, { organizationId: orgId, endpointId, params: { limit: 100 } })).data;
}

async function finished(db: Awaited<ReturnType<typeof makeOrg>>['db'], orgId: string, endpointId: string, count = 1): Promise<ApiWebhookDelivery[]> {
  return until(`${count} finished deliveries to ${endpointId}`, async () => {
    const list = await deliveriesOf(db, orgId, endpointId);
    return list.length >= count && list.every((d) => d.status !== 'pending') ? list : null;
  });
}

describe('webhook delivery', () => {
  it('delivers the event as GET /v1/events shows it, signed so standardwebhooks verifies it with the secret', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const event = await emit(org);
    const [delivery] = await finished(db, org.id, endpoint.id);

    expect(r.received).toHaveLength(1);
    const hit = r.received[0];
    expect(hit.headers).toMatchObject({ 'webhook-id': event.id, 'content-type': 'application/json', 'user-agent': 'Swish-Webhooks/1' });
    expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const verified = new Webhook(endpoint.secret).verify(hit.body, hit.headers);
    const logged = (await listEvents(db, { organizationId: org.id, params: {} })).data.find((e) => e.id === event.id);
    expect(verified).toEqual(JSON.parse(JSON.stringify(logged)));
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(hit.body, hit.headers)).toThrow();

    expect(delivery).toMatchObject({
      object: 'webhook_delivery',
      endpoint: endpoint.id,
      event: event.id,
      event_type: 'session.processed',
      kind: 'event',
      status: 'succeeded',
      attempt_count: 1,
      max_attempts: 3,
      next_attempt_at: null,
      response_status: 200,
      error: null,
      response_body: 'ok',
    });
    expect(delivery.id).toMatch(/^whd_/);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, succeeded: true, response_status: 200 });
  });

  it('sends only subscribed types, to endpoints that are not disabled', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const [all, failedOnly, off] = [await receiver(), await receiver(), await receiver()];
    const eAll = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: all.url } });
    const eFailed = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: failedOnly.url, enabled_events: ['session.failed'] } });
    const eOff = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: off.url } });
    await db.update(webhookEndpoints).set({ status: 'disabled', disabledReason: 'manual' }).where(eq(webhookEndpoints.id, eOff.id));
    const processed = await emit(org, 'session.processed');
    const failed = await emit(org, 'session.failed');
    await finished(db, org.id, eAll.id, 2);
    await finished(db, org.id, eFailed.id, 1);
    expect(all.received.map((h) => h.headers['webhook-id']).sort()).toEqual([processed.id, failed.id].sort());
    expect(failedOnly.received.map((h) => h.headers['webhook-id'])).toEqual([failed.id]);
    await sleep(300);
    expect(off.received).toHaveLength(0);
    expect(await deliveriesOf(db, org.id, eOff.id)).toHaveLength(0);
  });

  it('retries 500, 500 then 200: one success, three attempts recorded', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    r.reply((_req, n) => (n <= 2 ? { status: 500, body: `boom ${n}` } : { status: 200, body: 'finally' }));
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const event = await emit(org);
    const [delivery] = await finished(db, org.id, endpoint.id);
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((h) => h.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, response_status: 200, response_body: 'finally' });
    expect(delivery.attempts.map((a) => [a.attempt, a.succeeded, a.response_status, a.response_body])).toEqual([
      [1, false, 500, 'boom 1'],
      [2, false, 500, 'boom 2'],
      [3, true, 200, 'finally'],
    ]);
    expect(delivery.attempts[0].error).toBe('The endpoint answered 500.');
    // the schedule's 0.3 s (±10 %) separates the attempts
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(250);
    expect((await getWebhookEndpoint(db, { organizationId: org.id, id: endpoint.id })).status).toBe('enabled');
  });

  it('410 disables the endpoint: no retry, no further deliveries', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    r.reply(() => ({ status: 410, body: 'gone' }));
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    await emit(org);
    const [delivery] = await finished(db, org.id, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 1, response_status: 410 });
    expect((await getWebhookEndpoint(db, { organizationId: org.id, id: endpoint.id })).status).toBe('disabled');
    await emit(org);
    await sleep(500);
    expect(r.received).toHaveLength(1);
    expect(await deliveriesOf(db, org.id, endpoint.id)).toHaveLength(1);
  });

  it('exhausted retries mark the endpoint failing; a later success clears it; long failure disables it', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    r.reply(() => ({ status: 503, body: 'down' }));
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    await emit(org);
    const [failed] = await finished(db, org.id, endpoint.id);
    expect(failed).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null });
    expect(r.received).toHaveLength(3);
    expect((await getWebhookEndpoint(db, { organizationId: org.id, id: endpoint.id })).status).toBe('failing');

    r.reply(() => ({ status: 204 }));
    await emit(org);
    await finished(db, org.id, endpoint.id, 2);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ status: 'enabled', failingSince: null });

    // continuous failure beyond SWISH_WEBHOOK_DISABLE_AFTER disables it
    process.env.SWISH_WEBHOOK_DISABLE_AFTER = '0';
    r.reply(() => ({ status: 500 }));
    await emit(org);
    await finished(db, org.id, endpoint.id, 3);
    const [after] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(after).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
  });

  it('honours Retry-After on 429, records redirects as failures without following them, keeps 1 KiB of the body', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const target = await receiver();
    r.reply((_req, n): ReceiverReply =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '1' } }
        : n === 2
          ? { status: 302, headers: { location: target.url } }
          : { status: 200, body: 'x'.repeat(5000) },
    );
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    await emit(org);
    const [delivery] = await finished(db, org.id, endpoint.id);
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(950);
    expect(target.received).toHaveLength(0);
    expect(delivery.attempts.map((a) => a.response_status)).toEqual([429, 302, 200]);
    expect(delivery.attempts[1].error).toMatch(/^Redirects are not followed/);
    expect(delivery.response_body).toHaveLength(1024);
  });

  it('a slow endpoint does not delay another endpoint’s deliveries', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const slow = await receiver();
    const fast = await receiver();
    slow.reply(() => ({ status: 200, delayMs: 6_000 }));
    const eSlow = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: slow.url } });
    const eFast = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: fast.url } });
    const sent = [];
    for (let i = 0; i < 8; i++) sent.push(await emit(org));
    await until('fast deliveries', async () => fast.received.length === 8);
    // all 8 fast deliveries arrived while the slow endpoint had not answered a single one
    const slowDeliveries = await deliveriesOf(db, org.id, eSlow.id);
    expect(slowDeliveries.filter((d) => d.status === 'succeeded')).toHaveLength(0);
    expect(slow.received.length).toBeGreaterThan(0); // the slow endpoint was being called meanwhile
    await finished(db, org.id, eFast.id, 8);
    await finished(db, org.id, eSlow.id, 8);
    expect(slow.received).toHaveLength(8);
  }, 90_000);

  it('after a rotation, deliveries verify with the old and the new secret until the overlap ends', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const rotated = await rotateWebhookSecret(db, { organizationId: org.id, id: endpoint.id });
    await emit(org);
    await finished(db, org.id, endpoint.id);
    const hit = r.received[0];
    expect(hit.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(hit.body, hit.headers)).toBeTruthy();
    expect(new Webhook(rotated.secret).verify(hit.body, hit.headers)).toBeTruthy();

    await db.update(webhookEndpoints).set({ previousSecretExpiresAt: new Date(Date.now() - 1000) }).where(eq(webhookEndpoints.id, endpoint.id));
    await emit(org);
    await finished(db, org.id, endpoint.id, 2);
    const later = r.received[1];
    expect(later.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(later.body, later.headers)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(later.body, later.headers)).toThrow();
  });

  it('keeps organizations apart: events reach only their own endpoints; foreign ids are 404', async () => {
    const a = await makeOrg({ grantCents: 100_000 });
    const b = await makeOrg({ grantCents: 100_000 });
    const [ra, rb] = [await receiver(), await receiver()];
    const ea = await createWebhookEndpoint(a.db, { organizationId: a.org.id, input: { url: ra.url } });
    const eb = await createWebhookEndpoint(b.db, { organizationId: b.org.id, input: { url: rb.url } });
    const event = await emit(a.org);
    await finished(a.db, a.org.id, ea.id);
    await sleep(300);
    expect(ra.received).toHaveLength(1);
    expect(rb.received).toHaveLength(0);
    expect(await deliveriesOf(b.db, b.org.id, eb.id)).toHaveLength(0);
    const missing = { code: 'resource_missing', status: 404 };
    await expect(listWebhookDeliveries(b.db, { organizationId: b.org.id, endpointId: ea.id, params: {} })).rejects.toMatchObject({ ...missing, param: 'id' });
    await expect(createRedelivery(b.db, { organizationId: b.org.id, eventId: event.id, endpointId: eb.id })).rejects.toMatchObject({ ...missing, param: 'id' });
    await expect(createRedelivery(a.db, { organizationId: a.org.id, eventId: event.id, endpointId: eb.id })).rejects.toMatchObject({ ...missing, param: 'endpoint' });
    await expect(createTestDelivery(b.db, { organizationId: b.org.id, endpointId: ea.id, type: 'session.failed' })).rejects.toMatchObject(missing);
  });

  it('the fan-out makes one delivery per subscribed, enabled endpoint, once: its step run again returns the same pending ones', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const all = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const failedOnly = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url, enabled_events: ['session.failed'] } });
    const off = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    await db.update(webhookEndpoints).set({ status: 'disabled' }).where(eq(webhookEndpoints.id, off.id));
    const created = await createSession(db, {
      organizationId: org.id,
      apiKeyId: null,
      input: { source: { url: 'https://videos.example.com/game.mp4' }, duration_seconds: 60 },
    });
    const event = await recordEvent(db, { organizationId: org.id, type: 'session.processed', session: created.session });
    const first = await createEventDeliveries(db, { organizationId: org.id, eventId: event.id });
    expect(first.map((d) => d.endpointId)).toEqual([all.id]);
    expect(first[0].id).toMatch(/^whd_/);
    expect(await createEventDeliveries(db, { organizationId: org.id, eventId: event.id })).toEqual(first);
    expect(await createEventDeliveries(db, { organizationId: org.id, eventId: 'evt_missing' })).toEqual([]);
    const failed = await recordEvent(db, { organizationId: org.id, type: 'session.failed', session: created.session });
    const both = await createEventDeliveries(db, { organizationId: org.id, eventId: failed.id });
    expect(both.map((d) => d.endpointId).sort()).toEqual([all.id, failedOnly.id].sort());
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, failed.id));
    expect(rows.map((d) => [d.kind, d.status, d.eventType, d.maxAttempts])).toEqual([
      ['event', 'pending', 'session.failed', 3],
      ['event', 'pending', 'session.failed', 3],
    ]);
  });

  it('the fan-out also covers more endpoints than the per-organization limit (endpoints made before a lower limit)', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const first = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, first.id));
    const extra = Array.from({ length: MAX_ENDPOINTS_PER_ORGANIZATION + 2 }, () => ({ ...row, id: newId('webhookEndpoint') }));
    await db.insert(webhookEndpoints).values(extra);
    const created = await createSession(db, {
      organizationId: org.id,
      apiKeyId: null,
      input: { source: { url: 'https://videos.example.com/game.mp4' }, duration_seconds: 60 },
    });
    const event = await recordEvent(db, { organizationId: org.id, type: 'session.processed', session: created.session });
    const made = await createEventDeliveries(db, { organizationId: org.id, eventId: event.id });
    const endpoints = [first.id, ...extra.map((e) => e.id)].sort();
    expect(made.map((d) => d.endpointId).sort()).toEqual(endpoints);
    expect(new Set(made.map((d) => d.id)).size).toBe(endpoints.length);
    expect((await createEventDeliveries(db, { organizationId: org.id, eventId: event.id })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...made].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id))).toHaveLength(endpoints.length);
  });

  it('checks the URL again at every attempt: an endpoint now on a private address is not called', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    delete process.env.SWISH_ALLOW_PRIVATE_SOURCES;
    await emit(org);
    const [delivery] = await finished(db, org.id, endpoint.id);
    expect(r.received).toHaveLength(0);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 3, response_status: null });
    expect(delivery.error).toMatch(/^Not sent: /);
  });

  it('redelivers a logged event once with the same webhook-id, and sends test events', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const event = await emit(org);
    await finished(db, org.id, endpoint.id);

    r.reply(() => ({ status: 500 }));
    const again = await createRedelivery(db, { organizationId: org.id, eventId: event.id, endpointId: endpoint.id });
    expect(again).toMatchObject({ kind: 'redelivery', status: 'pending', max_attempts: 1, attempts: [] });
    await notifyWebhookDeliveryRequested(again, org.id);
    const done = await until('redelivery', async () => {
      const d = await getWebhookDelivery(db, { organizationId: org.id, id: again.id });
      return d?.status !== 'pending' && d;
    });
    expect(done).toMatchObject({ status: 'failed', attempt_count: 1, response_status: 500 });
    expect(r.received.map((h) => h.headers['webhook-id'])).toEqual([event.id, event.id]);
    // a failed manual delivery does not mark the endpoint failing
    expect((await getWebhookEndpoint(db, { organizationId: org.id, id: endpoint.id })).status).toBe('enabled');

    r.reply(() => ({ status: 200 }));
    const test = await createTestDelivery(db, { organizationId: org.id, endpointId: endpoint.id, type: 'session.failed' });
    await notifyWebhookDeliveryRequested(test, org.id);
    await until('test delivery', async () => r.received.length === 3);
    const payload = new Webhook(endpoint.secret).verify(r.received[2].body, r.received[2].headers) as ApiEvent;
    expect(payload).toMatchObject({ object: 'event', type: 'session.failed', data: { object: { object: 'session', status: 'failed', metadata: { swish_test: 'true' } } } });
    expect(payload.id).toBe(test.event);
    expect((await listEvents(db, { organizationId: org.id, params: {} })).data.map((e) => e.id)).not.toContain(test.event);
  });

  it('the retention purge deletes old finished deliveries with their attempts, never pending ones', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    await emit(org);
    const [old] = await finished(db, org.id, endpoint.id);
    const pending = await createTestDelivery(db, { organizationId: org.id, endpointId: endpoint.id, type: 'session.failed' }); // never announced: stays pending
    await db.update(webhookDeliveries).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) }).where(eq(webhookDeliveries.organizationId, org.id));
    await emit(org);
    await until('the new delivery', async () => (await deliveriesOf(db, org.id, endpoint.id)).filter((d) => d.status === 'succeeded').length === 2);

    expect(await purgeWebhookDeliveries(db, new Date(Date.now() - deliveryRetentionDays() * 86_400_000))).toBeGreaterThanOrEqual(1);
    const left = await deliveriesOf(db, org.id, endpoint.id);
    expect(left.map((d) => d.id)).not.toContain(old.id);
    expect(left.map((d) => d.id)).toContain(pending.id);
    expect(left.filter((d) => d.status === 'succeeded')).toHaveLength(1);
    expect(await db.select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, old.id))).toEqual([]);
  });

  // last: stops the engine this file shares
  it('a redelivery that cannot be queued (engine unreachable) is reported and cancelled, never left pending', async () => {
    const { db, org } = await makeOrg({ grantCents: 100_000 });
    const r = await receiver();
    const endpoint = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } });
    const event = await emit(org);
    await finished(db, org.id, endpoint.id);
    await jobs.stop();
    const again = await createRedelivery(db, { organizationId: org.id, eventId: event.id, endpointId: endpoint.id });
    await expect(notifyWebhookDeliveryRequested(again, org.id)).rejects.toThrow();
    expect(await getWebhookDelivery(db, { organizationId: org.id, id: again.id })).toMatchObject({ status: 'cancelled', attempt_count: 0 });
  }, 60_000);
});
