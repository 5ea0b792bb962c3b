import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

const root = resolve('.data/test-embedded');
const port = 54359;

/** Starts the embedded server in a child process that never stops it, then SIGKILLs the child. */
async function crashOwner(): Promise<number> {
  const script = `import { startEmbeddedPostgres } from './src/server/db/embedded.ts';
    const db = await startEmbeddedPostgres({ root: ${JSON.stringify(root)}, port: ${port}, mode: 'owner' });
    console.log('up'); setInterval(() => {}, 1000);`;
  const child = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('up') && ok());
    child.on('exit', () => fail(new Error('child exited')));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.on('exit', r));
  return Number(readFileSync(join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

describe('embedded PostgreSQL', () => {
  it('recovers the orphaned postmaster left by a killed server and keeps the data', async () => {
    rmSync(root, { recursive: true, force: true });
    const orphan = await crashOwner();
    expect(() => process.kill(orphan, 0)).not.toThrow(); // still running, owner gone

    const client = await startEmbeddedPostgres({ root, port, mode: 'client' });
    expect(client.owned).toBe(true); // the orphan was not adopted as a server
    const sql = postgres(client.url, { max: 1, onnotice: () => {} });
    await sql`create table kept (v int)`;
    await sql`insert into kept values (42)`;
    await sql.end();
    await client.stop();
    expect(existsSync(join(root, 'pg', 'postmaster.pid'))).toBe(false);

    const again = await startEmbeddedPostgres({ root, port, mode: 'owner' });
    const sql2 = postgres(again.url, { max: 1, onnotice: () => {} });
    expect(await sql2`select v from kept`).toEqual([{ v: 42 }]);
    await sql2.end();
    await again.stop();
  }, 120_000);

  it('leaves a failing process its exit code (the library exits with 0 when the event loop empties)', async () => {
    rmSync(root, { recursive: true, force: true });
    const script = `import { startEmbeddedPostgres } from './src/server/db/embedded.ts';
      const db = await startEmbeddedPostgres({ root: ${JSON.stringify(root)}, port: ${port}, mode: 'owner' });
      await db.stop();
      process.exitCode = 3;`;
    const child = spawn('node', ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(3);
  }, 120_000);
});
