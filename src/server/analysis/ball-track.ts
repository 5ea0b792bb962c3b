import { ballSized, zoomCentre, type FrameFeatures, type MotionBlob } from './frame-features';

/** A ball candidate in one frame, in camera-stabilised analysis pixels. */
export interface BallCandidate {
  frame: number;
  /** Stabilised position (image position minus the accumulated camera shift). */
  x: number;
  y: number;
  /** Radius estimate in pixels. */
  r: number;
  /** 0-1 appearance score (shape, colour). */
  score: number;
  ballColour: number;
}

/** A linked sequence of candidates believed to be one moving object. */
export interface Track {
  id: number;
  points: BallCandidate[];
}

/** Accumulated camera shift per frame: image = stabilised + offset. */
export interface CameraPath {
  ox: Float64Array;
  oy: Float64Array;
  /**
   * The camera's zoom in each frame against frame 0, about (`cx`, `cy`): content at p in frame 0 (the stabilised frame)
   * is at s · (p − c) + c + (ox, oy) in frame f. Absent when the camera did not zoom (and on a whole-pixel path).
   */
  zoom?: { s: Float64Array; cx: number; cy: number };
}

/** Where the image point (`x`, `y`) of frame `f` is in the stabilised frame. */
export function toStable(path: CameraPath, f: number, x: number, y: number): { x: number; y: number } {
  const z = path.zoom;
  return stablePoint(x, y, path.ox[f], path.oy[f], z && { s: z.s[f], cx: z.cx, cy: z.cy });
}

/** {@link toStable} for one frame's offset (`ox`, `oy`) and zoom (absent: none). */
export function stablePoint(x: number, y: number, ox: number, oy: number, zoom?: { s: number; cx: number; cy: number }): { x: number; y: number } {
  if (!zoom) return { x: x - ox, y: y - oy };
  return { x: (x - zoom.cx - ox) / zoom.s + zoom.cx, y: (y - zoom.cy - oy) / zoom.s + zoom.cy };
}

/** Where the stabilised point (`x`, `y`) is in the image of frame `f`. */
export function toPicture(path: CameraPath, f: number, x: number, y: number): { x: number; y: number } {
  const z = path.zoom;
  if (!z) return { x: x + path.ox[f], y: y + path.oy[f] };
  const s = z.s[f];
  return { x: s * (x - z.cx) + z.cx + path.ox[f], y: s * (y - z.cy) + z.cy + path.oy[f] };
}

/** How much larger the image of frame `f` shows the scene than the stabilised frame (1: no zoom). */
export const zoomAt = (path: CameraPath, f: number): number => path.zoom?.s[f] ?? 1;

/**
 * Integrates the per-frame camera motion so positions can be compared across a moving camera's frames: the sub-pixel
 * motion (`sx`, `sy`, which does not drift) or, with `wholePixels`, the whole-pixel steps (`dx`, `dy`: what a panning
 * camera's hoop tracks are followed and re-anchored on, see `finish.ts`). With `dims` (the frame's size), the sub-pixel
 * path also carries the camera's zoom (`ss`, composed about the frame's centre) when it changed anywhere.
 */
export function cameraPath(features: FrameFeatures[], wholePixels = false, dims?: { width: number; height: number }): CameraPath {
  const n = features.length;
  const ox = new Float64Array(n);
  const oy = new Float64Array(n);
  const zoomed = !wholePixels && dims !== undefined && features.some((f) => f.ss !== 1);
  const s = zoomed ? new Float64Array(n) : null;
  let x = 0;
  let y = 0;
  let z = 1;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const a = zoomed ? features[i].ss : 1;
      x = a * x + (wholePixels ? features[i].dx : features[i].sx);
      y = a * y + (wholePixels ? features[i].dy : features[i].sy);
      z *= a;
    }
    ox[i] = x;
    oy[i] = y;
    if (s) s[i] = z;
  }
  return s && dims ? { ox, oy, zoom: { s, ...zoomCentre(dims.width, dims.height) } } : { ox, oy };
}

/**
 * Turns the motion blobs of a frame into ball candidates: compact, roughly round, not too big
 * for the frame. The ball's colour is unreliable (it turns grey-purple against the sky), so
 * shape and later the trajectory carry most of the evidence; colour only adds to the score.
 */
export function ballCandidates(
  f: FrameFeatures,
  frame: number,
  path: CameraPath,
  dims: { width: number; height: number },
): BallCandidate[] {
  const maxD = 0.14 * Math.min(dims.width, dims.height);
  const out: BallCandidate[] = [];
  for (const b of f.blobs) {
    const c = toCandidate(b, frame, path, maxD);
    if (c) out.push(c);
  }
  return out;
}

function toCandidate(b: MotionBlob, frame: number, path: CameraPath, maxD: number): BallCandidate | null {
  const bw = b.x1 - b.x0;
  const bh = b.y1 - b.y0;
  if (!ballSized(b)) return null;
  if (bw > maxD * 1.8 || bh > maxD * 1.8) return null;
  const aspect = Math.max(bw, bh) / Math.min(bw, bh);
  if (aspect > 2.6) return null;
  const fill = b.area / (bw * bh);
  if (fill < 0.3) return null;
  const r = Math.sqrt(b.area / Math.PI);
  const shape = Math.min(1, fill / 0.7) * (aspect < 1.6 ? 1 : 1.6 / aspect);
  const colour = Math.min(1, b.ballColour / 0.5);
  const skinPenalty = b.skin > 0.5 ? 0.6 : 1;
  return {
    frame,
    ...toStable(path, frame, b.x, b.y),
    r: r / zoomAt(path, frame),
    score: (0.55 * shape + 0.45 * colour) * skinPenalty,
    ballColour: b.ballColour,
  };
}

interface LiveTrack {
  track: Track;
  vx: number;
  vy: number;
  misses: number;
}

/**
 * Links candidates frame to frame with constant-velocity prediction and a gate that grows with
 * the ball size, the speed and the gap. Every unmatched candidate starts a new track, so noise
 * makes many short tracks; the shot logic later keeps the smooth, long, arcing ones.
 */
export function linkTracks(perFrame: BallCandidate[][], maxGap = 3): Track[] {
  const done: Track[] = [];
  let live: LiveTrack[] = [];
  let nextId = 1;
  for (let f = 0; f < perFrame.length; f++) {
    const cands = perFrame[f];
    const used = new Uint8Array(cands.length);
    const pairs: Array<{ d: number; li: number; ci: number }> = [];
    for (let li = 0; li < live.length; li++) {
      const lt = live[li];
      const last = lt.track.points[lt.track.points.length - 1];
      const dt = f - last.frame;
      const px = last.x + lt.vx * dt;
      const py = last.y + lt.vy * dt;
      const speed = Math.hypot(lt.vx, lt.vy);
      const gate = Math.max(3 * last.r, 6) + (lt.track.points.length > 1 ? 0.35 * speed * dt : 4 * last.r * dt);
      for (let ci = 0; ci < cands.length; ci++) {
        const c = cands[ci];
        const d = Math.hypot(c.x - px, c.y - py);
        if (d > gate) continue;
        const sizeRatio = Math.max(c.r, last.r) / Math.max(1, Math.min(c.r, last.r));
        if (sizeRatio > 2.2) continue;
        pairs.push({ d: d / gate + 0.15 * (sizeRatio - 1) - 0.1 * c.score, li, ci });
      }
    }
    pairs.sort((a, b) => a.d - b.d);
    const liveUsed = new Uint8Array(live.length);
    for (const p of pairs) {
      if (liveUsed[p.li] || used[p.ci]) continue;
      liveUsed[p.li] = 1;
      used[p.ci] = 1;
      const lt = live[p.li];
      const last = lt.track.points[lt.track.points.length - 1];
      const c = cands[p.ci];
      const dt = f - last.frame;
      const nvx = (c.x - last.x) / dt;
      const nvy = (c.y - last.y) / dt;
      const k = lt.track.points.length > 1 ? 0.6 : 1;
      lt.vx = k * nvx + (1 - k) * lt.vx;
      lt.vy = k * nvy + (1 - k) * lt.vy;
      lt.track.points.push(c);
      lt.misses = 0;
    }
    const next: LiveTrack[] = [];
    for (let li = 0; li < live.length; li++) {
      const lt = live[li];
      if (!liveUsed[li]) lt.misses++;
      if (lt.misses > maxGap) {
        if (lt.track.points.length >= 3) done.push(lt.track);
      } else next.push(lt);
    }
    for (let ci = 0; ci < cands.length; ci++) {
      if (used[ci]) continue;
      next.push({ track: { id: nextId++, points: [cands[ci]] }, vx: 0, vy: 0, misses: 0 });
    }
    live = next;
  }
  for (const lt of live) if (lt.track.points.length >= 3) done.push(lt.track);
  done.sort((a, b) => a.points[0].frame - b.points[0].frame);
  return done;
}

/** Least-squares fit y = a + b t + c t² (and x = d + e t) over track points. */
export interface ArcFit {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  /** RMS residual in pixels. */
  rms: number;
  t0: number;
}

/** Fits the ballistic model to points (time in frames relative to the first point). */
export function fitArc(points: BallCandidate[]): ArcFit | null {
  const n = points.length;
  if (n < 3) return null;
  const t0 = points[0].frame;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let sy = 0;
  let sty = 0;
  let stty = 0;
  let sx = 0;
  let stx = 0;
  for (const p of points) {
    const t = p.frame - t0;
    s0++;
    s1 += t;
    s2 += t * t;
    s3 += t * t * t;
    s4 += t * t * t * t;
    sy += p.y;
    sty += t * p.y;
    stty += t * t * p.y;
    sx += p.x;
    stx += t * p.x;
  }
  const det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2);
  if (Math.abs(det) < 1e-9) return null;
  const a = (sy * (s2 * s4 - s3 * s3) - s1 * (sty * s4 - s3 * stty) + s2 * (sty * s3 - s2 * stty)) / det;
  const b = (s0 * (sty * s4 - s3 * stty) - sy * (s1 * s4 - s3 * s2) + s2 * (s1 * stty - sty * s2)) / det;
  const c = (s0 * (s2 * stty - sty * s3) - s1 * (s1 * stty - sty * s2) + sy * (s1 * s3 - s2 * s2)) / det;
  const dx = s0 * s2 - s1 * s1;
  const e = dx > 1e-9 ? (s0 * stx - s1 * sx) / dx : 0;
  const d = (sx - e * s1) / s0;
  let ss = 0;
  for (const p of points) {
    const t = p.frame - t0;
    const ey = p.y - (a + b * t + c * t * t);
    const ex = p.x - (d + e * t);
    ss += ey * ey + ex * ex;
  }
  return { a, b, c, d, e, rms: Math.sqrt(ss / n), t0 };
}

/** Position predicted by an arc fit at a frame. */
export function arcAt(fit: ArcFit, frame: number): { x: number; y: number } {
  const t = frame - fit.t0;
  return { x: fit.d + fit.e * t, y: fit.a + fit.b * t + fit.c * t * t };
}

/**
 * How many frames a track may start before another one ends and still continue it ({@link stitchTracks}), at a
 * panning camera's clips. The ball is a few pixels across there: an edge behind it splits its blob, the fragment starts
 * a track of its own, and the link's gate, wide for a track of one sighting, hands that track the ball's next
 * sightings, so the ball's track ends a frame or three after the fragment's began (pan-961 at 56.3 s: a close shot's
 * flight came in three such pieces, and no flight reached the rim). At a still camera the join is not made: there
 * the ball is broken this way mostly where it passes the rim (the rim splits its blob), and the make rules read the
 * rim passage from the pieces (measured: three air balls and rim-outs of the synthetic sets then called made, and no
 * shot found that was lost; see "Close shots of panning cameras" in MEASUREMENTS.md).
 */
export const STITCH_OVERLAP = 3;

/**
 * Joins tracks broken by a short occlusion or a missed detection: a track that starts within
 * `maxGap` frames after another ends, where the ballistic extrapolation of the first one's
 * last points lands. Shots lose the ball for a few frames against the backboard or a player.
 * Then, with `overlap` ({@link STITCH_OVERLAP}), for the tracks no such track continues: one that started up to
 * `overlap` frames before it ended and follows the same parabola through the overlap (joined from its first sighting
 * after the end); taken second, so that a short fragment never takes the place of a track that continues the flight
 * after a gap.
 */
export function stitchTracks(tracks: Track[], maxGap: number, overlap = 0): Track[] {
  const sorted = tracks.filter((t) => t.points.length >= 3).sort((a, b) => a.points[0].frame - b.points[0].frame);
  const byStart = new Map<number, Track[]>();
  for (const t of sorted) {
    const f = t.points[0].frame;
    const list = byStart.get(f);
    if (list) list.push(t);
    else byStart.set(f, [t]);
  }
  const absorbed = new Set<Track>();
  const pass = (minGap: number) => {
    for (const t of sorted) {
      if (absorbed.has(t)) continue;
      for (;;) {
        const pts = t.points;
        const last = pts[pts.length - 1];
        const tail = pts.slice(-8);
        if (tail.length < 4) break;
        const fit = fitArc(tail);
        if (!fit || fit.rms > Math.max(2, 0.6 * last.r)) break;
        const tol = Math.max(3 * last.r, 6);
        const off = (q: BallCandidate) => {
          const p = arcAt(fit, q.frame);
          return Math.hypot(q.x - p.x, q.y - p.y);
        };
        let best: Track | null = null;
        let bestD = Infinity;
        let bestFrom = 0;
        for (let gap = minGap; gap <= maxGap; gap++) {
          const starting = byStart.get(last.frame + gap);
          if (!starting) continue;
          for (const u of starting) {
            if (u === t || absorbed.has(u)) continue;
            // joined from its first sighting after this track's last; the ones before it must follow the parabola too
            const from = gap > 0 ? 0 : u.points.findIndex((q) => q.frame > last.frame);
            if (from < 0 || u.points[from].frame - last.frame > maxGap) continue;
            const q = u.points[from];
            const d = off(q);
            const sizeRatio = Math.max(q.r, last.r) / Math.max(1, Math.min(q.r, last.r));
            if (sizeRatio > 2 || d > tol + 0.5 * last.r * (q.frame - last.frame)) continue;
            if (u.points.slice(0, from).some((o) => off(o) > tol)) continue;
            if (d < bestD) {
              bestD = d;
              best = u;
              bestFrom = from;
            }
          }
        }
        if (!best) break;
        t.points.push(...best.points.slice(bestFrom));
        absorbed.add(best);
      }
    }
  };
  pass(1);
  if (overlap > 0) pass(-overlap);
  return sorted.filter((t) => !absorbed.has(t));
}
