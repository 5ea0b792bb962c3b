/**
 * `npm run bench:api`: throughput and latency of the /v1 API against a production build
 * with seeded data, next to the floor of this stack (plain Next.js route handlers running
 * the same domain functions), measured in the same run and printed as a ratio.
 *
 * Seeds: one session with 100 shots, 100 highlights and 10 players; 100 more sessions
 * with 10 of each. The bench key has its rate limit lifted through the per-key setting.
 *
 * Per case: a warm-up of each side, each side at 1 connection (latency without a queue, CPU per
 * request), then /v1 and the floor at BENCH_CONNECTIONS (32) in turn (see `inTurn`). POSTs carry unique
 * Idempotency-Keys across the whole run (a reused key would be a replay, or a 400 on the
 * other side's path), and their sessions are processed in the background meanwhile (each
 * fails at its unreachable source), on both sides alike.
 *
 * Besides req/s, each side's CPU per request at 1 connection: the server process's CPU seconds
 * over the run (from /proc, Linux) divided by the requests it answered. Throughput on a shared
 * machine moves with whatever else runs; CPU per request much less, so the CPU ratio (floor ÷
 * /v1) is the steadier comparison of the two sides' work. PostgreSQL's CPU (its own processes)
 * is left out: both sides run the same SQL.
 */
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { procCpuSeconds } from './cpu';
import { benchOrganization, startBenchServer, stopBenchServer } from './server';
import { closeDb, getDb } from '../server/db/client';
import { newId } from '../server/domain/ids';
import { highlights, players, sessions, shots, usageEvents } from '../server/db/schema';

const PORT = Number(process.env.BENCH_PORT ?? 3300);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? '.data/bench-api';
const DB_PORT = process.env.BENCH_DB_PORT ?? '54369';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const base = `http://127.0.0.1:${PORT}`;

const box = { points: 4, fg_2pt_att: 3, fg_2pt_make: 2, fg_3pt_att: 1, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 1, rebound: 2 };

async function seedSession(orgId: string, groupId: string, n: { shots: number; highlights: number; players: number }) {
  const db = getDb();
  const id = newId('session');
  await db.insert(sessions).values({
    id, organizationId: orgId, groupId, status: 'processed', sourceType: 'url', sourceUrl: 'https://videos.example.com/g.mp4',
    metadata: { opponent: 'Eagles' }, runVersion: 1, durationSeconds: 2400, costCents: 334, width: 1280, height: 720, fps: 30,
    video: { original: `sessions/${id}/original.mp4`, '720p': `sessions/${id}/720p.mp4`, '360p': `sessions/${id}/360p.mp4`, preview: `sessions/${id}/preview.jpg` },
    totals: box,
  });
  await db.insert(usageEvents).values({
    id: newId('usageEvent'), organizationId: orgId, sessionId: id, groupId, status: 'settled', heldSeconds: 2400, heldCents: 334,
    quantitySeconds: 2400, rateCentsPerHour: 500, costCents: 334, settledAt: new Date(),
  });
  const playerIds = Array.from({ length: n.players }, () => newId('player'));
  if (playerIds.length) {
    await db.insert(players).values(playerIds.map((pid, i) => ({ id: pid, sessionId: id, name: `Player ${i}`, jersey: String(i + 3), teamId: i % 2, stats: box })));
  }
  const shotRows = Array.from({ length: n.shots }, (_, i) => ({
    id: newId('shot'), sessionId: id, index: i, startSeconds: i * 20, endSeconds: i * 20 + 3, made: i % 2 === 0, points: i % 2 === 0 ? 2 : 0,
    isThreePoint: false, shotImageNormed: [0.4, 0.6], shotWorldNormed: [0.5, 0.3], hoopImageNormed: [0.5, 0.2], excitementScore: 0.5,
    scorerId: playerIds[i % Math.max(1, playerIds.length)] ?? null,
  }));
  if (shotRows.length) await db.insert(shots).values(shotRows);
  const hl = shotRows.slice(0, n.highlights).map((s, i) => ({
    id: newId('highlight'), sessionId: id, shotId: s.id, shotIndex: i, lengthSeconds: 6, playerId: s.scorerId,
    video: { default: `sessions/${id}/hl/${i}/default.mp4`, horizontal: `sessions/${id}/hl/${i}/h.mp4`, '720p': `sessions/${id}/hl/${i}/720p.mp4` },
    preview: { default: `sessions/${id}/hl/${i}/p.jpg` },
  }));
  if (hl.length) await db.insert(highlights).values(hl);
  return id;
}

let keyCounter = 0;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One run's figures with the server process's CPU milliseconds per answered request (NaN where /proc is missing). */
type Measured = Figures & { cpuMs: number };

let serverStat = '/proc/self/stat';
const serverCpu = () => procCpuSeconds(serverStat)?.own ?? Number.NaN;

type Load = { connections?: number; seconds?: number };

/**
 * Waits until the server is idle (under 10 % of a core over 250 ms, at most 20 s). autocannon
 * ends a run by closing its connections, but the server still finishes the requests they had
 * sent: at 32 connections a page of 100 sessions leaves up to 32 of them, seconds of work, which
 * would otherwise be done during, and counted against, the next side's run.
 */
async function serverIdle(): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = serverCpu();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = serverCpu();
    if (!(now - last > 0.025)) return; // also ends at once where /proc is missing (NaN)
    last = now;
  }
  console.log('  (the server was still busy 20 s after the run)');
}

async function load(path: string, opts: { method?: 'GET' | 'POST'; auth: string; body?: () => string } & Load): Promise<Measured> {
  let n = 0;
  const cpuBefore = serverCpu();
  const result = await autocannon({
    url: base + path,
    connections: opts.connections ?? CONNECTIONS,
    duration: opts.seconds ?? DURATION,
    method: opts.method ?? 'GET',
    headers: { authorization: opts.auth, 'content-type': 'application/json' },
    requests: opts.body
      ? [{ setupRequest: (req: any) => ({ ...req, body: opts.body!(), headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${keyCounter + n++}` } }) }]
      : undefined,
  });
  await serverIdle(); // the requests still in flight at the end are this run's work, and the next run starts on an idle server
  const cpuMs = ((serverCpu() - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  keyCounter += n;
  if (result.non2xx > 0) console.log(`  ${path}: answers by status (some not 2xx) ${JSON.stringify(result.statusCodeStats)}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors, cpuMs };
}

/**
 * The two sides in turn, in the given order of slices; req/s and the errors are the slices'
 * totals over their time, p50 and p99 the means of the slices'. The GET cases run one slice of
 * each: nothing else loads the machine then. The POST case runs floor, /v1, /v1, floor in
 * half-length slices: its sessions are processed in the background while it runs, a load that
 * grows over the case and so falls on both sides alike. (Slices must stay long against the
 * latency: a page of 100 sessions takes seconds at 32 connections, and requests still in
 * flight when a slice ends do not count; each slice starts on an idle server, `serverIdle`.)
 */
async function inTurn(
  order: Array<'api' | 'floor'>,
  api: (l: Load) => Promise<Figures>,
  floor: (l: Load) => Promise<Figures>,
): Promise<{ api: Figures; floor: Figures }> {
  const seconds = (DURATION * 2) / order.length;
  const slices = { api: [] as Figures[], floor: [] as Figures[] };
  for (const side of order) slices[side].push(await (side === 'api' ? api : floor)({ seconds }));
  const merge = (f: Figures[]): Figures => ({
    rps: f.reduce((s, x) => s + x.rps, 0) / f.length,
    p50: Math.round(f.reduce((s, x) => s + x.p50, 0) / f.length),
    p99: Math.round(f.reduce((s, x) => s + x.p99, 0) / f.length),
    errors: f.reduce((s, x) => s + x.errors, 0),
  });
  const rates = (f: Figures[]) => f.map((x) => x.rps.toFixed(0)).join(', ');
  if (order.length > 2) console.log(`  slices (req/s): floor ${rates(slices.floor)}; /v1 ${rates(slices.api)}`);
  return { api: merge(slices.api), floor: merge(slices.floor) };
}

async function main() {
  console.log(`bench:api — ${CONNECTIONS} connections, ${DURATION} s per side and case, production build on :${PORT}; load average ${loadavg()[0].toFixed(1)}`);
  const server = await startBenchServer({ port: PORT, dataDir: DATA_DIR, dbPort: DB_PORT, env: { SWISH_BENCH_FLOOR: '1' } });
  serverStat = `/proc/${server.pid}/stat`;
  try {
    const { org, key } = await benchOrganization({ dataDir: DATA_DIR, dbPort: DB_PORT, grantCents: 1_000_000_000 });
    const auth = `Bearer ${key.secret}`;
    const big = await seedSession(org.id, org.defaultGroupId, { shots: 100, highlights: 100, players: 10 });
    for (let i = 0; i < 100; i++) await seedSession(org.id, org.defaultGroupId, { shots: 10, highlights: 10, players: 10 });
    await closeDb();
    const body = () => JSON.stringify({ source: { url: 'https://videos.example.com/g.mp4' }, duration_seconds: 60 });

    type Side = (l: Load) => Promise<Measured>;
    const once: Array<'api' | 'floor'> = ['floor', 'api'];
    const cases: Array<[string, Side, Side, Array<'api' | 'floor'>]> = [
      ['GET /v1/sessions/{id} (100 shots, 100 highlights, 10 players)', (l) => load(`/v1/sessions/${big}`, { auth, ...l }), (l) => load(`/bench/floor/sessions/${big}`, { auth, ...l }), once],
      ['GET /v1/sessions?limit=100', (l) => load('/v1/sessions?limit=100', { auth, ...l }), (l) => load('/bench/floor/sessions?limit=100', { auth, ...l }), once],
      [
        'POST /v1/sessions (unique Idempotency-Key)',
        (l) => load('/v1/sessions', { method: 'POST', auth, body, ...l }),
        (l) => load('/bench/floor/sessions', { method: 'POST', auth, body, ...l }),
        ['floor', 'api', 'api', 'floor'],
      ],
    ];
    const rows = [];
    const alone = [];
    for (const [name, api, floor, order] of cases) {
      await api({ seconds: 5 }); // warm-up: JIT, connection pool, route compilation
      await floor({ seconds: 5 });
      // At 1 connection: latency without queueing (at 32 connections a request waits for the ones
      // ahead of it, latency ≈ connections ÷ throughput, so p99 there is mostly the queue), and
      // CPU per request with at most one request cut off at the end (at 32 connections a page of
      // 100 sessions leaves up to 32 of its ~100 requests unanswered, their CPU still spent).
      alone.push({ case: name, api: await api({ connections: 1 }), floor: await floor({ connections: 1 }) });
      const { api: a, floor: f } = await inTurn(order, api, floor);
      rows.push({ case: name, api: a, floor: f });
      console.log(
        `${name}\n  /v1:   ${a.rps.toFixed(0)} req/s  p50 ${a.p50} ms  p99 ${a.p99} ms  errors ${a.errors}\n  floor: ${f.rps.toFixed(0)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  errors ${f.errors}\n  ratio (req/s /v1 ÷ floor): ${(a.rps / f.rps).toFixed(2)}`,
      );
    }
    console.log('\n| case (1 connection) | /v1 req/s | p50 | p99 | CPU ms/req | floor CPU ms/req | CPU ratio (floor ÷ /v1) |\n|---|---|---|---|---|---|---|');
    for (const r of alone) {
      console.log(
        `| ${r.case} | ${r.api.rps.toFixed(0)} | ${r.api.p50} ms | ${r.api.p99} ms | ${r.api.cpuMs.toFixed(1)} | ${r.floor.cpuMs.toFixed(1)} | ${(r.floor.cpuMs / r.api.cpuMs).toFixed(2)} |`,
      );
    }
    console.log('\n| case | /v1 req/s | p50 | p99 | floor req/s | p50 | p99 | ratio |\n|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(`| ${r.case} | ${r.api.rps.toFixed(0)} | ${r.api.p50} ms | ${r.api.p99} ms | ${r.floor.rps.toFixed(0)} | ${r.floor.p50} ms | ${r.floor.p99} ms | ${(r.api.rps / r.floor.rps).toFixed(2)} |`);
    }
  } finally {
    await stopBenchServer(server);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
