import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from './pool';

/** Resources that keep this process's event loop alive, beyond those of `base`. */
function extra(base: string[]): string[] {
  const left = [...base];
  return process.getActiveResourcesInfo().filter((r) => {
    const i = left.indexOf(r);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

describe('analysis worker pool', () => {
  let pool: WorkerPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('keeps the process alive while a task runs, and not while its workers are idle', async () => {
    const base = process.getActiveResourcesInfo();
    pool = new WorkerPool(2);
    // idle workers: a CLI run ends when its analysis does, not when the shared pool's idle timer fires
    expect(extra(base)).toEqual([]);
    const task = pool.run<unknown[]>({ kind: 'rims', rgb: new Uint8Array(64 * 36 * 3), width: 64, height: 36 });
    // a pending task: the process must not exit under it
    expect(extra(base).length).toBeGreaterThan(0);
    expect(Array.isArray(await task)).toBe(true);
    expect(extra(base)).toEqual([]);

    const two = [0, 1].map(() => pool!.run<unknown[]>({ kind: 'rims', rgb: new Uint8Array(64 * 36 * 3), width: 64, height: 36 }));
    await two[0];
    await two[1];
    expect(extra(base)).toEqual([]);
  });
});
