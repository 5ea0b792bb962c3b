import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureCacheKey, loadExtracted, storeExtracted } from './feature-cache';
import { analyseVideo, extractVideo, finishExtracted } from './index';
import { defaultPoolSize } from './pool';
import { renderSyntheticGameAtomic } from './synth/render';
import { shotsOf } from './types';

/** The benchmark's feature cache must give the analysis a fresh decode gives, shot for shot. */
describe('an extraction stored in the feature cache', () => {
  let dir: string;
  let video: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swish-feature-cache-'));
    video = join(dir, 'shots.mp4');
    await renderSyntheticGameAtomic(
      { seed: 111, width: 640, height: 360, script: [{ kind: 'swish' }, { kind: 'rim_out' }, { kind: 'bank_in' }] },
      video,
    );
  }, 240_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is read back and finished into the same artifacts and make evidence as a fresh analysis', async () => {
    const direct = await analyseVideo(video, { numPlayers: 2 });
    expect(direct.actions.some((a) => a.type === 'shot')).toBe(true);

    const cacheDir = join(dir, 'features');
    const key = featureCacheKey(video, defaultPoolSize());
    expect(await loadExtracted(cacheDir, key)).toBeNull();
    await storeExtracted(cacheDir, key, await extractVideo(video));
    const back = await loadExtracted(cacheDir, key);
    expect(back).not.toBeNull();

    const cached = await finishExtracted(back!, { numPlayers: 2 });
    expect(cached.outcome).toBe(direct.outcome);
    expect(cached.actions).toEqual(direct.actions);
    expect(cached.balls).toEqual(direct.balls);
    expect(cached.hoops).toEqual(direct.hoops);
    expect(cached.clusters).toEqual(direct.clusters);
    expect(cached.makeEvidence).toEqual(direct.makeEvidence);
    expect(cached.makeEvidence).toHaveLength(shotsOf(direct.actions).length);

    // handed over (as a fresh analysis does), the features go to the worker: the same artifacts, and the buffers are gone here
    // (a fresh extraction's: the cache's are views of the file read back, which postMessage copies)
    const handed = await extractVideo(video);
    const runs = 'packed' in handed.task ? handed.task.packed : [];
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.motion.length > 0)).toBe(true);
    const again = await finishExtracted(handed, { numPlayers: 2 }, { handOver: true });
    expect(again.actions).toEqual(direct.actions);
    expect(again.makeEvidence).toEqual(direct.makeEvidence);
    expect(runs.every((r) => r.frames.length === 0 && r.blobs.length === 0 && r.motion.length === 0)).toBe(true);
  }, 240_000);
});
