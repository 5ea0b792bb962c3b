import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../media/ffmpeg';
import type { GroundTruthClip } from './ground-truth';
import { analyseVideo } from './index';
import { matchShots } from './scoring';
import type { AnalysisResult, ShotAction } from './types';

/**
 * A video cut together from two recordings: two synthetic games filmed from different places, joined one after the
 * other with ffmpeg. Each recording's hoop sits elsewhere in the picture; analysed as one camera, the shots of one of
 * them were lost (the hoop found on the samples of the whole clip is one of the two).
 */
const PIECES = [
  { seed: 403, view: 'elevated', script: ['swish', 'rim_out', 'rim_in'] },
  { seed: 402, view: 'corner45', script: ['air_ball', 'swish', 'bank_out'] },
] as const;

let joined: AnalysisResult;
const truths: GroundTruthClip[] = [];
const alone: AnalysisResult[] = [];
let offset = 0;

beforeAll(async () => {
  const { renderSyntheticGameAtomic, GENERATOR_VERSION } = await import('./synth/render');
  const dir = join(tmpdir(), 'swish-scenes-test', `gen-${GENERATOR_VERSION}`);
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const p of PIECES) {
    const file = join(dir, `piece-${p.seed}.mp4`);
    const gt = join(dir, `piece-${p.seed}.json`);
    if (!existsSync(file) || !existsSync(gt)) {
      await renderSyntheticGameAtomic({ seed: p.seed, width: 640, height: 360, view: p.view, script: p.script.map((kind) => ({ kind })) }, file);
    }
    files.push(file);
    truths.push((JSON.parse(await readFile(gt, 'utf8')) as { clips: GroundTruthClip[] }).clips[0]);
    alone.push(await analyseVideo(file));
  }
  offset = truths[0].media.frames! / truths[0].media.fps;
  const both = join(dir, 'joined.mp4');
  await runFfmpeg(['-y', '-i', files[0], '-i', files[1], '-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0[v]', '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', both]);
  joined = await analyseVideo(both);
}, 600_000);

const shotsOf = (r: AnalysisResult) => r.actions.filter((a): a is ShotAction => a.type === 'shot');

describe('a video cut together from two recordings', () => {
  it('finds the shots of both recordings at their times in the joined video, called right and as each recording alone calls them', () => {
    const shots = shotsOf(joined);
    const attempts = truths.flatMap((t, k) => t.attempts.map((a) => ({ ...a, rim_arrival_s: a.rim_arrival_s + (k ? offset : 0) })));
    const pairs = matchShots(attempts.map((a) => a.rim_arrival_s), shots.map((s) => s.rim_t));
    expect(pairs.length).toBe(attempts.length);
    expect(shots.length).toBe(attempts.length);
    for (const [i, j] of pairs) expect(shots[j].made, `attempt at ${attempts[i].rim_arrival_s} s`).toBe(attempts[i].made);
    // each recording's shots as it gives them alone (the second's moved by the first's length); the joined video is
    // encoded again and sampled at other frames, so a rim arrival may move by a few frames
    for (const [k, piece] of alone.entries()) {
      const inPiece = shots.filter((s) => (k ? s.rim_t >= offset : s.rim_t < offset));
      const own = shotsOf(piece);
      expect(inPiece.map((s) => s.made)).toEqual(own.map((s) => s.made));
      inPiece.forEach((s, i) => expect(Math.abs(s.rim_t - (own[i].rim_t + (k ? offset : 0)))).toBeLessThanOrEqual(0.5));
    }
  });

  it('reports each recording’s hoop, with ids, shot ids and indexes numbered on across the cut', () => {
    const shots = shotsOf(joined);
    const hoopsOfShots = new Set(shots.map((s) => s.hoop_id));
    expect(hoopsOfShots.size).toBeGreaterThanOrEqual(2);
    for (const id of hoopsOfShots) expect(joined.hoops.some((h) => h.id === id)).toBe(true);
    expect(new Set(joined.hoops.map((h) => h.id)).size).toBe(joined.hoops.length);
    expect(shots.map((s) => s.id)).toEqual(shots.map((_, k) => `s${k + 1}`));
    expect(shots.map((s) => s.index)).toEqual(shots.map((_, k) => k));
    // every hoop sample of the second recording's hoop lies after the cut
    const lastHoop = joined.hoops.find((h) => h.id === shots[shots.length - 1].hoop_id)!;
    expect(Math.min(...lastHoop.samples.map((q) => q.t))).toBeGreaterThanOrEqual(offset - 0.05);
    expect(joined.outcome).toBe('ok');
  });

  it('names only players (tracks) the clusters list, across the cut', () => {
    const ids = new Set(joined.clusters.map((c) => c.track_id));
    expect(ids.size).toBe(joined.clusters.length);
    for (const s of shotsOf(joined)) if (s.shooter_track !== null) expect(ids.has(s.shooter_track)).toBe(true);
  });
});
