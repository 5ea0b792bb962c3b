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
  sameImage,
  smallGray,
  thumbnail,
  toRgb,
  unpackFeatures,
  usableBlob,
  GRID,
  type FrameFormat,
} from './frame-features';
import { ownPicture } from './finish';

const W = 160;
const H = 96;
/** Motion area (full-resolution pixels) still edges may leave under a moving camera; the ball alone is ~30. */
const EDGE_AREA_MAX = 40;

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
    const grid = new Uint8Array(gridW * Math.ceil(H / GRID));
    const blobs = extractBlobs(sc, f1, W, grid, gridW);
    expect(blobs.length).toBe(1);
    expect(blobs[0].x).toBeGreaterThan(57);
    expect(blobs[0].x).toBeLessThan(63);
    expect(blobs[0].y).toBeGreaterThan(33);
    expect(blobs[0].y).toBeLessThan(39);
    expect(blobs[0].ballColour).toBeGreaterThan(0.9);
    expect(grid.reduce((a, b) => a + b, 0)).toBe(sc.count);
  });

  it('keeps only the blobs a later stage can use; the specks still count in the motion grid', () => {
    const orange: [number, number, number] = [220, 110, 40];
    const bg: [number, number, number] = [90, 120, 160];
    // a moving ball, and flickering specks of two pixels (noise) that appear in every other frame
    const speck = (i: number) => (x: number, y: number) =>
      i % 2 && y % 24 === 12 && x % 20 < 2 && x > 90 ? ([240, 240, 240] as [number, number, number]) : null;
    const frames = [0, 1, 2, 3, 4].map((i) => frame(bg, (x, y) => disc(20 + 12 * i, 40, 5, orange)(x, y) ?? speck(i)(x, y)));
    const feats = computeRun(frames, W, H, 0, makeScratch(W, H));
    expect(feats).toHaveLength(3);
    for (const f of feats) {
      expect(f.blobs.every(usableBlob)).toBe(true);
      expect(f.blobs.filter((b) => b.ballColour > 0.9)).toHaveLength(1);
      // the grid counts half-resolution pixels, 4 full-resolution pixels of a blob's area each
      const inBlobs = f.blobs.reduce((a, b) => a + b.area / 4, 0);
      const inGrid = f.motion.reduce((a, b) => a + b, 0);
      // frames 1 and 3 show the specks: their pixels are in the grid but in no blob
      if ((f.index + 1) % 2) expect(inGrid, `frame ${f.index + 1}`).toBeGreaterThan(inBlobs + 8);
      else expect(inGrid).toBeGreaterThanOrEqual(inBlobs);
    }
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

describe('the camera path of a hand-held camera (sub-pixel, against the run\'s first frame)', () => {
  // a slow sway and drift: under a pixel a frame, so whole-pixel frame-to-frame steps round most of it away
  const offset = (i: number) => ({ x: 5 * Math.sin((2 * Math.PI * i) / 40) + 0.3 * i, y: 2 * Math.sin((2 * Math.PI * i) / 27 + 1) });
  const orange: [number, number, number] = [220, 110, 40];
  // edges a few pixels wide (a smooth texture moved by a pixel changes no byte by 30: it would read as a repeated frame)
  const wall = (x: number, y: number): [number, number, number] => {
    const v = 120 + 70 * Math.tanh(3 * Math.sin(x * 0.35 + 1.7 * Math.sin(y * 0.11))) + 30 * Math.tanh(3 * Math.sin(y * 0.3 + x * 0.05));
    return [v, v, v + 10];
  };
  const scene = (i: number) => {
    const o = offset(i);
    return frame([0, 0, 0], (x, y) => disc(30 + 4 * i, 40, 4, orange)(x, y) ?? wall(x - o.x, y - o.y));
  };
  const frames = Array.from({ length: 74 }, (_, i) => scene(i));
  /** Three runs of 24 inner frames as the extraction cuts them: each with the frame before and after as context. */
  const runs = [0, 24, 48].map((first) => computeRun(frames.slice(first, first + 26), W, H, first, makeScratch(W, H)));

  it('follows the camera to a fraction of a pixel over three runs, where the whole-pixel steps drift off', () => {
    let [px, py, wx] = [0, 0, 0];
    let worst = 0;
    for (const f of runs.flat()) {
      px += f.sx;
      py += f.sy;
      wx += f.dx;
      const truth = offset(f.index + 1);
      const o0 = offset(0);
      worst = Math.max(worst, Math.abs(px - (truth.x - o0.x)), Math.abs(py - (truth.y - o0.y)));
    }
    expect(worst).toBeLessThan(0.5);
    const end = offset(72).x - offset(0).x;
    expect(Math.abs(px - end)).toBeLessThan(0.3);
    // the problem it mends: the same frames' whole-pixel steps lose the drift
    expect(Math.abs(wx - end)).toBeGreaterThan(2);
  });

  it('gives the same features with one scratch reused from run to run (its buffers kept), repeated frames included', () => {
    const sc = makeScratch(W, H);
    // the moving runs, then a still one whose frames repeat buffers (a slowed clip), then a moving one again
    const still = [frames[0], frames[0], frames[1], frames[1], frames[1], frames[2], frames[2], frames[3]];
    const order = [frames.slice(0, 26), frames.slice(24, 50), still, frames.slice(48, 74)];
    const fresh = order.map((run) => packFeatures(computeRun(run, W, H, 0, makeScratch(W, H))));
    const reused = order.map((run) => packFeatures(computeRun(run, W, H, 0, sc)));
    expect(reused).toEqual(fresh);
    expect(sc.smalls?.length).toBe(26);
  });

  it('is not dragged by someone walking close past the camera (a quarter of the frame)', () => {
    const shirt = (i: number) => (x: number, y: number): [number, number, number] | null =>
      x >= 10 + 5 * i && x < 50 + 5 * i && y >= 20 ? [90 + ((x * 7 + y * 3) % 40), 60, 50] : null;
    const passing = Array.from({ length: 26 }, (_, i) => {
      const o = offset(i);
      return frame([0, 0, 0], (x, y) => shirt(i)(x, y) ?? wall(x - o.x, y - o.y));
    });
    let [px, py] = [0, 0];
    for (const f of computeRun(passing, W, H, 0, makeScratch(W, H))) {
      px += f.sx;
      py += f.sy;
      expect(Math.abs(px - (offset(f.index + 1).x - offset(0).x))).toBeLessThan(0.5);
      expect(Math.abs(py - (offset(f.index + 1).y - offset(0).y))).toBeLessThan(0.5);
    }
  });

  it('leaves a still camera at exactly zero, whatever moves in front of it', () => {
    const still = Array.from({ length: 26 }, (_, i) => frame([0, 0, 0], (x, y) => disc(30 + 4 * i, 40, 4, orange)(x, y) ?? wall(x, y)));
    for (const f of computeRun(still, W, H, 0, makeScratch(W, H))) expect([f.dx, f.dy, f.sx, f.sy]).toEqual([0, 0, 0, 0]);
  });

  it('follows a zoom about the frame\'s centre (1 % a frame over two runs) and keeps a still camera at scale 1', () => {
    const zoom = (i: number) => 1.01 ** i;
    const [cx, cy] = [(W - 1) / 2, (H - 1) / 2];
    const zoomed = Array.from({ length: 50 }, (_, i) => {
      const z = zoom(i);
      return frame([0, 0, 0], (x, y) => wall((x - cx) / z + cx, (y - cy) / z + cy));
    });
    let s = 1;
    let [px, py] = [0, 0];
    for (const first of [0, 24]) {
      for (const f of computeRun(zoomed.slice(first, first + 26), W, H, first, makeScratch(W, H))) {
        s *= f.ss;
        px = f.ss * px + f.sx;
        py = f.ss * py + f.sy;
        expect(Math.abs(s / zoom(f.index + 1) - 1)).toBeLessThan(0.003);
        expect(Math.hypot(px, py)).toBeLessThan(0.5);
      }
    }
    expect(s).toBeGreaterThan(1.5);
    const still = Array.from({ length: 26 }, () => frame([0, 0, 0], wall));
    for (const f of computeRun(still, W, H, 0, makeScratch(W, H))) expect(f.ss).toBe(1);
  });

  it('keeps the sub-pixel motion through packing', () => {
    const packed = unpackFeatures([packFeatures(runs[0])]);
    expect(packed.map((f) => [f.sx, f.sy, f.ss])).toEqual(runs[0].map((f) => [f.sx, f.sy, f.ss]));
  });
});

describe('a moving camera, shifted by whole pixels', () => {
  // sharp grey edges (a pixel or two wide) under a camera moving 1.5 px a frame: the whole-pixel
  // compensation leaves them half a pixel off
  const edges = (x: number, y: number): [number, number, number] => {
    const v = 120 + 80 * Math.tanh(2 * Math.sin(x * 0.45 + 1.7 * Math.sin(y * 0.11))) + 20 * Math.sin(y * 0.3);
    return [v, v, v + 10];
  };
  const orange: [number, number, number] = [220, 110, 40];
  const scene = (i: number) => frame([0, 0, 0], (x, y) => disc(40 + 5 * i, 50 - 2 * i, 3, orange)(x, y) ?? edges(x - 1.5 * i, y));

  it('takes no still edge for motion, and still finds a ball six pixels across moving five pixels a frame (its edges are kept whole: ball-coloured pixels take the plain test)', () => {
    const frames = [0, 1, 2, 3, 4, 5].map(scene);
    const feats = computeRun(frames, W, H, 0, makeScratch(W, H));
    for (const f of feats) {
      expect(Math.abs(f.dx)).toBeGreaterThan(0);
      const ball = f.blobs.filter((b) => b.ballColour > 0.5);
      expect(ball).toHaveLength(1);
      expect(Math.abs(ball[0].x - (40 + 5 * (f.index + 1)))).toBeLessThan(3);
      const edgeArea = f.blobs.filter((b) => b.ballColour <= 0.5).reduce((sum, b) => sum + b.area, 0);
      expect(edgeArea).toBeLessThan(EDGE_AREA_MAX);
    }
  });

  it('does the same on planar YUV frames', () => {
    for (const fmt of ['yuv444p', 'yuv420p'] as const) {
      const frames = [0, 1, 2, 3, 4, 5].map((i) => toYuv(scene(i), W, H, fmt));
      for (const f of computeRun(frames, W, H, 0, makeScratch(W, H), fmt)) {
        expect(f.blobs.filter((b) => b.ballColour > 0.5)).toHaveLength(1);
        expect(f.blobs.filter((b) => b.ballColour <= 0.5).reduce((sum, b) => sum + b.area, 0)).toBeLessThan(EDGE_AREA_MAX);
      }
    }
  });
});

describe('repeated frames (slowed or frame-rate-converted video)', () => {
  it('finds the moving ball on every new frame when each frame is shown twice, and nothing on the repeats', () => {
    const orange: [number, number, number] = [220, 110, 40];
    const bg: [number, number, number] = [90, 120, 160];
    const pictures = [0, 1, 2, 3, 4].map((i) => frame(bg, disc(30 + 16 * i, 50 - 3 * i, 5, orange)));
    // A A B B C C D D E E: a copy of each picture (a new buffer with the same pixels)
    const frames = pictures.flatMap((p) => [p, Uint8Array.from(p)]);
    const feats = computeRun(frames, W, H, 0, makeScratch(W, H));
    expect(feats).toHaveLength(8);
    // inner frames 1..8 are A' B B' C C' D D' E: the new pictures B, C, D at 2, 4, 6
    feats.forEach((f, k) => {
      const i = k + 1;
      const balls = f.blobs.filter((b) => b.ballColour > 0.9);
      if (i % 2 === 0 && i < 8) {
        expect(balls, `frame ${i}`).toHaveLength(1);
        expect(Math.abs(balls[0].x - (30 + 8 * i))).toBeLessThan(3);
        expect(ownPicture(f), `frame ${i}`).toBe(true);
      } else {
        expect(f.blobs, `frame ${i}`).toHaveLength(0);
        // nothing moved on a repeat, and it is told from a new picture for the averages over time
        expect(f.motion.some((v) => v > 0), `frame ${i}`).toBe(false);
        if (i % 2 === 1) expect(ownPicture(f), `frame ${i}`).toBe(false);
      }
    });
  });

  it('tells a repeated picture from one where only a small ball moved', () => {
    const orange: [number, number, number] = [220, 110, 40];
    const bg: [number, number, number] = [90, 120, 160];
    const a = frame(bg, disc(40, 40, 2, orange));
    const b = frame(bg, disc(46, 40, 2, orange));
    const noisy = a.map((v, k) => Math.max(0, Math.min(255, v + ((k * 7) % 9) - 4)));
    expect(sameImage(a, noisy)).toBe(true);
    // orange on this blue has the same grey (R + G + B): the test must see colour
    expect(sameImage(a, b)).toBe(false);
  });

  it('answers as a plain count of the bytes that differ by more than 30 (any visiting order, aligned or not)', () => {
    const plain = (a: Uint8Array, b: Uint8Array) => {
      let n = 0;
      for (let k = 0; k < a.length; k++) if (Math.abs(a[k] - b[k]) > 30) n++;
      return n <= 8;
    };
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
    const bytes = 640 * 360 * 3 + 5;
    const base = new Uint8Array(bytes).map(() => Math.floor(rand() * 256));
    let same = 0;
    for (const changed of [0, 1, 8, 9, 10, 40]) {
      for (const bound of [30, 31, 200]) {
        const other = base.map((v) => Math.max(0, Math.min(255, v + Math.round((rand() - 0.5) * 2 * 30))));
        // `changed` bytes off by `bound`, clustered in one corner or spread over the frame
        for (let i = 0; i < changed; i++) {
          const k = changed > 9 ? Math.floor(rand() * bytes) : bytes - 1 - i * 3;
          other[k] = base[k] + bound <= 255 ? base[k] + bound : base[k] - bound;
        }
        for (const shift of [0, 1]) {
          const a = shift ? base.subarray(1) : base;
          const b = shift ? other.subarray(1) : other;
          expect(sameImage(a, b), `${changed} × ${bound}, offset ${shift}`).toBe(plain(a, b));
          same += plain(a, b) ? 1 : 0;
        }
      }
    }
    // both answers occur
    expect(same).toBeGreaterThan(4);
    expect(same).toBeLessThan(36);
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
    expect(feats.every((f) => f.thumb.length > 0)).toBe(true);
  });
});

describe('thumbnail', () => {
  it('is the mean grey of square cells, 16 on the long side', () => {
    // left half grey 200, right half: rows alternating 0 and 90 (mean 45)
    const f = frame([0, 0, 0], (x, y) => (x < W / 2 ? [190, 200, 210] : y % 2 ? [90, 90, 90] : [0, 0, 0]));
    const { thumb, thumbW } = thumbnail(smallGray(f, W, H));
    // 160 × 96 → small 40 × 24 → cells of 2 small pixels: 20 × 12
    expect(thumbW).toBe(20);
    expect(thumb.length).toBe(20 * 12);
    expect(thumb[0]).toBe(200);
    expect(thumb[9]).toBe(200);
    // smallGray reads rows 0 and 2 of each 4-row block (both even: 0), so the right half reads 0
    expect(thumb[10]).toBe(0);
    expect(thumb[20 * 12 - 1]).toBe(0);
  });

  it('reads a portrait frame with 16 cells on its height', () => {
    const w = 96;
    const h = 160;
    const f = new Uint8Array(w * h * 3).fill(120);
    const { thumb, thumbW } = thumbnail(smallGray(f, w, h));
    expect(thumbW).toBe(12);
    expect(thumb.length / thumbW).toBe(20);
    expect(new Set(thumb)).toEqual(new Set([120]));
  });
});

/** An RGB frame as planar YUV (BT.601 limited range, rounded; 4:2:0 chroma = mean of each 2×2 block). */
function toYuv(rgb: Uint8Array, w: number, h: number, fmt: 'yuv444p' | 'yuv420p'): Uint8Array {
  const n = w * h;
  const Y = new Float64Array(n);
  const U = new Float64Array(n);
  const V = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]];
    Y[i] = 16 + 0.257 * r + 0.504 * g + 0.098 * b;
    U[i] = 128 - 0.148 * r - 0.291 * g + 0.439 * b;
    V[i] = 128 + 0.439 * r - 0.368 * g - 0.071 * b;
  }
  if (fmt === 'yuv444p') {
    const out = new Uint8Array(3 * n);
    for (let i = 0; i < n; i++) [out[i], out[n + i], out[2 * n + i]] = [Y[i], U[i], V[i]].map(Math.round);
    return out;
  }
  const cw = w >> 1;
  const ch = h >> 1;
  const out = new Uint8Array(n + 2 * cw * ch);
  for (let i = 0; i < n; i++) out[i] = Math.round(Y[i]);
  for (let y = 0; y < ch; y++)
    for (let x = 0; x < cw; x++) {
      const q = [2 * y * w + 2 * x, 2 * y * w + 2 * x + 1, (2 * y + 1) * w + 2 * x, (2 * y + 1) * w + 2 * x + 1];
      out[n + y * cw + x] = Math.round(q.reduce((a, i) => a + U[i], 0) / 4);
      out[n + cw * ch + y * cw + x] = Math.round(q.reduce((a, i) => a + V[i], 0) / 4);
    }
  return out;
}

describe('planar YUV frames', () => {
  const orange: [number, number, number] = [220, 110, 40];
  const scene = (i: number) => frame([0, 0, 0], (x, y) => disc(30 + 12 * i, 50 - 3 * i, 6, orange)(x, y) ?? texture(x - 2 * i, y));

  it('converts back to RGB within rounding of the BT.601 matrix', () => {
    const rgb = scene(0);
    for (const fmt of ['yuv444p', 'yuv420p'] as const) {
      const back = toRgb(toYuv(rgb, W, H, fmt), W, H, fmt);
      let worst = 0;
      let sum = 0;
      for (let i = 0; i < rgb.length; i++) {
        const d = Math.abs(back[i] - rgb[i]);
        sum += d;
        worst = Math.max(worst, d);
      }
      // 4:4:4 is exact up to rounding; 4:2:0 loses chroma detail at the disc's edge only.
      if (fmt === 'yuv444p') expect(worst).toBeLessThanOrEqual(3);
      expect(sum / rgb.length).toBeLessThan(fmt === 'yuv444p' ? 1 : 2);
    }
  });

  it('give the camera shift, the moving ball and its colour as the RGB frames do', () => {
    const rgbFrames = [0, 1, 2, 3, 4, 5].map(scene);
    const want = computeRun(rgbFrames, W, H, 0, makeScratch(W, H));
    const ball = (f: (typeof want)[number]) => f.blobs.find((b) => b.area >= 40 && b.area <= 200);
    for (const fmt of ['yuv444p', 'yuv420p'] as FrameFormat[]) {
      const frames = rgbFrames.map((f) => toYuv(f, W, H, fmt as 'yuv444p' | 'yuv420p'));
      const got = computeRun(frames, W, H, 0, makeScratch(W, H), fmt);
      expect(got).toHaveLength(want.length);
      got.forEach((g, i) => {
        expect([g.dx, g.dy]).toEqual([want[i].dx, want[i].dy]);
        // the sub-pixel path reads luma alone: the same 2 px a frame to a few hundredths
        expect(Math.abs(want[i].sx - 2)).toBeLessThan(0.05);
        expect(Math.abs(g.sx - want[i].sx)).toBeLessThan(0.05);
        expect(Math.abs(g.sy - want[i].sy)).toBeLessThan(0.05);
        // The residual is luma-only on YUV frames (in colour-sum units): close, not equal.
        expect(Math.abs(g.shiftResidual - want[i].shiftResidual)).toBeLessThan(6);
        const a = ball(want[i]);
        const b = ball(g);
        expect(a).toBeDefined();
        expect(b).toBeDefined();
        expect(Math.abs(b!.x - a!.x)).toBeLessThan(1.5);
        expect(Math.abs(b!.y - a!.y)).toBeLessThan(1.5);
        expect(b!.ballColour).toBeGreaterThan(0.8);
        expect(Math.abs(b!.r - a!.r) + Math.abs(b!.g - a!.g) + Math.abs(b!.b - a!.b)).toBeLessThan(fmt === 'yuv444p' ? 6 : 70); // 4:2:0 mixes the edge pixels' chroma with the background
      });
    }
  });
});
