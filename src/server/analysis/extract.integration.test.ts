import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, runFfmpeg } from '../media/ffmpeg';
import { chooseGeometry } from './decode';
import { decodeSplits, extractFeatures, RUN, SPLIT_MIN_SECONDS, type ExtractResult } from './extract';
import { packedFrameShift } from './frame-features';
import { WorkerPool } from './pool';
import { renderSyntheticGameAtomic } from './synth/render';

/**
 * Which frames of a panning camera get a rim search must not depend on how far the feature
 * workers have got when the frame is decoded: one worker or two, the same frames are searched,
 * and they are exactly the ones the rule names (one a second, up to 3 s after a run of frames
 * that ends before the frame saw the camera move).
 */
describe('rim searches under a moving camera', () => {
  let file = '';
  const pools: WorkerPool[] = [];
  beforeAll(async () => {
    const dir = join(tmpdir(), 'swish-extract-test');
    await mkdir(dir, { recursive: true });
    file = join(dir, 'panning-7.mp4');
    await renderSyntheticGameAtomic({ seed: 7, width: 640, height: 360, camera: 'panning', durationSeconds: 12 }, file);
  }, 240_000);
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  const extract = async (workers: number): Promise<ExtractResult> => {
    const probe = await probeVideo(file);
    const pool = new WorkerPool(workers);
    pools.push(pool);
    return extractFeatures(file, chooseGeometry(probe), pool, { durationSeconds: probe.durationSeconds });
  };

  it('searches the same frames with one worker or two, exactly those the camera motion before them names', async () => {
    const one = await extract(1);
    const two = await extract(2);
    const searched = one.rimSamples.map((r) => r.index);
    expect(two.rimSamples.map((r) => r.index)).toEqual(searched);
    expect(two.rimSamples).toEqual(one.rimSamples);

    // The rule, from the runs' own shifts: a run reads its last frame plus one frame of context.
    const fps = Math.round(chooseGeometry(await probeVideo(file)).fps);
    const runs = one.packed.map((r) => {
      const { shift, lastIndex } = packedFrameShift(r);
      return { moving: shift >= 3, lastIndex };
    });
    const expected: number[] = [];
    for (let i = 0; i < one.frameCount; i += fps) {
      const until = Math.max(-1, ...runs.filter((r) => r.moving && r.lastIndex + 1 < i).map((r) => r.lastIndex + 3 * fps));
      if (i <= until) expected.push(i);
    }
    expect(expected.length).toBeGreaterThan(3);
    expect(searched).toEqual(expected);

    // every second searched frame is kept for the court per shot: the decoded frame itself
    const kept = searched.filter((i) => i % (2 * fps) === 0);
    expect(kept.length).toBeGreaterThan(1);
    expect(one.viewSamples.map((v) => v.index)).toEqual(kept);
    expect(two.viewSamples.map((v) => v.index)).toEqual(kept);
    for (const v of one.viewSamples) expect(v.rgb.length).toBe(640 * 360 * 3);
    expect(Buffer.from(two.viewSamples[0].rgb).equals(Buffer.from(one.viewSamples[0].rgb))).toBe(true);
    const sampled = one.samples.find((smp) => one.viewSamples.some((v) => v.index === smp.index));
    if (sampled) expect(Buffer.from(one.viewSamples.find((v) => v.index === sampled.index)!.rgb).equals(Buffer.from(sampled.rgb))).toBe(true);
  }, 240_000);

  it('keeps at most the view samples asked for, over a stride the length fixes before decoding', async () => {
    const probe = await probeVideo(file);
    const fps = Math.round(chooseGeometry(probe).fps);
    const pool = new WorkerPool(2);
    pools.push(pool);
    const all = await extract(2);
    const few = await extractFeatures(file, chooseGeometry(probe), pool, { durationSeconds: probe.durationSeconds, maxViewSamples: 3 });
    expect(all.viewSamples.length).toBeGreaterThan(3);
    // 12 s for 3 samples: one every 4 s of the searched frames
    const every = Math.ceil(probe.durationSeconds / 3) * fps;
    expect(few.viewSamples.map((v) => v.index)).toEqual(all.rimSamples.map((r) => r.index).filter((i) => i % every === 0));
    expect(few.viewSamples.length).toBeGreaterThan(0);
    expect(few.viewSamples.length).toBeLessThanOrEqual(3);
  }, 240_000);
});

/** Everything extraction hands on, comparable with `toEqual` (typed arrays as plain arrays). */
function outputOf(r: ExtractResult) {
  return {
    frameCount: r.frameCount,
    runs: r.packed.map((p) => ({ frames: [...p.frames], blobs: [...p.blobs], motion: [...p.motion] })),
    samples: r.samples.map((s) => ({ index: s.index, t: s.t, rgb: Buffer.from(s.rgb).toString('base64') })),
    rimSamples: r.rimSamples,
    viewSamples: r.viewSamples.map((s) => ({ index: s.index, rgb: Buffer.from(s.rgb).toString('base64') })),
  };
}

/**
 * A long video is decoded in parts at once. Every run must get the frames one decode gives it,
 * so the features, samples and rim searches are exactly one decode's: at a cut that lands, at one
 * whose seek misses (decoded again from the start), and at one past the end of the video.
 */
describe('decoding in parts at once', () => {
  let dir = '';
  let panning = '';
  let vfr = '';
  let pool: WorkerPool;
  beforeAll(async () => {
    dir = join(tmpdir(), 'swish-extract-test');
    await mkdir(dir, { recursive: true });
    panning = join(dir, 'panning-7.mp4');
    await renderSyntheticGameAtomic({ seed: 7, width: 640, height: 360, camera: 'panning', durationSeconds: 12 }, panning);
    // a variable-rate source: every 37th frame comes 0.6 frames late, as a phone's timestamps do
    vfr = join(dir, 'vfr.mp4');
    await runFfmpeg([
      '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30:duration=8',
      '-vf', "setpts='(N+0.6*floor(N/37))/30/TB'", '-vsync', 'vfr',
      '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', '-pix_fmt', 'yuv420p', vfr,
    ]);
    pool = new WorkerPool(2);
  }, 240_000);
  afterAll(async () => {
    await pool?.close();
  });

  const extract = async (file: string, splits: number[], durationSeconds?: number) => {
    const probe = await probeVideo(file);
    return extractFeatures(file, chooseGeometry(probe), pool, { durationSeconds: durationSeconds ?? probe.durationSeconds, splits });
  };

  it('gives the features, samples and rim searches of one decode, in two parts or three', async () => {
    const one = await extract(panning, []);
    expect(one.timing.parts).toBe(1);
    expect(one.rimSamples.length).toBeGreaterThan(3);
    for (const splits of [[144], [96, 240]]) {
      const parts = await extract(panning, splits);
      expect(parts.timing).toMatchObject({ parts: splits.length + 1, redecoded: false });
      expect(outputOf(parts)).toEqual(outputOf(one));
    }
  }, 240_000);

  it('decodes the rest again from the start where a seek into a variable-rate video misses, and still gives the output of one decode', async () => {
    const one = outputOf(await extract(vfr, []));
    const redecoded: boolean[] = [];
    for (let cut = 2 * RUN; cut < 240 - RUN; cut += RUN) {
      const parts = await extract(vfr, [cut]);
      redecoded.push(parts.timing.redecoded);
      expect(outputOf(parts), `cut at ${cut}`).toEqual(one);
    }
    // both ways were taken: seeks that landed, and at least one that did not
    expect(redecoded).toContain(false);
    expect(redecoded).toContain(true);
  }, 240_000);

  it('ends with the first part when the video is shorter than its stated length', async () => {
    // (the stated length sets how often frames are sampled: both decodes are told 30 s)
    const one = outputOf(await extract(panning, [], 30));
    const parts = await extract(panning, [20 * RUN], 30);
    expect(parts.timing.parts).toBe(1);
    expect(outputOf(parts)).toEqual(one);
  }, 240_000);

  it('stops both parts when the analysis is aborted, and leaves no ffmpeg running', async () => {
    const probe = await probeVideo(panning);
    const abort = new AbortController();
    let calls = 0;
    const run = extractFeatures(panning, chooseGeometry(probe), pool, {
      durationSeconds: probe.durationSeconds,
      splits: [144],
      signal: abort.signal,
      onProgress: () => {
        calls++;
        abort.abort();
      },
    });
    await expect(run).rejects.toThrow('analysis aborted');
    // no run was handed out after the abort: only the ones already in flight came back
    expect(calls).toBeLessThanOrEqual(1 + 2 * pool.size);
    // the children of this process (ps exits 1 when there are none)
    const children = () => {
      try {
        return execFileSync('ps', ['--ppid', String(process.pid), '-o', 'comm='], { encoding: 'utf8' });
      } catch {
        return '';
      }
    };
    await expect.poll(children, { timeout: 5000 }).not.toMatch(/ffmpeg/);
  }, 60_000);

  it('leaves no failing run unhandled when the pool closes under an aborted extraction', async () => {
    // four workers: up to eight runs in flight, most of them never waited on before the abort
    const own = new WorkerPool(4);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const probe = await probeVideo(panning);
      const abort = new AbortController();
      // aborted and closed at the first result that leaves other runs in flight: closing the pool
      // fails them while the extraction still winds down (waiting for the pool after the abort
      // would find them all answered on a machine whose workers outpace the decode)
      let failedByClose = 0;
      const run = extractFeatures(panning, chooseGeometry(probe), own, {
        durationSeconds: probe.durationSeconds,
        splits: [144],
        signal: abort.signal,
        onProgress: () => {
          if (abort.signal.aborted || own.inFlight === 0) return;
          failedByClose = own.inFlight;
          abort.abort();
          void own.close();
        },
      });
      await expect(run).rejects.toThrow('analysis aborted');
      expect(failedByClose).toBeGreaterThan(0);
      expect(own.inFlight).toBe(0);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await own.close();
    }
  }, 60_000);

  it('cuts a video of 40 s or more in two with a pool of two workers, at a run boundary', () => {
    const geo = chooseGeometry({ width: 1280, height: 720, fps: 30 });
    expect(decodeSplits(geo, 600 * 30, 2)).toEqual([9000]);
    expect(decodeSplits(geo, 121 * 30, 2)).toEqual([Math.round(1815 / RUN) * RUN]);
    expect(decodeSplits(geo, SPLIT_MIN_SECONDS * 30, 2)).toHaveLength(1);
    expect(decodeSplits(geo, SPLIT_MIN_SECONDS * 30 - 1, 2)).toEqual([]);
    expect(decodeSplits(geo, 600 * 30, 1)).toEqual([]);
    // a chain with a side pipe is decoded in one piece
    expect(decodeSplits(chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'yuv444p' }), 600 * 30, 2)).toEqual([]);
    for (const s of decodeSplits(geo, 1234 * 30, 2)) expect(s % RUN).toBe(0);
  });
});
