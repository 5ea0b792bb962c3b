import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderRecordings, type Recording } from '../../test/recordings';
import { runFfmpeg } from '../media/ffmpeg';
import type { GroundTruthClip } from './ground-truth';
import { analyseVideo } from './index';
import { matchShots } from './scoring';
import { shotsOf, type AnalysisResult } from './types';

/**
 * A video cut together from three recordings: synthetic games filmed from different places, joined one after the
 * other with ffmpeg. Each recording's hoop sits elsewhere in the picture; analysed as one camera, shots were lost (the
 * hoop found on the samples of the whole clip is one of them). The last recording is short: the clip's samples leave
 * it too few, and it is given more, decoded again from the video.
 */
const PIECES = [
  { seed: 403, view: 'elevated', script: ['swish', 'rim_out', 'rim_in'] },
  { seed: 402, view: 'corner45', script: ['air_ball', 'swish', 'bank_out'] },
  { seed: 404, view: 'sideline', script: ['rim_out'] },
] satisfies Recording[];

let joined: AnalysisResult;
const truths: GroundTruthClip[] = [];
const alone: AnalysisResult[] = [];
/** Where each recording starts in the joined video (seconds). */
const starts: number[] = [];

beforeAll(async () => {
  const { dir, files, truths: read } = await renderRecordings('swish-scenes-test', PIECES);
  truths.push(...read);
  for (const file of files) alone.push(await analyseVideo(file));
  for (const [k, t] of truths.entries()) starts.push(k ? starts[k - 1] + truths[k - 1].media.frames! / truths[k - 1].media.fps : 0);
  const all = join(dir, 'joined.mp4');
  const inputs = files.flatMap((f) => ['-i', f]);
  const concat = `${files.map((_, k) => `[${k}:v]`).join('')}concat=n=${files.length}:v=1:a=0[v]`;
  await runFfmpeg(['-y', ...inputs, '-filter_complex', concat, '-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', all]);
  joined = await analyseVideo(all);
}, 600_000);

const pieceOf = (t: number) => starts.findLastIndex((s) => t >= s);

describe('a video cut together from three recordings', () => {
  it('finds the shots of every recording at their times in the joined video, called right and as each recording alone calls them', () => {
    const shots = shotsOf(joined.actions);
    const attempts = truths.flatMap((t, k) => t.attempts.map((a) => ({ ...a, rim_arrival_s: a.rim_arrival_s + starts[k] })));
    const pairs = matchShots(attempts.map((a) => a.rim_arrival_s), shots.map((s) => s.rim_t));
    expect(pairs.length).toBe(attempts.length);
    expect(shots.length).toBe(attempts.length);
    for (const [i, j] of pairs) expect(shots[j].made, `attempt at ${attempts[i].rim_arrival_s} s`).toBe(attempts[i].made);
    // each recording's shots as it gives them alone, moved by the lengths before it; the joined video is encoded
    // again and sampled at other frames, so a rim arrival may move by a few frames
    for (const [k, piece] of alone.entries()) {
      const inPiece = shots.filter((s) => pieceOf(s.rim_t) === k);
      const own = shotsOf(piece.actions);
      expect(inPiece.map((s) => s.made)).toEqual(own.map((s) => s.made));
      inPiece.forEach((s, i) => expect(Math.abs(s.rim_t - (own[i].rim_t + starts[k]))).toBeLessThanOrEqual(0.5));
    }
  });

  it('reports each recording’s hoop, with ids, shot ids and indexes numbered on across the cuts', () => {
    const shots = shotsOf(joined.actions);
    const hoopsOfShots = new Set(shots.map((s) => s.hoop_id));
    expect(hoopsOfShots.size).toBe(PIECES.length);
    for (const id of hoopsOfShots) expect(joined.hoops.some((h) => h.id === id)).toBe(true);
    expect(new Set(joined.hoops.map((h) => h.id)).size).toBe(joined.hoops.length);
    expect(shots.map((s) => s.id)).toEqual(shots.map((_, k) => `s${k + 1}`));
    expect(shots.map((s) => s.index)).toEqual(shots.map((_, k) => k));
    // every hoop's samples lie within its recording (a still camera's hoop: at its start and its end)
    for (const s of shots) {
      const k = pieceOf(s.rim_t);
      const h = joined.hoops.find((x) => x.id === s.hoop_id)!;
      for (const q of h.samples) {
        expect(q.t).toBeGreaterThanOrEqual(starts[k] - 0.05);
        expect(q.t).toBeLessThanOrEqual((starts[k + 1] ?? Infinity) + 0.05);
      }
    }
    expect(joined.outcome).toBe('ok');
  });

  it('reports the recordings’ stretches (the highlights keep within them), none for a recording alone', () => {
    expect(joined.scenes).toHaveLength(PIECES.length);
    joined.scenes!.forEach(([from, to], k) => {
      expect(Math.abs(from - starts[k])).toBeLessThanOrEqual(0.05);
      expect(Math.abs(to - (starts[k + 1] ?? joined.video.durationSeconds))).toBeLessThanOrEqual(0.1);
    });
    for (const piece of alone) expect(piece.scenes).toBeUndefined();
  });

  it('names only players (tracks) the clusters list, across the cuts', () => {
    const ids = new Set(joined.clusters.map((c) => c.track_id));
    expect(ids.size).toBe(joined.clusters.length);
    for (const s of shotsOf(joined.actions)) if (s.shooter_track !== null) expect(ids.has(s.shooter_track)).toBe(true);
  });
});
