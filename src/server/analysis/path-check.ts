import { cameraPath, type CameraPath } from './ball-track';
import type { FrameFeatures } from './frame-features';

/** A sampled RGB frame of the analysis geometry (see `extract.ts`). */
export interface PathSample {
  index: number;
  rgb: Uint8Array;
}

/** Net camera shift between two samples (px, larger axis) from which the samples are asked whether it happened. */
export const PATH_CHECK_MIN_SHIFT = 4;
/** Edge agreement of the two samples without the shift that shows they are one view (see {@link edgeAgreement}). */
export const PATH_CHECK_MIN_AGREE = 0.3;
/** How many times better the two samples must agree without the shift than with it for the shift to be dropped. */
export const PATH_CHECK_RATIO = 2;
/** Share of the frames between the two samples with a shift step at most: a still camera with isolated jumps. */
export const PATH_CHECK_SPARSE = 0.2;

/**
 * The camera path is the sum of frame-to-frame shifts, so one wrong shift — a player walking close past a tripod
 * camera fills the frame and drags the shift search along — stays in it for the rest of the clip: the hoop, fixed in
 * stabilised coordinates, then sits beside the rim in the image, and every ball after it is measured against the
 * wrong place (measured: a tripod view with 13 px and 30 px jumps, each made of 1–5 frames' steps, and two makes
 * called missed after them). The sampled frames (one every few seconds) say whether the camera moved between two of
 * them: where the path moved by ≥ {@link PATH_CHECK_MIN_SHIFT} px between consecutive samples, with steps on at
 * most {@link PATH_CHECK_SPARSE} of the frames between (a still camera: a panning or handheld one moves on most
 * frames), and the two samples' edges line up far better where they are ({@link PATH_CHECK_RATIO} times, at
 * ≥ {@link PATH_CHECK_MIN_AGREE}) than shifted by the path's move, the camera did not move: the steps between
 * them are dropped. Returns the path unchanged when nothing is dropped.
 */
export function checkPathOnSamples(
  features: FrameFeatures[],
  path: CameraPath,
  samples: PathSample[],
  dims: { width: number; height: number },
  wholePixels = false,
): CameraPath {
  const sorted = samples.filter((s) => s.index < features.length).sort((a, b) => a.index - b.index);
  const drop: Array<[number, number]> = [];
  for (let k = 1; k < sorted.length; k++) {
    const a = sorted[k - 1];
    const b = sorted[k];
    const dx = Math.round(path.ox[b.index] - path.ox[a.index]);
    const dy = Math.round(path.oy[b.index] - path.oy[a.index]);
    if (Math.max(Math.abs(dx), Math.abs(dy)) < PATH_CHECK_MIN_SHIFT) continue;
    let steps = 0;
    for (let f = a.index + 1; f <= b.index; f++) if (features[f].dx || features[f].dy) steps++;
    if (steps > PATH_CHECK_SPARSE * (b.index - a.index)) continue;
    const still = edgeAgreement(a.rgb, b.rgb, 0, 0, dims);
    const moved = edgeAgreement(a.rgb, b.rgb, dx, dy, dims);
    if (still >= PATH_CHECK_MIN_AGREE && still >= PATH_CHECK_RATIO * moved) drop.push([a.index + 1, b.index]);
  }
  if (!drop.length) return path;
  const fixed = features.map((f, i) => (drop.some(([f0, f1]) => i >= f0 && i <= f1) && (f.dx || f.dy || f.sx || f.sy || f.ss !== 1) ? { ...f, dx: 0, dy: 0, sx: 0, sy: 0, ss: 1 } : f));
  return cameraPath(fixed, wholePixels, dims);
}

/**
 * Share of the edge pixels of frame `a` (every second pixel, away from the borders) whose grey gradient frame `b`
 * has, within half its size, at the same place moved by (`dx`, `dy`) — where `a`'s content is in `b` when the
 * camera moved by that much. Gradients, not levels: sampled seconds apart, lighting and exposure drift.
 */
export function edgeAgreement(a: Uint8Array, b: Uint8Array, dx: number, dy: number, dims: { width: number; height: number }): number {
  const { width: w, height: h } = dims;
  const grey = (rgb: Uint8Array, x: number, y: number) => {
    const i = 3 * (y * w + x);
    return rgb[i] + rgb[i + 1] + rgb[i + 2];
  };
  const mx = Math.round(0.075 * w);
  const my = Math.round(0.025 * h);
  let n = 0;
  let ok = 0;
  for (let y = my; y < h - my; y += 2) {
    for (let x = mx; x < w - mx; x += 2) {
      const xb = x + dx;
      const yb = y + dy;
      if (xb < 1 || yb < 1 || xb >= w - 1 || yb >= h - 1) continue;
      const gax = grey(a, x + 1, y) - grey(a, x - 1, y);
      const gay = grey(a, x, y + 1) - grey(a, x, y - 1);
      const ga = Math.abs(gax) + Math.abs(gay);
      if (ga < 30) continue;
      const gbx = grey(b, xb + 1, yb) - grey(b, xb - 1, yb);
      const gby = grey(b, xb, yb + 1) - grey(b, xb, yb - 1);
      n++;
      if (Math.abs(gax - gbx) + Math.abs(gay - gby) < 0.5 * ga) ok++;
    }
  }
  return n ? ok / n : 0;
}
