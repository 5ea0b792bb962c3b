import { describe, expect, it } from 'vitest';
import type { CameraPath } from './ball-track';
import { motionTotals, sceneCalm } from './finish';
import { GRID, type FrameFeatures } from './frame-features';
import { netBoxMotion, type MotionProbe } from './shots';

const GW = 40;
const GH = 24;

/** A frame whose motion grid has `busy` moving pixels in each of a few cells away from the shooter. */
function frame(index: number, busy: number): FrameFeatures {
  const motion = new Uint16Array(GW * GH);
  for (const [gx, gy] of [[30, 4], [31, 4], [33, 10], [36, 20]]) motion[gy * GW + gx] = busy;
  return { index, dx: 0, dy: 0, shiftResidual: 0, blobs: busy ? [{ x: 250, y: 40, x0: 240, y0: 32, x1: 260, y1: 48, area: busy, ballColour: 0, skin: 0, torso: null }] as unknown as FrameFeatures['blobs'] : [], motion, gridW: GW, gridH: GH };
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
