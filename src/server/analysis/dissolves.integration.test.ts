import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderRecordings, type Recording } from '../../test/recordings';
import { runFfmpeg } from '../media/ffmpeg';
import type { GroundTruthClip } from './ground-truth';
import { analyseVideo } from './index';
import { matchShots } from './scoring';
import { shotsOf, type AnalysisResult } from './types';

/**
 * Two recordings faded into each other: synthetic games filmed from different places, the first's last second
 * cross-dissolved into the second's first (ffmpeg's `blend`, each frame a mix of the two). The shift residual stays
 * low through the dissolve, so no cut is found; the thumbnails tell it (`scenes.ts#findDissolves`).
 */
const PIECES = [
  { seed: 403, view: 'elevated', script: ['swish', 'rim_out', 'rim_in'] },
  { seed: 402, view: 'corner45', script: ['air_ball', 'swish', 'bank_out'] },
] satisfies Recording[];
/** The dissolve's length (seconds). */
const L = 1;

let joined: AnalysisResult;
const truths: GroundTruthClip[] = [];
/** The dissolve's window in the joined video (seconds): the first recording's last L seconds. */
let window: [number, number];

beforeAll(async () => {
  const { dir, files, truths: read } = await renderRecordings('swish-dissolves-test', PIECES);
  truths.push(...read);
  const d0 = truths[0].media.frames! / truths[0].media.fps;
  window = [d0 - L, d0];
  const all = join(dir, 'dissolved.mp4');
  const graph = [
    `[0:v]split[a0][a1]`,
    `[a0]trim=end=${d0 - L},setpts=PTS-STARTPTS[head]`,
    `[a1]trim=start=${d0 - L},setpts=PTS-STARTPTS[out]`,
    `[1:v]split[b0][b1]`,
    `[b0]trim=end=${L},setpts=PTS-STARTPTS[in]`,
    `[b1]trim=start=${L},setpts=PTS-STARTPTS[rest]`,
    `[out][in]blend=all_expr='A*(1-T/${L})+B*(T/${L})'[mix]`,
    `[head][mix][rest]concat=n=3:v=1:a=0[v]`,
  ].join(';');
  await runFfmpeg(['-y', '-i', files[0], '-i', files[1], '-filter_complex', graph, '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', all]);
  joined = await analyseVideo(all);
}, 600_000);

describe('two recordings joined by a cross-dissolve', () => {
  it('is split into two scenes in the middle of the dissolve', () => {
    expect(joined.scenes).toHaveLength(2);
    // the split is the middle of the dissolve as found: its ends are where the frames settle, within a few frames
    const mid = (window[0] + window[1]) / 2;
    expect(Math.abs(joined.scenes![0][1] - mid)).toBeLessThanOrEqual(0.25);
    expect(joined.scenes![1][0]).toBe(joined.scenes![0][1]);
  });

  it('finds the attempts of both recordings at their times, called right, each recording at its own hoop', () => {
    const shots = shotsOf(joined.actions);
    // the second recording's times move by the first's length less the dissolve; an attempt on the dissolve is left out
    const attempts = truths
      .flatMap((t, k) => t.attempts.map((a) => ({ ...a, rim_arrival_s: a.rim_arrival_s + (k ? window[0] : 0) })))
      .filter((a) => a.rim_arrival_s < window[0] - 0.2 || a.rim_arrival_s > window[1] + 0.2);
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    const pairs = matchShots(attempts.map((a) => a.rim_arrival_s), shots.map((s) => s.rim_t));
    expect(pairs.length).toBe(attempts.length);
    expect(shots.length).toBe(attempts.length);
    for (const [i, j] of pairs) expect(shots[j].made, `attempt at ${attempts[i].rim_arrival_s} s`).toBe(attempts[i].made);
    const hoopOf = (k: number) => new Set(shots.filter((s) => (s.rim_t > window[1]) === (k === 1)).map((s) => s.hoop_id));
    expect(hoopOf(0).size).toBe(1);
    expect(hoopOf(1).size).toBe(1);
    expect([...hoopOf(0)][0]).not.toBe([...hoopOf(1)][0]);
  });
});
