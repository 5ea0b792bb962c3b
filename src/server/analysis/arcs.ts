import { fitArc, type ArcFit, type BallCandidate, type Track } from './ball-track';

/** A piece of a track that follows one ballistic parabola (a free flight). */
export interface Arc {
  trackId: number;
  points: BallCandidate[];
  /** All points of the track the arc was cut from. */
  trackPoints: BallCandidate[];
  fit: ArcFit;
  /** Median ball radius in pixels over the arc. */
  r: number;
  /** Gravity term normalised by the ball radius: c / r (frames⁻²). */
  gNorm: number;
  /** Frame and stabilised y of the highest point (smallest y). */
  apexFrame: number;
  apexY: number;
  /** Mean appearance score of the points. */
  score: number;
}

/** The fitted vertical image velocity (px per frame, down positive) of an arc at a frame. */
export function vyAt(a: Arc, frame: number): number {
  return a.fit.b + 2 * a.fit.c * (frame - a.fit.t0);
}

/** Expected c / r (px per frame² per px of ball radius) for real-time 30 fps video: ½·g / (ball radius 0.12 m) / 30². */
export const GRAVITY_NORM_30FPS = (0.5 * 9.81) / 0.12 / 900;

/** Expected c / r at `fps` analysis frames a second, times `scale` (a clip's gravity window, or its speed-up squared). */
export function frameGravity(fps: number, scale = 1): number {
  return GRAVITY_NORM_30FPS * (30 / fps) ** 2 * scale;
}

/**
 * Where an arc is and how it moves at its last sighting when its gravity is taken as `c` (px per frame², the clip's
 * own) rather than its fitted one: position and velocity fitted by least squares over its last `n` sightings with the
 * vertical acceleration fixed. A short rise has a poorly determined parabola: a close shot of a panning game (seed 967
 * at 13.3 s), followed up 16 frames to its top, fitted c = 0.10 px per frame² against the clip's 0.21, still rising at
 * 1.6 px a frame where the ball had stopped; its parabola came down 1.2 rim widths past the rim it dropped into.
 */
export function motionAtLast(a: Arc, c: number, n = 6): { frame: number; x: number; y: number; vx: number; vy: number } {
  const pts = a.points.slice(-n);
  const f0 = pts[pts.length - 1].frame;
  let st = 0, stt = 0, sx = 0, stx = 0, sy = 0, sty = 0;
  for (const q of pts) {
    const t = q.frame - f0;
    const y = q.y - c * t * t;
    st += t;
    stt += t * t;
    sx += q.x;
    stx += t * q.x;
    sy += y;
    sty += t * y;
  }
  const m = pts.length;
  const det = m * stt - st * st;
  if (det === 0) return { frame: f0, x: pts[m - 1].x, y: pts[m - 1].y, vx: 0, vy: 0 };
  const vx = (m * stx - st * sx) / det;
  const vy = (m * sty - st * sy) / det;
  return { frame: f0, x: (sx - vx * st) / m, y: (sy - vy * st) / m, vx, vy };
}

/** The middle value (the upper of the two middle ones for an even count), 0 for none. */
export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
}

/** Below this speed (ball radii per frame) over the two steps before a point, the ball may still be in the hands (see {@link releaseCuts}). */
export const HELD_SPEED = 0.8;
/** How many times faster the two steps after a release are than those before it, at least (see {@link releaseCuts}). */
export const RELEASE_SPEED_UP = 3;
/**
 * And how fast they are at least (ball radii per frame): a small ball's position jitters by a
 * pixel or so, which from a near standstill is "3 times faster" (a 240p copy of a real clip was
 * cut in mid-flight, and lost its hoop, with no such floor).
 */
export const RELEASE_MIN_SPEED = 1;

/**
 * Points of a track where a ball that moved slowly (carried in the hands: under {@link HELD_SPEED}
 * ball radii a frame over the two steps before) flies off at least {@link RELEASE_SPEED_UP} times
 * faster, and at least {@link RELEASE_MIN_SPEED} ball radii a frame, over the two steps after: a
 * release. A parabola fitted across one bends a little to take both parts, so the first frames of
 * the flight went with the hands, and what was left of the flight could fail as one (the scripted `cases-25` at 24.8 s rendered with moving off-ball
 * players: its track starts a third of a second before the release). A free flight never speeds
 * up so suddenly, not even from its apex. The speed after is the distance covered over the two
 * steps together (run version 21; the slower of the two steps before): the blob of a rising ball
 * still merged with a hand jitters from one frame to the next, and the clip `made` (seed 101, with
 * moving players) rose 11.3 then 6.7 px a frame after a hold of at most 2.24, the slower step just
 * under 3 times it. Taken together, a one-frame jump of a ball standing still does not count.
 */
export function releaseCuts(pts: BallCandidate[]): number[] {
  // px a frame from point i to point j
  const pace = (i: number, j: number) => Math.hypot(pts[j].x - pts[i].x, pts[j].y - pts[i].y) / Math.max(1, pts[j].frame - pts[i].frame);
  const cuts: number[] = [];
  for (let k = 2; k < pts.length - 1; k++) {
    const before = Math.max(pace(k - 2, k - 1), pace(k - 1, k));
    const after = pace(k, Math.min(k + 2, pts.length - 1));
    if (before < HELD_SPEED * pts[k].r && after > Math.max(RELEASE_SPEED_UP * before, RELEASE_MIN_SPEED * pts[k].r)) cuts.push(k);
  }
  return cuts;
}

/** A gap between two sightings of a track longer than this many frames may hide a release ({@link thrownInGapCuts}). */
export const THROWN_GAP_FRAMES = 2;
/** How much faster upward the ball rises after such a gap than before it, at least: ball radii a frame … */
export const THROWN_SPEED_UP = 0.5;
/** … and pixels a frame. */
export const THROWN_MIN_SPEED_UP_PX = 2;
/** The sightings after the gap that must each be higher than the one before ({@link thrownInGapCuts}) … */
export const THROWN_RISE_STEPS = 4;
/** … rising by this many ball radii in all. */
export const THROWN_RISE = 3;

/**
 * Points of a track where the ball was thrown while it was not seen (run version 72): the first sighting after a gap of
 * more than {@link THROWN_GAP_FRAMES} frames, from which the ball rises at every one of the next
 * {@link THROWN_RISE_STEPS} sightings (no gap among them), {@link THROWN_RISE} of its radii in all, at least
 * {@link RELEASE_MIN_SPEED} radii a frame over the first two steps and faster than before the gap (by
 * {@link THROWN_SPEED_UP} radii a frame, ≥ {@link THROWN_MIN_SPEED_UP_PX} px), where it rose or was held. A free
 * flight only ever slows its rise, so something threw it in the gap. The ball rising in the hands, lost in the arm's
 * blob for a few frames and seen again in flight, is joined into one track by the stitch
 * (`ball-track.ts#stitchTracks`); the hands are no standstill, so {@link releaseCuts} does not cut it, and one parabola
 * took the hands with the first frames of the flight, bending upward: no flight, and what was left of the flight too
 * short to be one (dev-1407 at 47.6 s, a lob from under the rim: the shot was lost). A ball that fell into the gap and
 * rises after it bounced (off the floor: a 45-s real clip made brighter got a flight out of such a bounce and lost its
 * hoop), and a player's blob that rises for a frame or two, are not cut.
 */
export function thrownInGapCuts(pts: BallCandidate[]): number[] {
  const cuts: number[] = [];
  // whether the sightings from..to follow each other without a gap of their own
  const steady = (from: number, to: number) => pts.slice(from + 1, to + 1).every((p, i) => p.frame - pts[from + i].frame <= THROWN_GAP_FRAMES);
  for (let k = 2; k + THROWN_RISE_STEPS < pts.length; k++) {
    if (pts[k].frame - pts[k - 1].frame <= THROWN_GAP_FRAMES) continue;
    const j = Math.max(0, k - 3);
    const end = k + THROWN_RISE_STEPS;
    if (!steady(j, k - 1) || !steady(k, end)) continue;
    // a thrown ball rises at every step after the gap, by several of its radii in all
    if (pts.slice(k + 1, end + 1).some((p, i) => p.y >= pts[k + i].y) || pts[k].y - pts[end].y < THROWN_RISE * pts[k].r) continue;
    const vyBefore = (pts[k - 1].y - pts[j].y) / (pts[k - 1].frame - pts[j].frame);
    const vyAfter = (pts[k + 2].y - pts[k].y) / (pts[k + 2].frame - pts[k].frame);
    // rising (or held) before the gap: a ball that fell into it and rises after it bounced
    if (vyBefore <= 0 && vyAfter <= -RELEASE_MIN_SPEED * pts[k].r && vyAfter < vyBefore - Math.max(THROWN_SPEED_UP * pts[k].r, THROWN_MIN_SPEED_UP_PX)) cuts.push(k);
  }
  return cuts;
}

/**
 * Splits a track into maximal runs that each fit one parabola within a tolerance tied to the
 * ball size. A rim or backboard contact, a catch or a bounce breaks the parabola, so each
 * flight comes out as its own arc. The track is first cut where the ball leaves the hands
 * ({@link releaseCuts}); the pieces share their cut point, as consecutive arcs share theirs.
 */
export function splitIntoArcs(track: Track, minPoints = 5): Arc[] {
  const pts = track.points;
  const arcs: Arc[] = [];
  let from = 0;
  const cuts = [...new Set([...releaseCuts(pts), ...thrownInGapCuts(pts)])].sort((a, b) => a - b);
  for (const cut of [...cuts, pts.length - 1]) {
    arcs.push(...parabolaRuns(track, from, cut + 1, minPoints));
    from = cut;
  }
  return arcs;
}

/** The arcs of `track.points[lo, hi)`: grown from the left while one parabola fits (see {@link splitIntoArcs}). */
function parabolaRuns(track: Track, lo: number, hi: number, minPoints: number): Arc[] {
  const pts = track.points.slice(lo, hi);
  const arcs: Arc[] = [];
  let start = 0;
  while (start <= pts.length - minPoints) {
    let end = start + minPoints;
    let fit = fitArc(pts.slice(start, end));
    const tol = (p: BallCandidate[]) => Math.max(1.6, 0.55 * median(p.map((q) => q.r)));
    if (!fit || fit.rms > tol(pts.slice(start, end))) {
      start++;
      continue;
    }
    while (end < pts.length) {
      const cand = fitArc(pts.slice(start, end + 1));
      if (!cand || cand.rms > tol(pts.slice(start, end + 1))) break;
      const last = pts[end];
      const t = last.frame - cand.t0;
      const err = Math.hypot(last.x - (cand.d + cand.e * t), last.y - (cand.a + cand.b * t + cand.c * t * t));
      if (err > 2.5 * tol(pts.slice(start, end + 1))) break;
      fit = cand;
      end++;
    }
    const seg = pts.slice(start, end);
    const r = median(seg.map((q) => q.r));
    let apexFrame = seg[0].frame;
    let apexY = Infinity;
    for (const p of seg) {
      if (p.y < apexY) {
        apexY = p.y;
        apexFrame = p.frame;
      }
    }
    arcs.push({
      trackId: track.id,
      points: seg,
      trackPoints: track.points,
      fit: fit!,
      r,
      gNorm: fit!.c / Math.max(1, r),
      apexFrame,
      apexY,
      score: seg.reduce((s, q) => s + q.score, 0) / seg.length,
    });
    start = end - 1;
  }
  return arcs;
}

/** How far a flight's fitted fall may bend, as a multiple of gravity at the clip's time scale (see {@link isFlightArc}). */
export const FLIGHT_GRAVITY_WINDOW: [number, number] = [0.4, 7];

/**
 * The gravity window for the flights a panning camera's shots are found among at its tracked rims (run version 59;
 * `finish.ts#panningShotArcs`). A ball flying away from a camera that turns to follow it bends less in the picture:
 * held-304's swish at 61.3 s rose at 0.33 g while its blob shrank from 5 px to 2.5, and was no flight. Measured on the
 * 24 development panning games and held-304 (267 shots): 0.3 finds 3 more shots (all called right), no false one, no
 * call changed; 0.2 moves two court reads of pan-994 as well, 0.35 finds one of the three.
 */
export const PANNING_SHOT_GRAVITY_WINDOW: [number, number] = [0.3, 7];

/**
 * Keeps arcs that look like a thrown ball: enough points, enough travel, downward
 * acceleration compatible with gravity for a 1×–2.5× speed clip at the analysis rate.
 */
export function isFlightArc(a: Arc, fps: number, dims: { width: number; height: number }, gScale = 1, window: [number, number] = FLIGHT_GRAVITY_WINDOW): boolean {
  const n = a.points.length;
  if (n < 5) return false;
  const first = a.points[0];
  const last = a.points[n - 1];
  const travel = Math.hypot(last.x - first.x, last.y - first.y);
  if (travel < Math.max(5 * a.r, 0.06 * Math.min(dims.width, dims.height))) return false;
  if (a.r < 0.006 * Math.min(dims.width, dims.height) + 1) return false;
  const g = frameGravity(fps, gScale);
  if (a.gNorm < window[0] * g || a.gNorm > window[1] * g) return false;
  return a.score > 0.4;
}

/**
 * How far (ball radii, vertically) a close flight must rise from its first point to its apex, or fall from its apex to
 * its last point (see {@link isCloseFlightArc}).
 */
export const CLOSE_FLIGHT_RISE = 4;

/**
 * A flight too short for {@link isFlightArc}'s travel test that still rose to its apex or fell from it: every other
 * test of a flight (points, ball size, gravity window, ball score) holds, and the ball climbed to its apex from its
 * first point, or dropped from its apex to its last point, by ≥ {@link CLOSE_FLIGHT_RISE} ball radii. A close shot
 * rises from under the rim and comes down near where it went up, so the travel from first to last point (≥ 5 ball
 * radii) says little about it: on panning games (seed 721 at 39.7 and 17.2 s, seed 724 at 15.6 and 6.5 s) the pieces
 * that carried the shot over the rim fit gravity (0.6–1.5 g, 10–16 points) and climbed 4.2–5.1 ball radii to their
 * apex, but travelled 4.1–4.8 from first to last point: no flight saw those shots, and two of their hoops' tracks were
 * dropped for want of one. Used as close shots only: at a panning camera's tracked rims, and since run version 15 at a
 * still camera's hoops (`finish.ts`, `shots.ts#detectShots`).
 */
export function isCloseFlightArc(a: Arc, fps: number, dims: { width: number; height: number }, gScale = 1, window: [number, number] = FLIGHT_GRAVITY_WINDOW): boolean {
  const n = a.points.length;
  if (n < 5 || isFlightArc(a, fps, dims, gScale, window)) return false;
  const first = a.points[0];
  const last = a.points[n - 1];
  if (Math.max(first.y - a.apexY, last.y - a.apexY) < CLOSE_FLIGHT_RISE * a.r) return false;
  if (a.r < 0.006 * Math.min(dims.width, dims.height) + 1) return false;
  const g = frameGravity(fps, gScale);
  if (a.gNorm < window[0] * g || a.gNorm > window[1] * g) return false;
  return a.score > 0.4;
}

/**
 * A ball falling into view towards the camera's far side at an even pace: the second half of a shot seen from
 * behind the shooter (or from the baseline) whose rise was out of the frame or not followed. The ball then flies
 * away from the camera while it falls, and the perspective takes the acceleration out of its image path, so the
 * arc fits a straight line better than gravity (measured on such falls into the rim: −0.23 to 0.38 of gravity,
 * against the flight window's 0.4–7). A descent: ≥ 8 points of ball score ≥ 0.6, ball-sized, falling from its
 * first point to its last at every step of its fit (highest point first), over ≥ 5 ball radii, with gravity below
 * the flight window but not pushed upwards (≥ −1 g). Only the shot rules that see it end at a rim use it
 * (`shots.ts#descentShots`).
 */
export function isDescentArc(a: Arc, fps: number, dims: { width: number; height: number }, gScale = 1, window: [number, number] = FLIGHT_GRAVITY_WINDOW): boolean {
  const n = a.points.length;
  if (n < 8 || a.score < 0.6) return false;
  if (a.r < 0.006 * Math.min(dims.width, dims.height) + 1) return false;
  const first = a.points[0];
  const last = a.points[n - 1];
  if (a.apexFrame > first.frame + 1 || last.y - first.y < 5 * a.r) return false;
  const g = frameGravity(fps, gScale);
  if (a.gNorm >= window[0] * g || a.gNorm < -g) return false;
  return vyAt(a, first.frame) > 0 && vyAt(a, last.frame) > 0;
}

/** Points a flight needs to say how fast the clip plays (see {@link cleanSpeeds}). */
export const CLEAN_FLIGHT_POINTS = 8;

/** Points enough when fewer than three flights have {@link CLEAN_FLIGHT_POINTS} (see {@link cleanSpeeds}). */
export const SHORT_CLEAN_FLIGHT_POINTS = 5;

/** A flight's playback speed (1 = real time) from its gravity, and how far it bends (ball radii, {@link bendOf}). */
export interface FlightSpeed {
  speed: number;
  bend: number;
}

/**
 * How far an arc bends (ball radii): its points' rise to the apex or fall from it, whichever is more. Its gravity
 * is measured against this: a pass that sags a ball radius or two says little about it.
 */
export function bendOf(a: Arc): number {
  const first = a.points[0];
  const last = a.points[a.points.length - 1];
  return Math.max(0, first.y - a.apexY, last.y - a.apexY) / a.r;
}

/**
 * The playback speeds (1 = real time) that clean flights say, from their gravity `g` per frame²: flights of
 * ≥ {@link CLEAN_FLIGHT_POINTS} points and ball score > 0.6. When fewer than three such flights exist, those of ≥
 * {@link SHORT_CLEAN_FLIGHT_POINTS} points are asked instead, if three or more of them are. A clip played 3× fast
 * flies its ball through the frame in a third of the frames: the real clips at 1.5× their speed (4.5 to 8 s long,
 * 1–3 attempts; 2.9× for the two already sped up 2×) had no flight of 8 points, so their speed read as real time
 * and nothing was found in them; their flights of 5–7 points say 2.3–2.9×.
 */
export function cleanSpeeds(arcs: Arc[], g: number): FlightSpeed[] {
  const speeds = (minPoints: number) =>
    arcs.filter((a) => a.points.length >= minPoints && a.score > 0.6).map((a) => ({ speed: Math.sqrt(a.gNorm / g), bend: bendOf(a) }));
  const long = speeds(CLEAN_FLIGHT_POINTS);
  if (long.length >= 3) return long;
  const short = speeds(SHORT_CLEAN_FLIGHT_POINTS);
  return short.length >= 3 ? short : long;
}

/**
 * The clip's playback speed from its flights' speeds: their median, each flight weighted by how far it bends. A
 * flight's gravity is its bend over its duration squared, so the pixel or two its ends are off weighs on a flat
 * pass's far more than on a shot's rise and fall. Counted alike, the passes of a 40 s panning clip (seed 109, real
 * time) outvoted its shots: 23 of its 35 clean flights bend less than 5 ball radii, 16 of those read below 0.63×,
 * and their median, 0.56×, moved the gravity window as for slow motion. Weighted, they read 0.84×. Only the window
 * ({@link gravityWindowScale}) takes it: the speed estimate itself ({@link estimateTimeScale}) stays the plain median
 * of the flights inside the window, which the timing rules were measured with (weighted there too, the panning games
 * read 0.96 → 1.00 on average, and 5 of their makes were then called missed while 1 miss came right).
 */
export function typicalSpeed(v: FlightSpeed[]): number {
  const s = [...v].sort((a, b) => a.speed - b.speed);
  const total = s.reduce((sum, f) => sum + f.bend, 0);
  if (!(total > 0)) return median(s.map((f) => f.speed));
  let acc = 0;
  for (const f of s) {
    acc += f.bend;
    if (acc >= total / 2) return f.speed;
  }
  return s[s.length - 1].speed;
}

/**
 * Where the flight gravity window of {@link isFlightArc} sits for this clip (a factor on
 * gravity). The window (0.4–7 g) covers playback speeds of about 0.63×–2.65×: real-time and
 * the common 2× clips. A slow-motion clip (0.5×: a quarter of the gravity per frame) or a 3×
 * one has its flights outside it, all of them. So the arcs are first taken with a wide window
 * (0.1–16 g); when the speed of the clean ones (≥ 8 points, ball score > 0.6, ≥ 3 of them;
 * their median weighted by how far each bends, {@link typicalSpeed}) is under 0.63×, the window moves by its square
 * (the flights sit where a real-time clip's do); over 2×, by (speed / 2)² (where a 2× clip's do). Otherwise it stays
 * where it is (1). Until run version 68 a fast clip's window moved only over 2.65×, the window's own edge, and then
 * by 1.76 at once: the real `VID_IN_out` played 3× fast reads 2.52× (its flights 2.4–2.98×, a few frames each) and
 * kept the real-time window, losing the flights over 7 g and one of its four shots; from 2× up the window grows
 * without a step, and it finds all four (the real clips, 1.90–1.95× at most, are not moved).
 */
export function gravityWindowScale(arcs: Arc[], fps: number, dims: { width: number; height: number }): number {
  const g = frameGravity(fps);
  const v = cleanSpeeds(arcs.filter((a) => isFlightArc(a, fps, dims, 1, [0.1, 16])), g);
  if (v.length < 3) return 1;
  const s = typicalSpeed(v);
  if (s < Math.sqrt(0.4)) return s * s;
  if (s > 2) return (s / 2) ** 2;
  return 1;
}

/**
 * How far the ball rose before the arc's apex, following its track back up to `lookback`
 * frames: an arc split at its apex still knows it was thrown upwards.
 */
export function riseBefore(a: Arc, track: BallCandidate[], lookback: number): number {
  let maxY = -Infinity;
  for (const p of track) {
    if (p.frame > a.apexFrame) break;
    if (p.frame < a.apexFrame - lookback) continue;
    if (p.y > maxY) maxY = p.y;
  }
  return maxY === -Infinity ? 0 : maxY - a.apexY;
}

/** How many frames after its track's first sighting an arc may start and still be the ball coming into view (see {@link cameIntoView}). */
export const INTO_VIEW_FRAMES = 3;

/**
 * Whether the arc starts where its ball came into view: its track has no sighting more than {@link INTO_VIEW_FRAMES}
 * before it. A flight "falling in from the top of the frame" must be one (a shot whose rise is out of the picture); a
 * ball dropping from a rim near the frame's top was seen before, coming down into it.
 */
export function cameIntoView(a: Arc): boolean {
  return a.points[0].frame - a.trackPoints[0].frame <= INTO_VIEW_FRAMES;
}

/** Estimated playback speed-up of the clip from the arcs' gravity (1 = real time). */
export function estimateTimeScale(arcs: Arc[], fps: number, gScale = 1): number {
  const g = frameGravity(fps);
  const v = cleanSpeeds(arcs, g);
  if (v.length === 0) return Math.sqrt(gScale);
  // A moved gravity window (slow motion, > 2.65×) widens the range the estimate may take.
  const s = median(v.map((f) => f.speed));
  return gScale === 1 ? Math.min(3, Math.max(0.7, s)) : Math.min(4.5, Math.max(0.3, s));
}

/**
 * Walks back from the arc's apex along its track while the ball was rising without gaps: the
 * earliest such point is where it left the shooter's hands.
 */
export function releasePoint(a: Arc, maxGap = 3): BallCandidate {
  const pts = a.trackPoints;
  let i = pts.findIndex((p) => p.frame === a.apexFrame);
  if (i < 0) return a.points[0];
  while (i > 0) {
    const p = pts[i - 1];
    const q = pts[i];
    if (q.frame - p.frame > maxGap || p.y < q.y - 0.5 * a.r) break;
    i--;
  }
  return pts[i].frame < a.points[0].frame ? pts[i] : a.points[0];
}
