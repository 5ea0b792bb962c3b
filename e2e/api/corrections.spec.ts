import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createOrg, expectError, startStalledHost, type TestOrg } from '../helpers';
import { startFixtureServer, type FixtureServer } from '../media-fixtures';

/**
 * The corrections API over real HTTP against a game the real pipeline processed:
 * POST /v1/sessions/{id}/corrections (idempotent), GET …/corrections, POST …/undo, the
 * spec's errors, GET /v1/sessions/{id} showing the corrected state, and no new event.
 */

test.describe.configure({ mode: 'serial', timeout: 300_000 });

let fixtures: FixtureServer;
let org: TestOrg;
let id = '';
let original: any;

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000); // rendering the game and processing it, on a machine busy with other suites
  fixtures = await startFixtureServer(join('test-results', 'corrections-api-fixtures'), { only: ['game.mp4'] });
  org = await createOrg(10_000);
  const res = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: fixtures.url('game.mp4') }, duration_seconds: 60 } });
  expect(res.status(), await res.text()).toBe(201);
  id = (await res.json()).id;
  const deadline = Date.now() + 240_000;
  for (;;) {
    original = await (await request.get(`/v1/sessions/${id}`, { headers: org.auth })).json();
    if (original.status === 'processed' || original.status === 'failed') break;
    if (Date.now() > deadline) throw new Error(`session ${id} still ${original.status}`);
    await new Promise((r) => setTimeout(r, 2000)); // well inside the 60 requests/minute of the key
  }
  expect(original.status, JSON.stringify(original.error)).toBe('processed');
});
test.afterAll(async () => fixtures?.close());

test('a correction changes GET /v1/sessions/{id} at once, replays with its Idempotency-Key, is listed, and undo restores', async ({ request }) => {
  const shot = original.shots.data[0];
  const url = `/v1/sessions/${id}/corrections`;
  const body = { kind: 'set_made', shot: shot.id, made: !shot.made };
  const headers = { ...org.auth, 'Idempotency-Key': `flip-${id}` };
  const res = await request.post(url, { headers, data: body });
  expect(res.status(), await res.text()).toBe(201);
  const created = await res.json();
  expect(created).toMatchObject({ object: 'session_correction', session: id, kind: 'set_made', correction: body, undone: null, undoable: true, actor: { user: null, name: null, api_key: org.prodKeyId } });
  expect(created.id).toMatch(/^corr_/);
  expect(created.summary).toMatch(/^Shot 1 \(\d+:\d\d\): (made|missed) → (made|missed)$/);
  const replay = await request.post(url, { headers, data: body });
  expect(replay.status()).toBe(201);
  expect(replay.headers()['idempotent-replayed']).toBe('true');
  expect((await replay.json()).id).toBe(created.id);

  const corrected = await (await request.get(`/v1/sessions/${id}`, { headers: org.auth })).json();
  const value = shot.is_free_throw ? 1 : 2 + (shot.is_three_point ? 1 : 0);
  expect(corrected.shots.data[0]).toMatchObject({ made: !shot.made, points: shot.made ? 0 : value });
  expect(corrected.totals.points).toBe(original.totals.points + (shot.made ? -value : value));
  const made = (s: any) => s.totals.fg_2pt_make + s.totals.fg_3pt_make + s.totals.ft_make;
  expect(made(corrected)).toBe(made(original) + (shot.made ? -1 : 1));
  expect(corrected.players.data.reduce((n: number, p: any) => n + p.stats.points, 0)).toBeLessThanOrEqual(corrected.totals.points);

  const list = await (await request.get(url, { headers: org.auth })).json();
  expect(list).toMatchObject({ object: 'list', total_count: 1, has_more: false, url });
  expect(list.data[0]).toEqual(created);

  const undo = await request.post(`${url}/${created.id}/undo`, { headers: org.auth });
  expect(undo.status(), await undo.text()).toBe(200);
  expect(await undo.json()).toMatchObject({ id: created.id, undoable: false, undone: expect.any(Number) });
  await expectError(await request.post(`${url}/${created.id}/undo`, { headers: org.auth }), 409, 'correction_conflict', 'correction');
  const restored = await (await request.get(`/v1/sessions/${id}`, { headers: org.auth })).json();
  expect({ ...restored, highlights: null, video: null, artifacts: null }).toEqual({ ...original, highlights: null, video: null, artifacts: null });
  expect(restored.highlights.data.map((h: any) => [h.id, h.player, h.is_lowlight])).toEqual(original.highlights.data.map((h: any) => [h.id, h.player, h.is_lowlight]));

  // no event again, nothing charged again
  const events = await (await request.get(`/v1/events?session=${id}`, { headers: org.auth })).json();
  expect(events.data.map((e: any) => e.type)).toEqual(['session.processed']);
  const usage = await (await request.get('/v1/usage', { headers: org.auth })).json();
  expect(usage.data).toHaveLength(1);
  expect(usage.data[0]).toMatchObject({ session: id, status: 'settled', cost_cents: original.cost_cents });
});

test('errors: the spec shape for invalid bodies, unknown ids, other organizations and unprocessed sessions', async ({ request }) => {
  const url = `/v1/sessions/${id}/corrections`;
  const shot = original.shots.data[0].id;
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'set_made', shot } }), 400, 'parameter_missing', 'made');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'set_made', shot, made: true, player: null } }), 400, 'parameter_invalid', 'player');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'promote', shot } }), 400, 'parameter_invalid', 'kind');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'set_team', player: 'plr_x', team_id: 12 } }), 400, 'parameter_invalid', 'team_id');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'delete_shot', shot: 'shot_nope' } }), 404, 'resource_missing', 'shot');
  const [keep] = original.players.data.map((p: any) => p.id);
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'merge_players', keep, remove: [] } }), 400, 'parameter_invalid', 'remove');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'merge_players', keep, remove: [keep] } }), 400, 'parameter_invalid', 'remove');
  await expectError(await request.post(url, { headers: org.auth, data: { kind: 'merge_players', keep, remove: ['plr_nope'] } }), 404, 'resource_missing', 'remove');
  await expectError(await request.post(`${url}/corr_nope/undo`, { headers: org.auth }), 404, 'resource_missing', 'correction');

  const other = await createOrg();
  await expectError(await request.post(url, { headers: other.auth, data: { kind: 'delete_shot', shot } }), 404, 'resource_missing', 'id');
  await expectError(await request.get(url, { headers: other.auth }), 404, 'resource_missing', 'id');

  const host = await startStalledHost();
  try {
    const res = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: host.url }, duration_seconds: 60 } });
    const pending = (await res.json()).id;
    await expectError(
      await request.post(`/v1/sessions/${pending}/corrections`, { headers: org.auth, data: { kind: 'add_shot', time_seconds: 1 } }),
      409,
      'session_not_processed',
    );
  } finally {
    await host.close();
  }

  const doc = await (await request.get('/v1/openapi.json')).json();
  expect(doc.paths['/sessions/{id}/corrections'].post.responses['201']).toBeDefined();
  expect(doc.paths['/sessions/{id}/corrections'].get).toBeDefined();
  expect(doc.paths['/sessions/{id}/corrections/{correction}/undo'].post).toBeDefined();
});
