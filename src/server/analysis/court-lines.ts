import { median } from './arcs';
import { toPicture, zoomAt, type BallCandidate, type CameraPath, type Track } from './ball-track';
import type { ShotDetection } from './shots';
import type { ShotAction } from './types';

/**
 * Court geometry from the painted floor lines around the target hoop.
 *
 * A background frame (per-pixel median of the sampled frames, camera-stabilised, so players
 * vanish) is searched for thin light ridges: the painted lines. A pinhole camera is then fitted
 * so that a regulation half court (baseline, sidelines, 3-point line, lane, free-throw line and
 * circle, centre line and circle) projects onto those ridges, under the constraint that the rim
 * (0.45 m, 3.05 m up) projects onto the rim found in the image with its measured width: the rim
 * gives the scale and the position of the basket, the lines give the camera's height, bearing,
 * field of view and roll. With the camera known, a floor point seen in the image (a shooter's
 * feet) maps to court metres: 2 or 3 points, the free-throw spot, and the shot-chart position.
 *
 * World frame: metres, origin on the floor under the basket centre, x towards centre court,
 * y across the court, z up.
 */

/** Regulation lines of one court variant (metres, relative to the basket centre on the floor). */
export interface CourtModel {
  name: 'fiba' | 'nba';
  /** 3-point arc radius. */
  threeR: number;
  /** |y| of the straight corner parts of the 3-point line. */
  cornerY: number;
  laneHalf: number;
  /** x of the free-throw line. */
  ftX: number;
  halfWidth: number;
  /** x of the baseline (behind the basket). */
  baseX: number;
  /** x of the centre line. */
  midX: number;
  circleR: number;
}

export const RIM_DIAMETER_M = 0.45;
export const RIM_HEIGHT_M = 3.05;
const BASKET_FROM_BASELINE = 1.575;

export const COURTS: Record<'fiba' | 'nba', CourtModel> = {
  fiba: { name: 'fiba', threeR: 6.75, cornerY: 6.6, laneHalf: 2.45, ftX: 5.8 - BASKET_FROM_BASELINE, halfWidth: 7.5, baseX: -BASKET_FROM_BASELINE, midX: 14 - BASKET_FROM_BASELINE, circleR: 1.8 },
  nba: { name: 'nba', threeR: 7.24, cornerY: 6.71, laneHalf: 2.44, ftX: 5.79 - 1.6, halfWidth: 7.62, baseX: -1.6, midX: 14.325 - 1.6, circleR: 1.83 },
};

/** A fitted pinhole camera (world → image pixels of the analysis frame, stabilised). */
export interface CourtCamera {
  pos: [number, number, number];
  /** Rows: camera right, down, forward in world coordinates. */
  rot: number[];
  focal: number;
  cx: number;
  cy: number;
}

export interface CourtFit {
  camera: CourtCamera;
  model: CourtModel;
  /** Fraction of the visible model line length that lies on a painted line (0–1). */
  coverage: number;
  /** Visible model line length on painted lines, in pixels. */
  matchedPx: number;
}

/** Camera from a position, yaw (heading from +x towards +y), pitch (positive looks down), roll. */
export function cameraFromPose(pos: [number, number, number], yaw: number, pitch: number, roll: number, focal: number, cx: number, cy: number): CourtCamera {
  // Written out without temporary arrays (the court search builds ~200 000 cameras per fit);
  // the same products and sums in the same order as the vector form.
  const f0 = Math.cos(pitch) * Math.cos(yaw);
  const f1 = Math.cos(pitch) * Math.sin(yaw);
  const f2 = -Math.sin(pitch);
  const r0 = Math.sin(yaw);
  const r1 = -Math.cos(yaw);
  const r2 = 0;
  const d0 = f1 * r2 - f2 * r1;
  const d1 = f2 * r0 - f0 * r2;
  const d2 = f0 * r1 - f1 * r0;
  const cr = Math.cos(roll);
  const sr = Math.sin(roll);
  const rot = [
    r0 * cr + d0 * sr,
    r1 * cr + d1 * sr,
    r2 * cr + d2 * sr,
    d0 * cr - r0 * sr,
    d1 * cr - r1 * sr,
    d2 * cr - r2 * sr,
    f0,
    f1,
    f2,
  ];
  return { pos, rot, focal, cx, cy };
}

/** Projects a world point; `depth` ≤ 0 means behind the camera. */
export function project(c: CourtCamera, x: number, y: number, z: number): { u: number; v: number; depth: number } {
  const r = c.rot;
  const dx = x - c.pos[0];
  const dy = y - c.pos[1];
  const dz = z - c.pos[2];
  const px = r[0] * dx + r[1] * dy + r[2] * dz;
  const py = r[3] * dx + r[4] * dy + r[5] * dz;
  const pz = r[6] * dx + r[7] * dy + r[8] * dz;
  const inv = pz > 1e-6 ? c.focal / pz : 0;
  return { u: c.cx + px * inv, v: c.cy + py * inv, depth: pz };
}

/** The point at height `z` seen at pixel (u, v), or null when the ray does not reach that height in front of the camera. */
export function backProject(c: CourtCamera, u: number, v: number, z = 0): { x: number; y: number } | null {
  const r = c.rot;
  const a = (u - c.cx) / c.focal;
  const b = (v - c.cy) / c.focal;
  const dx = r[0] * a + r[3] * b + r[6];
  const dy = r[1] * a + r[4] * b + r[7];
  const dz = r[2] * a + r[5] * b + r[8];
  if (Math.abs(dz) < 1e-9) return null;
  const s = (z - c.pos[2]) / dz;
  if (s <= 0) return null;
  return { x: c.pos[0] + s * dx, y: c.pos[1] + s * dy };
}

/**
 * Signed distance (m) of a floor point from the 3-point line: negative inside the 2-point area,
 * positive beyond (corner straights at |y| = cornerY up to where they meet the arc, then the arc).
 */
export function threePointDistance(m: CourtModel, x: number, y: number): number {
  const ay = Math.abs(y);
  const xMeet = Math.sqrt(Math.max(0, m.threeR * m.threeR - m.cornerY * m.cornerY));
  if (x <= xMeet) {
    const dCorner = ay - m.cornerY;
    if (x >= m.baseX) return dCorner;
    return Math.max(dCorner, x - m.baseX);
  }
  return Math.hypot(x, y) - m.threeR;
}

/** Floor points along every painted line of the model, about `step` metres apart. */
export function modelPoints(m: CourtModel, step = 0.1): Float64Array {
  const pts: number[] = [];
  const seg = (x0: number, y0: number, x1: number, y1: number) => {
    const n = Math.max(1, Math.round(Math.hypot(x1 - x0, y1 - y0) / step));
    for (let i = 0; i <= n; i++) pts.push(x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n);
  };
  const arc = (cx: number, cy: number, r: number, a0: number, a1: number) => {
    const n = Math.max(2, Math.round((r * Math.abs(a1 - a0)) / step));
    for (let i = 0; i <= n; i++) {
      const a = a0 + ((a1 - a0) * i) / n;
      pts.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  };
  const xMeet = Math.sqrt(Math.max(0, m.threeR * m.threeR - m.cornerY * m.cornerY));
  const aMeet = Math.atan2(m.cornerY, xMeet);
  seg(m.baseX, -m.halfWidth, m.baseX, m.halfWidth);
  seg(m.baseX, -m.halfWidth, m.midX, -m.halfWidth);
  seg(m.baseX, m.halfWidth, m.midX, m.halfWidth);
  seg(m.midX, -m.halfWidth, m.midX, m.halfWidth);
  seg(m.baseX, -m.cornerY, xMeet, -m.cornerY);
  seg(m.baseX, m.cornerY, xMeet, m.cornerY);
  arc(0, 0, m.threeR, -aMeet, aMeet);
  seg(m.baseX, -m.laneHalf, m.ftX, -m.laneHalf);
  seg(m.baseX, m.laneHalf, m.ftX, m.laneHalf);
  seg(m.ftX, -m.laneHalf, m.ftX, m.laneHalf);
  arc(m.ftX, 0, m.circleR, -Math.PI / 2, Math.PI / 2);
  arc(m.midX, 0, m.circleR, Math.PI / 2, (3 * Math.PI) / 2);
  return Float64Array.from(pts);
}

/**
 * How much less coloured (max − min of R, G, B) than the floor on both sides a strongly coloured
 * ridge must be to count as a painted line (run version 41): from a low camera a line is thinner
 * than a pixel, and its pixels mix the white paint with orange wood (saturation ~85–115 on a
 * floor of ~130), too coloured to be paint by themselves.
 */
export const MIXED_LINE_SAT_DROP = 10;

/**
 * Light, thin ridges (painted lines) in an RGB frame: a pixel brighter by `minContrast` than
 * both neighbours `k` pixels away along a row or along a column, or a little brighter and
 * clearly less coloured than both (white paint on light wood). A strongly coloured pixel is a
 * line only when it is also less coloured than both neighbours by {@link MIXED_LINE_SAT_DROP}
 * (paint mixed with the floor), so a bright highlight on coloured wood is not.
 */
export function lineMask(rgb: Uint8Array, width: number, height: number, k = 3, minContrast = 18): Uint8Array {
  const n = width * height;
  const L = new Float32Array(n);
  const sat = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const r = rgb[3 * i];
    const g = rgb[3 * i + 1];
    const b = rgb[3 * i + 2];
    L[i] = (r + g + b) / 3;
    sat[i] = Math.max(r, g, b) - Math.min(r, g, b);
  }
  const out = new Uint8Array(n);
  const weak = minContrast / 2.5;
  // a ridge across one direction, from how much brighter (`contrast`) and less coloured (`drop`) the pixel is than
  // both neighbours on it
  const ridge = (coloured: boolean, contrast: number, drop: number) =>
    coloured ? contrast >= minContrast && drop >= MIXED_LINE_SAT_DROP : contrast >= minContrast || (contrast >= weak && drop >= 12);
  for (let y = k; y < height - k; y++) {
    for (let x = k; x < width - k; x++) {
      const i = y * width + x;
      const v = L[i];
      if (v < 110) continue;
      const coloured = sat[i] > 70;
      const along = ridge(coloured, v - Math.max(L[i - k], L[i + k]), Math.min(sat[i - k], sat[i + k]) - sat[i]);
      if (along || ridge(coloured, v - Math.max(L[i - k * width], L[i + k * width]), Math.min(sat[i - k * width], sat[i + k * width]) - sat[i])) out[i] = 1;
    }
  }
  return out;
}

/** Chamfer (3-4) distance to the nearest set pixel, in pixels, capped at `cap`. */
export function distanceMap(mask: Uint8Array, width: number, height: number, cap = 30): Float32Array {
  const INF = cap * 3;
  const d = new Float32Array(width * height);
  for (let i = 0; i < d.length; i++) d[i] = mask[i] ? 0 : INF;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let v = d[i];
      if (x > 0) v = Math.min(v, d[i - 1] + 3);
      if (y > 0) {
        v = Math.min(v, d[i - width] + 3);
        if (x > 0) v = Math.min(v, d[i - width - 1] + 4);
        if (x < width - 1) v = Math.min(v, d[i - width + 1] + 4);
      }
      d[i] = v;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      let v = d[i];
      if (x < width - 1) v = Math.min(v, d[i + 1] + 3);
      if (y < height - 1) {
        v = Math.min(v, d[i + width] + 3);
        if (x < width - 1) v = Math.min(v, d[i + width + 1] + 4);
        if (x > 0) v = Math.min(v, d[i + width - 1] + 4);
      }
      d[i] = v;
    }
  }
  for (let i = 0; i < d.length; i++) d[i] = Math.min(cap, d[i] / 3);
  return d;
}

/**
 * Per-pixel median of camera-stabilised RGB samples (at most `maxSamples`, spread over the
 * clip): the scene without the moving players.
 */
export function medianBackground(
  samples: Array<{ rgb: Uint8Array; ox: number; oy: number }>,
  width: number,
  height: number,
  maxSamples = 11,
): Uint8Array {
  const pick = samples.length <= maxSamples ? samples : Array.from({ length: maxSamples }, (_, i) => samples[Math.round((i * (samples.length - 1)) / (maxSamples - 1))]);
  const out = new Uint8Array(width * height * 3);
  const buf = new Uint8Array(pick.length);
  const shifts = pick.map((s) => [Math.round(s.ox), Math.round(s.oy)]);
  const still = shifts.every(([x, y]) => x === 0 && y === 0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        let n = 0;
        for (let k = 0; k < pick.length; k++) {
          let idx: number;
          if (still) idx = 3 * (y * width + x) + c;
          else {
            const sx = x + shifts[k][0];
            const sy = y + shifts[k][1];
            if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
            idx = 3 * (sy * width + sx) + c;
          }
          // insertion into the sorted prefix
          const v = pick[k].rgb[idx];
          let j = n++;
          while (j > 0 && buf[j - 1] > v) {
            buf[j] = buf[j - 1];
            j--;
          }
          buf[j] = v;
        }
        if (n) out[3 * (y * width + x) + c] = buf[n >> 1];
      }
    }
  }
  return out;
}

export interface Pose {
  az: number;
  zc: number;
  fov: number;
  scale: number;
  roll: number;
  du: number;
  dv: number;
}

export interface Target {
  rimX: number;
  rimY: number;
  rimW: number;
  width: number;
  height: number;
}

/** Camera at bearing `az` from the basket and height `zc`, its distance set by the rim's image width, turned so the rim lands on its image position. */
export function cameraFor(p: Pose, t: Target): CourtCamera | null {
  const focal = t.width / 2 / Math.tan(p.fov / 2);
  const range = (focal * RIM_DIAMETER_M * p.scale) / t.rimW;
  const dz = p.zc - RIM_HEIGHT_M;
  if (range <= Math.abs(dz) + 0.5) return null;
  const dist = Math.sqrt(range * range - dz * dz);
  const pos: [number, number, number] = [dist * Math.cos(p.az), dist * Math.sin(p.az), p.zc];
  let yaw = Math.atan2(-pos[1], -pos[0]);
  let pitch = -Math.atan2(RIM_HEIGHT_M - p.zc, dist);
  const ru = t.rimX + p.du;
  const rv = t.rimY + p.dv;
  let cam = cameraFromPose(pos, yaw, pitch, p.roll, focal, t.width / 2, t.height / 2);
  for (let it = 0; it < 6; it++) {
    const q = project(cam, 0, 0, RIM_HEIGHT_M);
    if (q.depth <= 0) return null;
    const eu = q.u - ru;
    const ev = q.v - rv;
    if (Math.abs(eu) < 0.05 && Math.abs(ev) < 0.05) break;
    const c = Math.cos(p.roll);
    const s = Math.sin(p.roll);
    yaw -= Math.atan((eu * c + ev * s) / focal);
    pitch += Math.atan((ev * c - eu * s) / focal);
    cam = cameraFromPose(pos, yaw, pitch, p.roll, focal, t.width / 2, t.height / 2);
  }
  return cam;
}

/** Weighted line-pixel hits of the projected model (each model point counts its projected length, ≤ 1 px). */
export function scoreCamera(cam: CourtCamera, pts: Float64Array, dist: Float32Array, t: Target, tol: number): { hit: number; seen: number } {
  let hit = 0;
  let seen = 0;
  const { width, height } = t;
  const r = cam.rot;
  for (let i = 0; i < pts.length; i += 2) {
    const dx = pts[i] - cam.pos[0];
    const dy = pts[i + 1] - cam.pos[1];
    const dz = -cam.pos[2];
    const pz = r[6] * dx + r[7] * dy + r[8] * dz;
    if (pz < 0.5) continue;
    const inv = cam.focal / pz;
    const u = cam.cx + (r[0] * dx + r[1] * dy + r[2] * dz) * inv;
    const v = cam.cy + (r[3] * dx + r[4] * dy + r[5] * dz) * inv;
    if (u < 4 || v < 4 || u >= width - 4 || v >= height - 4) continue;
    const w = Math.min(1, 0.1 * inv);
    seen += w;
    const d = dist[(v | 0) * width + (u | 0)];
    if (d < tol) hit += w * (1 - d / tol);
  }
  return { hit, seen };
}

/**
 * Which side of the backboard's plane the camera may be on: `court` (in front of the board, on the
 * court side: behind a shooter, the sidelines, the corners), `behind` (beyond the baseline, behind
 * the board), or `any`. From a low camera that sees only the lane and the baseline, the two sides
 * fit the lines about equally well; the ball's size along the flights tells them apart.
 */
export type CameraSide = 'any' | 'court' | 'behind';

/** Camera bearing `az` (radians from +x) on `side`: the board's face is at x = −0.375 m, so a camera at the board's plane or beyond is `behind`. */
function onSide(az: number, side: CameraSide): boolean {
  if (side === 'any') return true;
  const front = Math.cos(az) > -0.05;
  return side === 'court' ? front : !front;
}

/** The coarse pose grid of {@link fitCourt}: camera heights (m), fields of view (degrees), scales. */
const COARSE_ZC = [1.2, 1.4, 1.6, 1.8, 2.1, 2.5, 3, 3.6, 4.4, 5.4, 6.6, 8, 9.6];
const COARSE_FOV = [40, 47, 55, 63, 72, 84];
const COARSE_SCALE = [0.62, 0.75, 0.9, 1.08, 1.3, 1.6];

/**
 * What one court's reads share (see {@link courtReader}; one background): the distance map of the
 * background's lines, and for one rim the coarse grid's pose scores (null: no camera for the pose).
 */
export interface CourtFitMemo {
  rim?: { x: number; y: number; w: number };
  dist?: Float32Array;
  coarse: Map<number, number | null>;
}

/** Model length on painted lines minus half the visible model length off them. */
const netScore = (s: { hit: number; seen: number }) => s.hit - 0.5 * (s.seen - s.hit);

/** A court model's lines sampled for scoring: every 0.1 m (`pts`) and every 0.18 m (`mid`, for the wider tolerances). */
interface LineSet {
  m: CourtModel;
  pts: Float64Array;
  mid: Float64Array;
}

/** The pose parameters a local descent moves, with their step sizes at a frame `scale` times 640 px wide. */
function poseSteps(scale: number): Array<[keyof Pose, number]> {
  const deg = Math.PI / 180;
  return [
    ['az', 2 * deg],
    ['zc', 0.3],
    ['fov', 2 * deg],
    ['scale', 0.04],
    ['roll', 0.6 * deg],
    ['du', 1.5 * scale],
    ['dv', 1.5 * scale],
  ];
}

/**
 * The cameras a court read may find (run version 43): at least this high (m; a phone held or on a tripod; a camera
 * lower than that sees the floor's lines as one band)…
 */
export const MIN_CAMERA_HEIGHT_M = 1;
/** …with at most this horizontal field of view (degrees; a phone's main camera has ~70°, wider lenses bend lines a pinhole model does not fit)… */
export const MAX_FOV_DEG = 80;
/** …and at most this far from the basket (m, on the floor; a court is 28 m long). */
export const MAX_CAMERA_DISTANCE_M = 30;

/** A pose's line score at a tolerance (px), or −1e9 for a pose out of range (see {@link MIN_CAMERA_HEIGHT_M}) or with no camera. */
function scorePose(p: Pose, tol: number, set: LineSet, t: Target, dist: Float32Array, side: CameraSide): number {
  const scale = t.width / 640;
  const deg = Math.PI / 180;
  if (p.zc < MIN_CAMERA_HEIGHT_M || p.fov < 20 * deg || p.fov > MAX_FOV_DEG * deg || p.scale < 0.5 || p.scale > 2 || !onSide(p.az, side)) return -1e9;
  const cam = cameraFor(p, t);
  if (cam && Math.hypot(cam.pos[0], cam.pos[1]) > MAX_CAMERA_DISTANCE_M) return -1e9;
  return cam ? netScore(scoreCamera(cam, tol > 5 * scale ? set.mid : set.pts, dist, t, tol)) : -1e9;
}

/**
 * Hill-climbs a pose against the lines' distance map, tolerance by tolerance (px, widest first), moving one of `steps`
 * at a time; returns the pose and its score at the finest tolerance (3.5 px at 640 px wide).
 */
function descendPose(
  start: Pose,
  tols: number[],
  set: LineSet,
  ctx: { t: Target; dist: Float32Array; side: CameraSide; steps: Array<[keyof Pose, number]> },
): { p: Pose; s: number } {
  const { t, dist, side, steps } = ctx;
  const scale = t.width / 640;
  let cur = { ...start };
  for (const tol of tols) {
    let curS = scorePose(cur, tol, set, t, dist, side);
    for (let mult = tol > 8 * scale ? 2 : tol > 5 * scale ? 1 : 0.5; mult >= (tol > 5 * scale ? 0.5 : 0.25); mult /= 2) {
      let improved = true;
      let rounds = 0;
      while (improved && rounds++ < 12) {
        improved = false;
        for (const [k, st] of steps) {
          for (const sgn of [1, -1]) {
            const cand = { ...cur, [k]: cur[k] + sgn * st * mult };
            const sc = scorePose(cand, tol, set, t, dist, side);
            if (sc > curS) {
              cur = cand;
              curS = sc;
              improved = true;
            }
          }
        }
      }
    }
  }
  return { p: cur, s: scorePose(cur, 3.5 * scale, set, t, dist, side) };
}

/** How many of the coarse grid's best poses, apart from each other, {@link fitCourt} refines by default (a moving camera's reads: one per shot). */
export const FIT_STARTS = 6;

/**
 * How many a still camera's court read refines (run version 43): it is read once per rim and side, and the coarse grid
 * ranks the right pose below wrong ones more often than a moving camera's frames show (held-202: a corner view whose rim
 * is read 40 % wide). See "Plausible cameras, and more starts for a still camera, run version 43" in MEASUREMENTS.md.
 */
export const STILL_FIT_STARTS = 24;

/**
 * Fits the camera to the painted lines given the target rim (stabilised px, rim width px).
 * Returns null when the lines do not confirm any camera (no court lines in view, or too few).
 */
export function fitCourt(
  background: Uint8Array,
  width: number,
  height: number,
  rim: { x: number; y: number; w: number },
  side: CameraSide = 'any',
  memo?: CourtFitMemo,
  starts = FIT_STARTS,
): CourtFit | null {
  if (!(rim.w > 2)) return null;
  if (memo && !(memo.rim && memo.rim.x === rim.x && memo.rim.y === rim.y && memo.rim.w === rim.w)) {
    memo.rim = { x: rim.x, y: rim.y, w: rim.w };
    memo.coarse.clear();
  }
  const dist = memo?.dist ?? distanceMap(lineMask(background, width, height), width, height);
  if (memo) memo.dist = dist;
  const t: Target = { rimX: rim.x, rimY: rim.y, rimW: rim.w, width, height };
  const scale = width / 640;
  const fiba = COURTS.fiba;
  const pts = modelPoints(fiba, 0.1);
  const sparse = modelPoints(fiba, 0.25);
  const mid = modelPoints(fiba, 0.18);
  const coarse: Array<{ p: Pose; s: number }> = [];
  const deg = Math.PI / 180;
  // one side only: the whole circle of bearings on it (from right behind the basket too)
  const azRange = side === 'any' ? 150 : 180;
  for (let az = -azRange; az <= azRange; az += 5) {
    if (!onSide(az * deg, side) || (side !== 'any' && az === 180)) continue;
    for (let zi = 0; zi < COARSE_ZC.length; zi++) {
      for (let fi = 0; fi < COARSE_FOV.length; fi++) {
        for (let si = 0; si < COARSE_SCALE.length; si++) {
          const p: Pose = { az: az * deg, zc: COARSE_ZC[zi], fov: COARSE_FOV[fi] * deg, scale: COARSE_SCALE[si], roll: 0, du: 0, dv: 0 };
          // the same pose scores the same against the same lines and rim: a second read (the
          // other side of the board) takes the first read's scores
          const key = (((az + 180) * 16 + zi) * 8 + fi) * 8 + si;
          let s = memo?.coarse.get(key);
          if (s === undefined) {
            const cam = cameraFor(p, t);
            s = cam ? netScore(scoreCamera(cam, sparse, dist, t, 14 * scale)) : null;
            memo?.coarse.set(key, s);
          }
          if (s === null) continue;
          coarse.push({ p, s });
        }
      }
    }
  }
  coarse.sort((a, b) => b.s - a.s);
  let best: { p: Pose; s: number } | null = null;
  const steps = poseSteps(scale);
  const from: Pose[] = [];
  for (const c of coarse) {
    if (from.length >= starts) break;
    if (from.some((p) => Math.abs(p.az - c.p.az) < 10 * deg && Math.abs(p.zc - c.p.zc) < 1 && Math.abs(p.fov - c.p.fov) < 11 * deg)) continue;
    from.push(c.p);
  }
  const models: LineSet[] = [fiba, COURTS.nba].map((m) =>
    m === fiba ? { m, pts, mid } : { m, pts: modelPoints(m, 0.1), mid: modelPoints(m, 0.18) },
  );
  const descend = (start: Pose, tols: number[], set: LineSet) => descendPose(start, tols, set, { t, dist, side, steps });
  // the coarse search and the first fit use FIBA lines (the two courts share the lane, the
  // baseline and the free-throw line, so the camera comes out about right for either)
  for (const start of from) {
    const r = descend(start, [10 * scale, 6 * scale, 3.5 * scale], models[0]);
    if (!best || r.s > best.s) best = r;
  }
  // every start out of range (see MIN_CAMERA_HEIGHT_M): no camera the lines could confirm
  if (!best || best.s <= -1e9) return null;
  // FIBA or NBA lines: refit the camera to the NBA lines from there and keep the line set the
  // painted lines follow better (the 3-point arc is 0.49 m wider, the corners 0.11 m, the court
  // 0.24 m wider); FIBA unless NBA scores clearly higher (a court without its arc in view ties)
  const nbaFit = descend(best.p, [6 * scale, 3.5 * scale], models[1]);
  let model = fiba;
  let pose = best.p;
  if (nbaFit.s > best.s + Math.max(4 * scale, 0.04 * Math.abs(best.s))) {
    model = COURTS.nba;
    pose = nbaFit.p;
  }
  const cam = cameraFor(pose, t);
  if (!cam) return null;
  const sc = scoreCamera(cam, model === fiba ? pts : models[1].pts, dist, t, 3.5 * scale);
  return { camera: cam, model, coverage: sc.seen ? sc.hit / sc.seen : 0, matchedPx: sc.hit };
}

/** Where a shot was taken from, on the court (null fields when the geometry cannot tell). */
export interface ShotOnCourt {
  /** Shooter's feet beyond the 3-point line; null when too close to the line to tell. */
  isThree: boolean | null;
  /** Feet position on the normalised half-court diagram [x across, y from the baseline], 0–1. */
  world: [number, number] | null;
  /** Metres from the free-throw spot (centre of the free-throw line, just behind it). */
  ftSpotDistance: number | null;
  /** Signed distance from the 3-point line (m, positive beyond). */
  threeDistance: number | null;
}

/** Diagram size (m): the 15 × 14 m half court of the shot chart, baseline at y = 0. */
const DIAGRAM = { width: 15, length: 14 };

/** Typical height of the ball at release (m): jump shots ~2.6–2.9, set shots and free throws ~2.3–2.5. */
export const RELEASE_HEIGHT_M = 2.6;
/** Horizontal distance of the ball at release in front of the shooter's feet (m). */
export const BALL_AHEAD_M = 0.25;
/** Gravity (m/s²). */
export const GRAVITY = 9.81;

/** The ray through pixel (u, v): origin and direction in world coordinates. */
function rayOf(c: CourtCamera, u: number, v: number): [number, number, number] {
  const r = c.rot;
  const a = (u - c.cx) / c.focal;
  const b = (v - c.cy) / c.focal;
  return [r[0] * a + r[3] * b + r[6], r[1] * a + r[4] * b + r[7], r[2] * a + r[5] * b + r[8]];
}

/** Least-squares line y = p0 + p1·t; returns [p0, p1, rms]. */
function fitLine(t: number[], y: number[]): [number, number, number] {
  const n = t.length;
  let st = 0, sy = 0, stt = 0, sty = 0;
  for (let i = 0; i < n; i++) {
    st += t[i];
    sy += y[i];
    stt += t[i] * t[i];
    sty += t[i] * y[i];
  }
  const den = n * stt - st * st || 1e-9;
  const p1 = (n * sty - st * sy) / den;
  const p0 = (sy - p1 * st) / n;
  let e = 0;
  for (let i = 0; i < n; i++) e += (y[i] - p0 - p1 * t[i]) ** 2;
  return [p0, p1, Math.sqrt(e / n)];
}

/** A shot flight reconstructed in court metres. */
export interface Flight3D {
  /** Bearing of the flight's vertical plane through the basket (radians from +x towards +y). */
  bearing: number;
  /** Floor point under the ball where it was at release height on the way up (m). */
  origin: { x: number; y: number };
  /** RMS misfit of the ballistic model (m). */
  rms: number;
  /**
   * Median of the ball's image radius over the radius a 0.24 m ball would have at the
   * reconstructed depth: ≈ 1 when the camera's scale is right (an independent check of the fit).
   */
  sizeRatio: number;
  /** That ratio per sighting, in the order given. */
  sizes: number[];
  /** Sightings of a rise tracked apart the flight was placed with ({@link riseTrackedApart}); absent when placed from its own track. */
  rise?: number;
  /** Body sightings the flight was placed from ({@link flightFromFeet}); absent when placed from the ball alone. */
  feet?: number;
}

/**
 * How far back from its first sighting a flight is followed to the release height, as a multiple of the time it was
 * seen: a flight first seen near its top (lost against the crowd or the players on the way up) whose release lies at
 * most twice as long before its first sighting as the piece seen lasts is placed; one seen for a shorter piece is not.
 * Up to run version 39 the bound was 1. Measured at run version 40 on the tuning, seen, held-out and fresh tripod sets
 * (437 field goals with a 2-or-3 truth): at 2, 3-point calls 181 → 191 right, 27 → 27 wrong (a two from 5.7 m placed 0.55 m
 * beyond the line; a three called 2 is now right); the newly placed shots land a median 0.1 m from their true distance,
 * the worst 1.6 m off. At 3, 194 right and 27 wrong, but shots placed up to 3.5 m off ("Flights followed back to the
 * release from near their top, run version 40" in MEASUREMENTS.md).
 */
export const MAX_RELEASE_REACH = 2;

/**
 * Reconstructs a shot flight in 3-D with the fitted camera: the ball flies in a vertical plane
 * through the basket, its horizontal distance changes linearly in time and its height follows
 * gravity (9.81 m/s², time scaled by the clip's speed-up). Every bearing of the plane turns the
 * image track into a different (distance, height) curve; the bearing whose curve fits the
 * ballistic model best is the flight's. The shot was taken from where the ball passed the
 * release height on the way up (or from the first tracked point when it was already lower).
 */
export function reconstructFlight(
  fit: CourtFit,
  pts: Array<{ frame: number; x: number; y: number; r: number }>,
  fps: number,
  timeScale: number,
  camAt?: (frame: number) => CourtCamera,
): Flight3D | null {
  const plane = flightPlane(fit, pts, fps, timeScale, camAt);
  const best = plane?.best;
  if (!plane || !best) return null;
  const { gpf, t } = plane;
  // height z(t) = b0 + b1 t − ½ g t²: earliest time at release height on the rise
  const [b0, b1] = best.b;
  // only seen above the rim next to it: where it came from is not in the track
  if (b0 > RIM_HEIGHT_M && Math.abs(best.a[0]) < 1.5) return null;
  let tRel = 0;
  if (b0 > RELEASE_HEIGHT_M) {
    const disc = b1 * b1 - 2 * gpf * (RELEASE_HEIGHT_M - b0);
    const root = disc >= 0 ? (b1 - Math.sqrt(disc)) / gpf : NaN;
    // first seen well above the hands and the release cannot be reached within a shot's flight time: unknown origin
    if (!(root <= 0 && root > -(1.6 * fps) / timeScale)) {
      if (b0 > RELEASE_HEIGHT_M + 0.6) return null;
    } else tRel = root;
  }
  // a long extrapolation from a short piece near the top is a guess
  if (-tRel > MAX_RELEASE_REACH * t[t.length - 1]) return null;
  const s = best.a[0] + best.a[1] * tRel + BALL_AHEAD_M;
  return { bearing: best.th, origin: { x: s * Math.cos(best.th), y: s * Math.sin(best.th) }, rms: best.rms, sizeRatio: median(best.sizes), sizes: best.sizes };
}

/** A flight's track seen in one vertical plane through the basket (see {@link flightPlane}). */
interface PlaneFit {
  /** Bearing (radians). */
  th: number;
  /** Distance along the plane from the basket, linear in frames since the first sighting: [p0, p1, rms] (m). */
  a: [number, number, number];
  /** Height plus ½ g t², linear in frames: [p0, p1, rms] (m). */
  b: [number, number, number];
  rms: number;
  sizes: number[];
}

/**
 * The ballistic fit of a track in the vertical plane of each bearing through the basket (see
 * {@link reconstructFlight}): `at(th)` fits one bearing, `best` is the bearing that fits best.
 * Null for fewer than six sightings.
 */
function flightPlane(
  fit: CourtFit,
  pts: Array<{ frame: number; x: number; y: number; r: number }>,
  fps: number,
  timeScale: number,
  camAt?: (frame: number) => CourtCamera,
): { at: (th: number) => PlaneFit | null; best: PlaneFit | null; t: number[]; gpf: number } | null {
  if (pts.length < 6) return null;
  const cam = fit.camera;
  const f0 = pts[0].frame;
  const t = pts.map((p) => p.frame - f0);
  const rays = pts.map((p) => rayOf(camAt ? camAt(p.frame) : cam, p.x, p.y));
  const gpf = GRAVITY * (timeScale / fps) ** 2;
  const [px, py, pz] = cam.pos;
  const at = (th: number): PlaneFit | null => {
    const c = Math.cos(th);
    const sn = Math.sin(th);
    const along: number[] = [];
    const zs: number[] = [];
    const sizes: number[] = [];
    for (const [i, d] of rays.entries()) {
      const nd = -sn * d[0] + c * d[1];
      if (Math.abs(nd) < 1e-6) return null;
      const k = -(-sn * px + c * py) / nd;
      if (k <= 0) return null;
      const x = px + k * d[0];
      const y = py + k * d[1];
      along.push(x * c + y * sn);
      zs.push(pz + k * d[2]);
      sizes.push((pts[i].r * k) / (cam.focal * 0.12));
    }
    const zg = zs.map((z, i) => z + 0.5 * gpf * t[i] * t[i]);
    const a = fitLine(t, along);
    const b = fitLine(t, zg);
    return { th, a, b, rms: Math.hypot(a[2], b[2]), sizes };
  };
  let best: PlaneFit | null = null;
  const deg = Math.PI / 180;
  for (let th = -95; th <= 95; th += 1) {
    const e = at(th * deg);
    if (e && (!best || e.rms < best.rms)) best = e;
  }
  if (best) {
    const th0 = best.th;
    for (let k = -10; k <= 10; k++) {
      const e = at(th0 + k * 0.1 * deg);
      if (e && e.rms < best.rms) best = e;
    }
  }
  return { at, best, t, gpf };
}

/** A body's feet seen in one frame (pixels: the bottom centre of its box). */
export interface FeetSighting {
  frame: number;
  x: number;
  y: number;
}

/** How long (s) before a flight's first sighting its release may lie for {@link flightFromFeet}: a shot's flight time. */
export const FEET_REACH_S = 1.6;
/** How far (s) a body's sighting may be from the release time a flight followed back to its feet gives it. */
export const FEET_FRAME_SLACK_S = 0.3;
/** The release height range (m) a flight followed back to a body's feet must pass through there. */
export const FEET_RELEASE_Z_M: [number, number] = [1.8, 3.4];
/** How much worse (m RMS) than its own best plane a flight may fit the plane through a body's feet. */
export const FEET_PLANE_SLACK_M = 0.05;
/** A flight is placed from a body seen at least this many times near the release: a single box's bottom is no body. */
export const FEET_MIN_SIGHTINGS = 2;
/** The bodies that fit a flight must stand together: the feet read farthest from their median within this (m). */
export const FEET_SPREAD_M = 1.2;

/**
 * A flight first seen high (its origin not in its track, see {@link reconstructFlight}) placed from the feet of the
 * body that threw it. Each body sighting near the release is back-projected to the floor; it is the shooter's when the
 * flight, fitted in the vertical plane through the basket and those feet, fits the ballistic model nearly as well as
 * in its own best plane ({@link FEET_PLANE_SLACK_M}), and followed back in time reaches the feet's distance
 * ({@link BALL_AHEAD_M} in front of them) within a shot's flight time, at a release height ({@link FEET_RELEASE_Z_M})
 * and at the moment the body was seen (within {@link FEET_FRAME_SLACK_S}). Three independent checks: a body elsewhere
 * on the floor (a defender, a teammate on the wing) fails one of them. The sightings that pass must be one body's
 * ({@link FEET_SPREAD_M}); their median is the origin. `pts` and `bodies` are in the fit's pixels.
 */
export function flightFromFeet(
  fit: CourtFit,
  pts: Array<{ frame: number; x: number; y: number; r: number }>,
  bodies: FeetSighting[],
  fps: number,
  timeScale: number,
  camAt?: (frame: number) => CourtCamera,
): Flight3D | null {
  const plane = flightPlane(fit, pts, fps, timeScale, camAt);
  if (!plane?.best || !bodies.length) return null;
  const { best, gpf } = plane;
  const perS = fps / timeScale;
  const f0 = pts[0].frame;
  const ok: Array<{ x: number; y: number; e: PlaneFit }> = [];
  for (const b of bodies) {
    const floor = backProject(camAt ? camAt(b.frame) : fit.camera, b.x, b.y, 0);
    if (!floor) continue;
    const d = Math.hypot(floor.x, floor.y);
    const th = Math.atan2(floor.y, floor.x);
    if (d < 1 || d > 16 || Math.abs(th) > (95 * Math.PI) / 180) continue;
    const e = plane.at(th);
    if (!e || e.rms > Math.min(best.rms + FEET_PLANE_SLACK_M, MAX_FLIGHT_RMS_M)) continue;
    const [a0, a1] = e.a;
    // the ball flies towards the basket: where was it BALL_AHEAD_M in front of these feet, and how high
    if (!(a1 < 0)) continue;
    const tRel = (d - BALL_AHEAD_M - a0) / a1;
    if (tRel > FEET_FRAME_SLACK_S * perS || tRel < -FEET_REACH_S * perS) continue;
    const z = e.b[0] + e.b[1] * tRel - 0.5 * gpf * tRel * tRel;
    if (z < FEET_RELEASE_Z_M[0] || z > FEET_RELEASE_Z_M[1]) continue;
    if (Math.abs(b.frame - (f0 + tRel)) > FEET_FRAME_SLACK_S * perS) continue;
    ok.push({ ...floor, e });
  }
  if (ok.length < FEET_MIN_SIGHTINGS) return null;
  const mx = median(ok.map((o) => o.x));
  const my = median(ok.map((o) => o.y));
  if (ok.some((o) => Math.hypot(o.x - mx, o.y - my) > FEET_SPREAD_M)) return null;
  const bearing = Math.atan2(my, mx);
  // the plane fit of the accepted sighting nearest the origin's bearing
  const off = (o: { x: number; y: number }) => Math.abs(Math.atan2(o.y, o.x) - bearing);
  const { e } = ok.reduce((p, q) => (off(q) < off(p) ? q : p));
  return { bearing, origin: { x: mx, y: my }, rms: e.rms, sizeRatio: median(e.sizes), sizes: e.sizes, feet: ok.length };
}

/** Sightings a rise tracked apart may lose at either end to fly on one throw with the flight (see {@link riseTrackedApart}). */
export const RISE_JOIN_TRIM = 6;
/**
 * How long (s) before the flight's first sighting a rise tracked apart may end: the ball out of view over its apex
 * (above the frame's top edge, lost against the ceiling or the crowd) for up to a second. Up to run version 64 the
 * bound was 0.33 s. Measured at run version 65 from the feature cache on the tuning, seen and held-out sets (412 field
 * goals with a 2-or-3 truth): at 1 s, 3-point calls 226 → 242 right, 12 → 12 wrong; at 1.5 s, 243 right and 13 wrong
 * ("A rise lost over its apex, run version 65" in MEASUREMENTS.md).
 */
export const RISE_JOIN_GAP_S = 1;
/** A flight joined with a rise tracked apart fits the ballistic model in court metres at least this well (m RMS). */
export const RISE_JOIN_RMS_M = 0.1;
/** The ball's size against the reconstructed depth on the rise over the same on the flight: at most this far from 1 either way. */
export const RISE_JOIN_SIZE = 1.25;

/**
 * A flight joined from a rise tracked apart (its first `rise` sightings) and the shot's own flight is one throw: it fits
 * the ballistic model in court metres ({@link RISE_JOIN_RMS_M}), and the ball is the size the reconstructed depths give
 * it on both pieces alike (median ratios within {@link RISE_JOIN_SIZE} of each other). A camera looking along the
 * throw (behind the shooter) sees its depth only in the ball's size: a free throw's rise fitted as a flight from under
 * the basket has a ball twice too large at its start.
 */
export function oneThrow(fl: Flight3D | null, rise: number): boolean {
  if (!fl || !(fl.rms <= RISE_JOIN_RMS_M) || rise < 1 || rise >= fl.sizes.length) return false;
  const ratio = median(fl.sizes.slice(0, rise)) / median(fl.sizes.slice(rise));
  return ratio < RISE_JOIN_SIZE && ratio > 1 / RISE_JOIN_SIZE;
}

/**
 * A shot's rise tracked as a piece of its own: the flight (`s.arc`) is first seen high (the ball shrank into the ceiling
 * or the crowd at its apex, or flew out over the frame's top edge, and a second track picked up the descent), so where
 * it came from is not in it, but the rise was followed by another track. A rise is a stretch of another track that ends
 * up to {@link RISE_JOIN_GAP_S} before the flight's first
 * sighting (the two tracks may overlap at the apex: only its sightings before the flight's count), starts at most 2 s
 * before it and rises all the way up to its highest sighting (each higher than the one before, in the image; past it,
 * at the apex, it may turn down), leaving out sightings under 0.6 of its median radius (the shrinking ball). It is this
 * throw's rise when `accepts` takes it followed by the flight: placement asks for one ballistic flight in court
 * metres with one ball size ({@link oneThrow}), which a pass to the shooter, a dribble or a rebound under the basket is not. In the
 * image the two pieces need not share a parabola: a ball flying away from the camera shrinks, and its rise curves more
 * than its descent. The longest stretch accepted, up to {@link RISE_JOIN_TRIM} sightings shorter at either end (the ball
 * still in the hands, the ball lost against the ceiling), is taken. Returns its sightings followed by the flight's, or
 * null.
 */
export function riseTrackedApart(
  s: Pick<ShotDetection, 'arc'>,
  tracks: Track[],
  fps: number,
  timeScale: number,
  accepts: (pts: BallCandidate[]) => boolean,
): BallCandidate[] | null {
  const a = s.arc;
  const f0 = a.points[0].frame;
  const perS = fps / timeScale;
  const earliest = f0 - 2 * perS;
  const endFrom = f0 - Math.round(RISE_JOIN_GAP_S * perS);
  const rising = (rise: BallCandidate[]) => {
    let top = 0;
    for (let i = 1; i < rise.length; i++) if (rise[i].y < rise[top].y) top = i;
    if (top < 3) return false;
    for (let i = 1; i <= top; i++) if (!(rise[i].y < rise[i - 1].y)) return false;
    return true;
  };
  let best: BallCandidate[] | null = null;
  for (const t of tracks) {
    if (t.id === a.trackId) continue;
    const near = t.points.filter((p) => p.frame >= earliest && p.frame < f0);
    if (near.length < 4) continue;
    const minR = 0.6 * median(near.map((p) => p.r));
    const sized = near.filter((p) => p.r >= minR);
    const n = sized.length;
    for (let j = n - 1; j >= Math.max(3, n - 1 - RISE_JOIN_TRIM) && sized[j].frame >= endFrom; j--) {
      for (let i = 0; i <= RISE_JOIN_TRIM && i + 3 <= j; i++) {
        const rise = sized.slice(i, j + 1);
        if (best && rise.length <= best.length) break;
        if (rising(rise) && accepts([...rise, ...a.points])) {
          best = rise;
          break;
        }
      }
    }
  }
  return best && [...best, ...a.points];
}

/**
 * Places a shot on the court from its reconstructed flight. The 3-point call is made only when
 * the origin is at least `margin` metres (plus the flight's misfit) from the line.
 */
export function locateShot(fit: CourtFit, flight: Flight3D, margin = 0.3, maxRms = MAX_FLIGHT_RMS_M): ShotOnCourt {
  const none: ShotOnCourt = { isThree: null, world: null, ftSpotDistance: null, threeDistance: null };
  const m = fit.model;
  const o = flight.origin;
  if (Math.hypot(o.x, o.y) > 16 || flight.rms > maxRms) return none;
  const d = threePointDistance(m, o.x, o.y);
  const need = margin + flight.rms;
  const isThree = d > need ? true : d < -need ? false : null;
  const clamp = (v: number) => Math.max(0, Math.min(1, v));
  const world: [number, number] = [clamp((DIAGRAM.width / 2 + o.y) / DIAGRAM.width), clamp((o.x - m.baseX) / DIAGRAM.length)];
  return { isThree, world, ftSpotDistance: Math.hypot(o.x - (m.ftX + 0.3), o.y), threeDistance: d };
}

/**
 * A moving camera's flights that fit the ballistic model worse than this (m RMS) are not placed: the camera's turn
 * during the flight was misjudged. Measured on the panning games of the development (seeds 961–970) and fresh
 * (981–988, 991–996) sets (run version 36): such flights put threes from 7.4–8 m anywhere from 1.8 to 6 m inside the
 * line; a bound by the distance from the line (3 m) still called 3 of them 2 once clips with one read per end had a
 * tripod camera. Layups placed from them were right, but no more placed than their flight says.
 */
export const MOVING_MAX_FLIGHT_RMS_M = 0.12;

/** Flights that fit the ballistic model worse than this (m RMS) are not placed. */
export const MAX_FLIGHT_RMS_M = 0.3;

/** Accepted range of the clip's median ball-size ratio (see `Flight3D.sizeRatio`); single flights get 20 % more room. */
export const SIZE_RATIO_RANGE: [number, number] = [0.8, 1.3];

/** A fit is trusted when this fraction of the visible model lines lies on painted lines… */
export const MIN_COVERAGE = 0.4;
/** …and at least this many pixels of them (at 640 px wide) do. */
export const MIN_MATCHED_PX = 120;

/** The side of the board the fitted camera is on (see {@link CameraSide}). */
export function cameraSide(fit: CourtFit): 'court' | 'behind' {
  return sideOfCamera(fit.camera);
}

/** The side of the board a court camera is on: `behind` the basket, looking up the court at the players' faces, or on the `court` side. */
export function sideOfCamera(camera: CourtCamera): 'court' | 'behind' {
  return onSide(Math.atan2(camera.pos[1], camera.pos[0]), 'court') ? 'court' : 'behind';
}

/** Frame `f`'s RGB picture drawn in the stabilised frame (bilinear; black where it falls outside the picture). */
function unzoomed(rgb: Uint8Array, path: CameraPath, f: number, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  // toPicture's arithmetic, row by row: x maps to s · x + a, y to s · y + b
  const o0 = toPicture(path, f, 0, 0);
  const s = zoomAt(path, f);
  for (let y = 0; y < height; y++) {
    const qy = s * y + o0.y;
    for (let x = 0; x < width; x++) {
      const qx = s * x + o0.x;
      if (!(qx >= 0 && qy >= 0 && qx < width - 1 && qy < height - 1)) continue;
      const x0 = Math.floor(qx);
      const y0 = Math.floor(qy);
      const fx = qx - x0;
      const fy = qy - y0;
      const i = (y0 * width + x0) * 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const top = rgb[i + c] * (1 - fx) + rgb[i + 3 + c] * fx;
        const bottom = rgb[i + width * 3 + c] * (1 - fx) + rgb[i + width * 3 + 3 + c] * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

/**
 * Reads the court around a rim from the sampled frames (stabilised by the camera path): the
 * returned function fits the lines seen from the given rim, with the camera on the given side
 * of the board. The median background of the samples is computed at the first read and shared
 * by the later ones (a clip's court may be read from a moved rim, then from the other side).
 * A read gives null when the camera moves (the stabilised background would smear) or the lines
 * do not confirm a camera.
 */
export function courtReader(
  samples: Array<{ index: number; rgb: Uint8Array }>,
  path: CameraPath,
  width: number,
  height: number,
): (rim: { x: number; y: number; w: number }, side?: CameraSide) => CourtFit | null {
  let bg: Uint8Array | null | undefined;
  const memo: CourtFitMemo = { coarse: new Map() };
  const background = (): Uint8Array | null => {
    if (samples.length < 3) return null;
    const offs = samples.map((s) => [path.ox[s.index] ?? 0, path.oy[s.index] ?? 0]);
    const spread = Math.max(...offs.map((o) => Math.hypot(o[0] - offs[0][0], o[1] - offs[0][1])));
    if (spread > 0.03 * width) return null;
    // a camera that zoomed: each sample drawn again in the stabilised frame (its median then lines up)
    const zoom = path.zoom;
    return medianBackground(
      samples.map((s, i) => (zoom && s.index < zoom.s.length ? { rgb: unzoomed(s.rgb, path, s.index, width, height), ox: 0, oy: 0 } : { rgb: s.rgb, ox: offs[i][0], oy: offs[i][1] })),
      width,
      height,
    );
  };
  const read = (rim: { x: number; y: number; w: number }, side: CameraSide) => {
    const fit = fitCourt(bg!, width, height, rim, side, memo, STILL_FIT_STARTS);
    return fit && linesConfirm(fit, width) ? fit : null;
  };
  return (rim, side = 'any') => {
    if (bg === undefined) bg = background();
    if (!bg) return null;
    const fit = read(rim, side);
    if (fit || side !== 'any') return fit;
    // the best camera over both sides at once is not confirmed: each side is searched with starts of its own (run
    // version 74; the starts spread over both sides missed the one a low corner camera's lines confirm), and the
    // better line score of the two kept
    const sides = [read(rim, 'court'), read(rim, 'behind')].filter((f): f is CourtFit => f !== null);
    return sides.length ? sides.reduce((a, b) => (fitScore(b) > fitScore(a) ? b : a)) : null;
  };
}

/** A fit's line score at 3.5 px, as the search scores a pose ({@link netScore}). */
function fitScore(f: CourtFit): number {
  return netScore({ hit: f.matchedPx, seen: f.coverage > 0 ? f.matchedPx / f.coverage : 0 });
}

/** A fit the painted lines confirm: enough of the visible model on lines, as a share and in pixels (at 640 px). */
function linesConfirm(fit: CourtFit, width: number): boolean {
  return fit.coverage >= MIN_COVERAGE && fit.matchedPx >= MIN_MATCHED_PX * (width / 640);
}

/**
 * A court read at one moment of a moving camera: the fit in that moment's image, and the shift
 * (`dx`, `dy`) that takes stabilised coordinates into that image (image = stabilised + shift).
 */
export interface CourtView {
  fit: CourtFit;
  dx: number;
  dy: number;
  /** The frame the court was read in (a moving camera's view; see {@link turnedCamera}). */
  index?: number;
}

/** A panning camera's court is read per shot ({@link courtViewsAt}, run version 34) unless `SWISH_PANNING_COURT=0` (for comparisons). */
export function panningCourtEnabled(): boolean {
  return process.env.SWISH_PANNING_COURT !== '0';
}

/** How far (share of the frame width) the nearest sample may have been taken from a moment's camera position. */
export const VIEW_SHIFT = 0.1;

/**
 * Court reads for a moving camera, one per moment (a shot's rim arrival at its rim, stabilised
 * px). The clip's stabilised background smears where the camera turns, so each moment's court is
 * read from the one sampled frame taken nearest to where the camera was then, within
 * {@link VIEW_SHIFT} of the frame width (a turn of a few degrees moves the image about evenly),
 * in that frame's image: the view's shift takes stabilised coordinates into it. The players in
 * that frame hide some lines; a median of the samples taken from about there (within 3 % of the
 * width) read fewer courts on the panning games measured: a turning camera's frames do not
 * line up to the pixel. Moments that share a sample and a rim share one read. The frame is taken
 * within the moment's `span` (the frames its hoop was tracked, run version 36): the integrated path
 * is re-anchored on each tracked hoop and drifts between them, so a frame from another hoop's span
 * with the same stabilised position showed the rim 100+ px from where the shift put it. A moment
 * whose frame's lines confirm no camera is read with the clip's tripod camera turned to its rim
 * ({@link tripodCameras}, {@link fitFromCamera}). Null where no frame was taken from near there or
 * neither confirms a camera.
 */
export function courtViewsAt(
  moments: Array<{ frame: number; rim: { x: number; y: number; w: number }; span?: [number, number] }>,
  samples: Array<{ index: number; rgb: Uint8Array }>,
  path: CameraPath,
  width: number,
  height: number,
): Array<CourtView | null> {
  const shiftAt = (frame: number) => ({ x: path.ox[frame] ?? 0, y: path.oy[frame] ?? 0 });
  const apart = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  const reads = new Map<string, CourtView | null>();
  const memos = new Map<number, CourtFitMemo>();
  const memoOf = (index: number) => {
    let m = memos.get(index);
    if (!m) memos.set(index, (m = { coarse: new Map() }));
    return m;
  };
  const nearestOf = (frame: number, span?: [number, number]): { index: number; rgb: Uint8Array } | null => {
    const here = shiftAt(frame);
    let nearest: { index: number; rgb: Uint8Array } | null = null;
    for (const s of samples) {
      if (span && !(s.index >= span[0] && s.index <= span[1])) continue;
      if (!nearest || apart(shiftAt(s.index), here) < apart(shiftAt(nearest.index), here)) nearest = s;
    }
    return nearest && apart(shiftAt(nearest.index), here) <= VIEW_SHIFT * width ? nearest : null;
  };
  const nearests = moments.map(({ frame, span }) => nearestOf(frame, span));
  const views = moments.map(({ rim }, i) => {
    const nearest = nearests[i];
    if (!nearest) return null;
    const key = `${nearest.index}|${rim.x},${rim.y},${rim.w}`;
    let view = reads.get(key);
    if (view === undefined) {
      const { x: dx, y: dy } = shiftAt(nearest.index);
      const fit = fitCourt(nearest.rgb, width, height, { x: rim.x + dx, y: rim.y + dy, w: rim.w }, 'any', memoOf(nearest.index));
      view = fit && linesConfirm(fit, width) ? { fit, dx, dy, index: nearest.index } : null;
      reads.set(key, view);
    }
    return view;
  });
  // one camera turning on its tripod keeps its focal length: a read whose focal length is far from
  // the clip's median traded the camera's distance for its zoom (the lines of a narrow view fix the
  // ratio of the two, loosely each: a shot placed 5 m too far on a measured clip)
  const focals = [...new Set(reads.values())].flatMap((v) => (v ? [v.fit.camera.focal] : [])).sort((a, b) => a - b);
  const median = focals[focals.length >> 1];
  const kept = focals.length < VIEW_FOCAL_MIN_READS ? views : views.map((v) => (v && Math.abs(v.fit.camera.focal / median - 1) <= VIEW_FOCAL_SPREAD ? v : null));
  if (!tripodViewsEnabled()) return kept;
  // …and its place: the moments whose own frame's lines confirm no camera are read with the camera
  // where the confirmed reads put it, turned to the moment's rim (see tripodCameras)
  const tripods = tripodCameras([...new Set(kept)].flatMap((v) => (v ? [v.fit] : [])));
  if (!tripods.length) return kept;
  return kept.map((v, i) => {
    const nearest = nearests[i];
    if (v || !nearest) return v;
    const { x: dx, y: dy } = shiftAt(nearest.index);
    const rim = moments[i].rim;
    const memo = memoOf(nearest.index);
    const fits = tripods
      .map((c) => fitFromCamera(nearest.rgb, width, height, { x: rim.x + dx, y: rim.y + dy, w: rim.w }, c, memo))
      .filter((f): f is CourtFit => f !== null)
      .sort((a, b) => b.coverage - a.coverage);
    const best = fits[0];
    if (!best || best.coverage < TRIPOD_MIN_COVERAGE || best.matchedPx < TRIPOD_MIN_MATCHED_PX * (width / 640)) return null;
    if (fits.length > 1 && best.coverage - fits[1].coverage < TRIPOD_MARGIN) return null;
    return { fit: best, dx, dy, index: nearest.index };
  });
}

/** A moving camera's moments without a confirmed read are read with the clip's tripod camera ({@link tripodCameras}) unless `SWISH_TRIPOD_VIEWS=0` (for comparisons). */
export function tripodViewsEnabled(): boolean {
  return process.env.SWISH_TRIPOD_VIEWS !== '0';
}

/**
 * A tripod camera is taken from this many confirmed reads of one end on… (2 at first; 1 gave 14 more right calls and
 * no more wrong ones on the 24 panning games measured, once a loose flight is not placed: see
 * {@link MOVING_MAX_FLIGHT_RMS_M}; a wrong lone read is still checked by the lines of every frame it reads.)
 */
export const TRIPOD_MIN_READS = 1;
/** …whose positions lie within this distance (m) of their median. */
export const TRIPOD_SPREAD_M = 2.5;
/** A read with the tripod camera needs this share of the visible model on painted lines… */
export const TRIPOD_MIN_COVERAGE = 0.25;
/** …this many pixels of them (at 640 px wide)… */
export const TRIPOD_MIN_MATCHED_PX = 80;
/** …and, when the camera of both ends was tried, this much more coverage than the other end's. */
export const TRIPOD_MARGIN = 0.08;

/** Where a camera turning on a tripod stands, as one end's basket sees it, and its lens (see {@link tripodCameras}). */
export interface TripodCamera {
  pos: [number, number, number];
  focal: number;
  roll: number;
  model: CourtModel;
}

/**
 * The yaw, pitch and roll a camera was made from (radians; see {@link cameraFromPose}): its forward axis gives the yaw
 * and pitch, and its right axis leaves the floor plane by the roll.
 */
export function anglesOf(c: CourtCamera): { yaw: number; pitch: number; roll: number } {
  const pitch = -Math.asin(Math.max(-1, Math.min(1, c.rot[8])));
  const roll = Math.asin(Math.max(-1, Math.min(1, -c.rot[2] / Math.max(1e-6, Math.cos(pitch)))));
  return { yaw: Math.atan2(c.rot[7], c.rot[6]), pitch, roll };
}

/**
 * A camera read at one frame, turned to another frame of the same pan: the image moved by (`du`, `dv`) px between the
 * two (the camera path's shifts: image = stabilised + shift), so what the read frame saw at its centre is seen at the
 * centre + (`du`, `dv`) in the other; the camera turned about the vertical and tilted (same place, lens and roll) so
 * that it is. A flight followed while the camera turns is seen by a camera turned a little at every frame; the read
 * frame's camera for all of it bent a three of a measured panning game (pan-966 at 8 s, from 8 m) to 3 m inside the
 * line, each point's own camera to 1.9 m inside (the loose fit that is left: {@link MOVING_MAX_FLIGHT_RMS_M}).
 */
export function turnedCamera(c: CourtCamera, du: number, dv: number): CourtCamera {
  if (!du && !dv) return c;
  const { roll, ...start } = anglesOf(c);
  let { yaw, pitch } = start;
  // the world direction the read frame saw at its centre is seen at (centre + shift) in the other frame
  const d = [c.rot[6], c.rot[7], c.rot[8]];
  const far = [c.pos[0] + 100 * d[0], c.pos[1] + 100 * d[1], c.pos[2] + 100 * d[2]];
  let cam = c;
  for (let it = 0; it < 8; it++) {
    cam = cameraFromPose(c.pos, yaw, pitch, roll, c.focal, c.cx, c.cy);
    const q = project(cam, far[0], far[1], far[2]);
    const eu = q.u - (c.cx + du);
    const ev = q.v - (c.cy + dv);
    if (Math.abs(eu) < 0.01 && Math.abs(ev) < 0.01) break;
    yaw -= eu / (c.focal * Math.max(0.2, Math.cos(pitch)));
    pitch += ev / c.focal;
  }
  return cam;
}

/**
 * A panning camera on a tripod turns but stays where it is: its confirmed court reads put it at one place per end of
 * the court (each read is in its own basket's frame, so the two ends' reads lie on either side of y = 0, mirrored).
 * Per end with {@link TRIPOD_MIN_READS} reads or more, all within {@link TRIPOD_SPREAD_M} of their median position:
 * the median position, the median focal length and roll of all reads, and the reads' more common court model. None
 * for a camera carried around (its reads spread). An end with no place of its own gets the other
 * end's, seen from its basket: a full court's baskets are twice the centre line's x apart, facing each other (which
 * end a shot was at is then up to the lines, see {@link courtViewsAt}).
 */
export function tripodCameras(fits: CourtFit[]): TripodCamera[] {
  const med = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  if (!fits.length) return [];
  const focal = med(fits.map((f) => f.camera.focal));
  const roll = med(fits.map((f) => anglesOf(f.camera).roll));
  const out: TripodCamera[] = [];
  for (const sign of [1, -1]) {
    const end = fits.filter((f) => Math.sign(f.camera.pos[1]) === sign);
    if (end.length < TRIPOD_MIN_READS) continue;
    const pos: [number, number, number] = [0, 1, 2].map((k) => med(end.map((f) => f.camera.pos[k]))) as [number, number, number];
    if (end.some((f) => Math.hypot(f.camera.pos[0] - pos[0], f.camera.pos[1] - pos[1], f.camera.pos[2] - pos[2]) > TRIPOD_SPREAD_M)) continue;
    const nba = end.filter((f) => f.model.name === 'nba').length;
    out.push({ pos, focal, roll, model: nba * 2 > end.length ? COURTS.nba : COURTS.fiba });
  }
  // an end never read: the same place seen from the other basket (2 × the centre line's x away along x, mirrored across)
  if (out.length === 1) {
    const [c] = out;
    out.push({ ...c, pos: [2 * c.model.midX - c.pos[0], -c.pos[1], c.pos[2]] });
  }
  return out;
}

/**
 * The court read with a known camera place and lens (see {@link tripodCameras}), turned to the rim: only its roll and
 * the rim's place in the image (a pixel or two) are fitted to the painted lines. Null when the rim's width is far from
 * what the camera's distance to the basket gives (another hoop, or not this camera).
 */
export function fitFromCamera(
  rgb: Uint8Array,
  width: number,
  height: number,
  rim: { x: number; y: number; w: number },
  cam: TripodCamera,
  memo?: CourtFitMemo,
): CourtFit | null {
  if (!(rim.w > 2)) return null;
  const dist = memo?.dist ?? distanceMap(lineMask(rgb, width, height), width, height);
  if (memo) memo.dist = dist;
  const t: Target = { rimX: rim.x, rimY: rim.y, rimW: rim.w, width, height };
  const range = Math.hypot(cam.pos[0], cam.pos[1], cam.pos[2] - RIM_HEIGHT_M);
  const scale = (range * rim.w) / (cam.focal * RIM_DIAMETER_M);
  if (scale < TRIPOD_RIM_SCALE[0] || scale > TRIPOD_RIM_SCALE[1]) return null;
  const start: Pose = { az: Math.atan2(cam.pos[1], cam.pos[0]), zc: cam.pos[2], fov: 2 * Math.atan(width / 2 / cam.focal), scale, roll: cam.roll, du: 0, dv: 0 };
  const px = width / 640;
  const set: LineSet = { m: cam.model, pts: modelPoints(cam.model, 0.1), mid: modelPoints(cam.model, 0.18) };
  const steps = poseSteps(px).filter(([k]) => k === 'roll' || k === 'du' || k === 'dv');
  const r = descendPose(start, [6 * px, 3.5 * px], set, { t, dist, side: 'any', steps });
  const camera = cameraFor(r.p, t);
  if (!camera) return null;
  const sc = scoreCamera(camera, set.pts, dist, t, 3.5 * px);
  return { camera, model: cam.model, coverage: sc.seen ? sc.hit / sc.seen : 0, matchedPx: sc.hit };
}

/** The rim's read width over the width the tripod camera's distance gives it, accepted (see {@link fitFromCamera}). */
export const TRIPOD_RIM_SCALE: [number, number] = [0.6, 1.6];

/** A moving camera's court reads are checked against each other from this many reads on (see {@link courtViewsAt}). */
export const VIEW_FOCAL_MIN_READS = 3;
/** A read's focal length may differ this much (share) from the median of the clip's reads. */
export const VIEW_FOCAL_SPREAD = 0.15;

/**
 * Free-throw rules: from within this distance of the free-throw spot (m)… 2 m up to run version 45. Measured at run
 * version 45 on the tuning, seen, held-out and fresh tripod sets: the free throws placed lie 0.18–1.39 m from the spot
 * (57 of 59; two at 1.8 and 2.0 m, 2 more beyond), and the field goals from near the free-throw line that a calm scene
 * made free throws 0.45–1.9 m (6 of 13 from 1.5 m on).
 */
export const FT_SPOT_RADIUS_M = 1.5;
/** …with the scene this calm (`calm` ratio). */
export const FT_CALM_AT_SPOT = 0.08;
/**
 * A moving camera's shot is a free throw by itself when its scene was this calm (its court reads place shots up to 2 m
 * off, so they do not place its free throws). A still camera's shot without court geometry is a free throw only as one
 * of a pair (run version 46): on the tuning, seen, held-out and fresh tripod sets the calm scene alone made 8 of 27 such
 * free throws and 26 of 161 such field goals free throws (baseline and behind-the-basket views, where no court is read
 * and the play before a field goal is as still in the image as before a free throw: calm 0–0.1 on 34 of those 161).
 */
export const FT_CALM_ALONE = 0.05;

/**
 * Free-throw pairs: two attempts in a row at one hoop whose image paths run within this many rim
 * widths of each other ({@link flightPathDistance}; free-throw pairs measured 0.04–0.58, most
 * ≤ 0.3; other consecutive shots mostly > 1)…
 */
export const FT_PAIR_PATH = 0.45;
/**
 * …or within this many (run version 42) when the court places both within {@link FT_PAIR_SPOT_M} of the free-throw spot
 * (the same shooter from the same line, whose two paths a panning camera's turn, or a re-read rim, moved apart).
 * Measured on the tuning, seen, held-out, fresh tripod and 24 panning games: the pairs it adds are 2 on panning games
 * (paths 0.45 and 0.56) and 2 on still ones (0.46, 0.48), all true. With both within 1 m, no two field goals in a row
 * qualify even up to a path of 1.5; within 1.5 m one pair would (held-205: placed 0.80 and 1.43 m off, path 0.89).
 */
export const FT_PAIR_PATH_AT_SPOT = 1;
/** Both shots of such a pair placed this near the free-throw spot (m). */
export const FT_PAIR_SPOT_M = 1;
/** …the second released at most this long after the first reached the rim (s; the ball is handed back)… */
export const FT_PAIR_MAX_GAP_S = 12;
/**
 * …with neither taken in a busy scene (`calm` ratio: both below this; a moving camera's motion mask is never calm,
 * hence the looser bound). Moving cameras, measured on the 15 true pairs found on the development panning games
 * (seeds 961–978): one of the two throws at 0.77–0.88 in 7 of them (the players walk back to the lane while the
 * shooter gets ready), field goals 0.15–1.05 (median 0.62); 0.75 up to run version 22, 0.9 since: 6 more pairs
 * there and 2 on the tuning set's panning game-18, one pair of field goals taken (both already called wrong), no
 * other change on any set.
 */
export const FT_PAIR_CALM = 0.25;
export const FT_PAIR_CALM_MOVING = 0.9;

/**
 * Whether two shots' rims are one hoop: the same goal, or goals within 1.5 rim widths of each other (stabilised
 * pixels). A panning camera's hoop is often tracked in pieces, each its own goal, and a pair of free throws taken
 * 5 s apart was split across two of them (seed 974 at 98.2 and 103.9 s); a fixed camera's goals are distinct hoops.
 */
export function oneHoop(a: { x: number; y: number; w: number; id: number }, b: { x: number; y: number; w: number; id: number }): boolean {
  const w = Math.max(a.w, b.w);
  return a.id === b.id || (Math.abs(a.x - b.x) < 1.5 * w && Math.abs(a.y - b.y) < 1.5 * w);
}

/** The sightings of `pts` between a shot's release and its rim arrival. */
function flightPoints(s: ShotDetection, pts: BallCandidate[]): BallCandidate[] {
  return pts.filter((p) => p.frame >= s.releaseFrame && p.frame <= s.rimFrame);
}

/** Options of {@link checkCourt} and {@link placeShots}. */
export interface PlacementOptions {
  /** Reads the court again with the camera on the given side of the board (see {@link CameraSide}). */
  refit?: (side: 'court' | 'behind') => CourtFit | null;
  /** Per shot, its target rim (stabilised px) and the hoop's id (see {@link oneHoop}). */
  rims?: Array<{ x: number; y: number; w: number; id: number }>;
  /** The camera moves (panning): its motion mask is never calm. */
  moving?: boolean;
  /** A moving camera's court, read per shot ({@link courtViewsAt}); `court` is then not used. */
  views?: Array<CourtView | null>;
  /** A moving camera's path: each flight point is seen by the view's camera turned to its frame ({@link turnedCamera}). */
  path?: CameraPath;
  /**
   * The clip's ball tracks: a flight that cannot be placed on its own may be placed with its rise tracked apart
   * ({@link riseTrackedApart}), or else from its own track's sightings between release and rim arrival when its arc
   * is a later piece of that track (within {@link MAX_FLIGHT_RMS_M} of the ballistic model; run version 66).
   */
  tracks?: Track[];
  /** The bodies seen between two frames (stabilised px, their feet: the bottom centre of the box), for {@link flightFromFeet}. */
  bodies?: (from: number, to: number) => FeetSighting[];
  /** The court already checked by {@link checkCourt} for these shots (it is not checked again). */
  checked?: CheckedCourt;
}

/** The court a clip's shots are placed with, after the ball-size check of {@link checkCourt}. */
export interface CheckedCourt {
  /** The still camera's read the ball sizes agree with (the other side of the board's, when only that one does); null when none does, or none was read. */
  court: CourtFit | null;
  /** Per shot, its flight reconstructed with the court (null: not reconstructed, or the check failed). */
  flights: Array<(Flight3D & { rise?: number }) | null>;
  /** A court was read (a moving camera's: for some shot) and the flights' ball sizes agree with it. */
  sized: boolean;
  /** A court was read at all (before the check). */
  read: boolean;
}

/** A shot's court view: a moving camera's own per shot, else the still camera's read. */
function viewOf(views: Array<CourtView | null> | undefined, c: CourtFit | null, i: number): CourtView | null {
  return views ? views[i] : c ? { fit: c, dx: 0, dy: 0 } : null;
}

/** A view's pixels from stabilised ones, and a moving camera's turn at each frame ({@link turnedCamera}). */
function viewGeometry(v: CourtView, path: CameraPath | undefined) {
  if (path && v.index !== undefined) {
    const at = v.index;
    return {
      toView: <P extends { frame: number; x: number; y: number }>(p: P): P => ({ ...p, x: p.x + path.ox[p.frame], y: p.y + path.oy[p.frame] }),
      camAt: (f: number) => turnedCamera(v.fit.camera, path.ox[f] - path.ox[at], path.oy[f] - path.oy[at]),
    };
  }
  return { toView: <P extends { frame: number; x: number; y: number }>(p: P): P => ({ ...p, x: p.x + v.dx, y: p.y + v.dy }), camAt: undefined };
}

/**
 * Reconstructs the shots' flights with the court read and checks the read by the ball's size at the flights' depths
 * (a wrong fit puts the flights at the wrong distance): a still camera's read whose median size ratio is out of
 * {@link SIZE_RATIO_RANGE} is tried from the other side of the board (`refit`), and dropped when that fails too.
 * Everything read from the court after it (where shots were taken, how high the camera looks from) takes the checked
 * read, not the first one.
 */
export function checkCourt(
  shots: ShotDetection[],
  court: CourtFit | null,
  fps: number,
  timeScale: number,
  opts: Pick<PlacementOptions, 'refit' | 'views' | 'path' | 'tracks'> = {},
): CheckedCourt {
  const { refit, views } = opts;
  const read = views ? views.some((v) => v !== null) : court !== null;
  const flightsOf = (c: CourtFit | null) =>
    shots.map((s, i) => {
      const v = viewOf(views, c, i);
      if (!v) return null;
      const { toView, camAt } = viewGeometry(v, opts.path);
      const place = (pts: BallCandidate[]) => reconstructFlight(v.fit, pts.map((p) => toView(p)), fps, timeScale, camAt);
      const arcPts = flightPoints(s, s.arc.points);
      const own = place(arcPts);
      if (own || !opts.tracks) return own;
      const toRim = (pts: BallCandidate[]) => pts.filter((p) => p.frame <= s.rimFrame);
      const joined = riseTrackedApart(s, opts.tracks, fps, timeScale, (pts) => oneThrow(place(toRim(pts)), pts.length - s.arc.points.length));
      const fl = joined ? place(toRim(joined)) : null;
      if (fl) return { ...fl, rise: joined!.length - s.arc.points.length };
      // the flight on the shot's own track (run version 66): its arc may be a later piece of that track, the bounce
      // after rim arrival kept when two detections of the attempt merged, while the track still holds the flight
      const trackPts = flightPoints(s, opts.tracks.find((t) => t.id === s.arc.trackId)?.points ?? []);
      const onTrack = trackPts.length > arcPts.length ? place(trackPts) : null;
      return onTrack && onTrack.rms <= MAX_FLIGHT_RMS_M ? onTrack : null;
    });
  // the ball's size at the reconstructed depths checks the camera: a wrong fit puts the flights at the wrong distance
  const ratioOf = (fl: Array<Flight3D | null>) => {
    const ratios = fl.filter((f): f is Flight3D => f !== null).map((f) => f.sizeRatio).sort((x, y) => x - y);
    return ratios.length ? ratios[ratios.length >> 1] : 1;
  };
  const inRange = (r: number) => r >= SIZE_RATIO_RANGE[0] && r <= SIZE_RATIO_RANGE[1];
  let flights = flightsOf(court);
  let clipRatio = ratioOf(flights);
  if (court && refit && !views && !inRange(clipRatio)) {
    // the lane and the baseline alone fit a camera on either side of the board: the other side
    // may be the one the ball sizes agree with (a ball nearer the camera than the rim looks larger)
    const other = refit(cameraSide(court) === 'court' ? 'behind' : 'court');
    if (other) {
      const fl = flightsOf(other);
      const r = ratioOf(fl);
      if (inRange(r)) {
        court = other;
        flights = fl;
        clipRatio = r;
      }
    }
  }
  if (!inRange(clipRatio)) return { court: null, flights: flights.map(() => null), sized: false, read };
  return { court, flights, sized: read, read };
}

/**
 * Whether a camera looks down on the rim (more than 1 m over it) by a court read — give it the checked read
 * ({@link CheckedCourt.court}: null when the check dropped it); false without one, as at rim height.
 */
export function looksDown(court: CourtFit | null): boolean {
  return !!court && court.camera.pos[2] > RIM_HEIGHT_M + 1;
}

/**
 * Sets `is_free_throw`, `is_three_point`, `points` and `shot_world` of the shot actions from the
 * court geometry (when read) and the calm-scene cue (`calm`: moving pixels away from the shooter
 * before the release, relative to the clip's median; a free throw is taken while everybody waits).
 * A free throw needs a calm scene; with the geometry it must also be taken from near the
 * free-throw spot (a calm scene before a corner three or a layup is no free throw).
 * The court is checked first ({@link checkCourt}), unless `opts.checked` brings the check's result.
 */
export function placeShots(
  actions: ShotAction[],
  shots: ShotDetection[],
  court: CourtFit | null,
  calm: number[],
  fps: number,
  timeScale: number,
  opts: PlacementOptions = {},
): ShotPlacement[] {
  const { rims, views } = opts;
  const checked = opts.checked ?? checkCourt(shots, court, fps, timeScale, opts);
  court = checked.court;
  const courtRead = checked.read;
  const sized = checked.sized;
  let flights = checked.flights;
  // a flight whose origin is not in its track: placed from the feet of a body that fits it (run version 73)
  if (sized && opts.bodies) {
    const bodies = opts.bodies;
    flights = flights.map((f, i) => {
      const v = viewOf(views, court, i);
      const s = shots[i];
      if (f || !v) return f;
      const pts = flightPoints(s, s.arc.points);
      if (pts.length < 6) return null;
      const { toView, camAt } = viewGeometry(v, opts.path);
      const perS = fps / timeScale;
      const near = bodies(pts[0].frame - Math.round(FEET_REACH_S * perS), pts[0].frame + Math.round(FEET_FRAME_SLACK_S * perS));
      return flightFromFeet(v.fit, pts.map((p) => toView(p)), near.map((p) => toView(p)), fps, timeScale, camAt);
    });
  }
  const fits = shots.map((_, i) => (sized ? (viewOf(views, court, i)?.fit ?? null) : null));
  const locs = shots.map((_, i) => {
    const flight = flights[i];
    const fit = fits[i];
    const ok = flight && flight.sizeRatio > 0.8 * SIZE_RATIO_RANGE[0] && flight.sizeRatio < 1.2 * SIZE_RATIO_RANGE[1];
    if (!fit || !ok) return null;
    // a moving camera's flight that fits the ballistic model loosely was bent by the camera's turn: not placed
    return locateShot(fit, flight, undefined, views ? MOVING_MAX_FLIGHT_RMS_M : MAX_FLIGHT_RMS_M);
  });
  // a moving camera's per-shot reads place shots up to 2 m off (free throws put beyond the spot's
  // 2 m on a measured panning game): its free throws keep to the calm scene and the pairs
  const ftLocs = views ? locs.map(() => null) : locs;
  const fts = shots.map((_, i) => {
    const loc = ftLocs[i];
    if (loc && loc.ftSpotDistance !== null) return loc.ftSpotDistance < FT_SPOT_RADIUS_M && calm[i] < FT_CALM_AT_SPOT;
    // without geometry a still camera's free throws come from the pairs rule below alone (see FT_CALM_ALONE)
    return !!views && calm[i] < FT_CALM_ALONE;
  });
  const paths = shots.map((s, i) => (i > 0 && rims && oneHoop(rims[i], rims[i - 1]) ? flightPathDistance(shots[i - 1], s, rims[i], fps) : null));
  const gaps = shots.map((s, i) => (i > 0 ? ((s.releaseFrame - shots[i - 1].rimFrame) / fps) * timeScale : null));
  // two attempts in a row from the same spot, a few seconds apart, while the scene waits: a pair of free throws
  const notFt = (i: number) => {
    const l = ftLocs[i];
    return !!l && (l.isThree === true || (l.ftSpotDistance !== null && l.ftSpotDistance >= FT_SPOT_RADIUS_M));
  };
  // placed at the spot by the court: a moving camera's reads too (not by themselves, see ftLocs; two of them together)
  const atSpot = (i: number) => {
    const l = locs[i];
    return !!l && l.isThree !== true && l.ftSpotDistance !== null && l.ftSpotDistance < FT_PAIR_SPOT_M;
  };
  for (let i = 1; i < shots.length; i++) {
    const path = paths[i];
    const gap = gaps[i]!;
    if (path === null || gap < 0 || gap > FT_PAIR_MAX_GAP_S) continue;
    if (path > FT_PAIR_PATH && !(path <= FT_PAIR_PATH_AT_SPOT && atSpot(i - 1) && atSpot(i))) continue;
    if (Math.max(calm[i - 1], calm[i]) >= (opts.moving ? FT_PAIR_CALM_MOVING : FT_PAIR_CALM)) continue;
    if (notFt(i - 1) || notFt(i)) continue;
    fts[i - 1] = true;
    fts[i] = true;
  }
  return shots.map((s, i) => {
    const a = actions[i];
    const flight = flights[i];
    const loc = locs[i];
    const ft = fts[i];
    const isThree = ft ? false : (loc?.isThree ?? null);
    a.is_free_throw = ft;
    a.is_three_point = isThree;
    a.points = s.made ? (ft ? 1 : isThree ? 3 : 2) : 0;
    a.shot_world = loc?.world ? [Math.round(loc.world[0] * 1e4) / 1e4, Math.round(loc.world[1] * 1e4) / 1e4] : null;
    const why: ShotPlacement['why'] = !courtRead || (views && !views[i])
      ? 'no_court'
      : !sized
        ? 'size_check'
        : !flight
          ? 'no_flight'
          : !(flight.sizeRatio > 0.8 * SIZE_RATIO_RANGE[0] && flight.sizeRatio < 1.2 * SIZE_RATIO_RANGE[1])
            ? 'flight_size'
            : !loc?.world
              ? 'flight_misfit'
              : 'placed';
    return {
      why,
      origin: flight && loc?.world ? { ...flight.origin } : null,
      threeDistance: loc?.threeDistance ?? null,
      ftSpotDistance: loc?.ftSpotDistance ?? null,
      rms: flight?.rms ?? null,
      sizeRatio: flight?.sizeRatio ?? null,
      calm: calm[i],
      model: fits[i]?.model.name ?? null,
      camera: fits[i] ? { pos: fits[i]!.camera.pos.map((v) => Math.round(v * 100) / 100) as [number, number, number], focal: Math.round(fits[i]!.camera.focal) } : null,
      prevPath: paths[i],
      prevGap: gaps[i],
      rise: flight?.rise ?? null,
      feet: flight?.feet ?? null,
    };
  });
}

/**
 * How far apart two shots' image paths run, in rim widths: the median distance of one flight's
 * tracked points (from release to the rim, farther than 2 rim widths from the rim, where all
 * shots at a hoop converge) to the other's fitted parabola (extended 1 s back before its
 * release: its start may have been picked up late), the larger of both ways. Two free throws
 * by one shooter at one line follow the same path (≤ ~0.3); shots from elsewhere do not.
 * Infinity when either flight has fewer than 3 such points.
 */
export function flightPathDistance(a: ShotDetection, b: ShotDetection, rim: { x: number; y: number; w: number }, fps: number): number {
  const one = (p: ShotDetection, q: ShotDetection) => {
    const pts = p.arc.points.filter((o) => o.frame >= p.releaseFrame && o.frame <= p.rimFrame && Math.hypot(o.x - rim.x, o.y - rim.y) > 2 * rim.w);
    if (pts.length < 3) return Infinity;
    const f = q.arc.fit;
    const curve: Array<[number, number]> = [];
    for (let fr = q.releaseFrame - fps; fr <= q.rimFrame; fr += 0.25) {
      const t = fr - f.t0;
      curve.push([f.d + f.e * t, f.a + f.b * t + f.c * t * t]);
    }
    const d = pts
      .map((o) => {
        let best = Infinity;
        for (const [x, y] of curve) best = Math.min(best, Math.hypot(o.x - x, o.y - y));
        return best / rim.w;
      })
      .sort((x, y) => x - y);
    return d[d.length >> 1];
  };
  return Math.max(one(a, b), one(b, a));
}

/** How a shot was placed on the court (diagnostics of {@link placeShots}, not an artifact). */
export interface ShotPlacement {
  /** `placed`, or why not: no court read, the clip's ball-size check dropped it, no flight reconstructed, its own ball size or misfit out of range. */
  why: 'placed' | 'no_court' | 'size_check' | 'no_flight' | 'flight_size' | 'flight_misfit';
  /** Reconstructed floor origin (m, basket frame). */
  origin: { x: number; y: number } | null;
  threeDistance: number | null;
  ftSpotDistance: number | null;
  rms: number | null;
  sizeRatio: number | null;
  /** Calm-scene ratio before the release (see finish.ts#sceneCalm). */
  calm: number;
  model: 'fiba' | 'nba' | null;
  /** The camera the shot was placed with (basket frame, m; focal length in analysis px), or null. */
  camera: { pos: [number, number, number]; focal: number } | null;
  prevPath: number | null;
  prevGap: number | null;
  /** Sightings of the rise tracked apart the shot was placed with (see {@link riseTrackedApart}), or null. */
  rise: number | null;
  /** Body sightings the shot was placed from ({@link flightFromFeet}), or null. */
  feet: number | null;
}

/** A painted line: a thin ridge component at least this share of the frame width long (courts: 0.1–0.95 in most frames; test patterns, fractals: ≤ 0.03). */
export const LONG_LINE_SHARE = 0.1;

/**
 * The longest thin light ridge (a painted line) in an RGB frame, as a share of the frame width:
 * the extent of the longest connected component of `lineMask` pixels that is thin (at most
 * 6 pixels per pixel of extent, i.e. a line or an arc, not a textured patch).
 */
export function longestLine(rgb: Uint8Array, width: number, height: number): number {
  const mask = lineMask(rgb, width, height);
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  let best = 0;
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || seen[s]) continue;
    let top = 0;
    stack[top++] = s;
    seen[s] = 1;
    let n = 0;
    let x0 = width;
    let x1 = 0;
    let y0 = height;
    let y1 = 0;
    while (top) {
      const i = stack[--top];
      n++;
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const j = yy * width + xx;
          if (mask[j] && !seen[j]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    const extent = Math.max(x1 - x0, y1 - y0) + 1;
    if (n <= 6 * extent) best = Math.max(best, extent / width);
  }
  return best;
}

/**
 * Whether the sampled frames show a court: painted lines (a thin light ridge ≥ a tenth of the
 * frame width long) in at least a quarter of up to 8 samples spread over the clip. Used only
 * when no hoop was found, to tell `no_hoops` (a court without a hoop in view) from `no_court`
 * (no basketball court at all). A driveway without painted lines has its hoop found, so it
 * never comes here.
 */
export function courtVisible(samples: Array<{ rgb: Uint8Array }>, width: number, height: number): boolean {
  if (!samples.length) return false;
  const k = Math.min(8, samples.length);
  const pick = Array.from({ length: k }, (_, i) => samples[Math.round(((i + 0.5) * samples.length) / k - 0.5)]);
  let lined = 0;
  for (const s of pick) if (longestLine(s.rgb, width, height) >= LONG_LINE_SHARE) lined++;
  return lined >= Math.max(1, Math.ceil(0.25 * k));
}
