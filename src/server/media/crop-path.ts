import { evenFloor } from './ffmpeg-progress';

/** A point of interest at time `t` (s, source time), normalised image coordinates (0–1 from the top left). */
export interface FocusPoint {
  t: number;
  x: number;
  y: number;
}

/** A crop window of a fixed aspect ratio inside a frame, and the axis along which it can move. */
export interface CropBox {
  width: number;
  height: number;
  /** `x` when the crop is narrower than the frame, `y` when it is shorter, null when it is the whole frame. */
  axis: 'x' | 'y' | null;
}

/** The largest even-sized window of `aspect` (width / height) that fits in the frame. */
export function cropBoxFor(frameWidth: number, frameHeight: number, aspect: number): CropBox {
  if (frameWidth / frameHeight > aspect) {
    const height = evenFloor(frameHeight);
    return { width: evenFloor(Math.round(frameHeight * aspect)), height, axis: 'x' };
  }
  const width = evenFloor(frameWidth);
  const height = evenFloor(Math.round(frameWidth / aspect));
  return { width, height, axis: height < evenFloor(frameHeight) ? 'y' : null };
}

/** A knot of a piecewise-linear crop offset: at clip time `t` (s) the crop's left/top edge is at `offset` px. */
export interface CropKnot {
  t: number;
  offset: number;
}

export interface CropPathOptions {
  /** Clip window in source time. */
  start: number;
  end: number;
  /** Frame size along the moving axis and crop size along it, in pixels. */
  frameSize: number;
  cropSize: number;
  /** Which focus coordinate drives the path. */
  axis: 'x' | 'y';
  /** Gaussian smoothing (s): higher is calmer, lower follows faster. */
  smoothingSeconds?: number;
  /** Spacing of the knots in the resulting path (s). */
  knotSeconds?: number;
}

/**
 * A smooth crop path that keeps the action in frame: the focus points are interpolated
 * over time (held before the first and after the last), smoothed with a Gaussian so the
 * virtual camera eases instead of jerking after a fast ball, clamped inside the frame and
 * reduced to few knots. Empty focus → a centred, static crop. Times are relative to `start`.
 */
export function smoothCropPath(focus: FocusPoint[], opts: CropPathOptions): CropKnot[] {
  const duration = Math.max(0, opts.end - opts.start);
  const maxOffset = Math.max(0, opts.frameSize - opts.cropSize);
  const clamp = (c: number) => Math.round(Math.min(maxOffset, Math.max(0, c - opts.cropSize / 2)));
  const points = focus
    .filter((p) => Number.isFinite(p.t) && Number.isFinite(p[opts.axis]) && p.t >= opts.start - 3 && p.t <= opts.end + 3)
    .map((p) => ({ t: p.t - opts.start, c: Math.min(1, Math.max(0, p[opts.axis])) * opts.frameSize }))
    .sort((a, b) => a.t - b.t);
  if (points.length === 0 || maxOffset === 0) return [{ t: 0, offset: clamp(opts.frameSize / 2) }];

  const at = (t: number) => {
    if (t <= points[0].t) return points[0].c;
    const last = points[points.length - 1];
    if (t >= last.t) return last.c;
    let i = 1;
    while (points[i].t < t) i++;
    const a = points[i - 1];
    const b = points[i];
    return b.t === a.t ? b.c : a.c + ((b.c - a.c) * (t - a.t)) / (b.t - a.t);
  };
  const step = 0.05;
  const sigma = opts.smoothingSeconds ?? 0.6;
  const reach = Math.ceil((3 * sigma) / step);
  const grid = Math.ceil(duration / step);
  const raw = Array.from({ length: grid + 1 + 2 * reach }, (_, i) => at((i - reach) * step));
  const smooth = (i: number) => {
    let sum = 0;
    let weight = 0;
    for (let k = -reach; k <= reach; k++) {
      const w = Math.exp(-((k * step) ** 2) / (2 * sigma * sigma));
      sum += w * raw[i + reach + k];
      weight += w;
    }
    return sum / weight;
  };
  const knotStep = opts.knotSeconds ?? 0.4;
  const knots: CropKnot[] = [];
  const count = Math.max(1, Math.ceil(duration / knotStep));
  for (let k = 0; k <= count; k++) {
    const t = Math.min(duration, k * knotStep);
    knots.push({ t: Number(t.toFixed(3)), offset: clamp(smooth(Math.round(t / step))) });
  }
  return simplifyKnots(knots);
}

/** Drops knots that lie on the line through their neighbours (within a pixel), keeping the expression short. */
function simplifyKnots(knots: CropKnot[]): CropKnot[] {
  if (knots.length <= 2) return knots;
  const out = [knots[0]];
  for (let i = 1; i < knots.length - 1; i++) {
    const a = out[out.length - 1];
    const b = knots[i + 1];
    const expected = a.offset + ((b.offset - a.offset) * (knots[i].t - a.t)) / (b.t - a.t);
    if (Math.abs(expected - knots[i].offset) > 1) out.push(knots[i]);
  }
  out.push(knots[knots.length - 1]);
  if (out.every((k) => k.offset === out[0].offset)) return [out[0]];
  return out;
}

/**
 * The path as an ffmpeg expression of `t` for the crop filter's `x`/`y`: a start value
 * plus one clipped ramp per segment, which is piecewise-linear without nesting `if`s.
 */
export function cropExpression(knots: CropKnot[]): string {
  if (knots.length === 0) return '0';
  let expr = String(knots[0].offset);
  for (let i = 1; i < knots.length; i++) {
    const a = knots[i - 1];
    const b = knots[i];
    const delta = b.offset - a.offset;
    if (delta === 0) continue;
    const span = Math.max(1e-3, b.t - a.t);
    expr += `${delta > 0 ? '+' : '-'}${Math.abs(delta)}*clip((t-${a.t})/${span.toFixed(3)},0,1)`;
  }
  return expr;
}

/** Evaluates the path at clip time `t` (the value the expression gives), for tests and previews. */
export function cropOffsetAt(knots: CropKnot[], t: number): number {
  if (t <= knots[0].t) return knots[0].offset;
  for (let i = 1; i < knots.length; i++) {
    if (t <= knots[i].t) {
      const a = knots[i - 1];
      const b = knots[i];
      return a.offset + ((b.offset - a.offset) * (t - a.t)) / (b.t - a.t);
    }
  }
  return knots[knots.length - 1].offset;
}

/** The fields of an analyser shot action that steer a clip's crop (structural, so the analyser's types can move freely). */
export interface ShotFocusInput {
  release_t: number;
  rim_t: number;
  end_t: number;
  shot_image: [number, number];
  hoop_image: [number, number];
}

/**
 * Focus points for a shot's highlight: the shooter's release point, the ball positions
 * observed around the shot, and the rim from the moment the ball reaches it to the end of
 * the play — so the vertical crop starts on the shooter, rides the flight and settles on
 * the hoop for the result.
 */
export function shotFocus(shot: ShotFocusInput, balls: ReadonlyArray<{ t: number; x: number; y: number }>): FocusPoint[] {
  const points: FocusPoint[] = [
    { t: shot.release_t, x: shot.shot_image[0], y: shot.shot_image[1] },
    ...balls.filter((b) => b.t >= shot.release_t - 3 && b.t <= shot.rim_t).map((b) => ({ t: b.t, x: b.x, y: b.y })),
    { t: shot.rim_t, x: shot.hoop_image[0], y: shot.hoop_image[1] },
    { t: Math.max(shot.rim_t, shot.end_t), x: shot.hoop_image[0], y: shot.hoop_image[1] },
  ];
  return points.sort((a, b) => a.t - b.t);
}
