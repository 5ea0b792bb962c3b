import type postgres from 'postgres';
import { compileExpression, evaluateKey } from './expression';
import { toEngineFunction, triggerMatchesName, type EngineFunction, type EngineTrigger } from './function-config';
import { ulid } from './protocol';
import { nextCronTime } from './time';

/**
 * The engine's durable state transitions, each one a short PostgreSQL transaction. Every
 * change to a run happens with the run's row locked (`for update`), so concurrent workers,
 * event processors and timers on any number of app instances serialise per run; work is
 * claimed with `for update skip locked`. Nothing here speaks HTTP.
 */

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
type Json = postgres.JSONValue;

export interface InngestEvent {
  name: string;
  data: Record<string, unknown>;
  id: string;
  ts: number;
  v?: string;
  user?: Record<string, unknown>;
}

/** An event as senders write it: only `name` is required. */
export interface EventInput {
  name: string;
  data?: Record<string, unknown>;
  id?: string;
  ts?: number;
  v?: string;
  user?: Record<string, unknown>;
  /** Deduplication key when the sender gave no id (derived from the SDK's `x-inngest-event-id-seed`, so a retried send counts once). */
  dedupeKey?: string;
}

export type StepResult = { type: 'data'; data: unknown } | { type: 'error'; error: unknown };

export interface RunRow {
  id: string;
  app_id: string;
  function_id: string;
  event: InngestEvent;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  output: unknown;
  error: unknown;
  disable_immediate_execution: boolean;
  concurrency: { key: string; limit: number }[];
  parent_run_id: string | null;
  parent_step_id: string | null;
  created_at: Date;
  ended_at: Date | null;
}

export interface QueueItem {
  id: string;
  run_id: string;
  step_id: string | null;
  attempt: number;
  lease_token: string;
}

/** Durations the engine needs when it writes state. */
export interface StoreTiming {
  leaseMs: number;
}

const json = (sql: Sql | Tx, v: unknown) => sql.json((v === undefined ? null : v) as Json);

/** Reads the synced function configs (all apps: an event may trigger another app's function, as on Inngest). */
export async function loadFunctions(sql: Sql): Promise<Map<string, EngineFunction>> {
  const rows = await sql<{ id: string; app_id: string; config: Record<string, unknown> }[]>`
    select id, app_id, config from inngest_functions`;
  const out = new Map<string, EngineFunction>();
  for (const r of rows) {
    try {
      out.set(r.id, toEngineFunction(r.app_id, r.config));
    } catch {
      // A config stored by an older sync that this engine no longer accepts cannot start runs.
    }
  }
  return out;
}

/**
 * Stores an app's functions as a sync delivered them. Validation happened before; here the
 * app's old functions disappear and cron rows follow the triggers.
 */
export async function saveApp(
  sql: Sql,
  app: { id: string; url: string; sdk?: string; framework?: string },
  functions: { fn: EngineFunction; raw: Record<string, unknown> }[],
  now: number,
): Promise<void> {
  await sql.begin(async (tx) => {
    const at = new Date(now);
    await tx`insert into inngest_apps (id, url, sdk, framework, synced_at)
      values (${app.id}, ${app.url}, ${app.sdk ?? null}, ${app.framework ?? null}, ${at})
      on conflict (id) do update set url = excluded.url, sdk = excluded.sdk, framework = excluded.framework, synced_at = excluded.synced_at`;
    const ids = functions.map((f) => f.fn.id);
    await tx`delete from inngest_functions where app_id = ${app.id} and not (id = any(${ids}))`;
    for (const { fn, raw } of functions) {
      await tx`insert into inngest_functions (id, app_id, name, config, updated_at)
        values (${fn.id}, ${app.id}, ${fn.name}, ${json(tx, raw)}, ${at})
        on conflict (id) do update set app_id = excluded.app_id, name = excluded.name, config = excluded.config, updated_at = excluded.updated_at`;
    }
    const crons = functions.flatMap(({ fn }) => fn.triggers.filter((t) => t.cron).map((t) => ({ fnId: fn.id, cron: t.cron! })));
    await tx`delete from inngest_crons c where not exists (select 1 from inngest_functions f where f.id = c.function_id)`;
    for (const fnId of ids) {
      const keep = crons.filter((c) => c.fnId === fnId).map((c) => c.cron);
      await tx`delete from inngest_crons where function_id = ${fnId} and not (cron = any(${keep}))`;
    }
    for (const c of crons) {
      await tx`insert into inngest_crons (function_id, cron, next_at) values (${c.fnId}, ${c.cron}, ${new Date(nextCronTime(c.cron, now))})
        on conflict do nothing`;
    }
  });
}

/**
 * Stores received events; they are fanned out to triggers and waiters by `processEvents`.
 * Events carrying an id already seen are accepted once (the first one wins). The commit is
 * synchronous even on the engine's asynchronous connection: a sender told "accepted" never
 * loses its event, whatever crashes next.
 */
export async function insertEvents(sql: Sql, events: EventInput[], now: number): Promise<string[]> {
  if (!events.length) return [];
  const rows = events.map((e, ord) => {
    const id = ulid(now);
    const payload: InngestEvent = { name: e.name, data: e.data ?? {}, id: e.id || id, ts: e.ts || now, ...(e.v ? { v: e.v } : {}), ...(e.user ? { user: e.user } : {}) };
    return { ord, id, external_id: e.id || e.dedupeKey || null, name: e.name, payload };
  });
  // One statement for the batch (a fan-out sends one event per delivery). set_config(…, true)
  // lasts until the end of this statement's own transaction: its commit waits for the WAL
  // flush although the engine's connection commits asynchronously otherwise. An event whose
  // id was seen before — earlier or in this batch — resolves to the stored one.
  const found = await sql<{ ord: number; id: string }[]>`
    with input as (
      select * from jsonb_to_recordset(${json(sql, rows)}) as x(ord int, id text, external_id text, name text, payload jsonb)),
    ins as (
      insert into inngest_events (id, external_id, name, payload, received_at)
      select id, external_id, name, payload, ${new Date(now)} from input order by ord
      on conflict (external_id) do nothing returning id, external_id)
    select i.ord, coalesce(
        (select ins.id from ins where ins.id = i.id),
        (select ins.id from ins where ins.external_id = i.external_id),
        (select e.id from inngest_events e where e.external_id = i.external_id)) as id,
      set_config('synchronous_commit', 'on', true) as commit_mode
    from input i order by i.ord`;
  return found.map((r) => r.id);
}

/**
 * The concurrency keys a call of `run` counts against. A queue item carries them from the
 * start (not only while leased), so that a claim passes over the items of keys at their limit
 * without reading their runs: in a burst the queue holds thousands of calls of a few busy keys.
 */
const keysOf = (run: Pick<RunRow, 'concurrency'>): string[] => run.concurrency.map((c) => c.key);

async function enqueueDiscovery(tx: Tx, run: Pick<RunRow, 'id' | 'app_id' | 'concurrency'>, at: number) {
  await tx`insert into inngest_queue (app_id, run_id, step_id, attempt, run_at, concurrency_keys)
    values (${run.app_id}, ${run.id}, null, 0, ${new Date(at)}, ${keysOf(run)}::text[])
    on conflict (run_id) where step_id is null and status = 'queued' do update set run_at = least(inngest_queue.run_at, excluded.run_at)`;
}

async function memoise(tx: Tx, runId: string, stepId: string, result: StepResult, now: number): Promise<boolean> {
  const rows = await tx`insert into inngest_steps (run_id, step_id, result, completed_at)
    values (${runId}, ${stepId}, ${json(tx, result)}, ${new Date(now)}) on conflict do nothing returning step_id`;
  return rows.length > 0;
}

async function lockRun(tx: Tx, runId: string): Promise<RunRow | undefined> {
  const [run] = await tx<RunRow[]>`select * from inngest_runs where id = ${runId} for update`;
  return run;
}

/**
 * Creates a run of `fn` for `event` unless its rate limit or idempotency key says no.
 * Idempotent per (function, event id), so re-processing an event after a crash starts nothing twice.
 */
export async function createRun(
  tx: Tx,
  fn: EngineFunction,
  event: InngestEvent,
  eventId: string | null,
  now: number,
  parent?: { runId: string; stepId: string },
): Promise<string | null> {
  const scope = { event };
  let idempotencyKey: string | null = null;
  if (fn.idempotency) {
    idempotencyKey = `${fn.id}:${evaluateKey(fn.idempotency, scope)}`;
    await tx`select pg_advisory_xact_lock(hashtextextended(${idempotencyKey}, 0))`;
    const [dup] = await tx`select 1 from inngest_runs where idempotency_key = ${idempotencyKey} and created_at > ${new Date(now - 86_400_000)} limit 1`;
    if (dup) return null;
  }
  let rateLimitKey: string | null = null;
  if (fn.rateLimit) {
    rateLimitKey = `${fn.id}:${fn.rateLimit.key ? evaluateKey(fn.rateLimit.key, scope) : ''}`;
    await tx`select pg_advisory_xact_lock(hashtextextended(${rateLimitKey}, 0))`;
    const [{ n }] = await tx<{ n: number }[]>`select count(*)::int as n from inngest_runs
      where rate_limit_key = ${rateLimitKey} and created_at > ${new Date(now - fn.rateLimit.periodMs)}`;
    if (n >= fn.rateLimit.limit) return null;
  }
  const concurrency = concurrencyOf(fn, event);
  const id = ulid(now);
  const [row] = await tx`insert into inngest_runs (id, app_id, function_id, event_id, event, status, concurrency, rate_limit_key, idempotency_key, parent_run_id, parent_step_id, created_at)
    values (${id}, ${fn.appId}, ${fn.id}, ${eventId}, ${json(tx, event)}, 'running', ${json(tx, concurrency)}, ${rateLimitKey}, ${idempotencyKey},
      ${parent?.runId ?? null}, ${parent?.stepId ?? null}, ${new Date(now)})
    on conflict (function_id, event_id) do nothing returning id`;
  if (!row) return null;
  await enqueueDiscovery(tx, { id, app_id: fn.appId, concurrency }, now);
  for (const [i, c] of fn.cancel.entries()) {
    await tx`insert into inngest_waits (run_id, step_id, kind, event_name, expression, expires_at, created_at)
      values (${id}, ${`cancel:${i}`}, 'cancel', ${c.event}, ${c.if ?? null}, ${c.timeoutMs ? new Date(now + c.timeoutMs) : null}, ${new Date(now)})`;
  }
  return id;
}

/** The run's concurrency keys (evaluated against its event) with their limits. */
function concurrencyOf(fn: EngineFunction, event: InngestEvent): { key: string; limit: number }[] {
  const scope = { event };
  return fn.concurrency.map((c) => ({
    key: c.scope === 'fn' ? `fn:${fn.id}:${c.key ? evaluateKey(c.key, scope) : ''}` : `${c.scope}:${c.key ? evaluateKey(c.key, scope) : ''}`,
    limit: c.limit,
  }));
}

/** A function whose runs start with nothing to check or register besides the run and its first call. */
const startsSimply = (fn: EngineFunction) => !fn.idempotency && !fn.rateLimit && fn.cancel.length === 0;

/**
 * `createRun` for many runs of functions that `startsSimply`, in one statement: the runs and
 * their first calls (a burst of events — a fan-out — starts hundreds at once). Idempotent per
 * (function, event id) like `createRun`.
 */
async function createSimpleRuns(tx: Tx, runs: { fn: EngineFunction; event: InngestEvent; eventId: string }[], now: number): Promise<void> {
  if (!runs.length) return;
  const rows = runs.map((r) => ({ id: ulid(now), app_id: r.fn.appId, function_id: r.fn.id, event_id: r.eventId, event: r.event, concurrency: concurrencyOf(r.fn, r.event) }));
  const at = new Date(now);
  await tx`
    with created as (
      insert into inngest_runs (id, app_id, function_id, event_id, event, status, concurrency, created_at)
      select id, app_id, function_id, event_id, event, 'running', concurrency, ${at}
      from jsonb_to_recordset(${json(tx, rows)}) as x(id text, app_id text, function_id text, event_id text, event jsonb, concurrency jsonb)
      on conflict (function_id, event_id) do nothing returning id, app_id, concurrency)
    insert into inngest_queue (app_id, run_id, step_id, attempt, run_at, concurrency_keys)
    select app_id, id, null, 0, ${at}, array(select c->>'key' from jsonb_array_elements(concurrency) c) from created
    on conflict (run_id) where step_id is null and status = 'queued' do update set run_at = least(inngest_queue.run_at, excluded.run_at)`;
}

/** Ends a run: state, queue and waits go; a caller waiting in `step.invoke` gets the result. */
async function finishRun(tx: Tx, run: RunRow, status: 'completed' | 'failed' | 'cancelled', outcome: { output?: unknown; error?: unknown }, now: number) {
  await tx`update inngest_runs set status = ${status}, output = ${json(tx, outcome.output ?? null)}, error = ${json(tx, outcome.error ?? null)}, ended_at = ${new Date(now)}
    where id = ${run.id}`;
  await tx`delete from inngest_queue where run_id = ${run.id}`;
  await tx`delete from inngest_waits where run_id = ${run.id}`;
  if (run.parent_run_id && run.parent_step_id) {
    const result: StepResult =
      status === 'completed'
        ? { type: 'data', data: outcome.output ?? null }
        : { type: 'error', error: status === 'cancelled' ? { name: 'Error', message: `Invoked run ${run.id} was cancelled` } : outcome.error };
    await resolveWaitLocked(tx, run.parent_run_id, run.parent_step_id, result, now);
  }
  if (status === 'failed') {
    const failed = { name: 'inngest/function.failed', data: { function_id: run.function_id, run_id: run.id, error: outcome.error, event: run.event } };
    await insertEventsTx(tx, [failed], now);
  }
}

async function insertEventsTx(tx: Tx, events: { name: string; data: Record<string, unknown> }[], now: number) {
  for (const e of events) {
    const id = ulid(now);
    await tx`insert into inngest_events (id, name, payload, received_at)
      values (${id}, ${e.name}, ${json(tx, { ...e, id, ts: now })}, ${new Date(now)})`;
  }
}

async function resolveWaitLocked(tx: Tx, runId: string, stepId: string, result: StepResult, now: number): Promise<boolean> {
  const run = await lockRun(tx, runId);
  if (!run || run.status !== 'running') return false;
  const deleted = await tx`delete from inngest_waits where run_id = ${runId} and step_id = ${stepId} returning kind`;
  if (!deleted.length) return false;
  await memoise(tx, runId, stepId, result, now);
  await enqueueDiscovery(tx, run, now);
  return true;
}

/** Cancels a running run (API or cancelOn). Returns false when it had already ended. */
export async function cancelRunTx(tx: Tx, runId: string, now: number): Promise<boolean> {
  const run = await lockRun(tx, runId);
  if (!run || run.status !== 'running') return false;
  await finishRun(tx, run, 'cancelled', {}, now);
  return true;
}

/**
 * Handles received events, oldest first, up to `limit` of them in one transaction: starts
 * the runs each triggers, hands it to matching `waitForEvent` waiters and applies matching
 * `cancelOn` conditions. Claimed with skip locked, marked processed in the same transaction.
 * Returns how many were handled (fewer than `limit` means none is left for now).
 */
export async function processEvents(sql: Sql, functions: Map<string, EngineFunction>, now: number, limit = 100): Promise<number> {
  return sql.begin(async (tx) => {
    const evs = await tx<{ id: string; name: string; payload: InngestEvent; received_at: Date }[]>`
      select id, name, payload, received_at from inngest_events where processed_at is null
      order by received_at, id limit ${limit} for update skip locked`;
    if (!evs.length) return 0;
    const names = [...new Set(evs.map((e) => e.name))];
    // waits are looked up once for the batch; runs it creates add only cancel waits, created after these events were received
    const [{ waiting }] = await tx<{ waiting: boolean }[]>`select exists (select 1 from inngest_waits where event_name = any(${names}) and kind in ('event', 'cancel')) as waiting`;
    // runs that need no checks start together at the end (one statement for the batch): the
    // waits below can only concern runs that existed before these events
    const simple: { fn: EngineFunction; event: InngestEvent; eventId: string }[] = [];
    for (const ev of evs) {
      const event = ev.payload;
      for (const fn of functions.values()) {
        const trigger = fn.triggers.find((t) => matches(t, event));
        if (!trigger) continue;
        if (startsSimply(fn)) simple.push({ fn, event, eventId: ev.id });
        else await createRun(tx, fn, event, ev.id, now);
      }
      if (!waiting) continue;
      const waits = await tx<{ run_id: string; step_id: string; kind: string; expression: string | null; event: InngestEvent }[]>`
        select w.run_id, w.step_id, w.kind, w.expression, r.event from inngest_waits w join inngest_runs r on r.id = w.run_id
        where w.event_name = ${ev.name} and w.kind in ('event', 'cancel') and w.created_at <= ${ev.received_at} and r.status = 'running'
        order by w.run_id, w.step_id`;
      for (const w of waits) {
        if (w.expression && !testExpression(w.expression, { event: w.event, async: event })) continue;
        if (w.kind === 'event') await resolveWaitLocked(tx, w.run_id, w.step_id, { type: 'data', data: event }, now);
        else await cancelRunTx(tx, w.run_id, now);
      }
    }
    await createSimpleRuns(tx, simple, now);
    await tx`update inngest_events set processed_at = ${new Date(now)} where id = any(${evs.map((e) => e.id)})`;
    return evs.length;
  });
}

function testExpression(source: string, scope: Record<string, unknown>): boolean {
  try {
    return compileExpression(source).test(scope);
  } catch {
    return false;
  }
}

function matches(trigger: EngineTrigger, event: InngestEvent): boolean {
  if (!triggerMatchesName(trigger, event.name)) return false;
  return !trigger.expression || testExpression(trigger.expression, { event });
}

/** Resolves waits whose time is up: sleeps wake with null, waitForEvent times out with null, invoke times out with an error. */
export async function expireWaits(sql: Sql, now: number): Promise<number> {
  const due = await sql<{ run_id: string; step_id: string; kind: string }[]>`
    select run_id, step_id, kind from inngest_waits where expires_at <= ${new Date(now)} order by expires_at limit 100`;
  for (const w of due) {
    await sql.begin(async (tx) => {
      if (w.kind === 'cancel') {
        await tx`delete from inngest_waits where run_id = ${w.run_id} and step_id = ${w.step_id}`;
        return;
      }
      const result: StepResult =
        w.kind === 'invoke'
          ? { type: 'error', error: { name: 'InngestInvokeTimeoutError', message: 'Timed out waiting for the invoked function to complete' } }
          : { type: 'data', data: null };
      await resolveWaitLocked(tx, w.run_id, w.step_id, result, now);
    });
  }
  return due.length;
}

/** Starts the runs of due cron triggers (missed fires are not back-filled, as on Inngest). */
export async function fireCrons(sql: Sql, functions: Map<string, EngineFunction>, now: number): Promise<number> {
  return sql.begin(async (tx) => {
    const due = await tx<{ function_id: string; cron: string; next_at: Date }[]>`
      select function_id, cron, next_at from inngest_crons where next_at <= ${new Date(now)} limit 20 for update skip locked`;
    for (const c of due) {
      const fn = functions.get(c.function_id);
      const at = c.next_at.getTime();
      if (fn) {
        const event: InngestEvent = { name: 'inngest/scheduled.timer', data: { cron: c.cron }, id: ulid(at), ts: at };
        await createRun(tx, fn, event, `cron:${c.cron}:${at}`, now);
      }
      await tx`update inngest_crons set next_at = ${new Date(nextCronTime(c.cron, Math.max(now, at)))}
        where function_id = ${c.function_id} and cron = ${c.cron}`;
    }
    return due.length;
  });
}

/**
 * Leases up to `max` due calls of `appIds` in one transaction, honouring concurrency limits:
 * a key's in-flight count is read under a transaction advisory lock (tried, never waited
 * for, so claimers cannot deadlock) and counted on as this batch claims, and one run never
 * has two discovery calls at once. Each claimed call gets its own lease token.
 */
export async function claimBatch(sql: Sql, appIds: string[], now: number, max: number, newToken: () => string, timing: StoreTiming): Promise<QueueItem[]> {
  if (max <= 0) return [];
  return sql.begin(async (tx) => {
    const at = new Date(now);
    // The calls in flight are read once (not once per candidate: the queue can hold thousands).
    // `blocked`: the keys at the highest limit any call in flight has for them. The due calls
    // are picked in their order on their own rows — queued ones through the partial index on
    // (run_at, id), plus calls whose lease ran out — passing over those of a blocked key and
    // those of a run whose discovery call is in flight, so a claim reads about as many rows as
    // it takes, however many calls a burst has queued behind busy keys. Items queued before
    // their keys were kept on them carry none; the exact check on each run's own limits follows.
    const candidates = await tx<(QueueItem & { concurrency: { key: string; limit: number }[] })[]>`
      with live as (select id, run_id, step_id, concurrency_keys from inngest_queue where status = 'leased' and leased_until >= ${at}),
        full_keys as (select k, count(*) as n from live, unnest(live.concurrency_keys) k group by k),
        blocked as (select coalesce(array_agg(f.k), '{}') as keys from full_keys f
          where f.n >= (select max((c->>'limit')::int) from live l join inngest_runs lr on lr.id = l.run_id
            cross join jsonb_array_elements(lr.concurrency) c where c->>'key' = f.k)),
        picked as (
          (select p.id from inngest_queue p
            where p.status = 'queued' and p.run_at <= ${at} and p.app_id = any(${appIds})
              and not (p.concurrency_keys && (select keys from blocked))
              and (p.step_id is not null or not exists (select 1 from live d where d.run_id = p.run_id and d.step_id is null))
            order by p.run_at, p.id limit ${max + 20})
          union all
          (select p.id from inngest_queue p
            where p.status = 'leased' and p.leased_until < ${at} and p.run_at <= ${at} and p.app_id = any(${appIds})
            order by p.run_at, p.id limit ${max + 20}))
      select q.id, q.run_id, q.step_id, q.attempt, r.concurrency
      from inngest_queue q join inngest_runs r on r.id = q.run_id
      where q.id in (select id from picked) and q.run_at <= ${at} and (q.status = 'queued' or q.leased_until < ${at})
        and (q.step_id is not null or not exists (select 1 from live d where d.run_id = q.run_id and d.step_id is null))
        and not exists (
          select 1 from jsonb_array_elements(r.concurrency) c join full_keys f on f.k = c->>'key'
          where f.n >= (c->>'limit')::int)
      order by q.run_at, q.id limit ${max + 20} for update of q skip locked`;
    if (!candidates.length) return [];
    // re-checked under the locks taken here (the candidate query's view may be stale)
    const discoveryRuns = candidates.filter((c) => c.step_id === null).map((c) => c.run_id);
    const busyRuns = new Set<string>();
    if (discoveryRuns.length) {
      const busy = await tx<{ run_id: string }[]>`select run_id from inngest_queue where run_id = any(${discoveryRuns}) and step_id is null
        and status = 'leased' and leased_until >= ${at} and not (id = any(${candidates.map((c) => c.id)}))`;
      for (const b of busy) busyRuns.add(b.run_id);
    }
    const keys = [...new Set(candidates.flatMap((c) => c.concurrency.map((k) => k.key)))].sort();
    const inFlight = new Map<string, number>();
    if (keys.length) {
      const locks = await tx<{ key: string; locked: boolean }[]>`select k as key, pg_try_advisory_xact_lock(hashtextextended(k, 0)) as locked
        from unnest(${keys}::text[]) with ordinality as t(k, n) order by n`;
      const locked = locks.filter((l) => l.locked).map((l) => l.key);
      for (const k of locked) inFlight.set(k, 0);
      if (locked.length) {
        const counts = await tx<{ key: string; n: number }[]>`select k as key, count(*)::int as n from inngest_queue l, unnest(l.concurrency_keys) k
          where l.status = 'leased' and l.leased_until >= ${at} and k = any(${locked}) and not (l.id = any(${candidates.map((c) => c.id)}))
          group by k`;
        for (const c of counts) inFlight.set(c.key, c.n);
      }
    }
    const claimed: (QueueItem & { keys: string[] })[] = [];
    for (const c of candidates) {
      if (claimed.length >= max) break;
      if (c.step_id === null) {
        if (busyRuns.has(c.run_id)) continue;
        busyRuns.add(c.run_id);
      }
      // a key not in inFlight could not be locked: another claimer is deciding about it
      if (!c.concurrency.every((k) => inFlight.has(k.key) && inFlight.get(k.key)! < k.limit)) continue;
      for (const k of c.concurrency) inFlight.set(k.key, inFlight.get(k.key)! + 1);
      claimed.push({ id: c.id, run_id: c.run_id, step_id: c.step_id, attempt: c.attempt, lease_token: newToken(), keys: c.concurrency.map((k) => k.key) });
    }
    if (!claimed.length) return [];
    await tx`update inngest_queue q set status = 'leased', lease_token = c.token, leased_until = ${new Date(now + timing.leaseMs)},
        concurrency_keys = coalesce(c.keys, '{}')
      from (select * from jsonb_to_recordset(${json(tx, claimed.map((c) => ({ id: c.id, token: c.lease_token, keys: c.keys })))}) as x(id bigint, token text, keys text[])) c
      where q.id = c.id`;
    return claimed.map(({ keys: _keys, ...item }) => item);
  });
}

/**
 * Async checkpointing (`POST /v1/checkpoint/<run>/async`): the SDK ran steps within a call
 * and reports them before carrying on in the same call. They are memoised as a 206 reply's
 * `StepRun` ops would be, but only while the call's queue item is still leased (otherwise the
 * call was taken over or the run ended: `stale`, which the SDK answers by stopping). The SDK
 * echoes the `qi_id` it was called with: `<queue item id>.<lease token>`.
 */
export async function checkpointSteps(
  sql: Sql,
  opts: { runId: string; item: Pick<QueueItem, 'id' | 'lease_token'>; ops: OutgoingOp[] },
  now: number,
): Promise<'ok' | 'stale'> {
  // one statement: the run is locked while its steps are written, and nothing is written unless the lease holds
  const rows = opts.ops.map((op) => ({ step_id: op.id, result: { type: 'data', data: op.data ?? null } }));
  const [row] = await sql<{ held: boolean }[]>`
    with held as (
      select r.id from inngest_runs r join inngest_queue q on q.run_id = r.id
      where r.id = ${opts.runId} and r.status = 'running' and q.id = ${opts.item.id}::bigint and q.status = 'leased' and q.lease_token = ${opts.item.lease_token}
      for update of r),
    written as (
      insert into inngest_steps (run_id, step_id, result, completed_at)
      select held.id, x.step_id, x.result, ${new Date(now)} from held, jsonb_to_recordset(${json(sql, rows)}) as x(step_id text, result jsonb)
      on conflict do nothing returning 1)
    select exists (select 1 from held) as held, (select count(*) from written) as n`;
  return row?.held ? 'ok' : 'stale';
}

/** Keeps a lease alive while the call runs; false when the item was taken over or finished. */
export async function extendLease(sql: Sql, item: QueueItem, until: number): Promise<boolean> {
  const rows = await sql`update inngest_queue set leased_until = ${new Date(until)} where id = ${item.id} and lease_token = ${item.lease_token} returning id`;
  return rows.length > 0;
}

/** What the engine needs to call the app for a queue item: the run and its memoised steps, in one query. */
export async function loadCallState(sql: Sql, runId: string): Promise<{ run: RunRow | undefined; steps: { step_id: string; result: StepResult }[] }> {
  const [row] = await sql<(RunRow & { steps: { step_id: string; result: StepResult }[] })[]>`
    select r.*, coalesce((select json_agg(json_build_object('step_id', s.step_id, 'result', s.result) order by s.seq)
      from inngest_steps s where s.run_id = r.id), '[]'::json) as steps
    from inngest_runs r where r.id = ${runId}`;
  if (!row) return { run: undefined, steps: [] };
  const { steps, ...run } = row;
  return { run: run as RunRow, steps };
}

/** `loadCallState` for the runs of a batch of claimed calls, in one query. */
export async function loadCallStates(sql: Sql, runIds: string[]): Promise<Map<string, { run: RunRow; steps: { step_id: string; result: StepResult }[] }>> {
  const out = new Map<string, { run: RunRow; steps: { step_id: string; result: StepResult }[] }>();
  if (!runIds.length) return out;
  const rows = await sql<(RunRow & { steps: { step_id: string; result: StepResult }[] })[]>`
    select r.*, coalesce((select json_agg(json_build_object('step_id', s.step_id, 'result', s.result) order by s.seq)
      from inngest_steps s where s.run_id = r.id), '[]'::json) as steps
    from inngest_runs r where r.id = any(${[...new Set(runIds)]})`;
  for (const { steps, ...run } of rows) out.set(run.id, { run: run as RunRow, steps });
  return out;
}

/** One op of a 206 reply, as the SDK sends it. */
export interface OutgoingOp {
  id: string;
  op: string;
  name?: string;
  opts?: Record<string, unknown> & { timeout?: string; if?: string; function_id?: string; payload?: { data?: Record<string, unknown>; v?: string } };
  data?: unknown;
  error?: unknown;
}

/** The outcome of one call, classified by the caller from the HTTP reply. */
export type CallOutcome =
  | { kind: 'completed'; output: unknown }
  | { kind: 'ops'; ops: OutgoingOp[]; noRetry: boolean; retryAfterMs?: number }
  | { kind: 'error'; error: unknown; noRetry: boolean; retryAfterMs?: number };

export interface ApplyContext {
  fn: EngineFunction | undefined;
  functions: Map<string, EngineFunction>;
  now: number;
  backoffMs: (attempt: number) => number;
  sleepTarget: (name: string, now: number) => number;
  parseDuration: (s: string) => number;
}

/**
 * Applies a call's outcome to the run: memoises step results, schedules retries with
 * backoff (or `retry-after`), records sleeps/waits/invokes, queues the next discovery call,
 * and ends the run on completion or final failure.
 */
export async function applyOutcome(sql: Sql, item: QueueItem, outcome: CallOutcome, ctx: ApplyContext): Promise<void> {
  const { now, fn } = ctx;
  if (fn && (await completeSimply(sql, item, outcome, now))) return;
  await sql.begin(async (tx) => {
    const run = await lockRun(tx, item.run_id);
    const dropItem = () => tx`delete from inngest_queue where id = ${item.id} and lease_token = ${item.lease_token}`;
    if (!run || run.status !== 'running' || !fn) {
      await dropItem();
      if (run && run.status === 'running') await finishRun(tx, run, 'failed', { error: { name: 'Error', message: `function ${run.function_id} is no longer served by the app` } }, now);
      return;
    }
    const maxAttempts = fn.maxAttempts;
    const retry = async (stepId: string | null, attempt: number, delayMs: number) => {
      const runAt = new Date(now + delayMs);
      if (item.step_id === stepId) {
        await tx`update inngest_queue set attempt = ${attempt}, run_at = ${runAt}, status = 'queued', lease_token = null, leased_until = null
          where id = ${item.id} and lease_token = ${item.lease_token}`;
      } else {
        await dropItem();
        await tx`insert into inngest_queue (app_id, run_id, step_id, attempt, run_at, concurrency_keys)
          values (${run.app_id}, ${run.id}, ${stepId}, ${attempt}, ${runAt}, ${keysOf(run)}::text[])
          on conflict (run_id, step_id) where step_id is not null do update set attempt = excluded.attempt, run_at = excluded.run_at, status = 'queued', lease_token = null, leased_until = null`;
      }
    };
    const delay = (attempt: number, retryAfterMs?: number) => (retryAfterMs !== undefined ? Math.max(0, retryAfterMs) : ctx.backoffMs(attempt));

    if (outcome.kind === 'completed') {
      await finishRun(tx, run, 'completed', { output: outcome.output }, now);
      return;
    }
    if (outcome.kind === 'error') {
      if (!outcome.noRetry && item.attempt + 1 < maxAttempts) await retry(item.step_id, item.attempt + 1, delay(item.attempt, outcome.retryAfterMs));
      else await finishRun(tx, run, 'failed', { error: outcome.error }, now);
      return;
    }

    let discover = false;
    let keepItem = false;
    // which steps are memoised matters only to ops that schedule something (not to StepRun, the common reply)
    const needsMemo = outcome.ops.some((op) => op.op === 'StepPlanned' || op.op === 'Sleep' || op.op === 'WaitForEvent' || op.op === 'InvokeFunction');
    const memo = needsMemo ? await tx<{ step_id: string }[]>`select step_id from inngest_steps where run_id = ${run.id}` : [];
    const done = new Set(memo.map((m) => m.step_id));
    const addWait = (stepId: string, kind: string, fields: { eventName?: string; expression?: string; expiresAt?: number; invokedRunId?: string }) =>
      tx`insert into inngest_waits (run_id, step_id, kind, event_name, expression, expires_at, invoked_run_id, created_at)
        values (${run.id}, ${stepId}, ${kind}, ${fields.eventName ?? null}, ${fields.expression ?? null},
          ${fields.expiresAt !== undefined ? new Date(fields.expiresAt) : null}, ${fields.invokedRunId ?? null}, ${new Date(now)})
        on conflict do nothing returning step_id`;

    for (const op of outcome.ops) {
      switch (op.op) {
        case 'StepRun':
          if (await memoise(tx, run.id, op.id, { type: 'data', data: op.data ?? null }, now)) discover = true;
          break;
        case 'StepError':
          if (!outcome.noRetry && item.attempt + 1 < maxAttempts) {
            await retry(op.id, item.attempt + 1, delay(item.attempt, outcome.retryAfterMs));
            keepItem = true;
          } else if (await memoise(tx, run.id, op.id, { type: 'error', error: op.error }, now)) discover = true;
          break;
        case 'StepFailed':
          if (await memoise(tx, run.id, op.id, { type: 'error', error: op.error }, now)) discover = true;
          break;
        case 'StepPlanned':
          if (!run.disable_immediate_execution) {
            await tx`update inngest_runs set disable_immediate_execution = true where id = ${run.id}`;
            run.disable_immediate_execution = true;
          }
          if (!done.has(op.id)) {
            await tx`insert into inngest_queue (app_id, run_id, step_id, attempt, run_at, concurrency_keys)
              values (${run.app_id}, ${run.id}, ${op.id}, 0, ${new Date(now)}, ${keysOf(run)}::text[])
              on conflict (run_id, step_id) where step_id is not null do nothing`;
          }
          break;
        case 'Sleep':
          if (!done.has(op.id)) await addWait(op.id, 'sleep', { expiresAt: ctx.sleepTarget(op.name ?? '', now) });
          break;
        case 'WaitForEvent':
          if (!done.has(op.id))
            await addWait(op.id, 'event', {
              eventName: op.name,
              expression: op.opts?.if || undefined,
              expiresAt: now + ctx.parseDuration(String(op.opts?.timeout ?? '')),
            });
          break;
        case 'InvokeFunction': {
          if (done.has(op.id)) break;
          const [existing] = await tx`select 1 from inngest_waits where run_id = ${run.id} and step_id = ${op.id}`;
          if (existing) break;
          const target = ctx.functions.get(String(op.opts?.function_id ?? ''));
          if (!target) {
            await memoise(tx, run.id, op.id, { type: 'error', error: { name: 'Error', message: `step.invoke: function ${op.opts?.function_id} is not synced` } }, now);
            discover = true;
            break;
          }
          const event: InngestEvent = { name: 'inngest/function.invoked', data: op.opts?.payload?.data ?? {}, id: ulid(now), ts: now };
          const childId = await createRun(tx, target, event, `invoke:${run.id}:${op.id}`, now, { runId: run.id, stepId: op.id });
          if (!childId) {
            await memoise(tx, run.id, op.id, { type: 'error', error: { name: 'Error', message: `step.invoke: ${target.id} did not start (rate limit or idempotency)` } }, now);
            discover = true;
            break;
          }
          await addWait(op.id, 'invoke', { invokedRunId: childId, expiresAt: op.opts?.timeout ? now + ctx.parseDuration(op.opts.timeout) : undefined });
          break;
        }
        case 'RunComplete':
          await finishRun(tx, run, 'completed', { output: op.data ?? null }, now);
          return;
        case 'DiscoveryRequest':
          discover = true;
          break;
        default:
          await finishRun(tx, run, 'failed', { error: { name: 'NonRetriableError', message: `the embedded Inngest engine does not support step op ${op.op}` } }, now);
          return;
      }
    }
    if (!keepItem) await dropItem();
    if (discover) await enqueueDiscovery(tx, run, now);
  });
}

/**
 * The common end of a run in one statement: the call finished the function (200, or a 206
 * whose ops are `RunComplete` after any number of `StepRun`s — a function that buffers its
 * checkpoints reports its last steps with its end) and the run, still running, was not
 * started by `step.invoke` (whose caller must be resumed). The steps are memoised in the
 * same statement. False when the general path must decide.
 */
async function completeSimply(sql: Sql, item: QueueItem, outcome: CallOutcome, now: number): Promise<boolean> {
  let output: unknown;
  let steps: { step_id: string; result: StepResult }[] = [];
  if (outcome.kind === 'completed') output = outcome.output;
  else if (
    outcome.kind === 'ops' &&
    outcome.ops.length > 0 &&
    outcome.ops[outcome.ops.length - 1].op === 'RunComplete' &&
    outcome.ops.slice(0, -1).every((op) => op.op === 'StepRun' && typeof op.id === 'string')
  ) {
    output = outcome.ops[outcome.ops.length - 1].data;
    steps = outcome.ops.slice(0, -1).map((op) => ({ step_id: op.id, result: { type: 'data', data: op.data ?? null } }));
  } else return false;
  const [row] = await sql<{ done: boolean }[]>`
    with ended as (
      update inngest_runs set status = 'completed', output = ${json(sql, output ?? null)}, error = null, ended_at = ${new Date(now)}
      where id = ${item.run_id} and status = 'running' and parent_run_id is null
        and exists (select 1 from inngest_queue where id = ${item.id} and lease_token = ${item.lease_token})
      returning id),
    calls as (delete from inngest_queue where run_id in (select id from ended) returning 1),
    waits as (delete from inngest_waits where run_id in (select id from ended) returning 1),
    written as (
      insert into inngest_steps (run_id, step_id, result, completed_at)
      select ended.id, x.step_id, x.result, ${new Date(now)} from ended, jsonb_to_recordset(${json(sql, steps)}) as x(step_id text, result jsonb)
      on conflict do nothing returning 1)
    select exists (select 1 from ended) as done, (select count(*) from calls) + (select count(*) from waits) + (select count(*) from written) as n`;
  return row?.done ?? false;
}

/** Puts a leased item back (the call could not be made, e.g. the engine is stopping). */
export async function releaseItem(sql: Sql, item: QueueItem, runAt: number): Promise<void> {
  await sql`update inngest_queue set status = 'queued', lease_token = null, leased_until = null, run_at = ${new Date(runAt)}
    where id = ${item.id} and lease_token = ${item.lease_token}`;
}

/** Deletes ended runs (with their steps) and handled events older than the retention period. */
export async function pruneHistory(sql: Sql, before: number): Promise<void> {
  const at = new Date(before);
  await sql`delete from inngest_steps s using inngest_runs r where s.run_id = r.id and r.status <> 'running' and r.ended_at < ${at}`;
  await sql`delete from inngest_runs where status <> 'running' and ended_at < ${at}`;
  await sql`delete from inngest_events where processed_at is not null and received_at < ${at}`;
}

/** When each kind of work becomes due next (null: none), so a scheduler pass does only what is due and sleeps until the earliest. */
export interface DueTimes {
  events: number | null;
  waits: number | null;
  crons: number | null;
  /** The earliest call: a queued call's `run_at` or a lease's expiry. */
  calls: number | null;
  /**
   * The earliest call that becomes due after `now` (a queued call's later `run_at`, a lease's
   * expiry): when the calls due already cannot run yet (concurrency limits), the scheduler
   * sleeps until this one instead of asking again at once.
   */
  laterCalls: number | null;
}

export async function dueTimes(sql: Sql, appIds: string[], now: number): Promise<DueTimes> {
  const at = new Date(now);
  const [row] = await sql<{ events: Date | null; waits: Date | null; crons: Date | null; queued: Date | null; later: Date | null; leased: Date | null }[]>`select
      (select min(received_at) from inngest_events where processed_at is null) as events,
      (select min(expires_at) from inngest_waits) as waits,
      (select min(next_at) from inngest_crons) as crons,
      (select min(run_at) from inngest_queue where app_id = any(${appIds}) and status = 'queued') as queued,
      (select min(run_at) from inngest_queue where app_id = any(${appIds}) and status = 'queued' and run_at > ${at}) as later,
      (select min(leased_until) from inngest_queue where app_id = any(${appIds}) and status = 'leased') as leased`;
  const t = (d: Date | null | undefined) => (d ? d.getTime() : null);
  const earliest = (...v: Array<number | null>) => {
    const known = v.filter((x): x is number => x !== null);
    return known.length ? Math.min(...known) : null;
  };
  const leased = t(row?.leased);
  return {
    events: t(row?.events),
    waits: t(row?.waits),
    crons: t(row?.crons),
    calls: earliest(t(row?.queued), leased),
    laterCalls: earliest(t(row?.later), leased !== null && leased > now ? leased : null),
  };
}
