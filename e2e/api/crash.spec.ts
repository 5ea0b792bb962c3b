import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { renderSyntheticGame } from '../../src/server/analysis/synth/render';
import { swishCliAt } from '../helpers';
import { startFixtureServer, type FixtureServer } from '../media-fixtures';

/**
 * kill -9 of the whole service while a session is processing: on restart the embedded
 * engine resumes the run from its last finished step; the session is processed once and
 * charged once. And a graceful stop (SIGTERM, as a rolling deploy sends) that lets the
 * requests in flight finish.
 */
test.describe.configure({ timeout: 400_000 });

// its own server, on ports derived from the suite's (E2E_PORT / E2E_DB_PORT) so parallel suites never collide
const PORT = Number(process.env.E2E_PORT ?? 3100) + 20;
const DATA_DIR = `${process.env.E2E_DATA_DIR ?? '.data/e2e'}-crash`;
const DB_PORT = String(Number(process.env.E2E_DB_PORT ?? 54349) + 40);
const base = `http://127.0.0.1:${PORT}`;

function startServer(): ChildProcess {
  return spawn('node', ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR,
      SWISH_DB_PORT: DB_PORT,
      SWISH_ALLOW_PRIVATE_SOURCES: '1',
      SWISH_ENGINE_LEASE_MS: '3000',
      SWISH_PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: 'ignore',
  });
}

async function healthy() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start');
}

let fixtures: FixtureServer;
let server: ChildProcess | undefined;

test.afterAll(async () => {
  // a graceful stop, so the server also stops its embedded PostgreSQL
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await fixtures?.close();
});

/** Stops a PostgreSQL left running in DATA_DIR by an aborted earlier run, so the fresh start can initdb. */
async function stopLeftoverPostgres() {
  try {
    const pid = Number(readFileSync(join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGQUIT'); // immediate shutdown: the directory is deleted next
    for (let i = 0; i < 50; i++) {
      process.kill(pid, 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch {
    // no pid file, or the process is gone
  }
}

test('a session survives kill -9 of the server mid-processing and is charged once', async () => {
  await stopLeftoverPostgres();
  rmSync(DATA_DIR, { recursive: true, force: true });
  const dir = join('test-results', 'crash-fixtures');
  fixtures = await startFixtureServer(dir, { only: [] });
  await renderSyntheticGame({ seed: 8, width: 640, height: 360, durationSeconds: 45 }, join(dir, 'long.mp4'));
  server = startServer();
  await healthy();
  const org = await swishCliAt({ DATA_DIR, SWISH_DB_PORT: DB_PORT }, ['orgs:create', '--name', 'Crash', '--grant-cents', '10000']);
  // this test polls often: a key without the per-minute limit (an operator setting)
  const key = await swishCliAt({ DATA_DIR, SWISH_DB_PORT: DB_PORT }, ['keys:create', '--org', org.id, '--env', 'production', '--no-rate-limit']);
  const auth = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
  const created = await (await fetch(`${base}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ source: { url: fixtures.url('long.mp4') } }) })).json();

  // wait until the pipeline is past the source stage and into the analysis, then kill everything
  for (let i = 0; ; i++) {
    const s = await (await fetch(`${base}/v1/sessions/${created.id}`, { headers: auth })).json();
    if (s.status === 'processing' && s.video.url === null) {
      const events = await (await fetch(`${base}/v1/usage`, { headers: auth })).json();
      expect(events.data[0].status).toBe('held');
      await new Promise((r) => setTimeout(r, 3000));
      break;
    }
    expect(i).toBeLessThan(240);
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill('SIGKILL');
  await new Promise((r) => server!.once('exit', r));

  server = startServer();
  await healthy();
  let s;
  for (let i = 0; ; i++) {
    s = await (await fetch(`${base}/v1/sessions/${created.id}`, { headers: auth })).json();
    if (s.status === 'processed' || s.status === 'failed') break;
    expect(i, 'session finishes after the restart').toBeLessThan(600);
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(s.status, JSON.stringify(s.error)).toBe('processed');
  const usage = await (await fetch(`${base}/v1/usage`, { headers: auth })).json();
  expect(usage.total_count).toBe(1);
  expect(usage.data[0]).toMatchObject({ status: 'settled', cost_cents: s.cost_cents });
  const balance = await (await fetch(`${base}/v1/balance`, { headers: auth })).json();
  expect(balance).toMatchObject({ credit_cents: 10_000 - s.cost_cents, held_cents: 0 });
  const events = await (await fetch(`${base}/v1/events?session=${created.id}`, { headers: auth })).json();
  expect(events.total_count).toBe(1);
  // rows were written once: one highlight per shot
  expect(s.highlights.total_count).toBe(s.shots.total_count);
});

test('SIGTERM lets a request in flight finish, takes no new connection, then exits', async () => {
  if (!server || server.exitCode !== null) {
    server = startServer();
    await healthy();
  }
  const org = await swishCliAt({ DATA_DIR, SWISH_DB_PORT: DB_PORT }, ['orgs:create', '--name', 'Shutdown', '--grant-cents', '10000']);
  const key = await swishCliAt({ DATA_DIR, SWISH_DB_PORT: DB_PORT }, ['keys:create', '--org', org.id, '--env', 'production']);
  const body = JSON.stringify({ source: { url: 'https://videos.example.com/game.mp4' }, duration_seconds: 60, metadata: { note: 'sent across a shutdown' } });
  const half = Math.floor(body.length / 2);

  // a POST whose body is still arriving when the server is told to stop
  const req = request(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, half));
  await new Promise((r) => setTimeout(r, 500));
  const exited = new Promise<number | null>((r) => server!.once('exit', (code) => r(code)));
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));

  // the listener is closed: a new connection is refused
  await expect(fetch(`${base}/api/health`)).rejects.toThrow();

  req.end(body.slice(half));
  const { status, text } = await answered;
  expect(status, text).toBe(201);
  expect(JSON.parse(text)).toMatchObject({ object: 'session', status: 'queued', metadata: { note: 'sent across a shutdown' } });
  expect(await exited).toBe(0);

  // and it was really stored: after a restart the session is there
  server = startServer();
  await healthy();
  const listed = await (await fetch(`${base}/v1/sessions`, { headers: { authorization: `Bearer ${key.secret}` } })).json();
  expect(listed.data.map((s: { id: string }) => s.id)).toEqual([JSON.parse(text).id]);
});
