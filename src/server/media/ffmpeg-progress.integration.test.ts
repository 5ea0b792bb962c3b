import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/until';
import { runFfmpegWithProgress, shiftProcessNiceness } from './ffmpeg-progress';
import { makeTestVideo } from './test-videos';

/** Process priorities of ffmpeg encodes: x264 lowers its own helper threads 10 below the encoder. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-ffmpeg-nice-'));
  await makeTestVideo({ path: join(dir, 'in.mp4'), width: 1280, height: 720, seconds: 20, audio: false });
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `nice` of every thread of a process (per thread id), main thread first. */
function threadNiceness(pid: number): number[] {
  const tids = readdirSync(`/proc/${pid}/task`).map(Number).sort((a, b) => (a === pid ? -1 : b === pid ? 1 : a - b));
  return tids.map((tid) => getPriority(tid));
}

/** Starts an x264 encode of the test video; resolves with its pid once it is encoding (its threads all started). */
async function encode(niceness: number | undefined, signal: AbortSignal) {
  let pid = 0;
  let encoding = false;
  const done = runFfmpegWithProgress(
    ['-i', join(dir, 'in.mp4'), '-c:v', 'libx264', '-preset', 'veryfast', '-f', 'null', '-'],
    { signal, niceness, durationSeconds: 20, onSpawn: (p) => (pid = p), onProgress: () => (encoding = true) },
  ).catch(() => {});
  await until('the encoder to encode', () => pid > 0 && encoding, { timeoutMs: 20_000, intervalMs: 20 });
  return { pid, done };
}

describe('ffmpeg priorities', () => {
  const normal = getPriority();

  it('runs an encode lowered from its start: the main thread by the niceness, x264 helpers 10 further', async () => {
    const stop = new AbortController();
    const { pid, done } = await encode(9, stop.signal);
    const [main, ...others] = threadNiceness(pid);
    expect(main).toBe(normal + 9);
    for (const n of others) expect([normal + 9, Math.min(19, normal + 19)]).toContain(n);
    expect(others).toContain(Math.min(19, normal + 19));
    stop.abort();
    await done;
  }, 60_000);

  it('shifts every thread of a running encode and back, keeping the offsets between them', async () => {
    const stop = new AbortController();
    const { pid, done } = await encode(undefined, stop.signal);
    const before = threadNiceness(pid);
    expect(before[0]).toBe(normal);
    expect(before).toContain(normal + 10); // x264's own helpers
    expect(shiftProcessNiceness(pid, 9)).toBe(true);
    expect(threadNiceness(pid).slice(0, before.length)).toEqual(before.map((n) => Math.min(19, n + 9)));
    expect(shiftProcessNiceness(pid, -9)).toBe(true);
    expect(threadNiceness(pid).slice(0, before.length)).toEqual(before);
    stop.abort();
    await done;
    await until('the encoder to end', () => !existsSync(`/proc/${pid}`), { timeoutMs: 20_000, intervalMs: 20 });
    expect(shiftProcessNiceness(pid, 9)).toBe(false);
  }, 60_000);
});
