import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createOrg, type TestOrg } from '../helpers';
import { probeUrl, startFixtureServer, type FixtureServer } from '../media-fixtures';

test.describe.configure({ mode: 'serial', timeout: 300_000 });

let fixtures: FixtureServer;
const dir = join('test-results', 'processing-fixtures');

test.beforeAll(async () => {
  test.setTimeout(180_000); // rendering the synthetic fixtures, on a machine busy with other suites
  fixtures = await startFixtureServer(dir);
});
test.afterAll(async () => fixtures?.close());

async function submit(request: APIRequestContext, org: TestOrg, url: string) {
  const res = await request.post('/v1/sessions', { headers: org.auth, data: { source: { url }, duration_seconds: 60, metadata: { fixture: url.split('/').pop()! } } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

async function waitFinished(request: APIRequestContext, org: TestOrg, id: string) {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const s = await (await request.get(`/v1/sessions/${id}`, { headers: org.auth })).json();
    if (s.status === 'processed' || s.status === 'failed') return s;
    if (Date.now() > deadline) throw new Error(`session ${id} still ${s.status}`);
    // every 2 s: the org's key has the API's 60 requests a minute, and on a busy machine the
    // sessions of a test wait for the processing slot one after another
    await new Promise((r) => setTimeout(r, 2000));
  }
}

test('a synthetic game submitted by URL is processed, charged for its length and logged', async ({ request }) => {
  const org = await createOrg(10_000);
  const id = await submit(request, org, fixtures.url('game.mp4'));
  const s = await waitFinished(request, org, id);
  expect(s.status, JSON.stringify(s.error)).toBe('processed');
  const truth = fixtures.truth['game.mp4'];

  // what was found matches the ground truth at the analyser's measured level: no invented
  // shots, at most one true attempt missed, at most one make misjudged (see bench:analysis)
  const matched = truth.attempts.map((a) =>
    s.shots.data.find((x: { start_seconds: number }) => Math.abs(x.start_seconds - (a.release_s ?? 0)) <= 1),
  );
  expect(s.shots.total_count).toBeLessThanOrEqual(truth.attempts.length);
  expect(matched.filter(Boolean).length).toBeGreaterThanOrEqual(truth.attempts.length - 1);
  const wrongMakes = truth.attempts.filter((a, i) => matched[i] && matched[i].made !== a.made).length;
  expect(wrongMakes).toBeLessThanOrEqual(1);
  expect(s.totals.points).toBe(s.shots.data.reduce((p: number, x: { points: number | null }) => p + (x.points ?? 0), 0));
  expect(s.totals.fg_2pt_att + s.totals.fg_3pt_att + s.totals.ft_att).toBe(s.shots.total_count);

  // money: settled for the measured length at 500 cents/hour
  expect(s.duration_seconds).toBe(Math.ceil(truth.media.duration_s - 1e-6));
  expect(s.cost_cents).toBe(Math.ceil((s.duration_seconds * 500) / 3600));
  const usage = (await (await request.get('/v1/usage', { headers: org.auth })).json()).data[0];
  expect(usage).toMatchObject({ session: id, status: 'settled', quantity_seconds: s.duration_seconds, cost_cents: s.cost_cents });
  const balance = await (await request.get('/v1/balance', { headers: org.auth })).json();
  expect(balance).toMatchObject({ credit_cents: 10_000 - s.cost_cents, held_cents: 0 });
  const events = await (await request.get(`/v1/events?session=${id}`, { headers: org.auth })).json();
  expect(events.data).toHaveLength(1);
  expect(events.data[0]).toMatchObject({ object: 'event', type: 'session.processed', data: { object: { id, status: 'processed', cost_cents: s.cost_cents } } });

  // media: renditions never upscaled, every highlight downloads with the right shape and length
  expect(s.video).toMatchObject({ width: 640, height: 360, '1080p': null, '720p': null });
  const r360 = await probeUrl(s.video['360p'], join(dir, 'r360.mp4'));
  expect(r360.height).toBe(360);
  expect(Math.abs(r360.duration - truth.media.duration_s)).toBeLessThan(0.5);
  expect((await fetch(s.video.url)).status).toBe(200);
  // the length reaches the player on the wire (a HEAD to probe, a 206 to seek), not a chunked body
  const probe = await fetch(s.video.url, { method: 'HEAD' });
  expect(Number(probe.headers.get('content-length'))).toBeGreaterThan(0);
  const seek = await fetch(s.video.url, { headers: { Range: 'bytes=0-99' } });
  expect(seek.status).toBe(206);
  expect(seek.headers.get('content-length')).toBe('100');
  expect(seek.headers.get('transfer-encoding')).toBeNull();
  expect((await fetch(s.video.preview_url)).headers.get('content-type')).toBe('image/jpeg');
  for (const h of s.highlights.data) {
    const vertical = await probeUrl(h.video.default, join(dir, `${h.id}-v.mp4`));
    expect(Math.abs(vertical.width / vertical.height - 9 / 16)).toBeLessThan(0.02);
    expect(Math.abs(vertical.duration - h.length_seconds)).toBeLessThan(0.3);
    const horizontal = await probeUrl(h.video.horizontal, join(dir, `${h.id}-h.mp4`));
    expect(Math.abs(horizontal.width / horizontal.height - 16 / 9)).toBeLessThan(0.02);
    expect(horizontal.height).toBeLessThanOrEqual(360);
    expect(h.video['720p']).toBeNull();
    expect((await probeUrl(h.video['144p'], join(dir, `${h.id}-144.mp4`))).height).toBe(144);
    const shot = s.shots.data.find((x: { id: string }) => x.id === h.shot);
    expect(h.is_lowlight).toBe(shot.made === false);
    expect(shot.highlight).toBe(h.id);
  }
  for (const name of ['actions', 'balls', 'hoops', 'clusters']) expect((await fetch(s.artifacts[name])).status).toBe(200);
  // a tampered media signature is refused
  expect((await fetch(s.video.url.replace(/signature=[^&]+/, 'signature=forged'))).status).toBe(403);
});

const failures: Array<[string, string]> = [
  ['missing.mp4', 'source_unavailable'],
  ['not-a-video.mp4', 'source_invalid'],
  ['too-tall.mp4', 'video_too_large'],
  ['no-shots.mp4', 'no_shots'],
  ['no-hoop.mp4', 'no_hoops'],
  // a download that stops sending is the source's failure (SWISH_OUTBOUND_IDLE_SECONDS), before the stage's watchdog
  ['stall.mp4', 'source_unavailable'],
];

test('every failure fails the session with its code, voids the hold and records the event', async ({ request }) => {
  const org = await createOrg(10_000);
  const ids = [];
  for (const [name] of failures) ids.push(await submit(request, org, fixtures.url(name)));
  for (const [i, [name, code]] of failures.entries()) {
    const s = await waitFinished(request, org, ids[i]);
    expect(s.status, name).toBe('failed');
    expect(s.error.code, name).toBe(code);
    expect(s.error.message.length).toBeGreaterThan(0);
    expect(s.cost_cents).toBeNull();
    expect(s.shots.total_count).toBe(0);
    // a video that was probed before it failed keeps its measured length and size
    if (code !== 'source_unavailable' && code !== 'source_invalid') {
      expect(s.duration_seconds, name).toBeGreaterThan(0);
      expect(s.video.width, name).toBeGreaterThan(0);
    } else expect(s.duration_seconds, name).toBeNull();
  }
  // a link to a web page says so, not just "not a video"
  expect((await waitFinished(request, org, ids[failures.findIndex(([n]) => n === 'not-a-video.mp4')])).error.message).toMatch(/not a video/);
  const balance = await (await request.get('/v1/balance', { headers: org.auth })).json();
  expect(balance).toMatchObject({ credit_cents: 10_000, held_cents: 0, available_cents: 10_000 });
  const usage = await (await request.get('/v1/usage?status=voided', { headers: org.auth })).json();
  expect(usage.total_count).toBe(failures.length);
  const events = await (await request.get('/v1/events?type=session.failed&limit=100', { headers: org.auth })).json();
  expect(events.total_count).toBe(failures.length);
  for (const e of events.data) expect(e.data.object.error.code).toBe(failures[ids.indexOf(e.data.object.id)][1]);
});

/** Kills (SIGKILL) every process of this machine whose command line contains all of `needles`; returns how many. */
function killProcesses(...needles: string[]): number {
  let killed = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (needles.every((n) => cmdline.includes(n))) {
        process.kill(Number(pid), 'SIGKILL');
        killed += 1;
      }
    } catch {
      // gone already, or not ours to read
    }
  }
  return killed;
}

test('an analysis that keeps crashing (killed like an out-of-memory process) fails as unknown after the retries', async ({ request }) => {
  const org = await createOrg(10_000);
  const id = await submit(request, org, fixtures.url('game.mp4'));
  // the analyser runs as a child process (analysis/job.ts) whose arguments name the session's
  // work directory: kill it every time it starts, as the kernel's OOM killer would (and only
  // it: the source step's ffprobe names the session too)
  let kills = 0;
  const killer = setInterval(() => (kills += killProcesses('analysis/job.ts', id)), 100);
  let s;
  try {
    s = await waitFinished(request, org, id);
  } finally {
    clearInterval(killer);
  }
  expect(s.status).toBe('failed');
  expect(kills).toBeGreaterThanOrEqual(4); // the first attempt and 3 retries
  expect(s.error.code).toBe('unknown');
  // the customer gets the generic message, never the internals (stderr, paths) of the crash
  expect(s.error.message).toBe('Processing failed because of an internal error.');
  expect(s.cost_cents).toBeNull();
  const balance = await (await request.get('/v1/balance', { headers: org.auth })).json();
  expect(balance).toMatchObject({ credit_cents: 10_000, held_cents: 0 });
  const events = await (await request.get(`/v1/events?session=${id}`, { headers: org.auth })).json();
  expect(events.data.map((e: { type: string }) => e.type)).toEqual(['session.failed']);
});
