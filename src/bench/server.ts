import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { ensureDatabase } from '../server/db/bootstrap';
import { getDb } from '../server/db/client';
import { createApiKey } from '../server/domain/api-keys/api-keys';
import { createOrganization } from '../server/domain/organizations/organizations';

/**
 * Starts a production build of the service for a benchmark (fresh DATA_DIR, its own ports)
 * and resolves when /api/health answers.
 */
export function startBenchServer(opts: { port: number; dataDir: string; dbPort: string; env?: Record<string, string> }): Promise<ChildProcess> {
  rmSync(opts.dataDir, { recursive: true, force: true });
  const child = spawn('node', ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(opts.port), DATA_DIR: opts.dataDir, SWISH_DB_PORT: opts.dbPort, LOG_LEVEL: 'warn', DATABASE_URL: '', ...opts.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${opts.port}`;
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 600_000;
    const poll = async () => {
      try {
        if ((await fetch(`${base}/api/health`)).ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (child.exitCode !== null || Date.now() > deadline) return reject(new Error('server did not start'));
      setTimeout(poll, 500);
    };
    void poll();
  });
}

/**
 * Stops a bench server and waits for it to exit: it finishes its requests in flight and stops
 * its jobs engine and database first (a graceful stop), and the next bench must not start on
 * the same ports and data directory before that is done. After `timeoutMs` it is killed.
 */
export async function stopBenchServer(child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.error(`the bench server did not stop within ${timeoutMs / 1000} s: killed`);
    child.kill('SIGKILL');
  }, timeoutMs);
  await exited;
  clearTimeout(timer);
  console.log(`server stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Connects this process to the bench server's database and creates an organization with
 * credit and one production key whose rate limit is lifted (the explicit per-key setting).
 */
export async function benchOrganization(opts: { dataDir: string; dbPort: string; grantCents: number }) {
  process.env.DATA_DIR = opts.dataDir;
  process.env.SWISH_DB_PORT = opts.dbPort;
  delete process.env.DATABASE_URL;
  await ensureDatabase({ mode: 'client' });
  const org = await createOrganization(getDb(), { name: 'Bench', grantCents: opts.grantCents, keys: [] });
  const key = await createApiKey(getDb(), { organizationId: org.id, environment: 'production', rateLimitPerMinute: null });
  return { org, key };
}
