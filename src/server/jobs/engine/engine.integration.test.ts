import { randomBytes } from 'node:crypto';
import { Inngest, NonRetriableError, RetryAfterError } from 'inngest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHandle } from '../../db/client';
import type { RunSnapshot } from './engine';
import { engineAwareFetch } from './in-process';
import { canonicalJson, hashSigningKey, newSigningKey, signBody } from './protocol';
import { startTestInngest, type TestInngest } from './testing';

/**
 * The embedded engine against the real PostgreSQL of the test set-up: small purpose-built
 * functions served by the SDK's handlers, one engine pointed at them — once calling them
 * in-process, once over real HTTP.
 */

const suffix = randomBytes(4).toString('hex');
const appId = `engine-test-${suffix}`;
const E = (name: string) => `engine-test-${suffix}/${name}`;
const fnId = (id: string) => `${appId}-${id}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Checkpoint requests the SDK made, by run id. */
const checkpoints: Record<string, number> = {};
// as the service's client: requests to an engine of this process go in-process when it registered
const client = new Inngest({
  id: appId,
  fetch: (input: string | URL | Request, init?: RequestInit) => {
    const cp = /\/v1\/checkpoint\/([^/]+)\/async$/.exec(new URL(input instanceof Request ? input.url : input).pathname);
    if (cp) checkpoints[decodeURIComponent(cp[1])] = (checkpoints[decodeURIComponent(cp[1])] ?? 0) + 1;
    return engineAwareFetch(input, init);
  },
});
const calls: Record<string, number[]> = {};
/** Records that `name` ran (with the attempt number), so tests can count executions. */
const record = (name: string, attempt = 0) => (calls[name] ??= []).push(attempt) && calls[name].length;
const count = (name: string) => calls[name]?.length ?? 0;
const times: Record<string, number[]> = {};
const stamp = (name: string) => (times[name] ??= []).push(Date.now());

const memo = client.createFunction({ id: 'memo', triggers: [{ event: E('memo') }] }, async ({ event, step }) => {
  const k = event.data.k as string;
  record(`memo-entered-${k}`);
  const a = await step.run('a', () => record(`memo-a-${k}`) && 1);
  const b = await step.run('b', () => record(`memo-b-${k}`) && a + 1);
  const c = await step.run('c', () => record(`memo-c-${k}`) && b + 1);
  record(`memo-body-${k}`);
  return { a, b, c };
});

// reports its steps with the run's end (or before a step it cannot run within the call, such as a sleep)
const buffered = client.createFunction(
  { id: 'buffered', triggers: [{ event: E('buffered') }], checkpointing: { bufferedSteps: 100 } },
  async ({ event, step }) => {
    const k = event.data.k as string;
    record(`buffered-entered-${k}`);
    const a = await step.run('a', () => record(`buffered-a-${k}`) && 1);
    if (event.data.nap) await step.sleep('nap', '500ms');
    const b = await step.run('b', () => record(`buffered-b-${k}`) && a + 1);
    return { a, b };
  },
);

const flaky = client.createFunction({ id: 'flaky', triggers: [{ event: E('flaky') }] }, async ({ event, step, attempt }) => {
  const k = event.data.k as string;
  return step.run('unstable', () => {
    if (record(`flaky-${k}`, attempt) < 3) throw new Error('not yet');
    return 'ok';
  });
});

const fatal = client.createFunction({ id: 'fatal', triggers: [{ event: E('fatal') }] }, async ({ event, step }) => {
  await step.run('doomed', () => {
    record(`fatal-${event.data.k}`);
    throw new NonRetriableError('bad input');
  });
});

const later = client.createFunction({ id: 'later', triggers: [{ event: E('later') }] }, async ({ event, step }) => {
  return step.run('rate-limited-call', () => {
    stamp(`later-${event.data.k}`);
    if (record(`later-${event.data.k}`) === 1) throw new RetryAfterError('provider busy', 1_000);
    return 'done';
  });
});

const exhausted = client.createFunction(
  {
    id: 'exhausted',
    triggers: [{ event: E('exhausted') }],
    retries: 1,
    onFailure: async ({ event, error }) => {
      record(`exhausted-failure-${event.data.event.data.k}`);
      return { handled: error.message };
    },
  },
  async ({ event }) => {
    record(`exhausted-${event.data.k}`);
    throw new Error('always broken');
  },
);

const sleeper = client.createFunction({ id: 'sleeper', triggers: [{ event: E('sleeper') }] }, async ({ step }) => {
  const start = await step.run('start', () => Date.now());
  await step.sleep('nap', '1s');
  await step.sleepUntil('until', new Date(Date.now() + 1_000));
  const end = await step.run('end', () => Date.now());
  return { elapsed: end - start };
});

const waiter = client.createFunction({ id: 'waiter', triggers: [{ event: E('wait.start') }] }, async ({ event, step }) => {
  const got = await step.waitForEvent('approval', { event: E('wait.approve'), timeout: event.data.timeout as string, if: 'async.data.k == event.data.k' });
  return got ? { note: got.data.note } : 'timed out';
});

const emitter = client.createFunction({ id: 'emitter', triggers: [{ event: E('emit') }] }, async ({ event, step }) => {
  await step.sendEvent('fan-out', { name: E('emitted'), data: { k: event.data.k } });
  return 'sent';
});
const receiver = client.createFunction({ id: 'receiver', triggers: [{ event: E('emitted') }] }, async ({ event }) => ({ got: event.data.k }));

const child = client.createFunction({ id: 'child', triggers: [{ event: E('child.unused') }] }, async ({ event }) => ({ doubled: (event.data.n as number) * 2 }));
const parent = client.createFunction({ id: 'parent', triggers: [{ event: E('parent') }] }, async ({ event, step }) => {
  return step.invoke('call-child', { function: child, data: { n: event.data.n } });
});

const parallel = client.createFunction({ id: 'parallel', triggers: [{ event: E('parallel') }] }, async ({ event, step }) => {
  const k = event.data.k as string;
  const [a, b] = await Promise.all([step.run('left', () => record(`par-left-${k}`) && 1), step.run('right', () => record(`par-right-${k}`) && 2)]);
  const c = await step.run('join', () => record(`par-join-${k}`) && a + b);
  return c;
});

const active: Record<string, number> = {};
const maxActive: Record<string, number> = {};
let activeTotal = 0;
let maxActiveTotal = 0;
const limited = client.createFunction(
  { id: 'limited', triggers: [{ event: E('limited') }], concurrency: { limit: 2, key: 'event.data.group' } },
  async ({ event, step }) => {
    await step.run('work', async () => {
      const g = event.data.group as string;
      active[g] = (active[g] ?? 0) + 1;
      activeTotal++;
      maxActive[g] = Math.max(maxActive[g] ?? 0, active[g]);
      maxActiveTotal = Math.max(maxActiveTotal, activeTotal);
      await sleep((event.data.ms as number | undefined) ?? 400);
      active[g]--;
      activeTotal--;
    });
  },
);

const rateLimited = client.createFunction(
  { id: 'once-per-hour', triggers: [{ event: E('recharge') }], rateLimit: { limit: 1, period: '1h', key: 'event.data.org' } },
  async ({ event }) => event.data.org,
);

const cancellable = client.createFunction(
  { id: 'cancellable', triggers: [{ event: E('long') }], cancelOn: [{ event: E('long.cancel'), if: 'async.data.k == event.data.k' }] },
  async ({ event, step }) => {
    await step.run('before', () => record(`long-before-${event.data.k}`));
    await step.sleep('wait-a-while', '30s');
    await step.run('after', () => record(`long-after-${event.data.k}`));
  },
);

const ticker = client.createFunction({ id: 'ticker', triggers: [{ cron: '* * * * *' }] }, async ({ event }) => ({ name: event.name }));

const functions = [memo, buffered, flaky, fatal, later, exhausted, sleeper, waiter, emitter, receiver, child, parent, parallel, limited, rateLimited, cancellable, ticker];

let t: TestInngest;
let clockOffset = 0;

async function runsOf(id: string, k?: string): Promise<RunSnapshot[]> {
  const runs = await t.engine.listRuns(fnId(id));
  return k === undefined ? runs : runs.filter((r) => (r.event as { data: { k?: string } }).data.k === k);
}

/** Waits until the function has `n` runs (for key `k`), then returns them. */
async function waitForRuns(id: string, n: number, k?: string, timeoutMs = 10_000): Promise<RunSnapshot[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(id, k);
    if (runs.length >= n) return runs;
    if (Date.now() > deadline) throw new Error(`${id}: ${runs.length} runs, expected ${n}`);
    await sleep(50);
  }
}

/** Sends `name` with a fresh key and waits for the run it starts to end. */
async function run(id: string, name: string, data: Record<string, unknown> = {}, timeoutMs = 15_000) {
  const k = randomBytes(4).toString('hex');
  await client.send({ name: E(name), data: { ...data, k } });
  const [started] = await waitForRuns(id, 1, k);
  return { k, run: await t.engine.waitForRun(started.id, timeoutMs) };
}

// both transports: in-process (as under `npm start`) and HTTP (the same signed wire format over a socket)
describe.each(['in-process', 'http'] as const)('embedded engine (%s)', (transport) => {
  beforeAll(async () => {
    clockOffset = 0; // the previous suite's cron test moved its clock on
    t = await startTestInngest({ client, functions, transport, engine: { clock: () => Date.now() + clockOffset } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('memoises steps: each step body runs once', async () => {
    const { k, run: r } = await run('memo', 'memo');
    expect(r.status).toBe('completed');
    expect(r.output).toEqual({ a: 1, b: 2, c: 3 });
    expect([count(`memo-a-${k}`), count(`memo-b-${k}`), count(`memo-c-${k}`)]).toEqual([1, 1, 1]);
    expect(count(`memo-body-${k}`)).toBe(1);
    expect(r.steps).toHaveLength(3);
  });

  it('checkpointing: a run of three steps takes one call, each step memoised before the next runs', async () => {
    const { k, run: r } = await run('memo', 'memo');
    expect(r.status).toBe('completed');
    // without checkpointing the function is entered once per step plus once to finish (4 calls)
    expect(count(`memo-entered-${k}`)).toBe(1);
    expect(r.steps.map((s) => s.result)).toEqual([1, 2, 3].map((data) => ({ type: 'data', data })));
  });

  it('buffered checkpoints: a run of two steps takes one call and no checkpoint request; its steps are memoised with its end', async () => {
    const { k, run: r } = await run('buffered', 'buffered');
    expect(r.status).toBe('completed');
    expect(r.output).toEqual({ a: 1, b: 2 });
    expect(count(`buffered-entered-${k}`)).toBe(1);
    expect([count(`buffered-a-${k}`), count(`buffered-b-${k}`)]).toEqual([1, 1]);
    expect(checkpoints[r.id] ?? 0).toBe(0);
    expect(r.steps.map((s) => s.result)).toEqual([1, 2].map((data) => ({ type: 'data', data })));
    // the default (one checkpoint per step) for comparison
    const { run: m } = await run('memo', 'memo');
    expect(checkpoints[m.id]).toBe(3);
  });

  it('buffered checkpoints are written before a sleep, and the run resumes after it without running a step twice', async () => {
    const { k, run: r } = await run('buffered', 'buffered', { nap: true });
    expect(r.status).toBe('completed');
    expect(r.output).toEqual({ a: 1, b: 2 });
    expect([count(`buffered-a-${k}`), count(`buffered-b-${k}`)]).toEqual([1, 1]);
    expect(checkpoints[r.id]).toBe(1);
    expect(r.steps).toHaveLength(3);
  });

  it('the checkpoint endpoint wants the signing key, a live lease, and only ops it implements', async () => {
    const { run: r } = await run('memo', 'memo');
    const checkpoint = (body: unknown, key = t.engine.signingKey) =>
      fetch(new URL(`v1/checkpoint/${r.id}/async`, t.engine.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${hashSigningKey(key)}` },
        body: JSON.stringify(body),
      });
    const step = { id: 'x', op: 'StepRun', data: 1 };
    expect((await checkpoint({ qi_id: '1.ab', steps: [step] }, newSigningKey('test'))).status).toBe(401);
    // the run has ended and its queue item is gone: the SDK is told its dispatch is stale
    expect((await checkpoint({ qi_id: '1.ab', steps: [step] })).status).toBe(409);
    expect((await checkpoint({ qi_id: '1.ab', steps: [{ id: 'x', op: 'Sleep' }] })).status).toBe(400);
    expect((await checkpoint({ steps: [step] })).status).toBe(400);
    expect((await t.engine.getRun(r.id))?.steps).toHaveLength(3);
  });

  it('retries a failing step with backoff and passes the attempt number', async () => {
    const { k, run: r } = await run('flaky', 'flaky');
    expect(r.status).toBe('completed');
    expect(r.output).toBe('ok');
    expect(calls[`flaky-${k}`]).toEqual([0, 1, 2]);
  });

  it('stops at NonRetriableError', async () => {
    const { k, run: r } = await run('fatal', 'fatal');
    expect(r.status).toBe('failed');
    expect(count(`fatal-${k}`)).toBe(1);
    expect(JSON.stringify(r.error)).toContain('bad input');
  });

  it('honours RetryAfterError', async () => {
    const { k, run: r } = await run('later', 'later');
    expect(r.status).toBe('completed');
    const [first, second] = times[`later-${k}`];
    expect(second - first).toBeGreaterThanOrEqual(900);
  });

  it('fails after the configured retries and runs the onFailure handler', async () => {
    const { k, run: r } = await run('exhausted', 'exhausted');
    expect(r.status).toBe('failed');
    expect(count(`exhausted-${k}`)).toBe(2);
    let mine: RunSnapshot | undefined;
    for (let i = 0; i < 100 && !mine; i++, await sleep(50)) {
      const failureRuns = await t.engine.listRuns(fnId('exhausted-failure'));
      mine = failureRuns.find((f) => (f.event as { data: { run_id: string } }).data.run_id === r.id);
    }
    expect(mine).toBeDefined();
    expect((await t.engine.waitForRun(mine!.id)).output).toEqual({ handled: 'always broken' });
    expect(count(`exhausted-failure-${k}`)).toBe(1);
  });

  it('sleeps with step.sleep and step.sleepUntil', async () => {
    const { run: r } = await run('sleeper', 'sleeper');
    expect(r.status).toBe('completed');
    expect((r.output as { elapsed: number }).elapsed).toBeGreaterThanOrEqual(1_900);
  });

  it('waitForEvent resumes with the matching event only (if expression)', async () => {
    const k = randomBytes(4).toString('hex');
    await client.send({ name: E('wait.start'), data: { k, timeout: '30s' } });
    const [started] = await waitForRuns('waiter', 1, k);
    let r = await t.engine.getRun(started.id);
    for (let i = 0; i < 50 && r?.status === 'running'; i++) {
      await client.send([
        { name: E('wait.approve'), data: { k: 'someone-else', note: 'wrong' } },
        { name: E('wait.approve'), data: { k, note: 'approved' } },
      ]);
      await sleep(200);
      r = await t.engine.getRun(started.id);
    }
    expect(r?.status).toBe('completed');
    expect(r?.output).toEqual({ note: 'approved' });
  });

  it('waitForEvent times out with null', async () => {
    const { run: r } = await run('waiter', 'wait.start', { timeout: '1s' });
    expect(r.status).toBe('completed');
    expect(r.output).toBe('timed out');
  });

  it('step.sendEvent goes through the event API and triggers another function', async () => {
    const { k, run: r } = await run('emitter', 'emit');
    expect(r.status).toBe('completed');
    const [received] = await waitForRuns('receiver', 1, k);
    expect((await t.engine.waitForRun(received.id)).output).toEqual({ got: k });
  });

  it('step.invoke runs the other function and returns its result', async () => {
    const { run: r } = await run('parent', 'parent', { n: 21 });
    expect(r.status).toBe('completed');
    expect(r.output).toEqual({ doubled: 42 });
  });

  it('runs parallel steps once each', async () => {
    const { k, run: r } = await run('parallel', 'parallel');
    expect(r.status).toBe('completed');
    expect(r.output).toBe(3);
    expect([count(`par-left-${k}`), count(`par-right-${k}`), count(`par-join-${k}`)]).toEqual([1, 1, 1]);
  });

  it('never runs more than the concurrency limit per key at once', async () => {
    const before = (await runsOf('limited')).length;
    await client.send([
      ...Array.from({ length: 5 }, () => ({ name: E('limited'), data: { group: 'a' } })),
      ...Array.from({ length: 3 }, () => ({ name: E('limited'), data: { group: 'b' } })),
    ]);
    const runs = await waitForRuns('limited', before + 8);
    await Promise.all(runs.map((r) => t.engine.waitForRun(r.id, 20_000)));
    expect(maxActive.a).toBe(2);
    expect(maxActive.b).toBe(2);
    expect(maxActiveTotal).toBeGreaterThanOrEqual(3);
    expect(maxActiveTotal).toBeLessThanOrEqual(4);
  });

  it('work blocked by a concurrency limit does not hold up other functions', async () => {
    const before = (await runsOf('limited')).length;
    // 30 × 400 ms two at a time: 6 s of blocked work queued before the other function's run
    await client.send(Array.from({ length: 30 }, () => ({ name: E('limited'), data: { group: 'crowd', ms: 400 } })));
    await waitForRuns('limited', before + 30);
    // while the crowd waits for its slots the scheduler sleeps between the calls' ends instead
    // of asking again and again (it span: about 200 passes a second, each a transaction)
    const passes0 = t.engine.stats().passes;
    await sleep(1_000);
    expect(t.engine.stats().passes - passes0).toBeLessThan(40);
    const { run: r } = await run('memo', 'memo');
    expect(r.status).toBe('completed');
    // it finished while most of the crowd was still waiting for its turn (an order, not a time)
    const runs = await runsOf('limited');
    expect(runs.filter((x) => x.status === 'running').length).toBeGreaterThan(10);
    await Promise.all(runs.map((x) => t.engine.waitForRun(x.id, 30_000)));
    expect(maxActive.crowd).toBe(2);
  });

  it('queued calls carry their concurrency keys, so a claim passes over a busy key on the calls themselves; calls queued without them wait for a slot too', async () => {
    const group = `keys-${randomBytes(3).toString('hex')}`;
    await client.send(Array.from({ length: 6 }, () => ({ name: E('limited'), data: { group, ms: 300 } })));
    const ids: string[] = [];
    for (let i = 0; i < 200 && ids.length < 6; i++) {
      ids.splice(0, ids.length, ...(await runsOf('limited')).filter((r) => (r.event as { data: { group: string } }).data.group === group).map((r) => r.id));
      if (ids.length < 6) await sleep(25);
    }
    expect(ids).toHaveLength(6);
    const { sql } = getHandle();
    // two run at a time: the others' calls are queued, each with the key it counts against
    const items = await sql<{ status: string; concurrency_keys: string[] }[]>`select status, concurrency_keys from inngest_queue where run_id = any(${ids})`;
    expect(items.filter((i) => i.status === 'queued').length).toBeGreaterThan(0);
    for (const i of items) expect(i.concurrency_keys).toEqual([`fn:${fnId('limited')}:${group}`]);
    // as calls queued before the keys were kept on them: the limit holds on their runs alone
    await sql`update inngest_queue set concurrency_keys = '{}' where run_id = any(${ids}) and status = 'queued'`;
    const ended = await Promise.all(ids.map((id) => t.engine.waitForRun(id, 20_000)));
    expect(ended.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    expect(maxActive[group]).toBe(2);
  });

  it('rate limit: at most one run per key and period', async () => {
    const org = `org-${randomBytes(3).toString('hex')}`;
    await client.send([
      { name: E('recharge'), data: { org } },
      { name: E('recharge'), data: { org } },
      { name: E('recharge'), data: { org: `${org}-other` } },
    ]);
    await sleep(800);
    const runs = await runsOf('once-per-hour');
    const orgs = runs.map((r) => (r.event as { data: { org: string } }).data.org).filter((o) => o.startsWith(org));
    expect(orgs.sort()).toEqual([org, `${org}-other`]);
  });

  it('cancels a run through the API', async () => {
    const k = randomBytes(4).toString('hex');
    await client.send({ name: E('long'), data: { k } });
    const [r] = await waitForRuns('cancellable', 1, k);
    for (let i = 0; i < 100 && count(`long-before-${k}`) === 0; i++) await sleep(50);
    expect(await t.engine.cancelRun(r.id)).toBe(true);
    const ended = await t.engine.waitForRun(r.id);
    expect(ended.status).toBe('cancelled');
    expect(await t.engine.cancelRun(r.id)).toBe(false);
    expect(count(`long-after-${k}`)).toBe(0);
  });

  it('cancels a run with cancelOn when a matching event arrives', async () => {
    const k = randomBytes(4).toString('hex');
    await client.send({ name: E('long'), data: { k } });
    const [r] = await waitForRuns('cancellable', 1, k);
    await client.send({ name: E('long.cancel'), data: { k: 'not-this-one' } });
    await client.send({ name: E('long.cancel'), data: { k } });
    const ended = await t.engine.waitForRun(r.id);
    expect(ended.status).toBe('cancelled');
    expect(count(`long-after-${k}`)).toBe(0);
  });

  it('fires cron triggers when their time comes (driven by the engine clock)', async () => {
    const before = (await runsOf('ticker')).length;
    // a minute on is enough for a fresh cron row; the previous suite's fire may have left next_at up to two minutes ahead
    let runs: RunSnapshot[] = [];
    for (let i = 0; i < 3 && runs.length <= before; i++) {
      clockOffset += 61_000;
      t.engine.kick();
      runs = await waitForRuns('ticker', before + 1, undefined, 3_000).catch(() => []);
    }
    expect(runs.length).toBeGreaterThan(before);
    const fired = await t.engine.waitForRun(runs[runs.length - 1].id);
    expect(fired.output).toEqual({ name: 'inngest/scheduled.timer' });
  });
});

describe('start-up checks', () => {
  it('the production functions sync with the engine (no unsupported option)', async () => {
    const { inngest } = await import('@/server/jobs/client');
    const { functions: production } = await import('@/server/jobs/functions');
    const app = await startTestInngest({ client: inngest, functions: production });
    await app.stop();
  });

  it('fails loudly when a function uses an option the engine does not implement', async () => {
    const bad = new Inngest({ id: `engine-test-bad-${suffix}` });
    const debounced = bad.createFunction({ id: 'debounced', triggers: [{ event: E('never') }], debounce: { period: '5s' } }, async () => null);
    await expect(startTestInngest({ client: bad, functions: [debounced] })).rejects.toThrow(/engine-test-bad-.*-debounced.*debounce/);
  });

  it('fails loudly on an expression it cannot evaluate', async () => {
    const bad = new Inngest({ id: `engine-test-expr-${suffix}` });
    const fancy = bad.createFunction({ id: 'fancy', triggers: [{ event: E('never'), if: 'size(event.data.items) > 2' }] }, async () => null);
    await expect(startTestInngest({ client: bad, functions: [fancy] })).rejects.toThrow(/fancy.*not supported/);
  });
});

describe('/api/inngest signature verification', () => {
  const signingKey = newSigningKey('test');
  let route: typeof import('@/app/api/inngest/route');

  beforeAll(async () => {
    delete process.env.SWISH_INNGEST_EMBEDDED;
    delete process.env.INNGEST_DEV;
    process.env.INNGEST_SIGNING_KEY = signingKey;
    process.env.INNGEST_BASE_URL = 'http://127.0.0.1:9/';
    route = await import('@/app/api/inngest/route');
  });

  const body = canonicalJson({ event: { name: 'x', data: {} }, events: [], steps: {}, version: 2, ctx: { run_id: 'r', attempt: 0, use_api: false } });
  /** Calls the route handler as Next.js does (the handler ignores the route context). */
  const call = (method: 'GET' | 'POST', req: Request) => (route[method] as (req: Request, ctx: unknown) => Promise<Response>)(req, undefined);
  const post = (headers: Record<string, string> = {}) =>
    call('POST', new Request('http://localhost/api/inngest?fnId=swish-unknown&stepId=step', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }));

  it('rejects unsigned and wrongly signed calls', async () => {
    expect((await post()).status).toBe(401);
    expect((await post({ 'x-inngest-signature': signBody(body, newSigningKey('test')) })).status).toBe(401);
    const introspection = await call('GET', new Request('http://localhost/api/inngest'));
    expect(introspection.status).toBe(401);
  });

  it('accepts a correctly signed call', async () => {
    const res = await post({ 'x-inngest-signature': signBody(body, signingKey) });
    expect(res.status).not.toBe(401);
    expect(await res.text()).toContain('swish-unknown');
  });
});
