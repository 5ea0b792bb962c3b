import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { augmentOriginal, AUGMENT_SCRIPT } from '../../test/augment-clip';
import { ffmpegPath, runFfmpeg, runTool } from '../media/ffmpeg';
import { AUGMENT_VARIANTS, augmentArgs, augmentTruth } from './bench-augment';
import type { GroundTruthClip } from './ground-truth';
import { analyseVideo } from './index';
import { scoreClip, type ClipScore } from './scoring';
import type { AnalysisResult } from './types';

/**
 * Robustness: one synthetic clip (makes and misses at one hoop, 640×360) and transformed
 * copies of it made the way `bench:analysis -- --augment` makes them from the real clips. The
 * truth is times and made/missed, so it holds for the mirrored, darkened, compressed or
 * downscaled copy; the slowed copy's times are doubled.
 */
/**
 * The attempts each copy must still find, of 6 (all 6 on the original and its re-encoding). The
 * clip's hoop is small (a rim of ~15 px at 640 px) and two of its attempts are weak (a rim-out and
 * a bank-out seen briefly), so the copies that blur or darken it lose them: these are the levels
 * measured, not the goal. The slowed copy (every frame shown twice) still finds no attempt: its
 * hoop is not confirmed (`no_hoops`); what is checked there is that the ball is followed and the
 * speed read (before repeated frames were skipped, no pixel moved and no ball was seen).
 */
const MIN_FOUND: Record<string, number> = { mirror: 4, dark: 5, lowres: 4, crf35: 5 };
/**
 * Found attempts each copy may call wrong (measured at run version 24: none but one on crf35). The rim-out at 9.2 s
 * loses sight of the ball at the rim on the mirror, dark and lowres copies (no crossing, no flight away, no sightings
 * to call) and a ball lost at the rim is called missed; before run version 24 the incoming parabola's aim decided and
 * called it made there (one wrong each). crf35: its rim scores under the appearance cut, and since the hoop choice
 * takes a weak rim that the flights come down into (`finish.ts#weakRimsFlightsReach`) its target is on the rim
 * instead of 3 rim widths under it: 5 attempts found instead of 3; its make at 22.5 s is seen only falling into
 * the rim (a lost rise) and nothing of it after, so it is called missed. dark: since run version 15 the rim-out at
 * 9.2 s is found there too (5 found instead of 4: a flight starting at the rim's level with the ball seen coming up
 * into it, `shots.ts#brokeRisingPastRim`).
 */
const MAX_WRONG: Record<string, number> = { mirror: 0, dark: 0, lowres: 0, crf35: 1 };
const VARIANTS = [...Object.keys(MIN_FOUND), 'slow0.5', 'fast1.5'];

const SCRIPT = AUGMENT_SCRIPT;

const scores = new Map<string, ClipScore>();
const results = new Map<string, AnalysisResult>();

async function prepare(): Promise<void> {
  const { dir, video, truthFile: gtFile } = await augmentOriginal();
  const truth = (JSON.parse(await readFile(gtFile, 'utf8')) as { clips: GroundTruthClip[] }).clips[0];
  const orig = await analyseVideo(video, {});
  results.set('original', orig);
  scores.set('original', scoreClip(truth, orig));
  for (const name of VARIANTS) {
    const v = AUGMENT_VARIANTS.find((x) => x.name === name)!;
    const out = join(dir, `${name}.mp4`);
    const src = { width: 640, height: 360, fps: 30 };
    if (!existsSync(out)) {
      await runFfmpeg(augmentArgs(v, src, video, `${out}.part.mp4`));
      await rename(`${out}.part.mp4`, out);
    }
    const t = augmentTruth(truth, v, `${name}.mp4`, truth.media);
    const res = await analyseVideo(out, {});
    results.set(name, res);
    scores.set(name, scoreClip(t, res));
  }
}

describe('transformed copies of a synthetic clip', () => {
  beforeAll(prepare, 900_000);

  it('the original finds every attempt and calls it right', () => {
    const s = scores.get('original')!;
    expect(s.truth).toBe(SCRIPT.length);
    expect(s.matched).toBe(SCRIPT.length);
    expect(s.detected).toBe(s.matched);
    expect(s.madeCorrect).toBe(s.matched);
  });

  it('slow0.5: the ball is followed on the new frames and the speed read as half (0.4–0.6)', () => {
    const o = results.get('original')!;
    const r = results.get('slow0.5')!;
    expect(r.stats?.timeScale).toBeGreaterThan(0.4);
    expect(r.stats?.timeScale).toBeLessThan(0.6);
    // as many ball sightings as the original has, give or take a third (every picture once)
    expect(r.balls.length).toBeGreaterThan((2 / 3) * o.balls.length);
  });

  it('fast1.5: two thirds as long (frames dropped, no still picture padding its end), its speed read as 1.5× (1.3–1.7)', () => {
    const o = results.get('original')!;
    const r = results.get('fast1.5')!;
    expect(Math.abs(r.video.durationSeconds - o.video.durationSeconds / 1.5)).toBeLessThan(0.2);
    expect(Math.abs(r.stats!.frames - o.stats!.frames / 1.5)).toBeLessThan(6);
    expect(r.stats?.timeScale).toBeGreaterThan(1.3);
    expect(r.stats?.timeScale).toBeLessThan(1.7);
  });

  for (const name of Object.keys(MIN_FOUND)) {
    it(`${name}: at least ${MIN_FOUND[name]} of 6 attempts found, none invented, at most ${MAX_WRONG[name]} called wrong`, () => {
      const s = scores.get(name)!;
      expect(s.truth).toBe(SCRIPT.length);
      expect(s.matched).toBeGreaterThanOrEqual(MIN_FOUND[name]);
      expect(s.detected).toBe(s.matched);
      expect(s.madeCorrect).toBeGreaterThanOrEqual(s.matched - MAX_WRONG[name]);
    });
  }
});

describe('the zoom copy (a camera zoomed while it films)', () => {
  /** One frame at `t` seconds as 160 × 90 grey levels, after the filter `vf` ('null' for none). */
  const grab = async (file: string, t: number, vf: string) =>
    (await runTool(ffmpegPath(), ['-v', 'error', '-ss', String(t), '-i', file, '-frames:v', '1', '-vf', `${vf},scale=160:90`, '-pix_fmt', 'gray', '-f', 'rawvideo', '-'])).stdout;
  const meanDiff = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

  it('shows the whole frame at the start of its cycle and the centre 1.25 times larger at its peak (4 s)', async () => {
    const { dir, video } = await augmentOriginal();
    const v = AUGMENT_VARIANTS.find((x) => x.name === 'zoom')!;
    const out = join(dir, 'zoom.mp4');
    if (!existsSync(out)) {
      await runFfmpeg(augmentArgs(v, { width: 640, height: 360, fps: 30 }, video, `${out}.part.mp4`));
      await rename(`${out}.part.mp4`, out);
    }
    const centre = 'crop=512:288,scale=640:360';
    const [start, startSrc] = await Promise.all([grab(out, 0, 'null'), grab(video, 0, 'null')]);
    const [peak, peakSrc, peakCentre] = await Promise.all([grab(out, 4, 'null'), grab(video, 4, 'null'), grab(video, 4, centre)]);
    expect(start.length).toBe(160 * 90);
    // at 0 s the copy is the source (re-encoded); at 4 s it is the source's centre 80 %, not the whole frame
    expect(meanDiff(start, startSrc)).toBeLessThan(3);
    expect(meanDiff(peak, peakCentre)).toBeLessThan(3);
    expect(meanDiff(peak, peakSrc)).toBeGreaterThan(2 * meanDiff(peak, peakCentre));
  });

  it('zooms smoothly: the centre of the picture stays put from frame to frame, where a crop on whole source pixels jerks it', async () => {
    const { dir, video } = await augmentOriginal();
    const v = AUGMENT_VARIANTS.find((x) => x.name === 'zoom')!;
    const src = { width: 640, height: 360, fps: 30 };
    // a still picture (the clip's first frame held), so that whatever moves is the zoom's doing
    const still = join(dir, 'still.png');
    if (!existsSync(still)) await runFfmpeg(['-i', video, '-frames:v', '1', still]);
    /** Frames 45–75 (the zoom's fastest part, 2 s into its cycle) as 640 × 360 grey levels, from `vf` over the still picture. */
    const frames = async (vf: string) => {
      const raw = (await runTool(ffmpegPath(), ['-v', 'error', '-loop', '1', '-framerate', '30', '-t', '3', '-i', still, '-vf', vf, '-frames:v', '75', '-pix_fmt', 'gray', '-f', 'rawvideo', '-'])).stdout;
      return Array.from({ length: raw.length / (640 * 360) }, (_, i) => raw.subarray(i * 640 * 360, (i + 1) * 640 * 360)).slice(45);
    };
    /** The whole-pixel shift (within ±3 px) that best matches the centre 96 × 96 of `b` on `a`. */
    const centreShift = (a: Buffer, b: Buffer) => {
      let best = { dx: 0, dy: 0, sad: Infinity };
      for (let dy = -3; dy <= 3; dy++)
        for (let dx = -3; dx <= 3; dx++) {
          let sad = 0;
          for (let y = 132; y < 228; y++) for (let x = 272; x < 368; x++) sad += Math.abs(b[y * 640 + x] - a[(y - dy) * 640 + x - dx]);
          if (sad < best.sad) best = { dx, dy, sad };
        }
      return best;
    };
    const jerks = (fs: Buffer[]) => fs.slice(1).filter((f, i) => {
      const s = centreShift(fs[i], f);
      return s.dx !== 0 || s.dy !== 0;
    }).length;
    const smooth = await frames(v.filter(src));
    // the same zoom cropped on the source's whole pixels (the copy before the scale-up)
    const cropped = await frames(v.filter(src).replace(/^scale=[^,]*,/, ''));
    expect(smooth).toHaveLength(30);
    expect(cropped).toHaveLength(30);
    // measured: 25 of the 29 frame pairs moved a whole pixel or more cropped on the source, none scaled up first
    expect(jerks(cropped)).toBeGreaterThan(5);
    expect(jerks(smooth)).toBe(0);
  });
});
