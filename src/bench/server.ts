import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

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
