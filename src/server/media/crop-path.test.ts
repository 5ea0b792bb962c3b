import { describe, expect, it } from 'vitest';
import { cropBoxFor, cropExpression, cropOffsetAt, shotFocus, smoothCropPath } from './crop-path';

/** Evaluates a crop expression the way ffmpeg does, for the subset cropExpression emits. */
function evaluate(expr: string, t: number): number {
  const clip = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return new Function('t', 'clip', `return ${expr};`)(t, clip) as number;
}

describe('cropBoxFor', () => {
  it('fits the largest even 9:16 and 16:9 windows', () => {
    expect(cropBoxFor(1280, 720, 9 / 16)).toEqual({ width: 404, height: 720, axis: 'x' });
    expect(cropBoxFor(1920, 1080, 9 / 16)).toEqual({ width: 608, height: 1080, axis: 'x' });
    expect(cropBoxFor(1280, 720, 16 / 9)).toEqual({ width: 1280, height: 720, axis: null });
    expect(cropBoxFor(720, 1280, 9 / 16)).toEqual({ width: 720, height: 1280, axis: null });
    expect(cropBoxFor(720, 1280, 16 / 9)).toEqual({ width: 720, height: 404, axis: 'y' });
    expect(cropBoxFor(1440, 1080, 16 / 9)).toEqual({ width: 1440, height: 810, axis: 'y' });
  });
});

describe('smoothCropPath', () => {
  const base = { start: 10, end: 16, frameSize: 1280, cropSize: 404, axis: 'x' as const };

  it('is a centred, static crop without focus points', () => {
    expect(smoothCropPath([], base)).toEqual([{ t: 0, offset: 438 }]);
    expect(cropExpression(smoothCropPath([], base))).toBe('438');
  });

  it('follows the focus, eases in between and stays inside the frame', () => {
    const focus = [
      { t: 10, x: 0.02, y: 0.5 },
      { t: 12, x: 0.02, y: 0.5 },
      { t: 14, x: 0.98, y: 0.5 },
      { t: 16, x: 0.98, y: 0.5 },
    ];
    const path = smoothCropPath(focus, base);
    expect(cropOffsetAt(path, 0)).toBe(0);
    expect(cropOffsetAt(path, 6)).toBe(1280 - 404);
    let previous = -1;
    for (let t = 0; t <= 6; t += 0.1) {
      const v = cropOffsetAt(path, t);
      expect(v).toBeGreaterThanOrEqual(previous - 0.5);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(876);
      previous = v;
    }
    // Smoothing: no jump larger than the camera could ease in 0.1 s.
    for (let t = 0; t < 6; t += 0.1) expect(Math.abs(cropOffsetAt(path, t + 0.1) - cropOffsetAt(path, t))).toBeLessThan(120);
    expect(path.length).toBeLessThan(20);
  });

  it('ignores focus points far outside the window and holds the ends', () => {
    const path = smoothCropPath([{ t: 0, x: 0, y: 0 }, { t: 13, x: 0.5, y: 0.5 }, { t: 100, x: 1, y: 1 }], base);
    expect(path).toEqual([{ t: 0, offset: 438 }]);
  });

  it('gives an ffmpeg expression that evaluates to the path', () => {
    const path = smoothCropPath(
      [
        { t: 10, x: 0.9, y: 0.5 },
        { t: 13, x: 0.1, y: 0.5 },
        { t: 16, x: 0.6, y: 0.5 },
      ],
      base,
    );
    const expr = cropExpression(path);
    expect(expr).toMatch(/^[0-9t+\-*/().,clip]+$/);
    for (let t = 0; t <= 6; t += 0.25) expect(evaluate(expr, t)).toBeCloseTo(cropOffsetAt(path, t), 3);
  });
});

describe('shotFocus', () => {
  it('starts at the release point, follows the flight and settles on the rim', () => {
    const focus = shotFocus(
      { release_t: 10, rim_t: 11, end_t: 12, shot_image: [0.2, 0.6], hoop_image: [0.8, 0.3] },
      [
        { t: 2, x: 0.9, y: 0.9 },
        { t: 10.5, x: 0.5, y: 0.1 },
        { t: 11.5, x: 0.7, y: 0.5 },
      ],
    );
    expect(focus).toEqual([
      { t: 10, x: 0.2, y: 0.6 },
      { t: 10.5, x: 0.5, y: 0.1 },
      { t: 11, x: 0.8, y: 0.3 },
      { t: 12, x: 0.8, y: 0.3 },
    ]);
    const path = smoothCropPath(focus, { start: 7, end: 14, frameSize: 1280, cropSize: 404, axis: 'x' });
    expect(cropOffsetAt(path, 0) + 202).toBeCloseTo(0.2 * 1280, -1);
    expect(cropOffsetAt(path, 7) + 202).toBeCloseTo(0.8 * 1280, -1);
  });
});
