/**
 * `npm run bench:webhooks`: webhook fan-out on the embedded engine. The service's Inngest
 * functions are served by the SDK's handler — the one the Next.js route uses, registered
 * for in-process calls as the route registers it, and the Node handler on a loopback port —
 * and driven by the embedded engine with its default settings (as `npm start` creates it,
 * minus Next.js around /api/inngest; SWISH_ENGINE_IN_PROCESS=0 for HTTP), on an embedded
 * PostgreSQL of its own. The bench plays the processing pipeline — it records
 * events in the event log and announces them with `swish/event.recorded` through
 * PostgreSQL, as another process would — and runs 3 local receivers (subscribed endpoints
 * of one organization) that answer 200 at once.
 *
 * Two runs:
 * - burst: BENCH_EVENTS events (default 1,000, so 3,000 deliveries) recorded at once — the
 *   throughput (deliveries/s) and how long the backlog takes to drain;
 * - paced: BENCH_PACED_EVENTS events (default 200) at BENCH_RATE per second (default 10) —
 *   the latency a steady flow of events sees.
 * The machine's load average is printed with the figures: wall-clock figures mean little on a
 * busy machine. The CPU time per delivery — of this process (engine, SDK, functions,
 * receivers) and of PostgreSQL (from /proc, Linux) — varies much less with the load.
 * Profile with `node --cpu-prof --cpu-prof-dir=<dir> --import tsx src/bench/webhooks.ts`
 * (BENCH_EVENTS=300 keeps the profile small) and open the .cpuprofile in Chrome's DevTools.
 * Latency is from the event's commit to the receiver having the whole request (the 2xx
 * follows at once). Each delivery's signature is checked for a sample of requests.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { serve as serveFetch } from 'inngest/next';
import { serve } from 'inngest/node';
import { Webhook } from 'standardwebhooks';
import { closeDb, getDb } from '../server/db/client';
import { ensureDatabase } from '../server/db/bootstrap';
import { groups, sessions } from '../server/db/schema';
import { recordEvent, type ApiEvent } from '../server/domain/events/events';
import { newId } from '../server/domain/ids';
import { createOrganization } from '../server/domain/organizations/organizations';
import { toApiSessions } from '../server/domain/sessions/serialize';
import { createWebhookEndpoint } from '../server/domain/webhooks/endpoints';
import { startLocalReceiver, type LocalReceiver } from '../server/domain/webhooks/local-receiver';
import { inngest } from '../server/jobs/client';
import { createEmbeddedEngine, sendEventsToEmbeddedEngine, type EmbeddedEngine } from '../server/jobs/engine/engine';
import { registerInProcessServe } from '../server/jobs/engine/in-process';
import { functions } from '../server/jobs/functions';

const DATA_DIR = process.env.BENCH_DATA_DIR ?? '.data/bench-webhooks';
const DB_PORT = process.env.BENCH_DB_PORT ?? '54379';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);

const RATE = Number(process.env.BENCH_RATE ?? 10);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 200);
const RECEIVERS = 3;
let verified = 0;
let badSignatures = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * CPU time (ms) of the embedded PostgreSQL so far: the postmaster, its live backends, and
 * the children it has reaped (from /proc; null where there is no /proc). Wall-clock figures
 * swing with whatever else runs on the machine, CPU per delivery much less.
 */
function postgresCpuMs(): number | null {
  try {
    const pid = Number(readFileSync(join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const fields = (p: string) => readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    const tick = 1000 / 100; // USER_HZ
    const own = fields(String(pid));
    // after "comm)": state ppid … utime(11) stime(12) cutime(13) cstime(14), 0-based
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const f = fields(d);
        if (Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // the process ended meanwhile
      }
    }
    return ticks * tick;
  } catch {
    return null;
  }
}

interface RunFigures {
  /** CPU ms per delivery of this process (engine, SDK, functions, receivers) and of PostgreSQL. */
  nodeCpuMs: number;
  pgCpuMs: number | null;
  deliveries: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Seconds the bench took to record and announce the events (part of the latency of the first ones). */
  recordedIn: number;
}

async function run(
  name: string,
  opts: { orgId: string; session: Awaited<ReturnType<typeof toApiSessions>>[number]; receivers: LocalReceiver[]; secrets: string[]; paced: boolean; events: number },
): Promise<RunFigures> {
  const EVENTS = opts.events;
  const db = getDb();
  const recordedAt = new Map<string, number>();
  const before = opts.receivers.map((r) => r.received.length);
  const started = Date.now();
  const cpu0 = process.cpuUsage();
  const pg0 = postgresCpuMs();
  const record = async (): Promise<ApiEvent> => {
    const event = await recordEvent(db, { organizationId: opts.orgId, type: 'session.processed', session: opts.session });
    recordedAt.set(event.id, Date.now());
    return event;
  };
  const announce = (events: ApiEvent[]) =>
    sendEventsToEmbeddedEngine(events.map((e) => ({ name: 'swish/event.recorded', data: { event_id: e.id, organization_id: opts.orgId } })));
  if (opts.paced) {
    const interval = 1000 / RATE;
    for (let i = 0; i < EVENTS; i++) {
      const due = started + i * interval;
      if (due > Date.now()) await sleep(due - Date.now());
      await announce([await record()]);
    }
  } else {
    const events: ApiEvent[] = [];
    for (let i = 0; i < EVENTS; i++) events.push(await record());
    for (let i = 0; i < events.length; i += 200) await announce(events.slice(i, i + 200));
  }
  const recordedIn = (Date.now() - started) / 1000;
  const expected = EVENTS * opts.receivers.length;
  const deadline = Date.now() + 1_800_000;
  const count = () => opts.receivers.reduce((n, r, i) => n + r.received.length - before[i], 0);
  while (count() < expected) {
    if (Date.now() > deadline) throw new Error(`${name}: only ${count()} of ${expected} deliveries arrived in 30 minutes`);
    await sleep(100);
  }
  const latencies: number[] = [];
  let last = 0;
  opts.receivers.forEach((r, i) => {
    const hits = r.received.slice(before[i]);
    hits.forEach((hit, k) => {
      const t0 = recordedAt.get(hit.headers['webhook-id']);
      if (t0 === undefined) throw new Error(`${name}: unexpected webhook-id ${hit.headers['webhook-id']}`);
      latencies.push(hit.at - t0);
      last = Math.max(last, hit.at);
    });
    const ids = new Set(hits.map((h) => h.headers['webhook-id']));
    if (ids.size !== EVENTS) throw new Error(`${name}: receiver ${i} got ${ids.size} distinct events of ${EVENTS}`);
  });
  const cpu = process.cpuUsage(cpu0);
  const pg1 = postgresCpuMs();
  latencies.sort((a, b) => a - b);
  const seconds = (last - started) / 1000;
  const n = latencies.length;
  return {
    nodeCpuMs: (cpu.user + cpu.system) / 1000 / n,
    pgCpuMs: pg0 === null || pg1 === null ? null : (pg1 - pg0) / n,
    recordedIn,
    deliveries: latencies.length, seconds, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] };
}

/**
 * The functions behind /api/inngest on a loopback port, and the engine (default settings)
 * calling them — in-process, as under `npm start`, where the route module registers its
 * handler (SWISH_ENGINE_IN_PROCESS=0: over HTTP).
 */
async function startJobs(): Promise<{ engine: EmbeddedEngine; stop: () => Promise<void> }> {
  let handler: ReturnType<typeof serve> | undefined;
  const server: Server = createServer((req, res) => (handler ? void handler(req, res) : void res.writeHead(503).end()));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`;
  const engine = await createEmbeddedEngine({ appUrl, exportEnv: true });
  inngest.setEnvVars();
  handler = serve({ client: inngest, functions });
  const route = serveFetch({ client: inngest, functions });
  registerInProcessServe((req) => route(req as Parameters<typeof route>[0], undefined));
  await engine.start();
  return {
    engine,
    stop: async () => {
      await engine.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  process.env.DATA_DIR = DATA_DIR;
  process.env.SWISH_DB_PORT = DB_PORT;
  process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
  delete process.env.DATABASE_URL;
  const database = await ensureDatabase({ mode: 'owner' });
  const jobs = await startJobs();
  const receivers: LocalReceiver[] = [];
  try {
    const db = getDb();
    const org = await createOrganization(db, { name: 'Webhook bench', grantCents: 0 });
    const [group] = await db.select().from(groups).where(and(eq(groups.organizationId, org.id), eq(groups.isDefault, true)));
    const [row] = await db
      .insert(sessions)
      .values({ id: newId('session'), organizationId: org.id, groupId: group.id, status: 'processed', sourceType: 'url', sourceUrl: 'https://videos.example.com/g.mp4', durationSeconds: 2400, costCents: 334, runVersion: 1 })
      .returning();
    const [session] = await toApiSessions(db, [row]);
    const secrets: string[] = [];
    for (let i = 0; i < RECEIVERS; i++) {
      const r = await startLocalReceiver(`/hook/${i}`);
      receivers.push(r);
      const secret = (await createWebhookEndpoint(db, { organizationId: org.id, input: { url: r.url } })).secret;
      secrets.push(secret);
      // check a sample of signatures as they arrive (the library also checks the timestamp is recent)
      const wh = new Webhook(secret);
      r.reply((hit, n) => {
        if (n % 25 === 1) {
          try {
            wh.verify(hit.body, hit.headers);
            verified++;
          } catch {
            badSignatures++;
          }
        }
        return { status: 200, body: 'ok' };
      });
    }

    // warm-up: the first requests load routes and open connections
    const ctx = { orgId: org.id, session, receivers, secrets };
    await runWarmUp(ctx);

    const loadBefore = loadavg()[0];
    const burst = await run('burst', { ...ctx, paced: false, events: EVENTS });
    const paced = await run('paced', { ...ctx, paced: true, events: PACED_EVENTS });
    const loadAfter = loadavg()[0];
    const ms = (v: number) => `${Math.round(v)} ms`;
    console.log(`\nbench:webhooks — ${RECEIVERS} receivers, embedded engine with default settings (${process.env.SWISH_ENGINE_IN_PROCESS === '0' ? 'over HTTP' : 'in-process'}); ${cpus().length} CPUs, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}\n`);
    const cpu = (f: RunFigures) => `${f.nodeCpuMs.toFixed(1)} ms | ${f.pgCpuMs === null ? '–' : `${f.pgCpuMs.toFixed(1)} ms`}`;
    console.log('| run | deliveries | deliveries/s | p50 latency | p99 latency | max | recorded in | drained in | CPU/delivery: node | CPU/delivery: PostgreSQL |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    console.log(`| burst: ${EVENTS} events at once | ${burst.deliveries} | ${burst.perSecond.toFixed(1)} | ${ms(burst.p50)} | ${ms(burst.p99)} | ${ms(burst.max)} | ${burst.recordedIn.toFixed(1)} s | ${burst.seconds.toFixed(1)} s | ${cpu(burst)} |`);
    console.log(`| paced: ${PACED_EVENTS} events at ${RATE}/s | ${paced.deliveries} | ${paced.perSecond.toFixed(1)} | ${ms(paced.p50)} | ${ms(paced.p99)} | ${ms(paced.max)} | ${paced.recordedIn.toFixed(1)} s | ${paced.seconds.toFixed(1)} s | ${cpu(paced)} |`);
    console.log(`\nSignatures checked on arrival: ${verified} valid, ${badSignatures} invalid.`);
    const goal = (f: RunFigures) => (f.p50 < 1000 ? 'met' : 'NOT met');
    console.log(`Goal p50 < 1 s: burst ${goal(burst)}, paced ${goal(paced)}`);
    if (badSignatures > 0) throw new Error('some deliveries did not verify');
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    await jobs.stop();
    await closeDb();
    await database.stop();
  }
}

async function runWarmUp(ctx: { orgId: string; session: Awaited<ReturnType<typeof toApiSessions>>[number]; receivers: LocalReceiver[]; secrets: string[] }) {
  const db = getDb();
  const before = ctx.receivers.map((r) => r.received.length);
  for (let i = 0; i < 5; i++) {
    const event = await recordEvent(db, { organizationId: ctx.orgId, type: 'session.processed', session: ctx.session });
    await sendEventsToEmbeddedEngine({ name: 'swish/event.recorded', data: { event_id: event.id, organization_id: ctx.orgId } });
  }
  const deadline = Date.now() + 300_000;
  while (ctx.receivers.some((r, i) => r.received.length - before[i] < 5)) {
    if (Date.now() > deadline) throw new Error('warm-up deliveries did not arrive');
    await sleep(100);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
