import { describe, expect, it } from 'vitest';
import type { CameraPath } from './ball-track';
import { ballCandidates } from './ball-track';
import { motionTotals, sceneCalm, unpackForFinish } from './finish';
import { GRID, packFeatures, usableBlob, type FrameFeatures, type MotionBlob, type PackedFeatures } from './frame-features';
import { personObservations } from './players';
import { netBoxMotion, type MotionProbe } from './shots';

const GW = 40;
const GH = 24;

/** A frame whose motion grid has `busy` moving pixels in each of a few cells away from the shooter. */
function frame(index: number, busy: number): FrameFeatures {
  const motion = new Uint8Array(GW * GH);
  for (const [gx, gy] of [[30, 4], [31, 4], [33, 10], [36, 20]]) motion[gy * GW + gx] = busy;
  return { index, dx: 0, dy: 0, shiftResidual: 0, sx: 0, sy: 0, ss: 1, blobs: busy ? [{ x: 250, y: 40, x0: 240, y0: 32, x1: 260, y1: 48, area: busy, ballColour: 0, skin: 0, torso: null }] as unknown as FrameFeatures['blobs'] : [], motion, gridW: GW, gridH: GH, thumb: new Uint8Array(0), thumbW: 0 };
}

/** The clip shown at half speed the way a slowed file is made: every picture twice; the repeat has no motion. */
function slowed(features: FrameFeatures[]): FrameFeatures[] {
  return features.flatMap((f, i) => [{ ...f, index: 2 * i }, frame(2 * i + 1, 0)]);
}

const still = (n: number): CameraPath => ({ ox: new Float64Array(n), oy: new Float64Array(n) });

describe('motion over time on a slowed clip (every frame shown twice)', () => {
  // a game's motion: quiet in the second before the release at frame 60, busy elsewhere
  const game = Array.from({ length: 90 }, (_, i) => frame(i, i >= 24 && i < 60 ? 3 + (i % 4) : 12 + (i % 7)));
  const shooter = { releaseX: 2 * GRID, releaseY: 2 * GRID };

  it('a repeat counts neither for the clip median nor as a calm frame before the release', () => {
    const calm = sceneCalm({ ...shooter, releaseFrame: 60 }, game, motionTotals(game), { w: 20 }, still(90), 30);
    const slow = slowed(game);
    const totals = motionTotals(slow);
    expect(totals.median).toBe(motionTotals(game).median);
    expect(Array.from(totals.pictured.subarray(0, 6))).toEqual([1, 0, 1, 0, 1, 0]);
    // the window is in video seconds: 1.05 s of the slowed clip covers the last half of the quiet stretch
    const slowCalm = sceneCalm({ ...shooter, releaseFrame: 120 }, slow, totals, { w: 20 }, still(180), 30);
    expect(calm).toBeLessThan(0.6);
    expect(slowCalm).toBeGreaterThan(0.8 * calm);
    expect(slowCalm).toBeLessThan(1.25 * calm);
  });

  it('a still stretch of a clip that does not repeat its frames counts as calm', () => {
    // nothing at all moves in the second before the release (a free throw's line-up): frames without a picture of their own
    const lineUp = game.map((f, i) => (i >= 24 && i < 60 ? frame(i, 0) : f));
    const totals = motionTotals(lineUp);
    expect(Array.from(totals.pictured).every((v) => v === 1)).toBe(true);
    expect(sceneCalm({ ...shooter, releaseFrame: 60 }, lineUp, totals, { w: 20 }, still(90), 30)).toBe(0);
  });

  it('the net box averages the new pictures only', () => {
    const counts = [40, 12, 30, 8, 0, 22];
    const probe: MotionProbe = (f) => counts[f];
    const slowProbe: MotionProbe = (f) => (f % 2 ? NaN : counts[f / 2]);
    const hoop = { x: 100, y: 50, w: 20 };
    const normal = netBoxMotion(probe, hoop, 0, 5);
    expect(normal).toBeCloseTo(112 / 6 / (20 * 20 * 0.675), 9);
    expect(netBoxMotion(slowProbe, hoop, 0, 11)).toBeCloseTo(normal, 9);
    // a window of repeats only says nothing
    expect(netBoxMotion(slowProbe, hoop, 1, 1)).toBeNaN();
  });
});

describe('features kept by the extraction and unpacked for the finishing stage', () => {
  // frames of blobs of every size: specks of noise, thin streaks, balls, bodies (with and without a torso colour)
  let seed = 5;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
  const blob = (): MotionBlob => {
    const w = 1 + Math.floor(rand() * (rand() < 0.6 ? 4 : 40));
    const h = 1 + Math.floor(rand() * (rand() < 0.6 ? 4 : 60));
    const x0 = Math.floor(rand() * 600);
    const y0 = Math.floor(rand() * 300);
    const area = 4 * Math.max(1, Math.floor((rand() * w * h) / 4));
    const torso = rand() < 0.5;
    return { x: x0 + w / 2, y: y0 + h / 2, area, x0, y0, x1: x0 + w, y1: y0 + h, ballColour: rand(), skin: rand(), r: 200, g: 100, b: 50, tr: torso ? 90 : -1, tg: torso ? 30 : -1, tb: torso ? 30 : -1 };
  };
  const frames: FrameFeatures[] = Array.from({ length: 60 }, (_, i) => ({
    index: i,
    dx: 0,
    dy: 0,
    shiftResidual: 1,
    sx: i % 3 === 1 ? 0.25 : 0,
    sy: i % 5 === 2 ? -1.5 : 0,
    ss: i % 7 === 3 ? 1.01 : 1,
    blobs: Array.from({ length: 40 }, blob),
    motion: Uint8Array.from({ length: GW * GH }, () => (rand() < 0.1 ? 4 : 0)),
    gridW: GW,
    gridH: GH,
    thumb: Uint8Array.from({ length: 16 * 9 }, () => Math.floor(rand() * 256)),
    thumbW: 16,
  }));
  const pack = (): PackedFeatures[] => [packFeatures(frames.slice(0, 24)), packFeatures(frames.slice(24, 48)), packFeatures(frames.slice(48))];

  it('unpacks the runs in order, letting each go', () => {
    const runs: Array<PackedFeatures | null> = pack();
    const got = unpackForFinish(runs);
    // each run's packed arrays are let go as it is unpacked
    expect(runs.every((r) => r === null)).toBe(true);
    expect(got).toEqual(frames);
  });

  it('the blobs the extraction keeps give every ball candidate and person sighting', () => {
    const kept = frames.map((f) => ({ ...f, blobs: f.blobs.filter(usableBlob) }));
    const path = still(60);
    const dims = { width: 640, height: 360 };
    const candidates = kept.map((f, i) => ballCandidates(f, i, path, dims));
    expect(candidates).toEqual(frames.map((f, i) => ballCandidates(f, i, path, dims)));
    expect(candidates.flat().length).toBeGreaterThan(50);
    for (const ballR of [1, 3, 6]) {
      const persons = personObservations(kept, path, ballR);
      expect(persons).toEqual(personObservations(frames, path, ballR));
      expect(persons.flat().length).toBeGreaterThan(20);
    }
    const n = (fs: FrameFeatures[]) => fs.reduce((s, f) => s + f.blobs.length, 0);
    expect(n(kept)).toBeLessThan(0.7 * n(frames));
    expect(n(kept)).toBeGreaterThan(0);
  });
});
