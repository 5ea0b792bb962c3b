import { describe, expect, it } from 'vitest';
import { cameraPath, toPicture, toStable, zoomAt } from './ball-track';
import type { FrameFeatures } from './frame-features';

/** Frames carrying only their motion: whole-pixel steps, sub-pixel steps and the zoom since the frame before. */
const frames = (steps: Array<[number, number, number]>) =>
  steps.map(([sx, sy, ss], index) => ({ index, dx: Math.round(sx), dy: Math.round(sy), sx, sy, ss })) as unknown as FrameFeatures[];
const dims = { width: 640, height: 360 };

describe('a camera path with a zoom', () => {
  it('composes each frame\'s zoom and offset about the frame\'s centre, and maps points both ways', () => {
    // frame 1 zooms 10 % about the centre, frame 2 moves 4 px right, frame 3 zooms 10 % more
    const path = cameraPath(frames([[0, 0, 1], [0, 0, 1.1], [4, 0, 1], [0, 0, 1.1]]), false, dims);
    expect(path.zoom).toBeDefined();
    expect([0, 1, 2, 3].map((f) => zoomAt(path, f))).toEqual([1, 1.1, 1.1, 1.1 * 1.1]);
    const c = { x: 319.5, y: 179.5 };
    // the centre stays where it is through a zoom and moves with the camera's offset
    expect(toPicture(path, 1, c.x, c.y)).toEqual(c);
    expect(toPicture(path, 2, c.x, c.y).x).toBeCloseTo(c.x + 4, 9);
    // a point 100 px right of the centre: 110 px at frame 1, 114 at frame 2, 1.1 · 114 = 125.4 at frame 3
    expect(toPicture(path, 3, c.x + 100, c.y).x).toBeCloseTo(c.x + 125.4, 9);
    for (const f of [0, 1, 2, 3]) {
      const p = toStable(path, f, ...([123.4, 56.7] as const));
      const q = toPicture(path, f, p.x, p.y);
      expect(q.x).toBeCloseTo(123.4, 9);
      expect(q.y).toBeCloseTo(56.7, 9);
    }
  });

  it('has no zoom where the camera did not zoom, on a whole-pixel path, or without the frame size', () => {
    const still = frames([[0, 0, 1], [1.5, -0.5, 1], [0.25, 0, 1]]);
    const path = cameraPath(still, false, dims);
    expect(path.zoom).toBeUndefined();
    expect(toStable(path, 2, 10, 10)).toEqual({ x: 10 - 1.75, y: 10.5 });
    const zoomed = frames([[0, 0, 1], [0, 0, 1.2]]);
    expect(cameraPath(zoomed, true, dims).zoom).toBeUndefined();
    expect(cameraPath(zoomed, false).zoom).toBeUndefined();
  });
});
