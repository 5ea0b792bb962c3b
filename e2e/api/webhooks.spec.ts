import { expect, test, type APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startLocalReceiver, type LocalReceiver } from '../../src/server/domain/webhooks/local-receiver';
import type { TCreateWebhookEndpointResponse } from '../../src/server/trpc/routers/webhooks/create-webhook-endpoint.types';
import type { TWebhookDelivery } from '../../src/server/trpc/routers/webhooks/list-webhook-deliveries.types';
import { createOrg, expectError, type TestOrg } from '../helpers';
import { until as pollUntil } from '../../src/test/until';

/**
 * Polls `probe` every 1500 ms until it is truthy (default 60_000 ms): at most 40 polls a minute,
 * as the test org's key has the API's 60 requests per minute, and a session waiting for the
 * processing slot behind other tests' games can take a while.
 */
const until = <T>(what: string, probe: Parameters<typeof pollUntil<T>>[1], timeoutMs = 60_000) => pollUntil<T>(what, probe, { timeoutMs, intervalMs: 1500 });

/**
 * Webhooks over HTTP against the running server (retry schedule `0,1,1` from the e2e
 * configuration). Receivers are real HTTP servers in this test process; real events come
 * from the processing pipeline (a source that answers 404 fails the session).
 */

const receivers: LocalReceiver[] = [];
test.afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function receiver() {
  const r = await startLocalReceiver();
  receivers.push(r);
  return r;
}

async function createEndpoint(request: APIRequestContext, org: TestOrg, data: Record<string, unknown>) {
  const res = await request.post('/v1/webhook_endpoints', { headers: org.auth, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as TCreateWebhookEndpointResponse;
}

async function deliveries(request: APIRequestContext, org: TestOrg, endpointId: string): Promise<TWebhookDelivery[]> {
  const res = await request.get(`/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, { headers: org.auth });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data;
}


test.describe('webhook endpoints', () => {
  test('create (secret shown once), retrieve, list, update, rotate, delete', async ({ request }) => {
    const org = await createOrg();
    const r = await receiver();
    const created = await createEndpoint(request, org, { url: r.url, description: 'ops', enabled_events: ['session.failed'] });
    expect(created).toMatchObject({ object: 'webhook_endpoint', url: r.url, enabled_events: ['session.failed'], description: 'ops', status: 'enabled' });
    expect(created.id).toMatch(/^we_/);
    expect(created.secret).toMatch(/^whsec_/);
    expect(Math.abs(created.created - Date.now() / 1000)).toBeLessThan(60);
    const { secret: _secret, ...shown } = created;

    const got = await request.get(`/v1/webhook_endpoints/${created.id}`, { headers: org.auth });
    expect(await got.json()).toEqual(shown);
    const list = await (await request.get('/v1/webhook_endpoints', { headers: org.auth })).json();
    expect(list).toEqual({ object: 'list', data: [shown], has_more: false, total_count: 1 });

    const updated = await request.post(`/v1/webhook_endpoints/${created.id}`, { headers: org.auth, data: { enabled_events: ['*'], disabled: true, description: null } });
    expect(await updated.json()).toMatchObject({ enabled_events: ['*'], status: 'disabled', description: null });
    await expectError(await request.post(`/v1/webhook_endpoints/${created.id}`, { headers: org.auth, data: { disabled: 'yes' } }), 400, 'parameter_invalid', 'disabled');

    const rotated = await request.post(`/v1/webhook_endpoints/${created.id}/rotate_secret`, { headers: org.auth });
    expect(rotated.status()).toBe(200);
    const rotatedBody = await rotated.json();
    expect(rotatedBody.secret).toMatch(/^whsec_/);
    expect(rotatedBody.secret).not.toBe(created.secret);

    const del = await request.delete(`/v1/webhook_endpoints/${created.id}`, { headers: org.auth });
    expect(await del.json()).toEqual({ id: created.id, object: 'webhook_endpoint', deleted: true });
    await expectError(await request.get(`/v1/webhook_endpoints/${created.id}`, { headers: org.auth }), 404, 'resource_missing', 'id');
  });

  test('validates the body: url, enabled_events, unknown fields', async ({ request }) => {
    const org = await createOrg();
    const post = (data: Record<string, unknown>) => request.post('/v1/webhook_endpoints', { headers: org.auth, data });
    await expectError(await post({}), 400, 'parameter_missing', 'url');
    await expectError(await post({ url: 'ftp://example.com/hook' }), 400, 'parameter_invalid', 'url');
    await expectError(await post({ url: 'not a url' }), 400, 'parameter_invalid', 'url');
    await expectError(await post({ url: 'https://example.com/hook', enabled_events: ['session.created'] }), 400, 'parameter_invalid', 'enabled_events.0');
    await expectError(await post({ url: 'https://example.com/hook', enabled_events: [] }), 400, 'parameter_invalid', 'enabled_events');
    await expectError(await post({ url: 'https://example.com/hook', secret: 'whsec_mine' }), 400, 'parameter_invalid', 'secret');
    expect((await (await request.get('/v1/webhook_endpoints', { headers: org.auth })).json()).total_count).toBe(0);
  });

  test('16 endpoints per organization, then 409 resource_limit_reached', async ({ request }) => {
    const org = await createOrg();
    for (let i = 0; i < 16; i++) await createEndpoint(request, org, { url: `http://127.0.0.1:9/hook/${i}` });
    await expectError(await request.post('/v1/webhook_endpoints', { headers: org.auth, data: { url: 'http://127.0.0.1:9/hook/16' } }), 409, 'resource_limit_reached');
    const page = await (await request.get('/v1/webhook_endpoints?limit=10', { headers: org.auth })).json();
    expect(page).toMatchObject({ has_more: true, total_count: 16 });
    expect(page.data).toHaveLength(10);
  });

  test('another organization’s endpoints and events are 404; no key is 401', async ({ request }) => {
    const a = await createOrg();
    const b = await createOrg();
    const e = await createEndpoint(request, a, { url: 'http://127.0.0.1:9/hook' });
    const eb = await createEndpoint(request, b, { url: 'http://127.0.0.1:9/hook' });
    await expectError(await request.get(`/v1/webhook_endpoints/${e.id}`, { headers: b.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.delete(`/v1/webhook_endpoints/${e.id}`, { headers: b.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.post(`/v1/webhook_endpoints/${e.id}/rotate_secret`, { headers: b.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.post(`/v1/webhook_endpoints/${e.id}`, { headers: b.auth, data: { disabled: true } }), 404, 'resource_missing', 'id');
    await expectError(await request.get(`/v1/webhook_endpoints/${e.id}/deliveries`, { headers: b.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.post(`/v1/webhook_endpoints/${e.id}/test`, { headers: b.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.post(`/v1/events/evt_01m7z371fw0019jecr3mxq5sw6/redeliver?endpoint=${eb.id}`, { headers: b.auth }), 404, 'resource_missing', 'id');
    expect((await (await request.get('/v1/webhook_endpoints', { headers: b.auth })).json()).data.map((x: { id: string }) => x.id)).toEqual([eb.id]);
    await expectError(await request.get('/v1/webhook_endpoints'), 401, 'api_key_missing');
    await expectError(await request.post('/v1/webhook_endpoints', { data: { url: 'https://example.com' } }), 401, 'api_key_missing');
  });
});

test.describe('webhook deliveries', () => {
  test('a test event arrives signed; the receiver verifies it with the documented secret', async ({ request }) => {
    const org = await createOrg();
    const r = await receiver();
    const endpoint = await createEndpoint(request, org, { url: r.url });
    const res = await request.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { headers: org.auth, data: { type: 'session.failed' } });
    expect(res.status(), await res.text()).toBe(201);
    const pending = (await res.json()) as TWebhookDelivery;
    expect(pending).toMatchObject({ object: 'webhook_delivery', endpoint: endpoint.id, kind: 'test', status: 'pending', attempts: [] });
    await until('the test event', async () => r.received.length === 1);
    const payload = new Webhook(endpoint.secret).verify(r.received[0].body, r.received[0].headers) as { id: string; type: string; data: { object: { metadata: object } } };
    expect(payload).toMatchObject({ id: pending.event, type: 'session.failed', data: { object: { metadata: { swish_test: 'true' } } } });
    expect(r.received[0].headers['user-agent']).toBe('Swish-Webhooks/1');
    const [logged] = await until('the logged delivery', async () => {
      const list = await deliveries(request, org, endpoint.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(logged).toMatchObject({ id: pending.id, attempt_count: 1, response_status: 200, response_body: 'ok' });
  });

  test('a real session.failed event: retried after 500s, logged, redelivered on request; 410 disables', async ({ request }) => {
    test.setTimeout(180_000);
    const org = await createOrg();
    const source = await receiver();
    source.reply(() => ({ status: 404, body: 'no such video' }));
    const hooks = await receiver();
    hooks.reply((_req, n) => (n <= 2 ? { status: 500, body: 'not yet' } : { status: 200, body: 'thanks' }));
    const endpoint = await createEndpoint(request, org, { url: hooks.url, enabled_events: ['session.failed'] });

    const submitted = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: source.url.replace('/hook', '/game.mp4') }, duration_seconds: 60 } });
    expect(submitted.status(), await submitted.text()).toBe(201);
    const session = await submitted.json();

    const [delivery] = await until('the session.failed delivery', async () => {
      const list = await deliveries(request, org, endpoint.id);
      return list.length === 1 && list[0].status !== 'pending' && list;
    }, 150_000);
    expect(delivery).toMatchObject({ kind: 'event', event_type: 'session.failed', status: 'succeeded', attempt_count: 3, max_attempts: 3 });
    expect(delivery.attempts.map((a) => a.response_status)).toEqual([500, 500, 200]);
    expect(hooks.received).toHaveLength(3);
    const body = new Webhook(endpoint.secret).verify(hooks.received[2].body, hooks.received[2].headers);
    const events = await (await request.get(`/v1/events?session=${session.id}`, { headers: org.auth })).json();
    expect(body).toEqual(events.data[0]);
    expect(hooks.received[2].headers['webhook-id']).toBe(events.data[0].id);

    // redeliver (query form), then the receiver goes away for good
    hooks.reply(() => ({ status: 410 }));
    const again = await request.post(`/v1/events/${events.data[0].id}/redeliver?endpoint=${endpoint.id}`, { headers: org.auth });
    expect(again.status(), await again.text()).toBe(201);
    expect(await again.json()).toMatchObject({ kind: 'redelivery', event: events.data[0].id, status: 'pending', max_attempts: 1 });
    await until('the redelivery', async () => (await deliveries(request, org, endpoint.id)).find((d) => d.kind === 'redelivery' && d.status === 'failed'));
    expect(hooks.received[3].headers['webhook-id']).toBe(events.data[0].id);
    expect((await (await request.get(`/v1/webhook_endpoints/${endpoint.id}`, { headers: org.auth })).json()).status).toBe('disabled');

    await expectError(await request.post(`/v1/events/${events.data[0].id}/redeliver`, { headers: org.auth }), 400, 'parameter_missing', 'endpoint');
  });
});
