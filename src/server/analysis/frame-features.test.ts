import { describe, expect, it } from 'vitest';
import { computeRun, estimateShift, extractBlobs, isBallColour, makeScratch, motionMask, smallGray, GRID } from './frame-features';

const W = 160;
const H = 96;

function frame(bg: [number, number, number], draw?: (x: number, y: number) => [number, number, number] | null): Uint8Array {
  const f = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = draw?.(x, y) ?? bg;
      f.set(c, (y * W + x) * 3);
    }
  }
  return f;
}

const texture = (x: number, y: number): [number, number, number] => {
  const v = 120 + 50 * Math.sin(x * 0.21 + 2 * Math.sin(y * 0.13)) + 40 * Math.cos(y * 0.17 + x * 0.05);
  return [v, v + 10, v + 20];
};

const disc = (cx: number, cy: number, r: number, inner: [number, number, number]) => (x: number, y: number) =>
  (x - cx) ** 2 + (y - cy) ** 2 <= r * r ? inner : null;

describe('isBallColour', () => {
  it('accepts basketball orange and brown, rejects sky blue, grass green and grey', () => {
    expect(isBallColour(210, 110, 40)).toBe(true);
    expect(isBallColour(140, 80, 50)).toBe(true);
    expect(isBallColour(120, 170, 230)).toBe(false);
    expect(isBallColour(60, 150, 60)).toBe(false);
    expect(isBallColour(128, 128, 128)).toBe(false);
  });
});

describe('estimateShift', () => {
  it('recovers a known camera translation of a textured scene', () => {
    const a = frame([0, 0, 0], texture);
    const b = frame([0, 0, 0], (x, y) => texture(x - 3, y + 2));
    const s = estimateShift(a, b, smallGray(a, W, H), smallGray(b, W, H), W, H);
    expect([s.dx, s.dy]).toEqual([3, -2]);
  });

  it('reports no shift for identical frames', () => {
    const a = frame([0, 0, 0], texture);
    const s = estimateShift(a, a, smallGray(a, W, H), smallGray(a, W, H), W, H);
    expect([s.dx, s.dy]).toEqual([0, 0]);
  });
});

describe('motion blobs', () => {
  it('finds a moving orange disc at its current position with a ball-like colour', () => {
    const orange: [number, number, number] = [220, 110, 40];
    const bg: [number, number, number] = [90, 120, 160];
    const f0 = frame(bg, disc(40, 40, 5, orange));
    const f1 = frame(bg, disc(60, 36, 5, orange));
    const f2 = frame(bg, disc(80, 34, 5, orange));
    const sc = makeScratch(W, H);
    motionMask(f0, f1, f2, W, H, { dx: 0, dy: 0 }, { dx: 0, dy: 0 }, sc);
    const gridW = Math.ceil(W / GRID);
    const grid = new Uint16Array(gridW * Math.ceil(H / GRID));
    const blobs = extractBlobs(sc, f1, W, grid, gridW);
    expect(blobs.length).toBe(1);
    expect(blobs[0].x).toBeGreaterThan(57);
    expect(blobs[0].x).toBeLessThan(63);
    expect(blobs[0].y).toBeGreaterThan(33);
    expect(blobs[0].y).toBeLessThan(39);
    expect(blobs[0].ballColour).toBeGreaterThan(0.9);
    expect(grid.reduce((a, b) => a + b, 0)).toBe(sc.count);
  });

  it('ignores a static scene and compensates camera motion', () => {
    const frames = [0, 1, 2, 3].map((i) => frame([0, 0, 0], (x, y) => texture(x - 2 * i, y)));
    const feats = computeRun(frames, W, H, 0, makeScratch(W, H));
    expect(feats).toHaveLength(2);
    for (const f of feats) {
      expect(f.dx).toBe(2);
      expect(f.blobs.filter((b) => b.area > 30)).toHaveLength(0);
    }
  });
});
