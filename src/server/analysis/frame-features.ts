/**
 * Per-frame low-level features, computed in worker threads: camera shift, motion blobs with
 * colour statistics, and a coarse motion grid. Pure typed-array code, no allocation per pixel.
 */

import type { FrameFormat } from './decode';

export type { FrameFormat };

/*
 * Frames arrive as interleaved RGB (`rgb24`) or planar YUV (`yuv444p`, `yuv420p`; see decode.ts).
 * Grey work (camera shift) uses luma alone on YUV frames, scaled to colour-sum units
 * (R + G + B ≈ 3 · 1.164 · Y). Colour work converts YUV to RGB with the BT.601 limited-range
 * matrix (what ffmpeg uses for untagged video), so every colour threshold keeps its meaning;
 * colour differences are converted linearly (ΔR, ΔG, ΔB from ΔY, ΔU, ΔV).
 */
const KY = 1.164;
const KRV = 1.596;
const KGU = 0.391;
const KGV = 0.813;
const KBU = 2.018;
/** R + G + B per luma level. */
const GREY = 3 * KY;

/** Plane layout of a YUV frame: offsets of U and V, chroma row length, chroma subsampling shift. */
interface Planes {
  u: number;
  v: number;
  cw: number;
  cs: 0 | 1;
}

function planes(width: number, height: number, fmt: FrameFormat): Planes {
  const n = width * height;
  if (fmt === 'yuv420p') return { u: n, v: n + (width >> 1) * (height >> 1), cw: width >> 1, cs: 1 };
  return { u: n, v: 2 * n, cw: width, cs: 0 };
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** Writes the RGB of one YUV pixel (levels `y`, `u`, `v`; BT.601 limited range) to `out[o..o+2]`. */
function yuvPixelToRgb(y: number, u: number, v: number, out: Uint8Array | number[], o = 0): void {
  const yy = KY * (y - 16);
  const cu = u - 128;
  const cv = v - 128;
  out[o] = clamp255(yy + KRV * cv);
  out[o + 1] = clamp255(yy - KGU * cu - KGV * cv);
  out[o + 2] = clamp255(yy + KBU * cu);
}

/** Converts a frame of any {@link FrameFormat} to interleaved RGB (a copy for RGB input). */
export function toRgb(frame: Uint8Array, width: number, height: number, fmt: FrameFormat = 'rgb24'): Uint8Array {
  if (fmt === 'rgb24') return frame.slice();
  const out = new Uint8Array(width * height * 3);
  const pl = planes(width, height, fmt);
  for (let y = 0; y < height; y++) {
    const crow = (y >> pl.cs) * pl.cw;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const ci = crow + (x >> pl.cs);
      yuvPixelToRgb(frame[i], frame[pl.u + ci], frame[pl.v + ci], out, i * 3);
    }
  }
  return out;
}

/** A connected region of moving pixels in one frame (analysis-resolution pixels). */
export interface MotionBlob {
  /** Centroid x, y. */
  x: number;
  y: number;
  /** Number of moving pixels. */
  area: number;
  /** Bounding box, inclusive min and exclusive max. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Fraction of the blob's pixels with a basketball-like colour. */
  ballColour: number;
  /** Fraction of the blob's pixels that are skin-like (warm, bright, low saturation). */
  skin: number;
  /** Mean colour 0-255. */
  r: number;
  g: number;
  b: number;
  /** Mean frame colour in the torso band (20–45 % of the height, middle 40 % of the width) of large blobs; -1 when not computed. */
  tr: number;
  tg: number;
  tb: number;
}

/** Whether a motion blob is big enough to be a ball candidate (`ball-track.ts#ballCandidates`). */
export function ballSized(b: Pick<MotionBlob, 'area' | 'x0' | 'x1' | 'y0' | 'y1'>): boolean {
  return b.area >= 12 && b.x1 - b.x0 >= 4 && b.y1 - b.y0 >= 4;
}

/** Least height (px) of a motion blob that can be a person (`players.ts#personObservations`). */
export const MIN_PERSON_H = 10;

/** Whether a motion blob can be a person for some ball size: tall enough, with a torso colour read. */
export function personSized(b: Pick<MotionBlob, 'y0' | 'y1' | 'tr'>): boolean {
  return b.y1 - b.y0 >= MIN_PERSON_H && b.tr >= 0;
}

/**
 * Whether a later stage can use a motion blob: as a ball candidate or as a person. The others, three blobs in four,
 * are specks of noise; {@link computeRun} drops them (their pixels still count in the motion grid), which keeps a
 * long game's features small ("Memory of a long game" in MEASUREMENTS.md).
 */
export const usableBlob = (b: MotionBlob): boolean => ballSized(b) || personSized(b);

/** Everything the later stages need from one frame. */
export interface FrameFeatures {
  index: number;
  /** Camera translation of this frame relative to the previous one (pixels): content at p in the previous frame is at p + shift here. */
  dx: number;
  dy: number;
  /** Mean absolute residual of the shift match (colour sum units): high when the camera shakes or the scene changes. */
  shiftResidual: number;
  /**
   * The same motion to a fraction of a pixel, measured against a frame up to a run earlier (see {@link runPath}), so
   * that its sum over many frames does not collect each frame's rounding as the sum of `dx`, `dy` does. The camera
   * path (`ball-track.ts#cameraPath`) adds these up, except a panning camera's, whose hoop tracks re-anchor the sum of
   * the whole-pixel `dx`, `dy` (`finish.ts`); the motion mask uses `dx`, `dy`.
   */
  sx: number;
  sy: number;
  /**
   * The camera's zoom since the previous frame (1: none), about the frame's centre c: content at p in the previous frame
   * is at ss · (p − c) + c + (sx, sy) here. Measured with `sx`, `sy` ({@link runPath}); a still camera's is exactly 1.
   */
  ss: number;
  blobs: MotionBlob[];
  /**
   * Moving-pixel counts per GRID x GRID cell, row-major, `gridW` x `gridH`: pixels of the half-resolution motion mask,
   * so at most (GRID / 2)² = 16 per cell, held in bytes (a long game has millions of cells).
   */
  motion: Uint8Array;
  gridW: number;
  gridH: number;
  /**
   * The picture in brief: mean grey (0–255, the mean of the three channels; luma on YUV) over square cells of
   * {@link THUMB_CELLS} on the frame's long side, row-major, `thumbW` cells a row. Two recordings faded or dissolved
   * into each other are told from it (`scenes.ts#findDissolves`): the frames between are mixes of the two pictures.
   */
  thumb: Uint8Array;
  thumbW: number;
}

/** Side of one motion-grid cell in pixels. */
export const GRID = 8;
// a cell's count, (GRID / 2)² half-resolution pixels at most, must fit the grid's bytes
if ((GRID / 2) ** 2 > 255) throw new Error('frame-features: a motion-grid cell overflows a byte');

/** Block-averaged grey image used for the coarse camera-shift search. */
export interface SmallGray {
  data: Float32Array;
  w: number;
  h: number;
}

const SMALL = 4;

/**
 * Downsamples a frame by 4 into grey (sum of channels; scaled luma for YUV), for cheap global matching. `into`, when
 * of the right length, is written over and returned in `data` (every value is written).
 */
export function smallGray(rgb: Uint8Array, width: number, height: number, fmt: FrameFormat = 'rgb24', into?: Float32Array): SmallGray {
  const w = Math.floor(width / SMALL);
  const h = Math.floor(height / SMALL);
  const data = into?.length === w * h ? into : new Float32Array(w * h);
  if (fmt !== 'rgb24') {
    const k = GREY / 4;
    for (let y = 0; y < h; y++) {
      let p = y * SMALL * width;
      const q0 = p + 2 * width;
      const o = y * w;
      for (let x = 0; x < w; x++, p += SMALL) {
        const q = q0 + x * SMALL;
        data[o + x] = (rgb[p] + rgb[p + 2] + rgb[q] + rgb[q + 2]) * k;
      }
    }
    return { data, w, h };
  }
  const row2 = 2 * width * 3;
  for (let y = 0; y < h; y++) {
    let p = y * SMALL * width * 3;
    const o = y * w;
    // Pixels (0,0), (2,0), (0,2), (2,2) of each 4×4 block.
    for (let x = 0; x < w; x++, p += SMALL * 3) {
      const q = p + row2;
      const s =
        rgb[p] + rgb[p + 1] + rgb[p + 2] + rgb[p + 6] + rgb[p + 7] + rgb[p + 8] +
        (rgb[q] + rgb[q + 1] + rgb[q + 2] + rgb[q + 6] + rgb[q + 7] + rgb[q + 8]);
      data[o + x] = s / 4;
    }
  }
  return { data, w, h };
}

/** Cells of a frame's thumbnail ({@link FrameFeatures.thumb}) on its long side. */
export const THUMB_CELLS = 16;

/** A frame's thumbnail ({@link FrameFeatures.thumb}) from its small grey image: cells of whole small pixels, the edges' remainders left out. */
export function thumbnail(small: SmallGray): { thumb: Uint8Array; thumbW: number } {
  const cell = Math.max(1, Math.floor(Math.max(small.w, small.h) / THUMB_CELLS));
  const tw = Math.floor(small.w / cell);
  const th = Math.floor(small.h / cell);
  const thumb = new Uint8Array(tw * th);
  const k = 1 / (3 * cell * cell);
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      let s = 0;
      for (let y = ty * cell; y < (ty + 1) * cell; y++) {
        const o = y * small.w;
        for (let x = tx * cell; x < (tx + 1) * cell; x++) s += small.data[o + x];
      }
      thumb[ty * tw + tx] = clamp255(s * k);
    }
  }
  return { thumb, thumbW: tw };
}

/**
 * Sums stop early once they certainly exceed `limit` × count: the caller only asks "is it
 * below the best so far". The margin keeps the decision exact despite rounding of the product.
 */
const stopAt = (limit: number, n: number) => limit * n + 1e-6 * n;

/**
 * Mean absolute difference of the small grey images at one shift. With `limit`, returns
 * Infinity as soon as the mean is certain to exceed `limit` (the exact mean otherwise).
 */
function smallSad(a: SmallGray, b: SmallGray, dx: number, dy: number, limit = Infinity): number {
  const m = 3;
  const ys = m + Math.max(0, dy);
  const ye = a.h - m + Math.min(0, dy);
  const xs = m + Math.max(0, dx);
  const xe = a.w - m + Math.min(0, dx);
  const n = ye > ys && xe > xs ? (ye - ys) * ((xe - xs + 1) >> 1) : 0;
  if (!n) return Infinity;
  const stop = stopAt(limit, n);
  const ad = a.data;
  const bd = b.data;
  let s = 0;
  for (let y = ys; y < ye; y++) {
    const rowB = y * b.w;
    const rowA = (y - dy) * a.w - dx;
    for (let x = xs; x < xe; x += 2) s += Math.abs(bd[rowB + x] - ad[rowA + x]);
    if (s > stop) return Infinity;
  }
  return s / n;
}

/** First value of `start + k·step` (k ≥ 0) that is ≥ `lo`. */
function firstOnGrid(start: number, step: number, lo: number): number {
  return lo <= start ? start : start + Math.ceil((lo - start) / step) * step;
}

/** Margin (px) and spacing of the sparse grid the camera's shift is matched on. */
const SAD_MARGIN = 16;
const SAD_STEP = 6;

/** The sparse grid of {@link fullSad} and {@link robustSad} (every 6th pixel, 16 px margin) at a shift: its rows, columns and point count. */
function sadGrid(width: number, height: number, dx: number, dy: number): { ys: number; ye: number; xs: number; xe: number; n: number; step: number } {
  const [m, step] = [SAD_MARGIN, SAD_STEP];
  const ys = firstOnGrid(m, step, dy);
  const ye = Math.min(height - m, height + dy);
  const xs = firstOnGrid(m, step, dx);
  const xe = Math.min(width - m, width + dx);
  const n = ye > ys && xe > xs ? Math.ceil((ye - ys) / step) * Math.ceil((xe - xs) / step) : 0;
  return { ys, ye, xs, xe, n, step };
}

/**
 * Mean absolute RGB difference on a sparse grid (every 6th pixel, 16 px margin) between `cur`
 * and `prev` shifted by (dx, dy), over the grid points whose shifted position is inside the
 * frame. `limit` as in {@link smallSad}.
 */
function fullSad(
  prev: Uint8Array,
  cur: Uint8Array,
  width: number,
  height: number,
  dx: number,
  dy: number,
  limit = Infinity,
  fmt: FrameFormat = 'rgb24',
): number {
  const { ys, ye, xs, xe, n, step } = sadGrid(width, height, dx, dy);
  if (!n) return Infinity;
  const stop = stopAt(limit, n);
  if (fmt !== 'rgb24') {
    // Luma only, in colour-sum units.
    const lstop = stop / GREY;
    const loff = dy * width + dx;
    let s = 0;
    for (let y = ys; y < ye; y += step) {
      const end = y * width + xe;
      for (let a = y * width + xs; a < end; a += step) s += Math.abs(cur[a] - prev[a - loff]);
      if (s > lstop) return Infinity;
    }
    return (s * GREY) / n;
  }
  const off = (dy * width + dx) * 3;
  let s = 0;
  for (let y = ys; y < ye; y += step) {
    const end = (y * width + xe) * 3;
    for (let a = (y * width + xs) * 3; a < end; a += step * 3) {
      const b = a - off;
      s += Math.abs(cur[a] - prev[b]) + Math.abs(cur[a + 1] - prev[b + 1]) + Math.abs(cur[a + 2] - prev[b + 2]);
    }
    if (s > stop) return Infinity;
  }
  return s / n;
}

/**
 * Estimates the integer camera translation between two frames: a hill-climb on 4× smaller grey
 * images, then a hill-climb at full resolution from there. Handheld clips drift a few pixels per
 * frame, which is enough to turn plain frame differencing into noise.
 */
export function estimateShift(
  prev: Uint8Array,
  cur: Uint8Array,
  sPrev: SmallGray,
  sCur: SmallGray,
  width: number,
  height: number,
  fmt: FrameFormat = 'rgb24',
): { dx: number; dy: number; residual: number } {
  let bx = 0;
  let by = 0;
  let bv = smallSad(sPrev, sCur, 0, 0);
  for (let iter = 0; iter < 8; iter++) {
    let moved = false;
    const cx = bx;
    const cy = by;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const v = smallSad(sPrev, sCur, cx + dx, cy + dy, bv);
        if (v < bv) {
          bv = v;
          bx = cx + dx;
          by = cy + dy;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  let fx = bx * SMALL;
  let fy = by * SMALL;
  let fv = fullSad(prev, cur, width, height, fx, fy, Infinity, fmt);
  const seen = new Map<number, number>([[fx * 1000 + fy, fv]]);
  for (let iter = 0; iter < 8; iter++) {
    const cx = fx;
    const cy = fy;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const key = (cx + dx) * 1000 + cy + dy;
        let v = seen.get(key);
        if (v === undefined) {
          // Infinity when certainly not better than the current best; the best only drops, so a
          // cached Infinity stays a correct answer for later centres.
          v = fullSad(prev, cur, width, height, cx + dx, cy + dy, fv - 0.25, fmt);
          seen.set(key, v);
        }
        if (v < fv - 0.25) {
          fv = v;
          fx = cx + dx;
          fy = cy + dy;
        }
      }
    }
    if (fx === cx && fy === cy) break;
  }
  let zero = seen.get(0);
  if (zero === undefined || zero === Infinity) zero = fullSad(prev, cur, width, height, 0, 0, fv + 0.25, fmt);
  const fb = zero <= fv + 0.25 ? { dx: 0, dy: 0, v: zero } : { dx: fx, dy: fy, v: fv };
  return { dx: fb.dx, dy: fb.dy, residual: fb.v };
}

/**
 * Largest difference one grid point adds to {@link robustSad} (colour-sum units): a misaligned wall or floor differs by
 * less, a person walking close past the camera by more — truncated, such a point costs the same at every offset, so
 * what does not move with the camera does not pull the match (a passer-by covering a quarter of the frame dragged the
 * plain sum 28 px).
 */
const ROBUST_CLIP = 60;

/** {@link fullSad}'s grid and sum, each point's difference truncated at {@link ROBUST_CLIP}; no early stop. */
function robustSad(prev: Uint8Array, cur: Uint8Array, width: number, height: number, dx: number, dy: number, fmt: FrameFormat): number {
  const { ys, ye, xs, xe, n, step } = sadGrid(width, height, dx, dy);
  if (!n) return Infinity;
  let s = 0;
  if (fmt !== 'rgb24') {
    const loff = dy * width + dx;
    for (let y = ys; y < ye; y += step) {
      const end = y * width + xe;
      for (let a = y * width + xs; a < end; a += step) s += Math.min(ROBUST_CLIP, Math.abs(cur[a] - prev[a - loff]) * GREY);
    }
    return s / n;
  }
  const off = (dy * width + dx) * 3;
  for (let y = ys; y < ye; y += step) {
    const end = (y * width + xe) * 3;
    for (let a = (y * width + xs) * 3; a < end; a += step * 3) {
      const b = a - off;
      s += Math.min(ROBUST_CLIP, Math.abs(cur[a] - prev[b]) + Math.abs(cur[a + 1] - prev[b + 1]) + Math.abs(cur[a + 2] - prev[b + 2]));
    }
  }
  return s / n;
}

/**
 * A run with no whole-pixel step whose last frame is matched within this many pixels (each axis) of its first is a
 * still camera's: its path stays at exactly 0 (image noise and players moving would add hundredths of a pixel).
 */
const STILL_RUN_OFFSET = 0.15;

/** Offsets (px, larger axis) past which a frame is measured against the frame before it instead of the run's reference. */
const PATH_REFERENCE_REACH = 0.25;

/**
 * A reference frame's grey levels (colour-sum units) and their gradients (central differences) on the points of
 * {@link fullSad}'s grid where the gradient is not zero (a flat point tells nothing of a shift): what
 * {@link gradientStep} compares every later frame with. Built once per reference frame.
 */
export interface GradientGrid {
  x: Int16Array;
  y: Int16Array;
  v: Float64Array;
  gx: Float64Array;
  gy: Float64Array;
  /** The gradient along a zoom about the frame's centre: gx · (x − cx) + gy · (y − cy). */
  gs: Float64Array;
  n: number;
}

/** The centre a zoom is measured about (pixel coordinates). */
export const zoomCentre = (width: number, height: number) => ({ cx: (width - 1) / 2, cy: (height - 1) / 2 });

/** Grey level (colour-sum units) of pixel `i` of an RGB or a planar YUV frame. */
function greyAt(f: Uint8Array, i: number, rgb: boolean): number {
  return rgb ? f[3 * i] + f[3 * i + 1] + f[3 * i + 2] : f[i] * GREY;
}

/** `ref`'s {@link GradientGrid}; written into `into` (its points past `n` are left as they were) when it has room for this frame size's. */
function gradientGrid(ref: Uint8Array, width: number, height: number, fmt: FrameFormat = 'rgb24', into?: GradientGrid): GradientGrid {
  const [m, step] = [SAD_MARGIN, SAD_STEP];
  const rgb = fmt === 'rgb24';
  const cap = Math.ceil((width - 2 * m) / step) * Math.ceil((height - 2 * m) / step);
  const g: GradientGrid =
    into?.x.length === cap
      ? into
      : { x: new Int16Array(cap), y: new Int16Array(cap), v: new Float64Array(cap), gx: new Float64Array(cap), gy: new Float64Array(cap), gs: new Float64Array(cap), n: 0 };
  g.n = 0;
  const { cx, cy } = zoomCentre(width, height);
  for (let y = m; y < height - m; y += step) {
    for (let x = m; x < width - m; x += step) {
      const i = y * width + x;
      const gx = (greyAt(ref, i + 1, rgb) - greyAt(ref, i - 1, rgb)) / 2;
      const gy = (greyAt(ref, i + width, rgb) - greyAt(ref, i - width, rgb)) / 2;
      if (!gx && !gy) continue;
      const k = g.n++;
      g.x[k] = x;
      g.y[k] = y;
      g.v[k] = greyAt(ref, i, rgb);
      g.gx[k] = gx;
      g.gy[k] = gy;
      g.gs[k] = gx * (x - cx) + gy * (y - cy);
    }
  }
  return g;
}

/** A camera's place against a reference frame: content at p there is at s · (p − c) + c + (x, y) (c: {@link zoomCentre}). */
export interface CameraPlace {
  x: number;
  y: number;
  s: number;
}

/** Gauss–Newton steps of {@link zoomStep} at most, and the step under which it stops (px of offset; the scale step times half the frame's larger side). */
const GRADIENT_STEPS = 6;
const GRADIENT_DONE = 0.005;

/**
 * Where the content of `ref` is in `cur`, to a fraction of a pixel: a whole-pixel hill-climb of the offset at full
 * resolution from the guess (`gx`, `gy`) on {@link robustSad}, then the sub-pixel rest from the grey gradients
 * ({@link shiftStep}; scale 1) or, given a starting scale `gs`, the rest and the zoom ({@link zoomStep}; the
 * hill-climb then compares at that scale, {@link zoomedSad}). `grid` is `ref`'s {@link gradientGrid}, built here when
 * not given. `residual` is the whole-pixel match's truncated mean absolute difference (colour-sum units).
 */
export function refineOffset(
  ref: Uint8Array,
  cur: Uint8Array,
  width: number,
  height: number,
  gx: number,
  gy: number,
  fmt: FrameFormat = 'rgb24',
  grid: GradientGrid = gradientGrid(ref, width, height, fmt),
  gs?: number,
): CameraPlace & { residual: number } {
  const exact = new Map<number, number>();
  // at a zoom against the reference, its grid is compared where the zoom puts it (a sum at scale 1 drifts to the
  // textured side); without one, the full sum of colours as before
  const zoomed = gs !== undefined && Math.abs(gs - 1) > ZOOMED_MATCH;
  const cost = (dx: number, dy: number) => {
    const key = dx * 65536 + dy;
    let v = exact.get(key);
    if (v === undefined) {
      v = zoomed ? zoomedSad(grid, cur, width, height, dx, dy, gs!, fmt) : robustSad(ref, cur, width, height, dx, dy, fmt);
      exact.set(key, v);
    }
    return v;
  };
  let bx = gx;
  let by = gy;
  let bv = cost(gx, gy);
  for (let iter = 0; iter < 8; iter++) {
    const cx = bx;
    const cy = by;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!dx && !dy) continue;
        const v = cost(cx + dx, cy + dy);
        if (v < bv) {
          bv = v;
          bx = cx + dx;
          by = cy + dy;
        }
      }
    }
    if (bx === cx && by === cy) break;
  }
  if (gs === undefined) {
    const sub = shiftStep(grid, cur, width, height, bx, by, fmt);
    return { x: bx + sub.x, y: by + sub.y, s: 1, residual: bv };
  }
  return { ...zoomStep(grid, cur, width, height, bx, by, gs, fmt), residual: bv };
}

/**
 * The sub-pixel rest of a whole-pixel offset (`bx`, `by`) of `cur` against the reference frame whose
 * {@link gradientGrid} is `grid`, by two Gauss–Newton steps (Lucas–Kanade in its inverse compositional form: the
 * reference's gradients, taken once on its grid, explain the differences between `cur`, read bilinearly where the
 * offset puts each point, and the reference); points whose difference is larger than {@link ROBUST_CLIP} (something
 * that does not move with the camera) are left out. Each coordinate is kept within ±1 px.
 */
function shiftStep(grid: GradientGrid, cur: Uint8Array, width: number, height: number, bx: number, by: number, fmt: FrameFormat): { x: number; y: number } {
  const rgb = fmt === 'rgb24';
  const { x: px, y: py, v, gx: gxs, gy: gys, n } = grid;
  let sx = 0;
  let sy = 0;
  for (let iter = 0; iter < 2; iter++) {
    let gxx = 0;
    let gxy = 0;
    let gyy = 0;
    let bxe = 0;
    let bye = 0;
    const ox = bx + sx;
    const oy = by + sy;
    const x0 = Math.floor(ox);
    const y0 = Math.floor(oy);
    const fx = ox - x0;
    const fy = oy - y0;
    const w00 = (1 - fx) * (1 - fy);
    const w01 = fx * (1 - fy);
    const w10 = (1 - fx) * fy;
    const w11 = fx * fy;
    for (let k = 0; k < n; k++) {
      const qx = px[k] + x0;
      const qy = py[k] + y0;
      if (qx < 0 || qy < 0 || qx > width - 2 || qy > height - 2) continue;
      const i = qy * width + qx;
      const c =
        greyAt(cur, i, rgb) * w00 + greyAt(cur, i + 1, rgb) * w01 + greyAt(cur, i + width, rgb) * w10 + greyAt(cur, i + width + 1, rgb) * w11;
      const e = c - v[k];
      if (Math.abs(e) > ROBUST_CLIP) continue;
      const gx = gxs[k];
      const gy = gys[k];
      gxx += gx * gx;
      gxy += gx * gy;
      gyy += gy * gy;
      bxe += gx * e;
      bye += gy * e;
    }
    const det = gxx * gyy - gxy * gxy;
    if (!(det > 1e-6 * (gxx + gyy) ** 2) || gxx + gyy === 0) break;
    // cur(p + o) ≈ ref(p + δ) ≈ ref(p) + ∇ref · δ, so e = ∇ref · δ and the offset is o − δ
    const dx = (gyy * bxe - gxy * bye) / det;
    const dy = (gxx * bye - gxy * bxe) / det;
    sx = Math.max(-1, Math.min(1, sx - dx));
    sy = Math.max(-1, Math.min(1, sy - dy));
  }
  return { x: sx, y: sy };
}

/**
 * The offset to a fraction of a pixel and the scale of `cur` against the reference frame whose {@link gradientGrid} is
 * `grid`, from the whole-pixel offset (`bx`, `by`) and the scale `s0`, by Gauss–Newton steps (Lucas–Kanade in its
 * inverse compositional form: the reference's gradients along x, y and a zoom about the centre, taken once on its
 * grid, explain the differences between `cur`, read bilinearly where the place puts each point, and the reference)
 * until a step moves less than {@link GRADIENT_DONE} px, at most {@link GRADIENT_STEPS}; points whose difference is
 * larger than {@link ROBUST_CLIP} (something that does not move with the camera) are left out. The offset is kept
 * within ±1 px of (`bx`, `by`).
 */
function zoomStep(grid: GradientGrid, cur: Uint8Array, width: number, height: number, bx: number, by: number, s0: number, fmt: FrameFormat): CameraPlace {
  const rgb = fmt === 'rgb24';
  const { x: px, y: py, v, gx: gxs, gy: gys, gs: gss, n } = grid;
  const { cx, cy } = zoomCentre(width, height);
  const reach = Math.max(cx, cy);
  let tx = bx;
  let ty = by;
  let s = s0;
  const h = new Float64Array(9);
  const b = new Float64Array(3);
  for (let iter = 0; iter < GRADIENT_STEPS; iter++) {
    h.fill(0);
    b.fill(0);
    for (let k = 0; k < n; k++) {
      const qx = s * (px[k] - cx) + cx + tx;
      const qy = s * (py[k] - cy) + cy + ty;
      if (!(qx >= 0 && qy >= 0 && qx < width - 1 && qy < height - 1)) continue;
      const x0 = Math.floor(qx);
      const y0 = Math.floor(qy);
      const fx = qx - x0;
      const fy = qy - y0;
      const i = y0 * width + x0;
      const c =
        (greyAt(cur, i, rgb) * (1 - fx) + greyAt(cur, i + 1, rgb) * fx) * (1 - fy) +
        (greyAt(cur, i + width, rgb) * (1 - fx) + greyAt(cur, i + width + 1, rgb) * fx) * fy;
      const e = c - v[k];
      if (Math.abs(e) > ROBUST_CLIP) continue;
      const gx = gxs[k];
      const gy = gys[k];
      const gs = gss[k];
      h[0] += gx * gx;
      h[1] += gx * gy;
      h[2] += gx * gs;
      h[4] += gy * gy;
      h[5] += gy * gs;
      h[8] += gs * gs;
      b[0] += gx * e;
      b[1] += gy * e;
      b[2] += gs * e;
    }
    const d = solveSymmetric3(h, b);
    if (!d) break;
    // cur(W(p)) ≈ ref(W_δ(p)) ≈ ref(p) + J δ: the place composed with the inverse of δ's
    const k = 1 + d[2];
    if (!(k > 0.5)) break;
    tx = Math.max(bx - 1, Math.min(bx + 1, tx - (s * d[0]) / k));
    ty = Math.max(by - 1, Math.min(by + 1, ty - (s * d[1]) / k));
    s /= k;
    if (Math.abs(d[0]) < GRADIENT_DONE && Math.abs(d[1]) < GRADIENT_DONE && Math.abs(d[2]) * reach < GRADIENT_DONE) break;
  }
  return { x: tx, y: ty, s };
}

/**
 * A run is followed with the zoom ({@link runPath}) when its last frame's zoom against its first moves the frame's
 * corners by this many pixels or more, and the zoom it is followed with does somewhere; below it (a hand-held camera's
 * noise: hundredths of a percent, up to 0.15 % on the real clips made hand-held) the offsets alone.
 */
const ZOOM_RUN_PX = 1;
/** The frame of a run its zoom is first read on (see {@link runPath}). */
const ZOOM_EARLY_FRAMES = 4;

/** A scale against the reference past which the whole-pixel hill-climb of {@link refineOffset} compares at that scale. */
const ZOOMED_MATCH = 0.001;

/**
 * {@link robustSad} at a zoom: `cur`'s grey level at s · (p − c) + c + (dx, dy) (nearest pixel) against the reference's
 * at each point p of its {@link gradientGrid}, each difference truncated at {@link ROBUST_CLIP}; the mean.
 */
function zoomedSad(grid: GradientGrid, cur: Uint8Array, width: number, height: number, dx: number, dy: number, s: number, fmt: FrameFormat): number {
  const rgb = fmt === 'rgb24';
  const { cx, cy } = zoomCentre(width, height);
  let sum = 0;
  let n = 0;
  for (let k = 0; k < grid.n; k++) {
    const qx = Math.round(s * (grid.x[k] - cx) + cx + dx);
    const qy = Math.round(s * (grid.y[k] - cy) + cy + dy);
    if (qx < 0 || qy < 0 || qx >= width || qy >= height) continue;
    sum += Math.min(ROBUST_CLIP, Math.abs(greyAt(cur, qy * width + qx, rgb) - grid.v[k]));
    n++;
  }
  return n ? sum / n : Infinity;
}

/** Solves H d = b for a symmetric 3 × 3 H (upper triangle in h[0], h[1], h[2], h[4], h[5], h[8]); null when H is near singular. */
function solveSymmetric3(h: Float64Array, b: Float64Array): [number, number, number] | null {
  const [a, p, q, d, r, f] = [h[0], h[1], h[2], h[4], h[5], h[8]];
  const c0 = d * f - r * r;
  const c1 = q * r - p * f;
  const c2 = p * r - q * d;
  const det = a * c0 + p * c1 + q * c2;
  if (!(Math.abs(det) > 1e-9 * a * d * f) || !a || !d || !f) return null;
  const i01 = c1;
  const i02 = c2;
  const i11 = a * f - q * q;
  const i12 = p * q - a * r;
  const i22 = a * d - p * p;
  return [(c0 * b[0] + i01 * b[1] + i02 * b[2]) / det, (i01 * b[0] + i11 * b[1] + i12 * b[2]) / det, (i02 * b[0] + i12 * b[1] + i22 * b[2]) / det];
}

/** `q` (a frame's place against the run's first frame) seen from `r` (another frame's place against the same frame). */
function placeFrom(r: CameraPlace, q: CameraPlace): CameraPlace {
  const a = q.s / r.s;
  return { x: q.x - a * r.x, y: q.y - a * r.y, s: a };
}

/** `r` followed by `q` (`q` measured against the frame placed at `r`). */
function placeThen(r: CameraPlace, q: CameraPlace): CameraPlace {
  return { x: q.s * r.x + q.x, y: q.s * r.y + q.y, s: q.s * r.s };
}

/** The camera's motion from the frame placed at `p` to the frame placed at `q` (both against one frame): `sx`, `sy`, `ss`. */
function frameStep(p: CameraPlace, q: CameraPlace): { sx: number; sy: number; ss: number } {
  const f = placeFrom(p, q);
  return { sx: f.x, sy: f.y, ss: f.s };
}

/** The arrays {@link runPath} writes its reference frames' gradient grids into (runPath runs to its end once called). */
let pathGrid: GradientGrid | undefined;

/**
 * The camera's place in each frame of a run but the last (the context frame after it) against its first frame
 * (`frames[0]`, the context frame before it): its offset to a fraction of a pixel and its zoom (content at p in the
 * first frame is at s · (p − c) + c + (x, y), c the frame's centre). The frame-to-frame `shifts` are whole pixels, and a still camera's is kept at 0 unless a pixel
 * is clearly better, so their sum loses every frame's rounding: a hand-held camera's slow sway (under a pixel a
 * frame) is missed altogether, and the path drifts off the scene (measured: 71 px over 50 s of a swaying real clip,
 * the rim then read 3–5 rim widths off; MEASUREMENTS.md, "A hand-held camera's path, run version 54"). Here each
 * frame is matched against the reference instead (the run's first frame, or the frame before it once the camera has
 * moved {@link PATH_REFERENCE_REACH} of the frame from there, or when the reference matches it much worse than the
 * frame before it does: the scene changed), from the place of the frame before it and its whole-pixel step, so the
 * error does not add up within the run, and across runs only the error of each run's end adds up. A run whose frames
 * all stay where its first frame is — no whole-pixel step, and its last frame within {@link STILL_RUN_OFFSET} of it
 * over the whole frame, zoom included — is still: offset 0 and scale 1 exactly, as before. The zoom is followed only in a
 * run whose last frame's zoom against its first moves the frame's corners by {@link ZOOM_RUN_PX} or more (a camera
 * that zooms, measured on a real clip zoomed in and out: MEASUREMENTS.md, "A camera that zooms"); every other run
 * keeps the offsets alone and scale 1, the same places as before the zoom was measured.
 */
export function runPath(
  frames: Uint8Array[],
  shifts: Array<{ dx: number; dy: number; residual: number }>,
  width: number,
  height: number,
  fmt: FrameFormat = 'rgb24',
): CameraPlace[] {
  const n = frames.length - 1;
  // the reference frame's gradient grid, kept while it stays the reference; one grid is in use at a time, so every
  // reference's is written into the same arrays, kept from run to run (a run's allocations, ~200 KB, cost more than
  // filling them)
  let made: { i: number; grid: GradientGrid } | undefined;
  const grids = (i: number) => {
    if (made?.i !== i) made = { i, grid: (pathGrid = gradientGrid(frames[i], width, height, fmt, pathGrid)) };
    return made.grid;
  };
  const { cx, cy } = zoomCentre(width, height);
  /** Whether the zoom of `place` against the run's first frame moves the frame's corners by `px` or more. */
  const zooms = (place: CameraPlace, px: number) => Math.abs(place.s - 1) * Math.hypot(cx, cy) >= px;
  // The last frame's zoom against the first, matched from the zoom of the run's first few frames carried on to it: from
  // scale 1, a steady zoom of a few percent over the run is beyond a gradient step's reach (its corners tens of pixels
  // away); a few frames in, it is within it (and a frame repeated by the decode would say nothing).
  const early = Math.min(ZOOM_EARLY_FRAMES, n - 1);
  let earlyZoom: number | undefined;
  const zoomOfEnd = (at: CameraPlace, shifted: CameraPlace[] | null) => {
    if (earlyZoom === undefined) {
      const guess = shifted ? shifted[early] : { x: 0, y: 0 };
      earlyZoom = refineOffset(frames[0], frames[early], width, height, Math.round(guess.x), Math.round(guess.y), fmt, grids(0), 1).s;
    }
    return refineOffset(frames[0], frames[n - 1], width, height, Math.round(at.x), Math.round(at.y), fmt, grids(0), earlyZoom ** ((n - 1) / early));
  };
  let still = true;
  for (let i = 1; i < n; i++) if (shifts[i].dx || shifts[i].dy) still = false;
  if (still && n > 1) {
    const end = refineOffset(frames[0], frames[n - 1], width, height, 0, 0, fmt, grids(0));
    still = Math.abs(end.x) < STILL_RUN_OFFSET && Math.abs(end.y) < STILL_RUN_OFFSET && !zooms(zoomOfEnd(end, null), STILL_RUN_OFFSET);
  }
  if (still) return Array.from({ length: n }, () => ({ x: 0, y: 0, s: 1 }));
  const shifted = followRun(frames, shifts, width, height, fmt, grids, false);
  if (n < 2 || !zooms(zoomOfEnd(shifted[n - 1], shifted), ZOOM_RUN_PX)) return shifted;
  // followed with the zoom, the run must zoom as much somewhere (a hand-held camera's noise reads as a zoom of a few
  // hundredths of a percent at the end alone)
  const zoomed = followRun(frames, shifts, width, height, fmt, grids, true);
  return zoomed.some((p) => zooms(p, ZOOM_RUN_PX)) ? zoomed : shifted;
}

/**
 * {@link runPath}'s places of a run that is not still, each frame matched against the reference from the place of the
 * frame before it and its whole-pixel step: offsets alone (scale 1), or with `zoom` the offsets and the zoom.
 */
function followRun(
  frames: Uint8Array[],
  shifts: Array<{ dx: number; dy: number; residual: number }>,
  width: number,
  height: number,
  fmt: FrameFormat,
  grids: (i: number) => GradientGrid,
  zoom: boolean,
): CameraPlace[] {
  const n = frames.length - 1;
  const pos: CameraPlace[] = [{ x: 0, y: 0, s: 1 }];
  let ref = 0;
  for (let i = 1; i < n; i++) {
    const prev = pos[i - 1];
    // the same buffer: a repeat the decode made. A picture `sameImage` calls a repeat is measured all the same: a
    // sway of a fraction of a pixel changes no byte by much, and the run's last frame is where the next run starts.
    if (frames[i] === frames[i - 1]) {
      pos.push(prev);
      continue;
    }
    const reach = (gx: number, gy: number) => Math.abs(gx) > PATH_REFERENCE_REACH * width || Math.abs(gy) > PATH_REFERENCE_REACH * height;
    let from = placeFrom(pos[ref], prev);
    let gx = Math.round(from.x) + shifts[i].dx;
    let gy = Math.round(from.y) + shifts[i].dy;
    if (ref !== i - 1 && reach(gx, gy)) {
      ref = i - 1;
      from = { x: 0, y: 0, s: 1 };
      gx = shifts[i].dx;
      gy = shifts[i].dy;
    }
    let r = refineOffset(frames[ref], frames[i], width, height, gx, gy, fmt, grids(ref), zoom ? from.s : undefined);
    if (ref !== i - 1 && r.residual > 2 * shifts[i].residual + 4) {
      ref = i - 1;
      r = refineOffset(frames[ref], frames[i], width, height, shifts[i].dx, shifts[i].dy, fmt, grids(ref), zoom ? 1 : undefined);
    }
    pos.push(placeThen(pos[ref], r));
  }
  return pos;
}

/**
 * Basketball-like colour test on one RGB pixel: orange to brown, and the purple-grey the ball
 * takes against a bright sky (hue ≈ 290°–45°, some saturation, not blown out).
 */
export function isBallColour(r: number, g: number, b: number): boolean {
  const max = r > g ? (r > b ? r : b) : g > b ? g : b;
  const min = r < g ? (r < b ? r : b) : g < b ? g : b;
  if (max < 40 || min > 235) return false;
  const d = max - min;
  if (d < 0.14 * max || d < 14) return false;
  if (max === r) {
    // Hue in (-60°, 60°): orange/red/brown when green ≥ blue, magenta-ish otherwise.
    if (g >= b) return (g - b) / d < 0.78;
    return (b - g) / d < 0.55;
  }
  if (max === b) {
    // Purple: hue 270°-300° when red is close to blue.
    return r - g > 0.55 * d;
  }
  return false;
}

function isSkin(r: number, g: number, b: number): boolean {
  return r > 95 && g > 40 && b > 20 && r > g && r > b && r - Math.min(g, b) > 15 && Math.abs(r - g) > 12 && r - b < 120 && g - b > 5;
}

/** Reusable scratch buffers, one set per worker (motion is computed on every second pixel). */
export interface Scratch {
  /** Half-resolution moving-pixel mask. */
  mask: Uint8Array;
  labels: Int32Array;
  /** Indices of set mask pixels, in scan order; `count` of them are valid. */
  list: Int32Array;
  count: number;
  mw: number;
  mh: number;
  /** The small grey images of a run's frames (see {@link computeRun}), allocated once. */
  smalls?: Float32Array[];
}

/** Allocates scratch buffers for a frame size. */
export function makeScratch(width: number, height: number): Scratch {
  const mw = width >> 1;
  const mh = height >> 1;
  return { mask: new Uint8Array(mw * mh), labels: new Int32Array(mw * mh), list: new Int32Array(mw * mh), count: 0, mw, mh };
}

/**
 * Marks moving pixels by three-frame differencing with camera compensation, on every second
 * pixel: a pixel moves when it differs both from the previous and from the next frame (after
 * shifting each by the estimated camera motion). Returns the threshold used.
 *
 * Where the camera moved between two frames, the whole-pixel shift leaves every still edge up to
 * half a pixel off (and the picture rolls and blurs a little as the camera turns), so those edges
 * differ and used to fill the mask: on the synthetic panning games six times the moving pixels of
 * a still camera. There a pixel must also differ from all 3 × 3 pixels around its shifted
 * position (`nearestDiff`), unless it is ball-coloured: a ball only a few pixels across, moving a
 * few pixels a frame, would lose its edges to the same test (MEASUREMENTS.md, "Panning cameras: edges
 * off by part of a pixel"). A still camera's frames take the plain test.
 */
export function motionMask(
  prev: Uint8Array,
  cur: Uint8Array,
  next: Uint8Array,
  width: number,
  height: number,
  sp: { dx: number; dy: number },
  sn: { dx: number; dy: number },
  sc: Scratch,
  fmt: FrameFormat = 'rgb24',
): number {
  if (fmt !== 'rgb24') return motionMaskYuv(prev, cur, next, width, height, sp, sn, sc, planes(width, height, fmt));
  let acc = 0;
  let cnt = 0;
  for (let y = 8; y < height - 8; y += 7) {
    for (let x = 8; x < width - 8; x += 7) {
      const a = (y * width + x) * 3;
      const py = Math.min(height - 1, Math.max(0, y - sp.dy));
      const px = Math.min(width - 1, Math.max(0, x - sp.dx));
      const b = (py * width + px) * 3;
      acc += Math.abs(cur[a] - prev[b]) + Math.abs(cur[a + 1] - prev[b + 1]) + Math.abs(cur[a + 2] - prev[b + 2]);
      cnt++;
    }
  }
  const { T, mxs, mxe, nearP, nearN, rowLo, rowHi } = beginMask(sc, cnt ? acc / cnt : 0, width, height, sp, sn);
  const { mask, list, mw, mh } = sc;
  const row = width * 3;
  let count = 0;
  for (let my = 1; my < mh - 1; my++) {
    const y = my * 2;
    const py = y - sp.dy;
    const ny = y + sn.dy;
    if (py < rowLo.p || py >= rowHi.p || ny < rowLo.n || ny >= rowHi.n) continue;
    // Byte offsets of the pixel in the current, previous and next frame, advanced by 2 pixels.
    let a = (y * width + mxs * 2) * 3;
    let b = (py * width + mxs * 2 - sp.dx) * 3;
    let c = (ny * width + mxs * 2 + sn.dx) * 3;
    const rowMask = my * mw;
    for (let mx = mxs; mx < mxe; mx++, a += 6, b += 6, c += 6) {
      const r = cur[a];
      const g = cur[a + 1];
      const bl = cur[a + 2];
      const d1 = Math.abs(r - prev[b]) + Math.abs(g - prev[b + 1]) + Math.abs(bl - prev[b + 2]);
      if (d1 <= T) continue;
      const d2 = Math.abs(r - next[c]) + Math.abs(g - next[c + 1]) + Math.abs(bl - next[c + 2]);
      if (d2 <= T) continue;
      if ((nearP || nearN) && !isBallColour(r, g, bl)) {
        if (nearP && nearestDiff(cur, a, prev, b, row, T) <= T) continue;
        if (nearN && nearestDiff(cur, a, next, c, row, T) <= T) continue;
      }
      const o = rowMask + mx;
      mask[o] = 1;
      list[count++] = o;
    }
  }
  sc.count = count;
  return T;
}

/**
 * Shared set-up of both motion masks: the difference threshold from the sampled noise level,
 * the previous frame's mask cleared, whether the previous and the next frame take the 3 × 3 test
 * (the camera moved between them and this frame), and the mask columns and rows whose shifted
 * neighbours are inside both frames.
 */
function beginMask(sc: Scratch, noise: number, width: number, height: number, sp: { dx: number; dy: number }, sn: { dx: number; dy: number }) {
  for (let k = 0; k < sc.count; k++) sc.mask[sc.list[k]] = 0;
  // a frame the camera moved to or from is compared with the 3 × 3 pixels around the shifted
  // position in that frame, so those must lie inside it: one pixel of margin
  const nearP = sp.dx !== 0 || sp.dy !== 0;
  const nearN = sn.dx !== 0 || sn.dy !== 0;
  const m = nearP || nearN ? 1 : 0;
  const xs = Math.max(2, sp.dx + m, -sn.dx + m);
  const xe = Math.min(width - 2, width + sp.dx - m, width - sn.dx - m);
  const mp = nearP ? 1 : 0;
  const mn = nearN ? 1 : 0;
  return {
    T: Math.max(40, Math.min(120, 4 * noise)),
    mxs: (xs + 1) >> 1,
    mxe: Math.min(sc.mw, (xe + 1) >> 1),
    nearP,
    nearN,
    /** Rows of the previous (`p`) and next (`n`) frame a shifted row may fall on. */
    rowLo: { p: mp, n: mn },
    rowHi: { p: height - mp, n: height - mn },
  };
}

/**
 * The smallest colour distance (|ΔR| + |ΔG| + |ΔB|) between the RGB pixel at byte offset `a` of
 * `cur` and the 3 × 3 pixels around byte offset `b` of `other` (rows of `row` bytes; `b` is not on
 * the frame's border). Stops as soon as it is at most `enough`.
 */
function nearestDiff(cur: Uint8Array, a: number, other: Uint8Array, b: number, row: number, enough: number): number {
  const r = cur[a];
  const g = cur[a + 1];
  const bl = cur[a + 2];
  let best = Infinity;
  for (let o = b - row - 3; o <= b + row - 3; o += row) {
    for (let k = o; k <= o + 6; k += 3) {
      const d = Math.abs(r - other[k]) + Math.abs(g - other[k + 1]) + Math.abs(bl - other[k + 2]);
      if (d < best) {
        best = d;
        if (best <= enough) return best;
      }
    }
  }
  return best;
}

/** {@link nearestDiff} on planar YUV frames: luma index `a` of `cur` against the 3 × 3 pixels around luma pixel (x, y) of `other`. */
function nearestDiffYuv(cur: Uint8Array, a: number, ca: number, other: Uint8Array, x: number, y: number, width: number, pl: Planes, enough: number): number {
  let best = Infinity;
  for (let yy = y - 1; yy <= y + 1; yy++) {
    for (let xx = x - 1; xx <= x + 1; xx++) {
      const cb = (yy >> pl.cs) * pl.cw + (xx >> pl.cs);
      const d = rgbDiff(cur[a] - other[yy * width + xx], cur[pl.u + ca] - other[pl.u + cb], cur[pl.v + ca] - other[pl.v + cb]);
      if (d < best) {
        best = d;
        if (best <= enough) return best;
      }
    }
  }
  return best;
}

/**
 * Integer upper bound of 64 · {@link rgbDiff}: KY3I·|ΔY| + KUVI·(|ΔU| + |ΔV|) with the
 * coefficients 64 · 3 · KY and 64 · max(KGU + KBU, KRV + KGV) rounded up (small-integer maths).
 */
const KY3I = Math.ceil(64 * 3 * KY);
const KUVI = Math.ceil(64 * Math.max(KGU + KBU, KRV + KGV));

/** |ΔR| + |ΔG| + |ΔB| of a colour change given as ΔY, ΔU, ΔV (BT.601, linear). */
function rgbDiff(dY: number, dU: number, dV: number): number {
  const yy = KY * dY;
  const r = yy + KRV * dV;
  const g = yy - KGU * dU - KGV * dV;
  const b = yy + KBU * dU;
  return (r < 0 ? -r : r) + (g < 0 ? -g : g) + (b < 0 ? -b : b);
}

/** {@link motionMask} on planar YUV frames: the same test, the RGB distance computed from ΔY, ΔU, ΔV. */
function motionMaskYuv(
  prev: Uint8Array,
  cur: Uint8Array,
  next: Uint8Array,
  width: number,
  height: number,
  sp: { dx: number; dy: number },
  sn: { dx: number; dy: number },
  sc: Scratch,
  pl: Planes,
): number {
  const { u: U, v: V, cw, cs } = pl;
  let acc = 0;
  let cnt = 0;
  for (let y = 8; y < height - 8; y += 7) {
    for (let x = 8; x < width - 8; x += 7) {
      const py = Math.min(height - 1, Math.max(0, y - sp.dy));
      const px = Math.min(width - 1, Math.max(0, x - sp.dx));
      const ca = (y >> cs) * cw + (x >> cs);
      const cb = (py >> cs) * cw + (px >> cs);
      acc += rgbDiff(cur[y * width + x] - prev[py * width + px], cur[U + ca] - prev[U + cb], cur[V + ca] - prev[V + cb]);
      cnt++;
    }
  }
  const { T, mxs, mxe, nearP, nearN, rowLo, rowHi } = beginMask(sc, cnt ? acc / cnt : 0, width, height, sp, sn);
  const { mask, list, mw, mh } = sc;
  /** RGB of the pixel the ball-colour exemption reads. */
  const px = [0, 0, 0];
  let count = 0;
  // Chroma index step per mask pixel (2 luma pixels).
  const cstep = cs ? 1 : 2;
  const TI = Math.floor(64 * T);
  for (let my = 1; my < mh - 1; my++) {
    const y = my * 2;
    const py = y - sp.dy;
    const ny = y + sn.dy;
    if (py < rowLo.p || py >= rowHi.p || ny < rowLo.n || ny >= rowHi.n) continue;
    const x0 = mxs * 2;
    let a = y * width + x0;
    let b = py * width + x0 - sp.dx;
    let c = ny * width + x0 + sn.dx;
    let ca = (y >> cs) * cw + (x0 >> cs);
    let cb = (py >> cs) * cw + ((x0 - sp.dx) >> cs);
    let cc = (ny >> cs) * cw + ((x0 + sn.dx) >> cs);
    const rowMask = my * mw;
    for (let mx = mxs; mx < mxe; mx++, a += 2, b += 2, c += 2, ca += cstep, cb += cstep, cc += cstep) {
      const yv = cur[a];
      const uv = cur[U + ca];
      const vv = cur[V + ca];
      let dY = yv - prev[b];
      let dU = uv - prev[U + cb];
      let dV = vv - prev[V + cb];
      // Cheap upper bound of the RGB distance first: most pixels are still.
      if (KY3I * (dY < 0 ? -dY : dY) + KUVI * ((dU < 0 ? -dU : dU) + (dV < 0 ? -dV : dV)) <= TI) continue;
      if (rgbDiff(dY, dU, dV) <= T) continue;
      dY = yv - next[c];
      dU = uv - next[U + cc];
      dV = vv - next[V + cc];
      if (KY3I * (dY < 0 ? -dY : dY) + KUVI * ((dU < 0 ? -dU : dU) + (dV < 0 ? -dV : dV)) <= TI) continue;
      if (rgbDiff(dY, dU, dV) <= T) continue;
      if (nearP || nearN) {
        yuvPixelToRgb(yv, uv, vv, px);
        if (!isBallColour(px[0], px[1], px[2])) {
          const x = mx * 2;
          if (nearP && nearestDiffYuv(cur, a, ca, prev, x - sp.dx, py, width, pl, T) <= T) continue;
          if (nearN && nearestDiffYuv(cur, a, ca, next, x + sn.dx, ny, width, pl, T) <= T) continue;
        }
      }
      const o = rowMask + mx;
      mask[o] = 1;
      list[count++] = o;
    }
  }
  sc.count = count;
  return T;
}

/**
 * Labels 8-connected components of the half-resolution motion mask with union-find (visiting
 * only the listed moving pixels) and returns per-component statistics in full-resolution
 * pixels (area, bounding box, centroid, colour fractions). Also fills the coarse motion grid.
 */
export function extractBlobs(
  sc: Scratch,
  rgb: Uint8Array,
  width: number,
  grid: Uint8Array,
  gridW: number,
  maxBlobs = 160,
  fmt: FrameFormat = 'rgb24',
  height = rgb.length / 3 / width,
): MotionBlob[] {
  const pl = fmt === 'rgb24' ? null : planes(width, height, fmt);
  /** RGB of the pixel (x, y) into `px` (converted from YUV when needed). */
  const px = [0, 0, 0];
  const pixel = (x: number, y: number) => {
    if (!pl) {
      const p = (y * width + x) * 3;
      px[0] = rgb[p];
      px[1] = rgb[p + 1];
      px[2] = rgb[p + 2];
      return;
    }
    const ci = (y >> pl.cs) * pl.cw + (x >> pl.cs);
    yuvPixelToRgb(rgb[y * width + x], rgb[pl.u + ci], rgb[pl.v + ci], px);
  };
  const { mask, labels, list, count, mw } = sc;
  const parent: number[] = [0];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const union = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    if (ra < rb) {
      parent[rb] = ra;
      return ra;
    }
    parent[ra] = rb;
    return rb;
  };
  const half = GRID >> 1;
  for (let k = 0; k < count; k++) {
    const i = list[k];
    const y = (i / mw) | 0;
    const x = i - y * mw;
    grid[((y / half) | 0) * gridW + ((x / half) | 0)]++;
    let l = 0;
    if (x > 0 && mask[i - 1]) l = labels[i - 1];
    if (y > 0) {
      const up = i - mw;
      if (mask[up]) l = l ? union(l, labels[up]) : labels[up];
      if (x > 0 && mask[up - 1]) l = l ? union(l, labels[up - 1]) : labels[up - 1];
      if (x < mw - 1 && mask[up + 1]) l = l ? union(l, labels[up + 1]) : labels[up + 1];
    }
    if (!l) {
      l = parent.length;
      parent.push(l);
    }
    labels[i] = l;
  }
  const n = parent.length;
  if (n <= 1) return [];
  const idx = new Int32Array(n);
  let m = 0;
  for (let i = 1; i < n; i++) if (find(i) === i) idx[i] = m++;
  const area = new Float64Array(m);
  const sx = new Float64Array(m);
  const sy = new Float64Array(m);
  const x0 = new Int32Array(m).fill(1 << 30);
  const y0 = new Int32Array(m).fill(1 << 30);
  const x1 = new Int32Array(m);
  const y1 = new Int32Array(m);
  const bc = new Float64Array(m);
  const sk = new Float64Array(m);
  const sr = new Float64Array(m);
  const sg = new Float64Array(m);
  const sb = new Float64Array(m);
  for (let j = 0; j < count; j++) {
    const i = list[j];
    const y = (i / mw) | 0;
    const x = i - y * mw;
    const k = idx[find(labels[i])];
    area[k]++;
    sx[k] += x;
    sy[k] += y;
    if (x < x0[k]) x0[k] = x;
    if (y < y0[k]) y0[k] = y;
    if (x >= x1[k]) x1[k] = x + 1;
    if (y >= y1[k]) y1[k] = y + 1;
    pixel(x * 2, y * 2);
    const r = px[0];
    const g = px[1];
    const b = px[2];
    sr[k] += r;
    sg[k] += g;
    sb[k] += b;
    if (isBallColour(r, g, b)) bc[k]++;
    if (isSkin(r, g, b)) sk[k]++;
  }
  const tr = new Float64Array(m);
  const tg = new Float64Array(m);
  const tb = new Float64Array(m);
  const tn = new Float64Array(m);
  for (let k = 0; k < m; k++) tn[k] = area[k] >= 40 && y1[k] - y0[k] >= 10 ? 0 : -1;
  for (let k = 0; k < m; k++) {
    if (tn[k] < 0) continue;
    const h = (y1[k] - y0[k]) * 2;
    const wd = (x1[k] - x0[k]) * 2;
    const ya = Math.max(0, Math.round(y0[k] * 2 + 0.2 * h));
    const yb = Math.min(height, Math.round(y0[k] * 2 + 0.45 * h));
    const xa = Math.max(0, Math.round(x0[k] * 2 + 0.3 * wd));
    const xb = Math.min(width, Math.round(x0[k] * 2 + 0.7 * wd) + 1);
    for (let y = ya; y < yb; y += 2) {
      for (let x = xa; x < xb; x += 2) {
        pixel(x, y);
        tr[k] += px[0];
        tg[k] += px[1];
        tb[k] += px[2];
        tn[k]++;
      }
    }
  }
  const blobs: MotionBlob[] = [];
  for (let k = 0; k < m; k++) {
    const a = area[k];
    const tc = tn[k] > 0 ? tn[k] : 0;
    blobs.push({
      x: (sx[k] / a) * 2 + 0.5,
      y: (sy[k] / a) * 2 + 0.5,
      area: a * 4,
      x0: x0[k] * 2,
      y0: y0[k] * 2,
      x1: x1[k] * 2,
      y1: y1[k] * 2,
      ballColour: bc[k] / a,
      skin: sk[k] / a,
      r: sr[k] / a,
      g: sg[k] / a,
      b: sb[k] / a,
      tr: tc ? tr[k] / tc : -1,
      tg: tc ? tg[k] / tc : -1,
      tb: tc ? tb[k] / tc : -1,
    });
  }
  blobs.sort((p, q) => q.area - p.area);
  return blobs.length > maxBlobs ? blobs.slice(0, maxBlobs) : blobs;
}

/**
 * Computes the features of every inner frame of a run of consecutive frames. `frames[0]` and the
 * last entry are context only (pass null-free neighbours; at the video ends the caller repeats
 * the edge frame). Returns features for frames[1..n-2], indexed from `firstIndex`.
 */
export function computeRun(
  frames: Uint8Array[],
  width: number,
  height: number,
  firstIndex: number,
  scratch: Scratch,
  fmt: FrameFormat = 'rgb24',
): FrameFeatures[] {
  // Each frame's small grey image in the scratch's arrays (a repeated buffer shares its frame's); the run's motion grids
  // in one buffer. Allocating them afresh for every frame cost ~10 % of the frame work on a tripod.
  const pool = (scratch.smalls ??= []);
  const smallSize = Math.floor(width / SMALL) * Math.floor(height / SMALL);
  const smalls: SmallGray[] = [];
  for (let i = 0; i < frames.length; i++) {
    if (i > 0 && frames[i] === frames[i - 1]) {
      smalls.push(smalls[i - 1]);
      continue;
    }
    if (pool[i]?.length !== smallSize) pool[i] = new Float32Array(smallSize);
    smalls.push(smallGray(frames[i], width, height, fmt, pool[i]));
  }
  const shifts: Array<{ dx: number; dy: number; residual: number }> = [{ dx: 0, dy: 0, residual: 0 }];
  for (let i = 1; i < frames.length; i++) {
    shifts.push(
      frames[i] === frames[i - 1]
        ? { dx: 0, dy: 0, residual: 0 }
        : estimateShift(frames[i - 1], frames[i], smalls[i - 1], smalls[i], width, height, fmt),
    );
  }
  const gridW = Math.ceil(width / GRID);
  const gridH = Math.ceil(height / GRID);
  const grids = new Uint8Array(gridW * gridH * Math.max(0, frames.length - 2));
  // A frame that repeats the one before it (slowed or frame-rate-converted video) carries no
  // new picture: it gets no blobs and no motion, and the frame before it is differenced with
  // the next new frame instead (a repeated neighbour would hide every moving pixel).
  const repeat = frames.map((f, i) => i > 0 && (f === frames[i - 1] || sameImage(frames[i - 1], f)));
  const pos = runPath(frames, shifts, width, height, fmt);
  const out: FrameFeatures[] = [];
  for (let i = 1; i < frames.length - 1; i++) {
    const grid = grids.subarray((i - 1) * gridW * gridH, i * gridW * gridH);
    let blobs: MotionBlob[] = [];
    if (!repeat[i]) {
      let j = i + 1;
      while (j < frames.length - 1 && repeat[j] && frames[j] !== frames[i]) j++;
      if (repeat[j] || frames[j] === frames[i]) j = i + 1;
      const sn = { dx: 0, dy: 0 };
      for (let k = i + 1; k <= j; k++) {
        sn.dx += shifts[k].dx;
        sn.dy += shifts[k].dy;
      }
      motionMask(frames[i - 1], frames[i], frames[j], width, height, shifts[i], sn, scratch, fmt);
      blobs = extractBlobs(scratch, frames[i], width, grid, gridW, 160, fmt, height).filter(usableBlob);
    }
    out.push({
      index: firstIndex + i - 1,
      dx: shifts[i].dx,
      dy: shifts[i].dy,
      shiftResidual: shifts[i].residual,
      ...frameStep(pos[i - 1], pos[i]),
      blobs,
      motion: grid,
      gridW,
      gridH,
      ...thumbnail(smalls[i]),
    });
  }
  return out;
}

/**
 * Whether two frames show the same picture: at most 8 bytes (channels of pixels, RGB or YUV)
 * differ by more than 30 — a repeated frame, re-encoded (x264 at CRF 18 leaves differences of up
 * to ~25 on a few bytes of a repeat). A ball moving anywhere changes far more bytes by far more
 * (the motion mask's threshold is ≥ 40 over three channels). Stops as soon as it is sure. The
 * bytes are visited in blocks of 64 spread over the whole picture (every 128th block first — one
 * block per ~4 rows of a 640-px RGB frame —, then the next …), so a new frame whose motion is in
 * one part of the picture (players below still stands) is told after a small share of its bytes;
 * every byte is still visited once, so the answer does not depend on the order. Four bytes equal
 * as a 32-bit word are passed over at once (~80 % of the words of consecutive frames: a still
 * background decodes to the same bytes).
 */
export function sameImage(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  const block = SAME_BLOCK;
  const stride = SAME_BLOCKS_PER_PASS * block;
  const words = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0;
  const a32 = words ? new Uint32Array(a.buffer, a.byteOffset, a.length >> 2) : null;
  const b32 = words ? new Uint32Array(b.buffer, b.byteOffset, b.length >> 2) : null;
  let n = 0;
  for (let first = 0; first < stride; first += block) {
    for (let start = first; start < a.length; start += stride) {
      const end = Math.min(start + block, a.length);
      let k = start;
      if (a32 && b32) {
        // whole words of the block (blocks start at multiples of 64, so on word boundaries)
        const wEnd = end >> 2;
        for (let w = start >> 2; w < wEnd; w++) {
          if (a32[w] === b32[w]) continue;
          for (let q = w << 2, e = q + 4; q < e; q++) {
            const d = a[q] - b[q];
            if ((d > 30 || d < -30) && ++n > 8) return false;
          }
        }
        k = wEnd << 2;
      }
      for (; k < end; k++) {
        const d = a[k] - b[k];
        if ((d > 30 || d < -30) && ++n > 8) return false;
      }
    }
  }
  return true;
}

/** Bytes per block of {@link sameImage}'s visiting order. */
const SAME_BLOCK = 64;
/** Blocks per stride of {@link sameImage}'s passes: the first pass visits one block in this many. */
const SAME_BLOCKS_PER_PASS = 128;

/**
 * The features of consecutive frames packed into three typed arrays. Worker results cross
 * threads as transferred buffers instead of structured clones of ~60 blob objects per frame
 * (which cost more than computing them); {@link unpackFeatures} restores the exact objects.
 */
export interface PackedFeatures {
  /** Per frame, {@link FRAME_FIELDS} values: index, dx, dy, shiftResidual, blob count, gridW, gridH, sx, sy, ss, thumbW, thumb length. */
  frames: Float64Array;
  /** Per blob, {@link BLOB_FIELDS} values in {@link MotionBlob} order. */
  blobs: Float64Array;
  /** The frames' motion grids, concatenated. */
  motion: Uint8Array;
  /** The frames' thumbnails, concatenated. */
  thumbs: Uint8Array;
}

const FRAME_FIELDS = 12;
const BLOB_FIELDS = 15;

/** Packs features (see {@link PackedFeatures}); the buffers can be transferred. */
export function packFeatures(feats: FrameFeatures[]): PackedFeatures {
  let nb = 0;
  let nm = 0;
  let nt = 0;
  for (const f of feats) {
    nb += f.blobs.length;
    nm += f.motion.length;
    nt += f.thumb.length;
  }
  const frames = new Float64Array(feats.length * FRAME_FIELDS);
  const blobs = new Float64Array(nb * BLOB_FIELDS);
  const motion = new Uint8Array(nm);
  const thumbs = new Uint8Array(nt);
  let p = 0;
  let q = 0;
  let m = 0;
  let t = 0;
  for (const f of feats) {
    frames[p++] = f.index;
    frames[p++] = f.dx;
    frames[p++] = f.dy;
    frames[p++] = f.shiftResidual;
    frames[p++] = f.blobs.length;
    frames[p++] = f.gridW;
    frames[p++] = f.gridH;
    frames[p++] = f.sx;
    frames[p++] = f.sy;
    frames[p++] = f.ss;
    frames[p++] = f.thumbW;
    frames[p++] = f.thumb.length;
    for (const b of f.blobs) {
      blobs[q++] = b.x;
      blobs[q++] = b.y;
      blobs[q++] = b.area;
      blobs[q++] = b.x0;
      blobs[q++] = b.y0;
      blobs[q++] = b.x1;
      blobs[q++] = b.y1;
      blobs[q++] = b.ballColour;
      blobs[q++] = b.skin;
      blobs[q++] = b.r;
      blobs[q++] = b.g;
      blobs[q++] = b.b;
      blobs[q++] = b.tr;
      blobs[q++] = b.tg;
      blobs[q++] = b.tb;
    }
    motion.set(f.motion, m);
    m += f.motion.length;
    thumbs.set(f.thumb, t);
    t += f.thumb.length;
  }
  return { frames, blobs, motion, thumbs };
}

/** Number of frames in packed features. */
export const packedLength = (p: PackedFeatures) => p.frames.length / FRAME_FIELDS;

/** Total camera motion (Σ |dx| + |dy|, px) of a packed run and its last frame's index (-1 when empty). */
export function packedFrameShift(p: PackedFeatures): { shift: number; lastIndex: number } {
  let shift = 0;
  for (let i = 0; i < p.frames.length; i += FRAME_FIELDS) shift += Math.abs(p.frames[i + 1]) + Math.abs(p.frames[i + 2]);
  return { shift, lastIndex: p.frames.length ? p.frames[p.frames.length - FRAME_FIELDS] : -1 };
}

/**
 * Restores the features of one or more packed runs, in order (exact values). Each frame's motion grid is a view into
 * its run's `motion` array, not a copy: the runs must not be transferred to another thread while the features are read.
 */
export function unpackFeatures(runs: PackedFeatures[]): FrameFeatures[] {
  const out: FrameFeatures[] = [];
  for (const { frames, blobs, motion, thumbs } of runs) {
    let q = 0;
    let m = 0;
    let t = 0;
    for (let p = 0; p < frames.length; p += FRAME_FIELDS) {
      const nb = frames[p + 4];
      const gridW = frames[p + 5];
      const gridH = frames[p + 6];
      const list: MotionBlob[] = new Array(nb);
      for (let k = 0; k < nb; k++, q += BLOB_FIELDS) {
        list[k] = {
          x: blobs[q],
          y: blobs[q + 1],
          area: blobs[q + 2],
          x0: blobs[q + 3],
          y0: blobs[q + 4],
          x1: blobs[q + 5],
          y1: blobs[q + 6],
          ballColour: blobs[q + 7],
          skin: blobs[q + 8],
          r: blobs[q + 9],
          g: blobs[q + 10],
          b: blobs[q + 11],
          tr: blobs[q + 12],
          tg: blobs[q + 13],
          tb: blobs[q + 14],
        };
      }
      out.push({
        index: frames[p],
        dx: frames[p + 1],
        dy: frames[p + 2],
        shiftResidual: frames[p + 3],
        sx: frames[p + 7],
        sy: frames[p + 8],
        ss: frames[p + 9],
        blobs: list,
        // a view, not a copy (18 000 copies of 3.6 KB for a 10-minute game): nothing writes to a frame's grid
        motion: motion.subarray(m, m + gridW * gridH),
        gridW,
        gridH,
        thumb: thumbs.subarray(t, t + frames[p + 11]),
        thumbW: frames[p + 10],
      });
      m += gridW * gridH;
      t += frames[p + 11];
    }
  }
  return out;
}
