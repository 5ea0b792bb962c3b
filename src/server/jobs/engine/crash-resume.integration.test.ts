import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { until as pollUntil } from '../../../test/until';

/** Polls `probe` every 50 ms until it is truthy (default 30_000 ms). */
const until = <T>(what: string, probe: Parameters<typeof pollUntil<T>>[1], timeoutMs = 30_000) => pollUntil<T>(what, probe, { timeoutMs, intervalMs: 50 });

/**
 * kill -9 in the middle of a step, start again on the same database: the run resumes from
 * its last finished step, finishes once, and the finished step does not run again.
 */

const appId = `engine-crash-${randomBytes(4).toString('hex')}`;
const logFile = join(mkdtempSync(join(tmpdir(), 'engine-crash-')), 'steps.log');
const script = new URL('./fixtures/crash-app.ts', import.meta.url).pathname;
const children: ChildProcess[] = [];
const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });

const lines = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(send: boolean): ChildProcess {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CRASH_APP_ID: appId, CRASH_LOG: logFile, CRASH_SEND: send ? '1' : '' },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}


afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sql.end();
  rmSync(dirname(logFile), { recursive: true, force: true });
});

it('resumes a run from its last finished step after the process was SIGKILLed', async () => {
  const first = start(true);
  await until('the second step to start', () => lines().includes('second:start'));
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  expect(lines()).toEqual(['first', 'second:start']);

  start(false);
  const fnId = `${appId}-resumable`;
  const run = await until('the run to finish', async () => {
    const [r] = await sql<{ id: string; status: string; output: unknown }[]>`select id, status, output from inngest_runs where function_id = ${fnId} and status <> 'running'`;
    return r;
  });
  expect(run.status).toBe('completed');
  expect(run.output).toEqual({ third: 3 });
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from inngest_runs where function_id = ${fnId}`;
  expect(n).toBe(1);
  const log = lines();
  expect(log.filter((l) => l === 'first')).toHaveLength(1);
  expect(log.filter((l) => l === 'second:start')).toHaveLength(2);
  expect(log.filter((l) => l === 'second:end')).toHaveLength(1);
  expect(log.filter((l) => l === 'third')).toHaveLength(1);
});
