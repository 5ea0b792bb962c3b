import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { makeOrg } from '../../../test/db';
import { webhookEndpoints } from '../../db/schema';
import { MAX_ENDPOINTS_PER_ORGANIZATION } from './config';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from './endpoints';
import { openSecret } from './secret-box';

const PUBLIC_URL = 'https://93.184.216.34/hooks/swish';

afterEach(() => {
  delete process.env.SWISH_ALLOW_PRIVATE_SOURCES;
});

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret that standardwebhooks accepts, stored sealed', async () => {
    const { db, org } = await makeOrg();
    const created = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: PUBLIC_URL, description: 'CRM sync' } });
    expect(created).toMatchObject({ object: 'webhook_endpoint', url: PUBLIC_URL, enabled_events: ['*'], description: 'CRM sync', status: 'enabled' });
    expect(created.id).toMatch(/^we_[0-9a-z]{26}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const wh = new Webhook(created.secret);
    const ts = new Date();
    const sig = wh.sign('evt_x', ts, '{}');
    expect(wh.verify('{}', { 'webhook-id': 'evt_x', 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': sig })).toEqual({});

    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(row.secret).not.toContain(created.secret.slice(6));
    expect(openSecret(row.secret)).toBe(created.secret);
    const read = await getWebhookEndpoint(db, { organizationId: org.id, id: created.id });
    expect(read).not.toHaveProperty('secret');
    const { secret: _secret, ...withoutSecret } = created;
    expect(read).toEqual(withoutSecret);
  });

  it('normalises enabled_events', async () => {
    const { db, org } = await makeOrg();
    const a = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: PUBLIC_URL, enabled_events: ['session.failed', 'session.failed'] } });
    expect(a.enabled_events).toEqual(['session.failed']);
    const b = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: PUBLIC_URL, enabled_events: ['session.failed', '*'] } });
    expect(b.enabled_events).toEqual(['*']);
  });

  it('rejects non-https, private, loopback, metadata and unresolvable URLs on `url`', async () => {
    const { db, org } = await makeOrg();
    for (const url of [
      'http://93.184.216.34/hook',
      'ftp://93.184.216.34/hook',
      'not a url',
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://10.1.2.3/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://user:pass@93.184.216.34/hook',
      'https://no-such-host.invalid/hook',
    ]) {
      await expect(createWebhookEndpoint(db, { organizationId: org.id, input: { url } }), url).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'url',
        status: 400,
      });
    }
    expect((await listWebhookEndpoints(db, { organizationId: org.id, params: {} })).total_count).toBe(0);
  });

  it('allows http and private addresses only with SWISH_ALLOW_PRIVATE_SOURCES=1', async () => {
    const { db, org } = await makeOrg();
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    const e = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: 'http://127.0.0.1:9/hook' } });
    expect(e.url).toBe('http://127.0.0.1:9/hook');
  });

  it(`allows ${MAX_ENDPOINTS_PER_ORGANIZATION} endpoints per organization, even when created concurrently`, async () => {
    const { db, org } = await makeOrg();
    const results = await Promise.allSettled(
      Array.from({ length: MAX_ENDPOINTS_PER_ORGANIZATION + 4 }, (_, i) => createWebhookEndpoint(db, { organizationId: org.id, input: { url: `${PUBLIC_URL}/${i}` } })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_ENDPOINTS_PER_ORGANIZATION);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'resource_limit_reached', status: 409 });
    }
    const page = await listWebhookEndpoints(db, { organizationId: org.id, params: { limit: 5 } });
    expect(page).toMatchObject({ object: 'list', has_more: true, total_count: MAX_ENDPOINTS_PER_ORGANIZATION });
    expect(page.data.map((e) => e.id)).toEqual([...page.data.map((e) => e.id)].sort().reverse());
    // deleting one makes room again
    await deleteWebhookEndpoint(db, { organizationId: org.id, id: page.data[0].id });
    await createWebhookEndpoint(db, { organizationId: org.id, input: { url: PUBLIC_URL } });
  });

  it('never shows, changes or deletes another organization’s endpoint (404 resource_missing on id)', async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const e = await createWebhookEndpoint(a.db, { organizationId: a.org.id, input: { url: PUBLIC_URL } });
    const opts = { organizationId: b.org.id, id: e.id };
    const missing = { code: 'resource_missing', status: 404, param: 'id' };
    await expect(getWebhookEndpoint(a.db, opts)).rejects.toMatchObject(missing);
    await expect(deleteWebhookEndpoint(a.db, opts)).rejects.toMatchObject(missing);
    await expect(rotateWebhookSecret(a.db, opts)).rejects.toMatchObject(missing);
    await expect(updateWebhookEndpoint(a.db, { ...opts, input: { disabled: true } })).rejects.toMatchObject(missing);
    await expect(getWebhookEndpoint(a.db, { organizationId: a.org.id, id: 'we_nope' })).rejects.toMatchObject(missing);
    expect((await listWebhookEndpoints(a.db, { organizationId: b.org.id, params: {} })).total_count).toBe(0);
    expect(await getWebhookEndpoint(a.db, { organizationId: a.org.id, id: e.id })).toMatchObject({ id: e.id, status: 'enabled' });
  });

  it('rotation keeps the previous secret for 24 h; update disables and re-enables', async () => {
    const { db, org } = await makeOrg();
    const e = await createWebhookEndpoint(db, { organizationId: org.id, input: { url: PUBLIC_URL } });
    const rotated = await rotateWebhookSecret(db, { organizationId: org.id, id: e.id });
    expect(rotated.secret).not.toBe(e.secret);
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, e.id));
    expect(openSecret(row.secret)).toBe(rotated.secret);
    expect(openSecret(row.previousSecret!)).toBe(e.secret);
    expect(row.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    expect(await updateWebhookEndpoint(db, { organizationId: org.id, id: e.id, input: { disabled: true } })).toMatchObject({ status: 'disabled' });
    const back = await updateWebhookEndpoint(db, { organizationId: org.id, id: e.id, input: { disabled: false, description: 'again', enabled_events: ['session.processed'] } });
    expect(back).toMatchObject({ status: 'enabled', description: 'again', enabled_events: ['session.processed'] });
    await expect(updateWebhookEndpoint(db, { organizationId: org.id, id: e.id, input: { url: 'https://10.0.0.1/x' } })).rejects.toMatchObject({ param: 'url' });
  });
});
