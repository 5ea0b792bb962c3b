import { ANALYSER_RUN_VERSION } from '../../src/server/analysis/run-version';
import { expect, test } from '@playwright/test';
import { createOrg, expectError, startStalledHost, swishCli } from '../helpers';

/** Sessions here point at a host that never answers: they stay in progress with their hold while the test looks. */
let VIDEO: string;
let stalled: Awaited<ReturnType<typeof startStalledHost>>;
test.beforeAll(async () => {
  stalled = await startStalledHost();
  VIDEO = stalled.url;
});
test.afterAll(async () => stalled.close());
const IN_PROGRESS = ['queued', 'processing'];

test.describe('POST /v1/sessions', () => {
  test('creates a queued session with a hold, and reflects it in balance and usage', async ({ request }) => {
    const org = await createOrg(10_000);
    const res = await request.post('/v1/sessions', {
      headers: org.auth,
      data: { source: { url: VIDEO }, duration_seconds: 1800, metadata: { opponent: 'Eagles', season: '2026' }, options: { session_type: '3v3', camera_setup: 'panning' } },
    });
    expect(res.status(), await res.text()).toBe(201);
    expect(res.headers()['x-service-cost-cents']).toBe('250');
    expect(res.headers()['x-service-balance-cents']).toBe('9750');
    const s = await res.json();
    expect(s).toMatchObject({
      object: 'session',
      status: 'queued',
      group: org.defaultGroup,
      source: { type: 'url', url: VIDEO },
      metadata: { opponent: 'Eagles', season: '2026' },
      run_version: null,
      duration_seconds: null,
      cost_cents: null,
      error: null,
      totals: { points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 },
      video: { url: null, preview_url: null, '1080p': null, '720p': null, '360p': null, width: null, height: null, fps: null },
      artifacts: { actions: null, balls: null, hoops: null, clusters: null },
    });
    expect(s.id).toMatch(/^sess_/);
    expect(Math.abs(s.created - Date.now() / 1000)).toBeLessThan(60);
    for (const kind of ['highlights', 'shots', 'players']) {
      expect(s[kind]).toEqual({ object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/sessions/${s.id}/${kind}` });
    }
    const balance = await (await request.get('/v1/balance', { headers: org.auth })).json();
    expect(balance).toMatchObject({ credit_cents: 10_000, held_cents: 250, available_cents: 9750 });
    const usage = await (await request.get('/v1/usage', { headers: org.auth })).json();
    expect(usage.data[0]).toMatchObject({
      object: 'usage_event',
      session: s.id,
      group: org.defaultGroup,
      api_key: org.prodKeyId,
      sku: 'video_processing',
      status: 'held',
      // the analyser the job was submitted to, not a made-up 0
      run_version: ANALYSER_RUN_VERSION,
      held_seconds: 1800,
      quantity_seconds: 0,
      rate_cents_per_hour: 500,
      settled_at: null,
      voided_at: null,
    });
    const read = await (await request.get(`/v1/sessions/${s.id}`, { headers: org.auth })).json();
    expect(IN_PROGRESS).toContain(read.status); // the pipeline may have picked it up already
    expect({ ...read, status: 'queued' }).toEqual(s);
  });

  test('routes platform links as platform and estimates 2 h without a duration', async ({ request }) => {
    const org = await createOrg(10_000);
    const res = await request.post('/v1/sessions', { headers: org.auth, data: { source: { type: 'url', url: 'https://www.hudl.com/video/3/123/abc' } } });
    expect(res.status()).toBe(201);
    expect((await res.json()).source.type).toBe('platform');
    expect(res.headers()['x-service-cost-cents']).toBe('1000');
  });

  test('402 when the balance cannot cover the hold, and nothing is created', async ({ request }) => {
    const org = await createOrg(100);
    const res = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO } } });
    const e = await expectError(res, 402, 'insufficient_credits');
    expect(e).toMatchObject({ type: 'insufficient_credits', needed_cents: 1000, available_cents: 100 });
    const list = await (await request.get('/v1/sessions', { headers: org.auth })).json();
    expect(list.total_count).toBe(0);
    expect((await (await request.get('/v1/usage', { headers: org.auth })).json()).total_count).toBe(0);
  });

  test('validates every field with a param path', async ({ request }) => {
    const org = await createOrg();
    const post = (data: unknown) => request.post('/v1/sessions', { headers: org.auth, data: data as object });
    await expectError(await post({}), 400, 'parameter_missing', 'source');
    await expectError(await post({ source: {} }), 400, 'parameter_missing', 'source');
    await expectError(await post({ source: { url: 'ftp://example.com/a.mp4', type: 'url' } }), 400, 'parameter_invalid', 'source.url');
    await expectError(await post({ source: { url: 'not a url' } }), 400, 'parameter_invalid', 'source.url');
    await expectError(await post({ source: { type: 'upload' } }), 400, 'parameter_missing', 'source.upload_id');
    await expectError(await post({ source: { type: 'carrier-pigeon', url: VIDEO } }), 400, 'parameter_invalid', 'source.type');
    await expectError(await post({ source: { url: VIDEO, extra: 1 } }), 400, 'parameter_invalid', 'source.extra');
    await expectError(await post({ source: { url: VIDEO }, duration_seconds: 0 }), 400, 'parameter_invalid', 'duration_seconds');
    await expectError(await post({ source: { url: VIDEO }, duration_seconds: 12.5 }), 400, 'parameter_invalid', 'duration_seconds');
    await expectError(await post({ source: { url: VIDEO }, duration_seconds: '60' }), 400, 'parameter_invalid', 'duration_seconds');
    // longer than any video processed: refused before a hold, not failed after one
    await expectError(await post({ source: { url: VIDEO }, duration_seconds: 20_000 }), 400, 'parameter_invalid', 'duration_seconds');
    await expectError(await post({ source: { url: VIDEO }, options: { num_players: '4' } }), 400, 'parameter_invalid', 'options.num_players');
    await expectError(await post({ source: { url: VIDEO }, metadata: { k: 5 } }), 400, 'parameter_invalid', 'metadata.k');
    await expectError(await post({ source: { url: VIDEO }, metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'parameter_invalid');
    await expectError(await post({ source: { url: VIDEO }, metadata: { k: 'v'.repeat(501) } }), 400, 'parameter_invalid', 'metadata.k');
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    await expectError(await post({ source: { url: VIDEO }, metadata: many }), 400, 'parameter_invalid', 'metadata');
    await expectError(await post({ source: { url: VIDEO }, options: { session_type: '6v6' } }), 400, 'parameter_invalid', 'options.session_type');
    await expectError(await post({ source: { url: VIDEO }, options: { has_jerseys: 'yes' } }), 400, 'parameter_invalid', 'options.has_jerseys');
    await expectError(await post({ source: { url: VIDEO }, options: { point_system: 3 } }), 400, 'parameter_invalid', 'options.point_system');
    await expectError(await post({ source: { url: VIDEO }, options: { camera_setup: 'drone' } }), 400, 'parameter_invalid', 'options.camera_setup');
    // a NUL character cannot be stored: refused with its place, not a 500
    await expectError(await post({ source: { url: VIDEO }, metadata: { k: 'a\u0000b' } }), 400, 'parameter_invalid', 'metadata.k');
    await expectError(await post({ source: { url: VIDEO }, options: { home_team_name: '\u0000' } }), 400, 'parameter_invalid', 'options.home_team_name');
    // a key that would vanish in parsing is refused, not dropped
    const proto = await request.post('/v1/sessions', { headers: { ...org.auth, 'content-type': 'application/json' }, data: '{"source":{"url":"' + VIDEO + '"},"metadata":{"__proto__":"x"}}' });
    await expectError(proto, 400, 'parameter_invalid', 'metadata.__proto__');
    // exactly at the limits is fine
    const ok = await post({ source: { url: VIDEO }, duration_seconds: 1, metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(38)}${String(i).padStart(2, '0')}`, 'v'.repeat(500)])) });
    expect(ok.status(), await ok.text()).toBe(201);
  });

  test('groups and uploads must belong to the organization', async ({ request }) => {
    const org = await createOrg();
    const other = await createOrg();
    await expectError(
      await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO }, group: other.defaultGroup } }),
      404,
      'resource_missing',
      'group',
    );
    await expectError(
      await request.post('/v1/sessions', { headers: org.auth, data: { source: { upload_id: 'up_01abcdefghjkmnpqrstvwxyz01' } } }),
      404,
      'resource_missing',
      'source.upload_id',
    );
    const inGroup = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO }, group: org.defaultGroup } });
    expect(inGroup.status()).toBe(201);
  });
});

test.describe('Idempotency-Key', () => {
  test('replays the first response, rejects reuse with another body and over-long keys', async ({ request }) => {
    const org = await createOrg(10_000);
    const key = `order-${Date.now()}`;
    const body = { source: { url: VIDEO }, duration_seconds: 600, metadata: { a: '1', b: '2' } };
    const first = await request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': key }, data: body });
    expect(first.status()).toBe(201);
    expect(first.headers()['idempotent-replayed']).toBeUndefined();
    // same body with keys in another order is the same request
    const again = await request.post('/v1/sessions', {
      headers: { ...org.auth, 'Idempotency-Key': key },
      data: { metadata: { b: '2', a: '1' }, duration_seconds: 600, source: { url: VIDEO } },
    });
    expect(again.status()).toBe(201);
    expect(again.headers()['idempotent-replayed']).toBe('true');
    expect(again.headers()['x-service-cost-cents']).toBe(first.headers()['x-service-cost-cents']);
    expect(again.headers()['x-service-balance-cents']).toBe(first.headers()['x-service-balance-cents']);
    expect(await again.json()).toEqual(await first.json());
    expect((await (await request.get('/v1/sessions', { headers: org.auth })).json()).total_count).toBe(1);

    await expectError(
      await request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': key }, data: { ...body, duration_seconds: 601 } }),
      400,
      'idempotency_key_reused',
    );
    await expectError(await request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': 'k'.repeat(256) }, data: body }), 400, 'parameter_invalid', 'Idempotency-Key');
    // a validation failure is not stored: the key stays usable
    const badKey = `bad-${Date.now()}`;
    await expectError(await request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': badKey }, data: { source: {} } }), 400, 'parameter_missing');
    expect((await request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': badKey }, data: body })).status()).toBe(201);
    // keys are per organization
    const other = await createOrg(10_000);
    const theirs = await request.post('/v1/sessions', { headers: { ...other.auth, 'Idempotency-Key': key }, data: body });
    expect(theirs.status()).toBe(201);
    expect(theirs.headers()['idempotent-replayed']).toBeUndefined();
  });

  test('10 concurrent requests with one key create one session', async ({ request }) => {
    const org = await createOrg(10_000);
    const key = `concurrent-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        request.post('/v1/sessions', { headers: { ...org.auth, 'Idempotency-Key': key }, data: { source: { url: VIDEO }, duration_seconds: 60 } }),
      ),
    );
    const statuses = results.map((r) => r.status());
    for (const s of statuses) expect([201, 409]).toContain(s);
    const created = new Set<string>();
    for (const r of results) {
      if (r.status() === 201) created.add((await r.json()).id);
      else await expectError(r, 409, 'idempotency_key_in_use');
    }
    expect(created.size).toBe(1);
    expect((await (await request.get('/v1/sessions', { headers: org.auth })).json()).total_count).toBe(1);
  });
});

test.describe('reading sessions', () => {
  test('lists newest first with paging, status and group filters; other organizations see nothing', async ({ request }) => {
    const org = await createOrg(100_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO }, duration_seconds: 60, metadata: { n: String(i) } } });
      ids.unshift((await r.json()).id);
    }
    const page1 = await (await request.get('/v1/sessions?limit=2', { headers: org.auth })).json();
    expect(page1).toMatchObject({ object: 'list', has_more: true, total_count: 5 });
    expect(page1.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    expect(page1.data[0].object).toBe('session');
    expect(page1.data[0].highlights.object).toBe('list');
    const page2 = await (await request.get(`/v1/sessions?limit=2&starting_after=${ids[1]}`, { headers: org.auth })).json();
    expect(page2.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(2, 4));
    const back = await (await request.get(`/v1/sessions?limit=2&ending_before=${ids[2]}`, { headers: org.auth })).json();
    expect(back.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    const byStatus = async (status: string) => (await (await request.get(`/v1/sessions?status=${status}`, { headers: org.auth })).json()).total_count;
    expect((await byStatus('queued')) + (await byStatus('processing'))).toBe(5);
    expect(await byStatus('processed')).toBe(0);
    expect(await byStatus('failed')).toBe(0);
    expect((await (await request.get(`/v1/sessions?group=${org.defaultGroup}`, { headers: org.auth })).json()).total_count).toBe(5);

    await expectError(await request.get('/v1/sessions?limit=0', { headers: org.auth }), 400, 'parameter_invalid', 'limit');
    await expectError(await request.get('/v1/sessions?limit=101', { headers: org.auth }), 400, 'parameter_invalid', 'limit');
    await expectError(await request.get('/v1/sessions?limit=abc', { headers: org.auth }), 400, 'parameter_invalid', 'limit');
    await expectError(await request.get('/v1/sessions?status=done', { headers: org.auth }), 400, 'parameter_invalid', 'status');
    await expectError(await request.get(`/v1/sessions?starting_after=${ids[0]}&ending_before=${ids[1]}`, { headers: org.auth }), 400, 'parameter_invalid', 'ending_before');
    // a cursor must name a session of the organization; a group filter, one of its groups
    await expectError(await request.get('/v1/sessions?starting_after=sess_nope', { headers: org.auth }), 400, 'parameter_invalid', 'starting_after');
    await expectError(await request.get('/v1/sessions?ending_before=sess_%00', { headers: org.auth }), 400, 'parameter_invalid', 'ending_before');

    const other = await createOrg();
    expect((await (await request.get('/v1/sessions', { headers: other.auth })).json()).total_count).toBe(0);
    await expectError(await request.get(`/v1/sessions?starting_after=${ids[0]}`, { headers: other.auth }), 400, 'parameter_invalid', 'starting_after');
    await expectError(await request.get(`/v1/sessions?group=${org.defaultGroup}`, { headers: other.auth }), 400, 'parameter_invalid', 'group');
    await expectError(await request.get(`/v1/sessions/${ids[0]}`, { headers: other.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.get(`/v1/sessions/${ids[0]}/shots`, { headers: other.auth }), 404, 'resource_missing', 'id');
    await expectError(await request.get('/v1/sessions/sess_doesnotexist', { headers: org.auth }), 404, 'resource_missing', 'id');
  });

  test('child lists page with the list envelope and their url', async ({ request }) => {
    const org = await createOrg();
    const s = await (await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO }, duration_seconds: 60 } })).json();
    for (const kind of ['shots', 'highlights', 'players']) {
      const res = await request.get(`/v1/sessions/${s.id}/${kind}?limit=5`, { headers: org.auth });
      expect(res.status()).toBe(200);
      expect(await res.json()).toEqual({ object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/sessions/${s.id}/${kind}` });
    }
  });

  test('usage filters by status, api key and creation time', async ({ request }) => {
    const org = await createOrg(100_000);
    const key2 = await swishCli(['keys:create', '--org', org.id, '--env', 'production']);
    const auth2 = { Authorization: `Bearer ${key2.secret}` };
    await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: VIDEO }, duration_seconds: 60 } });
    await request.post('/v1/sessions', { headers: auth2, data: { source: { url: VIDEO }, duration_seconds: 60 } });
    const all = await (await request.get('/v1/usage', { headers: org.auth })).json();
    expect(all.total_count).toBe(2);
    expect((await (await request.get(`/v1/usage?api_key=${key2.id}`, { headers: org.auth })).json()).data.map((u: { api_key: string }) => u.api_key)).toEqual([key2.id]);
    expect((await (await request.get('/v1/usage?status=held', { headers: org.auth })).json()).total_count).toBe(2);
    expect((await (await request.get('/v1/usage?status=settled', { headers: org.auth })).json()).total_count).toBe(0);
    const now = Math.floor(Date.now() / 1000);
    expect((await (await request.get(`/v1/usage?created[gte]=${now - 120}`, { headers: org.auth })).json()).total_count).toBe(2);
    expect((await (await request.get(`/v1/usage?created[lte]=${now - 3600}`, { headers: org.auth })).json()).total_count).toBe(0);
    await expectError(await request.get('/v1/usage?status=paid', { headers: org.auth }), 400, 'parameter_invalid', 'status');
    await expectError(await request.get('/v1/usage?created[gte]=yesterday', { headers: org.auth }), 400, 'parameter_invalid', 'created[gte]');
    // milliseconds by mistake: a clear 400, not a date the database cannot store
    await expectError(await request.get(`/v1/usage?created[lte]=${Date.now()}`, { headers: org.auth }), 400, 'parameter_invalid', 'created[lte]');
  });
});
