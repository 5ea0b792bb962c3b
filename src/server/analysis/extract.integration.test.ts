import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../media/ffmpeg';
import { chooseGeometry } from './decode';
import { extractFeatures, type ExtractResult } from './extract';
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
  }, 240_000);
});
