import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import postgres from 'postgres';
import { exportEmbeddedEnv } from './env';
import { toEngineFunction, type EngineFunction } from './function-config';
import { inProcessServe, registerInProcessEngine, type FetchHandler } from './in-process';
import { canonicalJson, hashSigningKey, newSigningKey, safeEqual, signBody } from './protocol';
import {
  applyOutcome,
  cancelRunTx,
  checkpointSteps,
  claimBatch,
  dueTimes,
  expireWaits,
  extendLease,
  fireCrons,
  insertEvents,
  loadCallState,
  loadCallStates,
  loadFunctions,
  processEvents,
  pruneHistory,
  releaseItem,
  saveApp,
  type CallOutcome,
  type EventInput,
  type OutgoingOp,
  type QueueItem,
  type RunRow,
  type StepResult,
} from './store';
import { parseDuration, sleepTarget } from './time';

/** Pino-compatible subset, so `logger` from src/server/logger.ts can be passed as is. */
export interface EngineLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug?(obj: object | string, msg?: string): void;
}

export interface EmbeddedEngineOptions {
  /** The app's serve endpoint, e.g. `http://127.0.0.1:3000/api/inngest`. */
  appUrl: string;
  /** Defaults to DATABASE_URL. The engine opens its own small pool (and one LISTEN connection). */
  databaseUrl?: string;
  /** Key the engine signs its calls with; the app must have the same `INNGEST_SIGNING_KEY`. Generated when omitted. */
  signingKey?: string;
  /** Key required on the event API (`POST /e/<key>`). Generated when omitted. */
  eventKey?: string;
  /** Where the engine's SDK-facing API listens (loopback and a free port by default). */
  host?: string;
  port?: number;
  /** Export INNGEST_BASE_URL / INNGEST_SIGNING_KEY / INNGEST_EVENT_KEY into process.env so this process's SDK talks to the engine. */
  exportEnv?: boolean;
  log?: EngineLogger;
  /** Time source for schedules (sleeps, timeouts, crons, backoff); request signatures always use the real clock. */
  clock?: () => number;
  /** How long a claimed call stays owned without a heartbeat; after a crash, work resumes once this ran out. */
  leaseMs?: number;
  /** Longest idle wait between looks at the queue (LISTEN/NOTIFY and local kicks wake it earlier). */
  pollMs?: number;
  /** Retry backoff: base × 2^attempt with jitter, capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Calls to the app in flight at once from this instance. */
  workers?: number;
  /** A call (one step) that takes longer than this is abandoned and retried. */
  callTimeoutMs?: number;
  /** Ended runs and handled events are deleted after this long. */
  retentionMs?: number;
  /**
   * Talk to this process's SDK without a socket (default true, SWISH_ENGINE_IN_PROCESS=0
   * turns it off): calls go to `serve` (or the handler the `/api/inngest` route module
   * registered, see in-process.ts) as `Request` objects, and the SDK's requests to the
   * engine come back the same way. Same signed wire format as over HTTP; HTTP is used
   * whenever no in-process handler is there (e.g. before the route module has loaded).
   */
  inProcess?: boolean;
  /** The serve handler to call in-process (tests, benches); defaults to the registered route's. */
  serve?: FetchHandler;
}

export interface RunSnapshot {
  id: string;
  functionId: string;
  status: RunRow['status'];
  output: unknown;
  error: unknown;
  event: unknown;
  steps: { id: string; result: StepResult }[];
  createdAt: Date;
  endedAt: Date | null;
}

export interface EmbeddedEngine {
  /** Base URL of the engine's SDK-facing API (`/fn/register`, `/e/<key>`). */
  url: string;
  signingKey: string;
  eventKey: string;
  /** The engine's HTTP handler, for mounting it in another server. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The same API as a fetch handler (what the in-process transport calls). */
  handleFetch(req: Request): Promise<Response>;
  /** Syncs the app (fails loudly on unsupported options) and starts working. */
  start(): Promise<void>;
  /** Syncs the app again (PUT on the serve endpoint → POST /fn/register). */
  sync(): Promise<void>;
  /** Sends events without HTTP (same effect as the event API). */
  send(events: EventInput | EventInput[]): Promise<string[]>;
  /** Cancels a running run; false when it had already ended. */
  cancelRun(runId: string): Promise<boolean>;
  getRun(runId: string): Promise<RunSnapshot | null>;
  listRuns(functionId: string): Promise<RunSnapshot[]>;
  /** Resolves when the run has ended (completed, failed or cancelled). */
  waitForRun(runId: string, timeoutMs?: number): Promise<RunSnapshot>;
  /** Wakes the scheduler now (after changing the clock in tests, for instance). */
  kick(): void;
  /** Counters since the start: scheduler passes run (each reads what is due and claims calls). */
  stats(): { passes: number };
  stop(): Promise<void>;
}

const NOTIFY_CHANNEL = 'inngest_engine';
const NOTIFY_WINDOW_MS = 20;
const MAX_BODY = 16 * 1024 * 1024;

const numberEnv = (name: string): number | undefined => {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : Number(v);
};

const silentLog: EngineLogger = { info() {}, warn() {}, error() {} };

/**
 * Creates the embedded Inngest engine and its HTTP listener, without starting work yet:
 * `npm start` creates it before Next.js loads (so the SDK's environment points at it),
 * then calls `start()` once the app listens. Tuning comes from the options or the
 * SWISH_ENGINE_* environment variables (see src/server/jobs/README.md).
 */
export async function createEmbeddedEngine(opts: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  const log = opts.log ?? silentLog;
  const clock = opts.clock ?? Date.now;
  const leaseMs = opts.leaseMs ?? numberEnv('SWISH_ENGINE_LEASE_MS') ?? 30_000;
  const pollMs = opts.pollMs ?? numberEnv('SWISH_ENGINE_POLL_MS') ?? 1_000;
  const retryBaseMs = opts.retryBaseMs ?? numberEnv('SWISH_ENGINE_RETRY_BASE_MS') ?? 5_000;
  const retryMaxMs = opts.retryMaxMs ?? numberEnv('SWISH_ENGINE_RETRY_MAX_MS') ?? 30 * 60_000;
  const workers = opts.workers ?? numberEnv('SWISH_ENGINE_WORKERS') ?? 8;
  const callTimeoutMs = opts.callTimeoutMs ?? numberEnv('SWISH_ENGINE_CALL_TIMEOUT_MS') ?? 3 * 3_600_000;
  const retentionMs = opts.retentionMs ?? (numberEnv('SWISH_ENGINE_RETENTION_DAYS') ?? 7) * 86_400_000;
  const signingKey = opts.signingKey ?? newSigningKey();
  const eventKey = opts.eventKey ?? randomBytes(24).toString('hex');
  const inProcess = opts.inProcess ?? process.env.SWISH_ENGINE_IN_PROCESS !== '0';
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('the embedded Inngest engine needs DATABASE_URL');

  // The engine's bookkeeping (leases, step results, queue items) commits asynchronously: a
  // commit no longer waits for its WAL flush, which was most of the time of an engine call.
  // Losing the last moments of it in a crash only replays steps, which at-least-once
  // execution allows anyway; received events stay synchronous (see insertEvents).
  const sql = postgres(databaseUrl, {
    max: Math.max(4, Math.ceil(workers / 2)),
    onnotice: () => {},
    idle_timeout: 30,
    connection: { synchronous_commit: 'off' },
  });
  const appIds = new Set<string>();
  const inFlight = new Map<Promise<void>, AbortController>();
  let syncing = false;
  let started = false;
  let stopped = false;
  let ticking = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let fnCache: { at: number; fns: Map<string, EngineFunction> } | undefined;
  let prunedAt = 0;
  let passes = 0;
  let calledInProcess = false;
  const runWaiters = new Set<() => void>();

  const functions = async () => {
    if (!fnCache || Date.now() - fnCache.at > 1_000) fnCache = { at: Date.now(), fns: await loadFunctions(sql) };
    return fnCache.fns;
  };

  const backoffMs = (attempt: number) => Math.min(retryMaxMs, retryBaseMs * 2 ** attempt) * (0.75 + Math.random() * 0.25);

  const kick = () => {
    if (!started || stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), 0);
  };

  // Tells other instances (and waitForRun) that something changed. Notifications this
  // instance sent itself are ignored (it already knows), and the changes of a short window
  // (NOTIFY_WINDOW_MS) send one: in a burst, a NOTIFY per finished call was a statement per
  // delivery, and every listening instance woke for each.
  const instanceId = randomBytes(8).toString('hex');
  let notifyQueued = false;
  const notify = () => {
    for (const w of runWaiters) w();
    if (notifyQueued) return;
    notifyQueued = true;
    setTimeout(() => {
      notifyQueued = false;
      if (!stopped) sql.notify(NOTIFY_CHANNEL, instanceId).catch(() => {});
    }, NOTIFY_WINDOW_MS);
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), Math.max(5, delay));
  };

  const EVENT_BATCH = 100;

  /**
   * One scheduler pass: a single query says what is due (events, waits, crons, calls), and
   * only that work is done — events and calls in batches — then the pass sleeps until the
   * next due time (LISTEN/NOTIFY and local kicks wake it earlier).
   */
  async function tick(): Promise<void> {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    passes++;
    let delay = pollMs;
    // the last claim left due calls behind (concurrency limits, a run's call already in flight)
    let blocked = false;
    try {
      let due = await dueTimes(sql, [...appIds], clock());
      for (;;) {
        again = false;
        const now = clock();
        const fns = await functions();
        let changed = false;
        if (due.events !== null) {
          const n = await processEvents(sql, fns, now, EVENT_BATCH);
          if (n > 0) changed = true;
          if (n === EVENT_BATCH) again = true;
        }
        if (due.waits !== null && due.waits <= now && (await expireWaits(sql, now)) > 0) changed = true;
        if (due.crons !== null && due.crons <= now && (await fireCrons(sql, fns, now)) > 0) changed = true;
        const ids = [...appIds];
        // runs just created (changed) have calls due although the look above predates them
        if (ids.length && !stopped && inFlight.size < workers && (changed || (due.calls !== null && due.calls <= clock()))) {
          const free = workers - inFlight.size;
          const items = await claimBatch(sql, ids, clock(), free, () => randomBytes(12).toString('hex'), { leaseMs });
          blocked = items.length < free;
          // the runs and memoised steps of the whole batch in one query
          // (should that fail, each call loads its own and releases its item on error)
          const states = items.length > 1 ? await loadCallStates(sql, items.map((i) => i.run_id)).catch(() => undefined) : undefined;
          for (const item of items) launch(item, states ? (states.get(item.run_id) ?? { run: undefined, steps: [] }) : undefined);
        }
        if (changed) notify();
        if (now - prunedAt > 3_600_000) {
          prunedAt = now;
          await pruneHistory(sql, now - retentionMs);
        }
        due = await dueTimes(sql, ids, clock());
        if (!again || stopped) break;
      }
      const now = clock();
      // Calls still due after a claim that took fewer than it could are waiting for a
      // concurrency slot: asking again at once found nothing and span (a backlog of sessions
      // behind a concurrency limit of 1 made some 650 statements a second). A slot frees when
      // a call ends (its end kicks this instance; other instances NOTIFY), so the pass sleeps
      // until the next call that becomes due later, or pollMs.
      const callsAt = blocked && due.calls !== null && due.calls <= now ? due.laterCalls : due.calls;
      const next = [due.events !== null ? now : null, due.waits, due.crons, inFlight.size < workers ? callsAt : null].filter((v): v is number => v !== null);
      if (next.length) delay = Math.min(pollMs, Math.max(0, Math.min(...next) - now));
    } catch (err) {
      if (!stopped) log.error({ err }, 'inngest engine: scheduler pass failed');
    } finally {
      ticking = false;
      if (again) delay = 0;
      schedule(delay);
    }
  }

  type CallState = Awaited<ReturnType<typeof loadCallState>>;

  function launch(item: QueueItem, state?: CallState) {
    const abort = new AbortController();
    const p: Promise<void> = execute(item, abort.signal, state).finally(() => {
      inFlight.delete(p);
      kick();
    });
    inFlight.set(p, abort);
  }

  async function execute(item: QueueItem, signal: AbortSignal, state?: CallState): Promise<void> {
    const heartbeat = setInterval(() => {
      extendLease(sql, item, clock() + leaseMs).catch((err) => log.warn({ err }, 'inngest engine: lease heartbeat failed'));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    try {
      const { run, steps } = state ?? (await loadCallState(sql, item.run_id));
      const fns = await functions();
      const fn = run ? fns.get(run.function_id) : undefined;
      const ctx = { fn, functions: fns, now: clock(), backoffMs, sleepTarget, parseDuration };
      if (!run || run.status !== 'running' || !fn) {
        await applyOutcome(sql, item, { kind: 'completed', output: null }, ctx);
        return;
      }
      const body = {
        event: run.event,
        events: [run.event],
        steps: Object.fromEntries(steps.map((s) => [s.step_id, s.result])),
        version: 2,
        ctx: {
          run_id: run.id,
          // with these two the SDK checkpoints steps (POST /v1/checkpoint/<run>/async) and
          // goes on within the same call, instead of ending the call after each step
          fn_id: fn.id,
          qi_id: `${item.id}.${item.lease_token}`,
          attempt: item.attempt,
          max_attempts: fn.maxAttempts,
          disable_immediate_execution: run.disable_immediate_execution,
          use_api: false,
          stack: { stack: steps.map((s) => s.step_id), current: steps.length },
        },
      };
      const outcome = await call(fn, item, body, signal);
      if (stopped) {
        await releaseItem(sql, item, clock());
        return;
      }
      await applyOutcome(sql, item, outcome, { ...ctx, now: clock() });
      notify();
    } catch (err) {
      if (!stopped) log.error({ err, runId: item.run_id }, 'inngest engine: call failed unexpectedly; retrying later');
      await releaseItem(sql, item, clock() + (stopped ? 0 : backoffMs(item.attempt))).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * One request to the app's serve endpoint: handed to the in-process serve handler when
   * there is one (the same URL, headers and body as on the wire), over HTTP otherwise.
   */
  async function exchange(url: URL, body: string, headers: Record<string, string>, signal: AbortSignal | undefined, timeoutMs: number, method = 'POST'): Promise<Reply> {
    const serve = inProcess ? (opts.serve ?? inProcessServe()) : undefined;
    if (!serve) return post(url, body, headers, signal, timeoutMs, method);
    if (!calledInProcess) {
      calledInProcess = true;
      log.info({ app: opts.appUrl }, 'inngest engine: calling the app in-process');
    }
    const request = new Request(url, { method, headers, body: method === 'GET' ? undefined : body });
    const res = await bounded(serve(request), signal, timeoutMs);
    const out: Reply['headers'] = {};
    res.headers.forEach((v, k) => (out[k] = v));
    return { status: res.status, headers: out, body: await res.text() };
  }

  const parseRetryAfter = (v: string | undefined): number | undefined => {
    if (!v) return undefined;
    if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t - clock();
  };

  async function call(fn: EngineFunction, item: QueueItem, body: unknown, signal: AbortSignal): Promise<CallOutcome> {
    const url = new URL(opts.appUrl);
    url.searchParams.set('fnId', fn.id);
    url.searchParams.set('stepId', item.step_id ?? 'step');
    const text = canonicalJson(body);
    let res: Reply;
    try {
      res = await exchange(url, text, { 'content-type': 'application/json', 'x-inngest-signature': signBody(text, signingKey) }, signal, callTimeoutMs);
    } catch (err) {
      if (stopped) throw err;
      return { kind: 'error', error: { name: 'Error', message: `calling the app failed: ${(err as Error).message}` }, noRetry: false };
    }
    const noRetry = String(res.headers['x-inngest-no-retry'] ?? '') === 'true';
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'] as string | undefined);
    let parsed: unknown;
    try {
      parsed = res.body ? JSON.parse(res.body) : null;
    } catch {
      parsed = { name: 'Error', message: res.body.slice(0, 2000) };
    }
    if (res.status === 200) return { kind: 'completed', output: parsed };
    if (res.status === 206 && Array.isArray(parsed)) return { kind: 'ops', ops: parsed, noRetry, retryAfterMs };
    const error = parsed && typeof parsed === 'object' ? parsed : { name: 'Error', message: `HTTP ${res.status}: ${String(parsed)}` };
    log.warn({ status: res.status, fnId: fn.id, runId: item.run_id, attempt: item.attempt }, 'inngest engine: call returned an error');
    return { kind: 'error', error, noRetry, retryAfterMs };
  }

  async function registerApp(body: Record<string, unknown>): Promise<void> {
    const appId = String(body.appName ?? '');
    if (!appId) throw new Error('register: appName missing');
    const raw = (body.functions ?? []) as Record<string, unknown>[];
    const fns = raw.map((r) => ({ fn: toEngineFunction(appId, r), raw: r }));
    await saveApp(sql, { id: appId, url: String(body.url ?? ''), sdk: body.sdk as string, framework: body.framework as string }, fns, clock());
    fnCache = undefined;
    if (syncing) appIds.add(appId);
    log.info({ appId, functions: fns.map((f) => f.fn.id) }, 'inngest engine: app synced');
  }

  /** The engine's SDK-facing API, whatever carried the request (HTTP or in-process). */
  async function route(method: string, url: URL, header: (name: string) => string | undefined, readRaw: () => Promise<string>): Promise<{ status: number; payload: unknown }> {
    const reply = (status: number, payload: unknown) => ({ status, payload });
    if (method === 'GET' && url.pathname === '/health') return reply(200, { ok: true });
    if (method !== 'POST') return reply(404, { error: 'not found', status: 404 });
    const raw = await readRaw();
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return reply(400, { error: 'body is not JSON', status: 400 });
    }
    if (url.pathname === '/fn/register') {
      const auth = header('authorization') ?? '';
      if (!safeEqual(auth, `Bearer ${hashSigningKey(signingKey)}`)) return reply(401, { error: 'unauthorized', status: 401 });
      try {
        await registerApp(body as Record<string, unknown>);
        return reply(200, { ok: true, modified: true, status: 200 });
      } catch (err) {
        log.error({ err }, 'inngest engine: sync rejected');
        return reply(400, { error: (err as Error).message, status: 400 });
      }
    }
    const cp = /^\/v1\/checkpoint\/([^/]+)\/async$/.exec(url.pathname);
    if (cp) {
      const auth = header('authorization') ?? '';
      if (!safeEqual(auth, `Bearer ${hashSigningKey(signingKey)}`)) return reply(401, { error: 'unauthorized', status: 401 });
      const b = (body ?? {}) as { qi_id?: unknown; steps?: unknown };
      const runId = decodeURIComponent(cp[1]);
      const qi = typeof b.qi_id === 'string' ? /^(\d+)\.([0-9a-f]+)$/.exec(b.qi_id) : null;
      if (!qi || !Array.isArray(b.steps)) return reply(400, { error: 'checkpoint needs qi_id and steps', status: 400 });
      const ops = b.steps as OutgoingOp[];
      const unsupported = ops.find((op) => op?.op !== 'StepRun' || typeof op.id !== 'string');
      if (unsupported) {
        // the SDK then falls back to replying with the ops, and the engine fails the run naming the op
        log.warn({ runId, op: unsupported?.op }, 'inngest engine: checkpoint with an op it does not implement');
        return reply(400, { error: `the embedded Inngest engine does not checkpoint step op ${String(unsupported?.op)}`, status: 400 });
      }
      const result = await checkpointSteps(sql, { runId, item: { id: qi[1], lease_token: qi[2] }, ops }, clock());
      if (result === 'stale') return reply(409, { error: 'stale dispatch: the call no longer holds its queue item', status: 409 });
      return reply(200, { ok: true, status: 200 });
    }
    const m = /^\/e\/([^/]+)$/.exec(url.pathname);
    if (m) {
      if (!safeEqual(decodeURIComponent(m[1]), eventKey)) return reply(401, { error: 'Event key not found', status: 401 });
      const list = (Array.isArray(body) ? body : [body]) as EventInput[];
      if (!list.every((e) => e && typeof e === 'object' && typeof e.name === 'string' && e.name)) {
        return reply(400, { error: 'every event needs a name', status: 400 });
      }
      const seed = header('x-inngest-event-id-seed');
      const events = list.map((e, i) => (e.id || !seed ? e : { ...e, dedupeKey: `seed:${seed}:${i}` }));
      const ids = await send(events);
      return reply(200, { ids, status: 200 });
    }
    return reply(404, { error: 'not found', status: 404 });
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://engine'), header, () => readBody(req)).then(
      ({ status, payload }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      },
      (err) => {
        log.error({ err }, 'inngest engine: request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'internal error', status: 500 }));
      },
    );
  };

  const handleFetch = async (req: Request): Promise<Response> => {
    let out: { status: number; payload: unknown };
    try {
      out = await route(req.method, new URL(req.url), (name) => req.headers.get(name) ?? undefined, () => req.text());
    } catch (err) {
      log.error({ err }, 'inngest engine: request failed');
      out = { status: 500, payload: { error: 'internal error', status: 500 } };
    }
    return new Response(JSON.stringify(out.payload), { status: out.status, headers: { 'content-type': 'application/json' } });
  };

  async function send(events: EventInput | EventInput[]): Promise<string[]> {
    const ids = await insertEvents(sql, Array.isArray(events) ? events : [events], clock());
    notify();
    kick();
    return ids;
  }

  async function sync(): Promise<void> {
    syncing = true;
    try {
      const res = await exchange(new URL(opts.appUrl), '', {}, undefined, 60_000, 'PUT');
      let message = res.body;
      try {
        message = (JSON.parse(res.body) as { message?: string }).message ?? res.body;
      } catch {
        // keep the raw body
      }
      if (res.status !== 200) throw new Error(`Inngest app sync failed (HTTP ${res.status}): ${message}`);
      if (!appIds.size) throw new Error(`Inngest app sync: the app at ${opts.appUrl} did not register with this engine (is INNGEST_BASE_URL set to ${url}?)`);
    } finally {
      syncing = false;
    }
  }

  const snapshot = async (run: RunRow): Promise<RunSnapshot> => {
    const steps = await sql<{ step_id: string; result: StepResult }[]>`select step_id, result from inngest_steps where run_id = ${run.id} order by seq`;
    return {
      id: run.id,
      functionId: run.function_id,
      status: run.status,
      output: run.output,
      error: run.error,
      event: run.event,
      steps: steps.map((s) => ({ id: s.step_id, result: s.result })),
      createdAt: run.created_at,
      endedAt: run.ended_at,
    };
  };

  async function getRun(runId: string): Promise<RunSnapshot | null> {
    const [run] = await sql<RunRow[]>`select * from inngest_runs where id = ${runId}`;
    return run ? snapshot(run) : null;
  }

  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? numberEnv('SWISH_ENGINE_PORT') ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('engine listener has no address');
  const url = `http://${opts.host ?? '127.0.0.1'}:${address.port}/`;
  if (opts.exportEnv) exportEmbeddedEnv({ engineUrl: url, signingKey, eventKey });
  const unregister = inProcess ? registerInProcessEngine(url, handleFetch) : () => {};

  return {
    url,
    signingKey,
    eventKey,
    handle,
    handleFetch,
    sync,
    send,
    kick,
    stats: () => ({ passes }),
    getRun,
    async start() {
      await sync();
      const listener = await sql.listen(NOTIFY_CHANNEL, (payload) => {
        if (payload !== instanceId) kick();
      });
      unlisten = () => listener.unlisten();
      started = true;
      log.info({ url, app: opts.appUrl, apps: [...appIds] }, 'inngest engine started');
      kick();
    },
    async cancelRun(runId: string) {
      const done = await sql.begin((tx) => cancelRunTx(tx, runId, clock()));
      notify();
      kick();
      return done;
    },
    async listRuns(functionId: string) {
      const runs = await sql<RunRow[]>`select * from inngest_runs where function_id = ${functionId} order by created_at, id`;
      return Promise.all(runs.map(snapshot));
    },
    async waitForRun(runId: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const run = await getRun(runId);
        if (run && run.status !== 'running') return run;
        if (Date.now() > deadline) throw new Error(`run ${runId} still ${run?.status ?? 'missing'} after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, 100);
          function done() {
            clearTimeout(t);
            runWaiters.delete(done);
            resolve();
          }
          runWaiters.add(done);
        });
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const abort of inFlight.values()) abort.abort();
      await Promise.allSettled([...inFlight.keys()]);
      await unlisten?.().catch(() => {});
      unregister();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await sql.end({ timeout: 5 });
    },
  };
}

/** Creates the engine and starts it at once (the app must already be listening). */
export async function startEmbeddedEngine(opts: EmbeddedEngineOptions): Promise<EmbeddedEngine> {
  const engine = await createEmbeddedEngine(opts);
  try {
    await engine.start();
  } catch (err) {
    await engine.stop();
    throw err;
  }
  return engine;
}

/**
 * Sends events in embedded mode from a process that does not run the engine (the operator
 * CLI, scripts): they are written to PostgreSQL and the server's engine, woken by
 * LISTEN/NOTIFY, handles them exactly like events that came through the event API.
 */
export async function sendEventsToEmbeddedEngine(events: EventInput | EventInput[], opts: { databaseUrl?: string } = {}): Promise<string[]> {
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('sendEventsToEmbeddedEngine needs DATABASE_URL');
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const ids = await insertEvents(sql, Array.isArray(events) ? events : [events], Date.now());
    await sql.notify(NOTIFY_CHANNEL, '');
    return ids;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Settles like `p`, unless the signal aborts or `timeoutMs` passes first (as a socket timeout would). */
function bounded<T>(p: Promise<T>, signal: AbortSignal | undefined, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new Error(`no reply within ${timeoutMs} ms`))), timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error('aborted')));
    function finish(then: () => void) {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      then();
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => finish(() => resolve(v)),
      (err) => finish(() => reject(err)),
    );
  });
}

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  method = 'POST',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method, headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() }, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
