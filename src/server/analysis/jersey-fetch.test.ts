import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../media/ffmpeg';
import { chooseGeometry, FrameBuffers, streamFrames } from './decode';
import { fetchFrames, limiter, runsPerProcess } from './jersey';

let dir = '';
let video = '';
/** Every frame of the clip, decoded from the start the way the re-decode decodes (no deblocking). */
let all: Uint8Array[] = [];
const geo = { ...chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' }), skipLoopFilter: true };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jersey-fetch-test-'));
  video = join(dir, 'clip.mp4');
  // 8 s of a moving test pattern with a key frame every 2 s, so that seeks decode from a key frame.
  await runFfmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=8',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p', video,
  ]);
  await streamFrames(video, geo, (f) => {
    all.push(f);
  });
}, 120_000);

afterAll(async () => {
  all = [];
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('fetchFrames (frames re-decoded at shot moments)', () => {
  // Runs at 1 s joining: [0, 3], [40, 41], [100], [130, 131], [200], [239, 244]; 244 is past the end.
  const want = [0, 3, 40, 41, 100, 130, 131, 200, 239, 244];

  it('returns exactly the frames at the asked indices, several runs per ffmpeg process or one', async () => {
    expect(all.length).toBe(240);
    for (const sourcePixels of [1280 * 720, 3840 * 2160]) {
      const got = await fetchFrames(video, { ...geo, sourcePixels }, want, undefined, 1);
      expect([...got.keys()].sort((a, b) => a - b)).toEqual(want.filter((i) => i < 240));
      for (const [i, f] of got) {
        // Bit-identical to the frame decoded from the start (compared as a whole: a one-frame
        // offset of the moving pattern differs in thousands of bytes).
        expect(Buffer.compare(Buffer.from(f), Buffer.from(all[i])), `frame ${i} at ${sourcePixels} px`).toBe(0);
      }
    }
  }, 120_000);

  it('keeps two requests sharing a process limit to it together, and both get their frames', async () => {
    const processes = limiter(1);
    const [a, b] = await Promise.all([
      fetchFrames(video, geo, [10, 100], undefined, 1, processes),
      fetchFrames(video, geo, [50, 200], undefined, 1, processes),
    ]);
    expect([...a.keys()].sort((x, y) => x - y)).toEqual([10, 100]);
    expect([...b.keys()].sort((x, y) => x - y)).toEqual([50, 200]);
    for (const [i, f] of [...a, ...b]) expect(Buffer.compare(Buffer.from(f), Buffer.from(all[i])), `frame ${i}`).toBe(0);
  }, 60_000);

  it('reads into the buffers it is given, and an aborted request returns what it has without waiting', async () => {
    const buffers = new FrameBuffers(geo.width * geo.height * 3);
    const lent = new Uint8Array(buffers.bytes);
    buffers.give([lent.buffer]);
    const got = await fetchFrames(video, geo, [70], undefined, 1, limiter(2), buffers);
    expect(got.get(70)?.buffer).toBe(lent.buffer);
    expect(Buffer.compare(Buffer.from(got.get(70)!), Buffer.from(all[70]))).toBe(0);
    const stop = new AbortController();
    stop.abort();
    expect((await fetchFrames(video, geo, [5, 150], stop.signal, 1)).size).toBe(0);
  }, 60_000);

  it('bounds the decoders one process keeps open by the source size', () => {
    expect(runsPerProcess(640 * 360)).toBe(6);
    expect(runsPerProcess(1280 * 720)).toBe(5);
    expect(runsPerProcess(1920 * 1080)).toBe(2);
    expect(runsPerProcess(3840 * 2160)).toBe(1);
  });
});

describe('limiter', () => {
  it('runs at most n tasks at a time, in the order given, and passes results and errors through', async () => {
    const limit = limiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    const results = gates.map((g, i) =>
      limit(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await g.promise;
        running--;
        if (i === 3) throw new Error('task 3');
        return i * 10;
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    const settled = await Promise.allSettled(results);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([0, 10, 20, 'task 3', 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    // a failed task gave its place back: the limiter still runs two at a time
    const again = await Promise.all([limit(async () => 'x'), limit(async () => 'y'), limit(async () => 'z')]);
    expect(again).toEqual(['x', 'y', 'z']);
  });
});
