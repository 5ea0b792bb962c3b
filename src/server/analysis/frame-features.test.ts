import { describe, expect, it } from 'vitest';
import {
  computeRun,
  estimateShift,
  extractBlobs,
  isBallColour,
  makeScratch,
  motionMask,
  packFeatures,
  packedLength,
  smallGray,
  unpackFeatures,
  GRID,
} from './frame-features';

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

/**
 * The camera-shift search written plainly (full sums at every probed shift): the optimised
 * search stops sums early and must return exactly the same shift and residual.
 */
function referenceShift(prev: Uint8Array, cur: Uint8Array, w: number, h: number) {
  const sp = smallGray(prev, w, h);
  const sc = smallGray(cur, w, h);
  const smallSad = (dx: number, dy: number) => {
    let s = 0;
    let n = 0;
    for (let y = 3 + Math.max(0, dy); y < sp.h - 3 + Math.min(0, dy); y++)
      for (let x = 3 + Math.max(0, dx); x < sp.w - 3 + Math.min(0, dx); x += 2) {
        s += Math.abs(sc.data[y * sc.w + x] - sp.data[(y - dy) * sp.w + x - dx]);
        n++;
      }
    return n ? s / n : Infinity;
  };
  const fullSad = (dx: number, dy: number) => {
    let s = 0;
    let n = 0;
    for (let y = 16; y < h - 16; y += 6) {
      const py = y - dy;
      if (py < 0 || py >= h) continue;
      for (let x = 16; x < w - 16; x += 6) {
        const px = x - dx;
        if (px < 0 || px >= w) continue;
        const a = (y * w + x) * 3;
        const b = (py * w + px) * 3;
        s += Math.abs(cur[a] - prev[b]) + Math.abs(cur[a + 1] - prev[b + 1]) + Math.abs(cur[a + 2] - prev[b + 2]);
        n++;
      }
    }
    return n ? s / n : Infinity;
  };
  let bx = 0;
  let by = 0;
  let bv = smallSad(0, 0);
  for (let iter = 0; iter < 8; iter++) {
    const [cx, cy] = [bx, by];
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const v = smallSad(cx + dx, cy + dy);
        if (v < bv) [bv, bx, by] = [v, cx + dx, cy + dy];
      }
    if (bx === cx && by === cy) break;
  }
  let [fx, fy] = [bx * 4, by * 4];
  let fv = fullSad(fx, fy);
  for (let iter = 0; iter < 8; iter++) {
    const [cx, cy] = [fx, fy];
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const v = fullSad(cx + dx, cy + dy);
        if (v < fv - 0.25) [fv, fx, fy] = [v, cx + dx, cy + dy];
      }
    if (fx === cx && fy === cy) break;
  }
  const zero = fullSad(0, 0);
  return zero <= fv + 0.25 ? { dx: 0, dy: 0, residual: zero } : { dx: fx, dy: fy, residual: fv };
}

describe('estimateShift against the plain search', () => {
  it('returns the same shift and residual for textured, noisy and moving scenes', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const cases: Array<[number, number, number]> = [
      [0, 0, 0], [3, -2, 8], [-7, 5, 20], [13, 9, 4], [-1, 1, 40], [22, -14, 12], [5, 0, 60],
    ];
    let moved = 0;
    for (const [sx, sy, noise] of cases) {
      const a = frame([0, 0, 0], texture);
      const b = frame([0, 0, 0], (x, y) => {
        const c = texture(x - sx, y - sy);
        const n = (rnd() - 0.5) * noise;
        return [c[0] + n, c[1] + n, c[2] + n];
      });
      // a moving object the shift must ignore
      for (let y = 30; y < 50; y++) for (let x = 60 + sx; x < 80 + sx; x++) b.set([230, 100, 30], (y * W + x) * 3);
      const got = estimateShift(a, b, smallGray(a, W, H), smallGray(b, W, H), W, H);
      const want = referenceShift(a, b, W, H);
      expect(got).toEqual(want);
      if (want.dx || want.dy) moved++;
    }
    expect(moved).toBeGreaterThanOrEqual(4);
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

describe('packed features', () => {
  it('unpack(pack(features)) restores every value exactly', () => {
    const orange: [number, number, number] = [220, 110, 40];
    const frames = [0, 1, 2, 3, 4, 5].map((i) =>
      frame([0, 0, 0], (x, y) => disc(30 + 12 * i, 50 - 3 * i, 6, orange)(x, y) ?? texture(x - i, y)),
    );
    const feats = computeRun(frames, W, H, 10, makeScratch(W, H));
    expect(feats.reduce((n, f) => n + f.blobs.length, 0)).toBeGreaterThan(0);
    const half = feats.length >> 1;
    const runs = [packFeatures(feats.slice(0, half)), packFeatures(feats.slice(half))];
    expect(runs.map(packedLength)).toEqual([half, feats.length - half]);
    expect(unpackFeatures(runs)).toEqual(feats);
  });
});
