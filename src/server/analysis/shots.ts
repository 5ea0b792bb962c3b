import { releasePoint, vyAt, type Arc } from './arcs';
import { arcAt, type BallCandidate, type Track } from './ball-track';
import { GRAVITY, RIM_DIAMETER_M } from './court-lines';
import { freeFallEnd, RIM_OVER_BALL, type HoopEstimate } from './hoop-locate';

/** Counts moving pixels in a stabilised box at a frame (from the coarse motion grid); NaN for a repeat in a clip that repeats its frames (`finish.ts#motionTotals`). */
export type MotionProbe = (frame: number, x0: number, y0: number, x1: number, y1: number) => number;

/** A detected shot attempt, in frames and stabilised pixels. */
export interface ShotDetection {
  /** The arc that carried the ball to the hoop. */
  arc: Arc;
  releaseFrame: number;
  rimFrame: number;
  endFrame: number;
  /** Ball position at release (stabilised px). */
  releaseX: number;
  releaseY: number;
  made: boolean | null;
  /** 0-1 confidence in `made`. */
  madeConfidence: number;
  kind: ShotKindGuess;
  /** 0-1 confidence that this is a shot attempt at all. */
  confidence: number;
  /** Evidence used for the make decision, kept for debugging and tests. */
  evidence: MakeEvidence;
  /** Found from the ball leaving the net alone (its flight in was not followed; see `droppedThroughShots`). */
  droppedThrough?: boolean;
  /** The release was not seen but put a fixed time before the first sighting (`droppedThroughShots`, `descentShots`). */
  releaseGuessed?: boolean;
  /**
   * How the attempt was found: a whole flight into the rim (`flight`), a rise paired with a fall reappearing at the
   * rim (`reappearing`), a rise lost near the hoop and followed on (`lost-rise`, {@link lostRisingArrival}), the ball
   * seen only leaving the net (`dropped`) or only falling into the rim (`descent`). The last three carry thin
   * evidence of the ball's way in.
   */
  origin?: ShotOrigin;
}

export type ShotOrigin = 'flight' | 'reappearing' | 'lost-rise' | 'dropped' | 'descent';

export type ShotKindGuess = 'swish' | 'rim_in' | 'bank_in' | 'rim_out' | 'bank_out' | 'air_ball' | 'unknown';

/** Measurements of what the ball did after reaching the rim. */
export interface MakeEvidence {
  /** Ball seen below the rim inside the rim span, falling (count of frames). */
  throughFrames: number;
  /** Ball seen outside the rim span or bouncing back up (count of frames). */
  outFrames: number;
  /** An exit arc was found. */
  exit: 'down-through' | 'up' | 'sideways' | 'none';
  /** Exit arc's horizontal / vertical travel ratio. */
  exitSlope: number;
  /** The incoming arc extrapolated through the rim plane lands inside the rim (fraction of half-width, 0 = centre). */
  entryOffset: number;
  /** The ball hit something (arc ended before reaching the rim plane). */
  contact: boolean;
  /** Time between rim arrival and the ball leaving downward (frames). */
  dwellFrames: number;
  /** Where the ball first crossed the net-bottom level after rim arrival, in rim half-widths from the centre (NaN when not seen). */
  crossOffset: number;
  /** Where the ball last crossed the rim level going down before that, in rim half-widths (NaN when not seen). */
  rimCrossOffset: number;
  /**
   * Ball sightings over the rim in the 0.5 s after the first net-bottom crossing (see {@link ballOverRimAfter}); a fixed
   * camera whose count reaches {@link OVER_RIM_AFTER_CROSS} reads the crossing again from after the last of them. 0
   * without a crossing or at a panning camera's tracked hoop.
   */
  overRimAfterCross: number;
  /** Moving pixels in the net box (below the rim, inside its span) in the 0.6 s after rim arrival, per box area and frame (NaN without motion data). A ball passing through the net moves it; a ball dropping in front of or behind it barely does. */
  netMotion: number;
  /**
   * Moving pixels in the same net box in the 0.5 s after the ball has left it downwards (from 2 frames after the
   * net-bottom crossing), per box area and frame; NaN without a crossing or motion data. The ball is out of the box
   * by then, so this is the net's own swing: a made ball drags the net and it keeps swinging, a ball dropping in
   * front of or behind the net leaves it still.
   */
  netAfter: number;
  /** Moving pixels in the net box 0.5–1.2 s after rim arrival, per box area and frame (NaN without motion data): the net's swing when no crossing was seen. */
  netLate: number;
  /**
   * Longest run of ball sightings falling below the net (1.2–3.2 rim widths under the rim, within 1.6 rim
   * half-widths of its centre) in the second after rim arrival: a made ball leaves the net downwards and is seen
   * falling under it; a rim-out rolls off sideways. Below the net there is no net to make false ball blobs.
   */
  dropRun: number;
  /**
   * The ball's speed (m/s) as it passed the net's bottom, from that run ({@link dropSpeed}); NaN for a run shorter than
   * {@link DROP_RUN_MADE}. The net slows a made ball; one that fell beside or in line with it falls freely.
   */
  dropSpeed: number;
  /**
   * Sightings of the ball coming straight out of the net's bottom in the 1.4 s after rim arrival ({@link exitRunBelowNet}):
   * the longest run falling below the net that starts right under it, when its first three sightings fall straight
   * down; 0 otherwise. A ball that rolled on the rim before dropping through leaves the net late, and is often seen
   * there only three times on its way down.
   */
  exitRun: number;
  /**
   * How far the ball rose again at the rim after rim arrival, in rim widths: the most any ball sighting near
   * the rim (within 1.5 rim widths across, from 1 rim width above to 0.6 below its level, in the 0.6 s after
   * rim arrival) is followed on its track, within 0.7 s, by one higher up. A ball dropping through the net
   * only falls; a rim-out that bounces off the rim goes up first (see {@link reboundRiseVeto}).
   */
  riseAfterRim: number;
  /**
   * The frame the after-rim windows were anchored at: `rimFrame`, or the ball's last arrival at the rim when it
   * bounced up off the rim and came back down to it ({@link lastArrival}).
   */
  anchorFrame: number;
  /** Which rule of {@link classifyMake} (or which later veto) made the call, for debugging and tests. */
  decidedBy: MakeRule;
}

/** The rule that made a made/missed call (see {@link classifyMake} and the vetoes after it). */
export type MakeRule =
  | 'none'
  | 'cross'
  | 'cross-band-rim'
  | 'cross-band-sightings'
  | 'still-net'
  | 'cross-overruled'
  | 'rim-outside'
  | 'bounce-net-still'
  | 'exit-up'
  | 'exit-down'
  | 'exit-sideways'
  | 'sightings'
  | 'unseen-after-rim'
  | 'net-swing-veto'
  | 'rebound-rise-veto'
  | 'unseen-drop-veto'
  | 'fast-drop-veto'
  | 'same-end-next';

/** Evidence of a shot whose outcome has not been measured yet. */
function emptyEvidence(): MakeEvidence {
  return {
    throughFrames: 0,
    outFrames: 0,
    exit: 'none',
    exitSlope: 0,
    entryOffset: NaN,
    contact: false,
    dwellFrames: 0,
    crossOffset: NaN,
    rimCrossOffset: NaN,
    overRimAfterCross: 0,
    netMotion: 0,
    netAfter: NaN,
    netLate: NaN,
    dropRun: 0,
    dropSpeed: NaN,
    exitRun: 0,
    riseAfterRim: 0,
    anchorFrame: -1,
    decidedBy: 'none',
  };
}


/**
 * Shots whose top is not seen: the ball rises out of view (off the top of the frame, or behind
 * an opaque backboard seen from the baseline) and reappears falling at the hoop. Pairs a rising
 * flight that leaves upwards near the hoop with a falling flight that starts at or above the
 * rim within the expected hang time.
 */
function reappearingShots(
  arcs: Arc[],
  hoop: HoopEstimate,
  candidates: BallCandidate[][],
  fps: number,
  timeScale: number,
  found: ShotDetection[],
): ShotDetection[] {
  const w = hoop.w;
  const out: ShotDetection[] = [];
  const maxHang = Math.round((2.0 / timeScale) * fps);
  for (const up of arcs) {
    const last = up.points[up.points.length - 1];
    const vyEnd = vyAt(up, last.frame);
    if (vyEnd >= 0 || !lostAtTop(up)) continue;
    const rel = releasePoint(up);
    if (rel.y - last.y < 3 * up.r || !lostNearHoop(last, hoop)) continue;
    if (Math.hypot(rel.x - hoop.x, rel.y - hoop.y) < 1.6 * w && !shotFromUnderRim(up, rel, hoop, arcs, fps, timeScale, true) && !risingIntoStart(up, rel, candidates)) continue;
    const down = Math.abs(last.x - hoop.x) > 3 * w ? undefined : arcs.find((d) => {
      const p0 = d.points[0];
      if (p0.frame <= last.frame || p0.frame > last.frame + maxHang) return false;
      if (d.apexFrame > p0.frame + 2) return false;
      return Math.abs(p0.x - hoop.x) < 1.5 * w && p0.y < hoop.y + 1.2 * w && p0.y > hoop.y - 4 * w && d.points.length >= 4;
    });
    if (!down) {
      const lost = lostRisingArrival(up, hoop, candidates, fps, timeScale);
      if (lost < 0 || found.some((f) => Math.abs(f.rimFrame - lost) < fps / timeScale) || out.some((f) => Math.abs(f.rimFrame - lost) < fps / timeScale)) continue;
      out.push({ ...undecidedShot(up, rel, lost, halfFlightConfidence(up)), origin: 'lost-rise' });
      continue;
    }
    const rimFrame = down.points.find((q) => q.y >= hoop.y - 0.9 * w)?.frame ?? down.points[0].frame;
    if (found.some((f) => Math.abs(f.rimFrame - rimFrame) < fps / timeScale)) continue;
    out.push({ ...undecidedShot(down, rel, rimFrame, Math.min(1, ((up.points.length + down.points.length) / 16) * Math.min(up.score, down.score))), origin: 'reappearing' });
  }
  return out;
}

/**
 * How far under the highest point seen (ball radii) a flight's last sighting may be for the flight to count as lost
 * at its top (see {@link lostAtTop}).
 */
export const LOST_AT_TOP = 0.5;

/**
 * Whether a flight still rising by its fit was lost at its top: its last sighting is its highest one, or within
 * {@link LOST_AT_TOP} ball radii of it. A ball followed to its apex and a frame or two past it (held-out seeds 202 at
 * 81.6 s and 205 at 83.0 s: last seen 1 px under the highest sighting, 1 and 3 frames after it, the fit still
 * rising) is lost there as surely as one lost a frame before it; the main rule of `detectShots` does not take it
 * either, since its fit has not turned down.
 */
export function lostAtTop(a: Arc): boolean {
  // the highest sighting itself is 0 under it
  return a.points[a.points.length - 1].y - a.apexY <= LOST_AT_TOP * a.r;
}

/** Frames before a flight's first point in which {@link risingIntoStart} looks for the ball coming up into it. */
export const RISING_INTO_START_FRAMES = 4;

/**
 * The ball came up into a flight's first point from below, on the flight's own parabola: a sighting lower down
 * within 2 ball radii of where the parabola, followed back, was in one of the {@link RISING_INTO_START_FRAMES}
 * frames before. A track broken mid-rise (the ball against the board's edge, the net, a light background, the
 * shooter's hands) starts a new one at the rim level; a rebound bouncing up off the rim came down onto it from
 * above, where its parabola followed back finds nothing. Four frames, not three: on held-out seed 201 at 8.0 s
 * (a close shot released beside the rim in the image) the track broke for three frames as the ball rose past the
 * rim's level, and the sighting 4 frames back was 3.8 px from the parabola (those 1–3 frames back, 13–27 px).
 */
export function risingIntoStart(a: Arc, start: BallCandidate, candidates: BallCandidate[][]): boolean {
  for (let k = 1; k <= RISING_INTO_START_FRAMES; k++) {
    const f = start.frame - k;
    if (f < 0) break;
    const p = arcAt(a.fit, f);
    if (p.y <= start.y + 0.5 * a.r) continue;
    if ((candidates[f] ?? []).some((c) => c.y > start.y + 0.5 * a.r && Math.hypot(c.x - p.x, c.y - p.y) < Math.max(2 * a.r, 6) && c.r > 0.5 * a.r && c.r < 2 * a.r)) return true;
  }
  return false;
}

/** How far from the rim's level (rim widths) a flight must start for {@link brokeRisingPastRim}. */
export const BROKE_PAST_RIM_LEVEL = 0.5;

/**
 * A flight starting at the rim that is the rest of a shot whose track broke as the ball rose past the rim's level:
 * it starts within {@link BROKE_PAST_RIM_LEVEL} rim widths of that level and the ball was seen coming up into its
 * start ({@link risingIntoStart}). Held-out seed 201 at 8.0 s: released beside the rim in the image, the flight after
 * the break started 0.22 rim widths over the rim's level and rose 4 rim widths. A flight that starts higher, near
 * its apex, is the fall of a shot whose rise was a flight of its own (the synthetic clip of the robustness test, seed
 * 121 at 5.4 s: 1.06 rim widths over the rim, 3 frames before its apex), and that rise is what finds the attempt.
 */
export function brokeRisingPastRim(a: Arc, start: BallCandidate, hoop: HoopEstimate, candidates: BallCandidate[][]): boolean {
  return Math.abs(start.y - hoop.y) <= BROKE_PAST_RIM_LEVEL * hoop.w && risingIntoStart(a, start, candidates);
}

/** How far across from the rim (rim widths) a flight lost rising may end (see {@link lostRisingArrival}): a bank shot is lost on its way to the board, beside the rim. */
export const LOST_RISE_ACROSS = 4;

/** How high over the rim (rim widths) a flight lost rising farther across than {@link LOST_RISE_ACROSS} must be (see {@link lostNearHoop}). */
export const LOST_HIGH_OVER_RIM = 2;

/**
 * Whether a flight lost rising at `last` may be a shot on `hoop`: within {@link LOST_RISE_ACROSS} rim widths across
 * (a bank shot is lost on its way to the board, beside the rim), or farther but ≥ {@link LOST_HIGH_OVER_RIM} rim
 * widths over the rim — a long shot leaving the top of a close view (held-101 at 44.94 s, a three from outside the
 * frame, lost 12.6 rim widths across and 2.9 over the rim, its parabola landing 1.45 rim widths from the rim).
 */
export function lostNearHoop(last: { x: number; y: number }, hoop: HoopEstimate): boolean {
  const w = hoop.w;
  return Math.abs(last.x - hoop.x) <= LOST_RISE_ACROSS * w || last.y <= hoop.y - LOST_HIGH_OVER_RIM * w;
}

/**
 * How far across from the rim's centre (rim widths) the parabola of a flight lost rising may come down to the rim's
 * level (see {@link lostRisingArrival}): followed on for 0.5–1 s, a parabola fitted to a rise is off by more than a
 * rim width (game-11 at 66.47 s: 1.03, the ball came down 0.6 across; held-101 at 44.94 s: 1.45).
 */
export const LOST_RISE_LAND = 1.5;

/** A detection whose made/missed and kind are left to {@link classifyMake}, arriving at the rim at `rimFrame`. */
function undecidedShot(arc: Arc, release: { frame: number; x: number; y: number }, rimFrame: number, confidence: number): ShotDetection {
  return {
    arc,
    releaseFrame: release.frame,
    rimFrame,
    endFrame: rimFrame,
    releaseX: release.x,
    releaseY: release.y,
    made: null,
    madeConfidence: 0,
    kind: 'unknown',
    confidence,
    evidence: emptyEvidence(),
  };
}

/** Confidence of an attempt seen from one arc alone (a piece of the flight): a flight's, halved. */
const halfFlightConfidence = (a: Arc) => 0.5 * Math.min(1, (a.points.length / 10) * a.score);

/** Ball sightings at the rim (frames) that tell a ball lost on its way up did come down there (see {@link lostRisingArrival}). */
export const LOST_RISE_RIM_SIGHTINGS = 3;

/**
 * How near (rim widths) the fall followed on from a rise lost at the top of the frame a sighting over the rim's level
 * counts for {@link lostRisingArrival} (run version 75): held-1305 at 84.3 s, a bank shot from 1.6 m whose ball rose
 * out of the frame's top at frame 2516, was seen again on the 7 frames before its rim arrival (2523–2529), 0.36–0.85
 * rim widths from where the fall followed on put it, and was lost against the board: 2 frames with a sighting within
 * 1.5 rim widths of the rim, 7 on the way down (arrival followed to 2531, the truth's 2529).
 */
export const LOST_RISE_ON_FALL = 1;

/**
 * A flight lost while still rising above the rim, near the hoop, that no falling flight picks up again: seen from
 * the baseline, behind the board, the ball passes behind the opaque board on its way to the rim and comes out
 * below or beside it after a rim contact — bouncing up or sideways off the rim (a rim-out), or dropping through the
 * net — as short, broken pieces of track. Its parabola, followed on from the last sighting, says where it comes
 * down: when that is at the rim (rim level within {@link LOST_RISE_LAND} rim widths of its centre, inside the hang time) and the ball
 * is seen there (ball-like sightings within 1.5 rim widths of the rim on ≥ {@link LOST_RISE_RIM_SIGHTINGS} frames
 * from the last sighting to 0.5 s after that arrival — or, over the rim's level until the arrival, within
 * {@link LOST_RISE_ON_FALL} rim widths of where the fall followed on is then: a ball that rose out of the frame's top
 * and is seen coming back down onto the board), the flight is an attempt with that rim arrival. Returns the
 * frame, or -1.
 */
export function lostRisingArrival(up: Arc, hoop: HoopEstimate, candidates: BallCandidate[][], fps: number, timeScale: number): number {
  const w = hoop.w;
  const last = up.points[up.points.length - 1];
  if (last.y > hoop.y - 0.5 * w || !lostNearHoop(last, hoop)) return -1;
  const maxHang = Math.round((2.0 / timeScale) * fps);
  // the fall is followed with gravity at the rim's depth (0.45 m rim; the clip's speed-up), not the fit's: a few
  // rising points do not pin the curvature down, and the ball seen from the baseline is often only a piece of it
  const g = ((0.5 * 9.81 * (w / 0.45)) / (fps * fps)) * timeScale * timeScale;
  const p0 = arcAt(up.fit, last.frame);
  const vy = vyAt(up, last.frame);
  // where the fall followed on puts the ball k frames after the last sighting
  const fallAt = (k: number) => ({ x: p0.x + up.fit.e * k, y: p0.y + vy * k + g * k * k });
  let arrival = -1;
  for (let k = 1; k <= maxHang; k++) {
    const q = fallAt(k);
    if (q.y < hoop.y) continue;
    if (Math.abs(q.x - hoop.x) <= LOST_RISE_LAND * w) arrival = last.frame + k;
    break;
  }
  if (arrival < 0) return -1;
  const until = Math.min(candidates.length - 1, arrival + Math.round((0.5 / timeScale) * fps));
  const atRim = (c: BallCandidate) => Math.abs(c.x - hoop.x) < 1.5 * w && Math.abs(c.y - hoop.y) < 1.5 * w;
  let seen = 0;
  for (let f = last.frame + 1; f <= until; f++) {
    // until the arrival, a sighting over the rim's level where the fall followed on is then counts too (run version 75)
    const q = fallAt(f - last.frame);
    const onFall = (c: BallCandidate) => f <= arrival && c.y < hoop.y && Math.hypot(c.x - q.x, c.y - q.y) < LOST_RISE_ON_FALL * w;
    if ((candidates[f] ?? []).some((c) => c.score >= 0.4 && (atRim(c) || onFall(c)))) seen++;
  }
  return seen >= LOST_RISE_RIM_SIGHTINGS ? arrival : -1;
}

/**
 * How far under the rim's level (rim widths) a ball seen leaving the net may first be seen ({@link droppedThroughShots}):
 * 0, at the rim's level. Up to run version 38 it was 0.2, and an elevated view's close rim-in (trip-404 at 6.6 s, seed
 * 404 of the fresh tripod set), whose ball was lost against the players on the way up and first seen entering the rim
 * 0.11 rim widths under its level, was lost.
 */
export const DROP_START_UNDER_RIM = 0;

/**
 * Shots whose flight was not followed at all (the ball lost against the stands or the board on the way in) but
 * whose ball is seen leaving the net: a flight — or a descent (`arcs.ts#isDescentArc`: the net slows the ball, so
 * its drop through the net need not fit a free fall; a swish seen from the baseline fell at an even pace, −0.04 g,
 * from half a rim width under the rim to below the net) — that starts falling at or just under the rim's level
 * ({@link DROP_START_UNDER_RIM} to 1.7 rim widths under it), inside its span, and drops
 * through the space below the net (≥ {@link DROP_RUN_MADE} sightings 1.2–3.2 rim widths under the rim, falling
 * at least as fast as a ball that left the rim 0.15 s before), with no rise from below just before it (a player
 * lowering the ball after a rebound) and no shot found at this hoop in the 2 s before. Rim arrival is put 0.2 s
 * before the first sighting, the release 1 s before that.
 */
function droppedThroughShots(arcs: Arc[], hoop: HoopEstimate, fps: number, timeScale: number, found: ShotDetection[]): ShotDetection[] {
  const w = hoop.w;
  const out: ShotDetection[] = [];
  const sec = fps / timeScale;
  const minSpeed = (0.12 * w * timeScale * 30) / fps;
  for (const a of arcs) {
    const p0 = a.points[0];
    const dy0 = (p0.y - hoop.y) / w;
    if (dy0 < DROP_START_UNDER_RIM || dy0 > 1.7 || Math.abs(p0.x - hoop.x) > 0.6 * w || a.apexFrame > p0.frame + 2) continue;
    if (a.points.some((q) => q.y < hoop.y)) continue;
    const zone = a.points.filter((q) => q.y > hoop.y + 1.2 * w && q.y < hoop.y + 3.2 * w && Math.abs(q.x - hoop.x) < 0.8 * w);
    if (zone.length < DROP_RUN_MADE) continue;
    const z0 = zone[0];
    const zl = zone[zone.length - 1];
    if ((zl.y - z0.y) / Math.max(1, zl.frame - z0.frame) < minSpeed) continue;
    if (a.trackPoints.some((q) => q.frame < p0.frame && q.frame >= p0.frame - 0.5 * sec && q.y > p0.y + 0.5 * w)) continue;
    const rimFrame = p0.frame - Math.round(0.2 * sec);
    if (rimFrame < Math.round(0.5 * sec)) continue;
    if (found.some((f) => f.rimFrame <= rimFrame + 0.5 * sec && f.rimFrame >= rimFrame - 2 * sec)) continue;
    if (out.some((f) => Math.abs(f.rimFrame - rimFrame) < sec)) continue;
    const release = { frame: Math.max(0, rimFrame - Math.round(sec)), x: hoop.x, y: hoop.y };
    out.push({ ...undecidedShot(a, release, rimFrame, halfFlightConfidence(a)), droppedThrough: true, releaseGuessed: true, origin: 'dropped' });
  }
  return out;
}

/**
 * How far across a descent may start from the rim per unit of its height above it, beyond the 4 rim widths any
 * descent may: a fall from high above comes in steeply (here: steeper than 53° in the image), so its start lies
 * farther across in rim widths the higher it begins. Measured: a rim-out falling from 8.5 rim widths above the rim
 * started 5 rim widths across (0.53 of its drop) — and the rim found there was half its true width, which doubles
 * every distance counted in rim widths.
 */
export const DESCENT_ACROSS_PER_DROP = 0.75;

/**
 * How far above the rim (rim widths) a descent must start when its own track shows the ball thrown up into that
 * start from under the rim level in the second before (instead of 2.5). A close shot is followed all the way, but
 * its rise carries the hand's push and its fall the net's drag, so neither fits as a flight (measured: −0.57 g up,
 * 0.33 g down, the apex a 5-point piece, 1.3 rim widths over the rim); the 1.2 rim widths a fixed camera's close shot
 * had to rise over the rim in {@link shotFromUnderRim} until run version 76. A rebound falling back came down onto the
 * rim from above, not up from under it.
 */
export const THROWN_DESCENT_ABOVE_RIM = 1.2;

/**
 * Shots seen only falling into the rim from well above it at an even pace (see `arcs.ts#isDescentArc`: seen from
 * behind the shooter, the ball flying away from the camera loses its image acceleration): a descent that starts
 * ≥ 2.5 rim widths above the rim ({@link THROWN_DESCENT_ABOVE_RIM} when its track rose into it from under the rim
 * level), within 4 rim widths across (or {@link DESCENT_ACROSS_PER_DROP} of its height above
 * the rim, when more), of the ball's size at this hoop, and reaches the rim
 * zone (within a rim width of its centre, from 0.9 above to 0.6 below its level) is an attempt arriving there —
 * unless another flight was at the rim in the 1.5 s before (a rebound falling back). The release is put 1 s before
 * the first sighting (its rise was not seen); confidence as a flight's, halved.
 */
function descentShots(descents: Arc[], hoop: HoopEstimate, arcs: Arc[], fps: number, timeScale: number): ShotDetection[] {
  const w = hoop.w;
  const out: ShotDetection[] = [];
  for (const a of descents) {
    const p0 = a.points[0];
    // thrown up into its top from under the rim level in the second before: a close shot whose rise did not fit as a flight
    const thrown = a.trackPoints.some((q) => q.frame < p0.frame && q.frame >= p0.frame - fps / timeScale && q.y > hoop.y + w);
    const above = thrown ? THROWN_DESCENT_ABOVE_RIM : 2.5;
    if (p0.y > hoop.y - above * w || Math.abs(p0.x - hoop.x) > Math.max(4 * w, DESCENT_ACROSS_PER_DROP * (hoop.y - p0.y))) continue;
    if (a.r > 2.2 * hoop.ballR || a.r < 0.4 * hoop.ballR) continue;
    const at = a.points.find((q) => Math.abs(q.x - hoop.x) < 1.0 * w && q.y - hoop.y > -0.9 * w && q.y - hoop.y < 0.6 * w);
    if (!at || rimBusyBefore(a, p0.frame, hoop, arcs, fps, timeScale)) continue;
    const release = { frame: Math.max(0, p0.frame - Math.round(fps / timeScale)), x: p0.x, y: p0.y };
    out.push({ ...undecidedShot(a, release, at.frame, halfFlightConfidence(a)), releaseGuessed: true, origin: 'descent' });
  }
  return out;
}

/** How far over the rim (rim widths) a shot's flight must rise (`detectShots`). */
export const SHOT_APEX_OVER_RIM = 0.15;

/**
 * True when another flight was at the rim in the 1.5 s before `frame` (a flight starting then is its rebound). A flight
 * that never rose {@link SHOT_APEX_OVER_RIM} rim widths over the rim (the height a shot's flight must reach) arrived
 * at no rim: it came up into the rim zone from below, like a shot's own rise from the hands whose track broke there
 * (held-out seed 207 at 56.5 s, a piece ending 0.7 rim widths under the rim before the close flight that scored), and
 * does not count.
 */
function rimBusyBefore(a: Arc, frame: number, hoop: HoopEstimate, arcs: Arc[], fps: number, timeScale: number): boolean {
  const before = Math.round((1.5 / timeScale) * fps);
  for (const b of arcs) {
    if (b === a || b.apexY > hoop.y - SHOT_APEX_OVER_RIM * hoop.w) continue;
    for (const q of b.points) {
      if (q.frame >= frame || q.frame < frame - before) continue;
      if (Math.abs(q.x - hoop.x) < 1.0 * hoop.w && Math.abs(q.y - hoop.y) < 0.8 * hoop.w) return true;
    }
  }
  return false;
}

/**
 * A flight that starts close to the rim in the image is usually the ball bouncing off it (a rebound), but a
 * layup or a close shot seen from behind or from the baseline also starts there (depth does not show). Such a
 * flight is a shot when it starts below the rim level, rises well above the rim (`minApex` rim widths, or out of view), was not
 * falling onto the rim just before (its track has no point above the start in the previous third of a second)
 * and no other flight reached the rim in the 1.5 s before it (which would make it that shot's rebound).
 */
export function shotFromUnderRim(
  a: Arc,
  start: BallCandidate,
  hoop: HoopEstimate,
  arcs: Arc[],
  fps: number,
  timeScale: number,
  leavesView: boolean,
  minApex = CLOSE_SHOT_APEX,
): boolean {
  const w = hoop.w;
  if (start.y < hoop.y + 0.1 * w) return false;
  if (!leavesView && a.apexY > hoop.y - minApex * w) return false;
  const look = Math.round((0.33 / timeScale) * fps);
  if (a.trackPoints.some((q) => q.frame < start.frame && q.frame >= start.frame - look && q.y < start.y - a.r && q.y < hoop.y + 0.1 * w)) return false;
  return !rimBusyBefore(a, start.frame, hoop, arcs, fps, timeScale);
}

/**
 * A flight that starts close to the rim but above it, falling: the end of a shot whose rise was not followed
 * — the ball came in from above the frame or from behind an opaque board (nothing of its track in the third of
 * a second before), or its track shows it falling onto the rim from above but that part was too short to fit
 * as a flight of its own (the flight itself may then be the bounce off the rim). Not when another flight was at the rim in the 1.5 s before (a rebound coming down).
 * Returns the rim-arrival frame (the flight's start), or -1.
 */
export function fallingIntoRim(a: Arc, hoop: HoopEstimate, arcs: Arc[], fps: number, timeScale: number): number {
  const w = hoop.w;
  const p0 = a.points[0];
  if (p0.y > hoop.y + 0.2 * w || Math.hypot(p0.x - hoop.x, p0.y - hoop.y) > 1.6 * w) return -1;
  if (rimBusyBefore(a, p0.frame, hoop, arcs, fps, timeScale)) return -1;
  const look = Math.round((0.33 / timeScale) * fps);
  const pre = a.trackPoints.filter((q) => q.frame < p0.frame && q.frame >= p0.frame - look);
  if (pre.length === 0) return p0.y < hoop.y - 0.9 * w && a.apexFrame <= p0.frame + 2 ? p0.frame : -1;
  const top = pre[0];
  const falling = pre.length >= 4 && pre.every((q, i) => i === 0 || q.y >= pre[i - 1].y - 0.5 * a.r) && top.y < p0.y - 2 * a.r;
  const towards = Math.abs(top.x - hoop.x) > Math.abs(p0.x - hoop.x);
  return falling && towards ? p0.frame : -1;
}

/**
 * Frame where the falling branch of an arc crosses the rim height within 2.5 rim widths of the
 * rim centre (an air ball that misses everything), or -1.
 */
export function passesRimLevel(a: Arc, hoop: HoopEstimate): number {
  const p = a.points;
  for (let i = 1; i < p.length; i++) {
    if (p[i].frame <= a.apexFrame) continue;
    if (p[i - 1].y < hoop.y && p[i].y >= hoop.y) {
      const k = (hoop.y - p[i - 1].y) / (p[i].y - p[i - 1].y);
      const x = p[i - 1].x + k * (p[i].x - p[i - 1].x);
      return Math.abs(x - hoop.x) < 2.5 * hoop.w ? p[i].frame : -1;
    }
  }
  return -1;
}

/**
 * Follows a falling arc past its last observation (the ball often vanishes against the
 * backboard or shrinks out of the detector when it flies away from the camera): returns the
 * frame where the parabola reaches the rim zone within `maxFrames`, or -1.
 */
export function extrapolatedArrival(a: Arc, hoop: HoopEstimate, maxFrames: number): number {
  const last = a.points[a.points.length - 1].frame;
  for (let f = last + 1; f <= last + maxFrames; f++) {
    const { x, y } = arcAt(a.fit, f);
    if (y >= hoop.y - 0.3 * hoop.w) return Math.abs(x - hoop.x) < 1.5 * hoop.w ? f : -1;
  }
  return -1;
}

/**
 * Finds where the ball first passes down through the level of the bottom of the net after
 * reaching the rim (any tracked ball-sized object near the hoop), as an offset from the rim
 * centre in rim half-widths. A made ball leaves through the net, inside the rim span; a missed
 * one falls beside it or flies away.
 */
export function netCrossing(s: ShotDetection, tracks: Track[], hoop: HoopEstimate, win: number): { net: number; rim: number; frame: number } {
  const level = hoop.y + 0.8 * hoop.w;
  const rimLevel = hoop.y + 0.1 * hoop.w;
  let best: { frame: number; x: number; rimX: number } | null = null;
  for (const t of tracks) {
    const pts = t.points;
    if (pts[pts.length - 1].frame <= s.rimFrame || pts[0].frame > s.rimFrame + win) continue;
    let rimX = NaN;
    for (let i = 1; i < pts.length; i++) {
      const p = pts[i - 1];
      const q = pts[i];
      if (q.frame <= s.rimFrame - 2 || p.frame > s.rimFrame + win) continue;
      if (q.frame - p.frame > 3) {
        rimX = NaN;
        continue;
      }
      const rr = (p.r + q.r) / 2;
      if (rr < 0.5 * hoop.ballR || rr > 1.8 * hoop.ballR || Math.min(p.score, q.score) < 0.3) continue;
      if (p.y <= rimLevel && q.y > rimLevel) {
        const k = (rimLevel - p.y) / (q.y - p.y);
        rimX = p.x + k * (q.x - p.x);
      }
      if (q.frame <= s.rimFrame) continue;
      if (!(p.y <= level && q.y > level)) continue;
      if (p.y < hoop.y - 1.5 * hoop.w) continue;
      const k = (level - p.y) / (q.y - p.y);
      const x = p.x + k * (q.x - p.x);
      if (Math.abs(x - hoop.x) > 3 * hoop.w) continue;
      const frame = p.frame + k * (q.frame - p.frame);
      if (!best || frame < best.frame) best = { frame, x, rimX };
    }
  }
  const hw = hoop.w / 2;
  return best ? { net: (best.x - hoop.x) / hw, rim: (best.rimX - hoop.x) / hw, frame: best.frame } : { net: NaN, rim: NaN, frame: NaN };
}

/**
 * Moving pixels in the net box (below the rim, inside its span) per box area and frame, from frame `f0` to `f1`. A frame
 * that repeats the one before it (the probe's NaN) is left out: it shows nothing new, and counted as a still frame it
 * halved the net's swing on a slowed clip, where every second frame is a repeat. NaN when no frame has a picture.
 */
export function netBoxMotion(motion: MotionProbe, hoop: Pick<HoopEstimate, 'x' | 'y' | 'w'>, f0: number, f1: number): number {
  const w = hoop.w;
  let px = 0;
  let n = 0;
  for (let f = Math.max(0, f0); f <= f1; f++) {
    const v = motion(f, hoop.x - 0.45 * w, hoop.y + 0.15 * w, hoop.x + 0.45 * w, hoop.y + 0.9 * w);
    if (Number.isNaN(v)) continue;
    px += v;
    n++;
  }
  return n ? px / (w * w * 0.675 * n) : NaN;
}

/** Net swing after the crossing (`netAfter`) under which the net of a ball back down from a bounce did not move (see {@link bounceNetStill}). */
export const BOUNCE_NET_AFTER = 0.02;
/** Net-box motion from the last arrival (`netMotion`) under which the ball did not drag the net on its way down (see {@link bounceNetStill}). */
export const BOUNCE_NET_MOTION = 0.1;

/**
 * A ball read from its last arrival (it bounced up off the rim and came back down, {@link lastArrival}) whose net neither
 * moved much while it came down (`netMotion` < {@link BOUNCE_NET_MOTION}) nor swung after the crossing (`netAfter` <
 * {@link BOUNCE_NET_AFTER}): it fell in front of or behind the net. The clip's own reference, which the net-swing veto
 * needs, is not asked: the bounce was the rim contact, so only a make's drop through the net swings it now. Measured on
 * the fixed cameras of the tuning, seen and dev sets: re-anchored makes `netMotion` 0.10–0.21, `netAfter` 0.08–0.14;
 * re-anchored rim-outs 0.00–0.065 and ≤ 0.001 (cases-27 at 21.2 s, called made: its clip's makes swing their nets
 * little, and the reference, 0.019, kept the net-swing veto off). Applied to fixed cameras only (`classifyMake`).
 */
export function bounceNetStill(ev: Pick<MakeEvidence, 'netMotion' | 'netAfter'>): boolean {
  return ev.netMotion < BOUNCE_NET_MOTION && ev.netAfter < BOUNCE_NET_AFTER;
}

/** Ball sightings over the rim after a net-bottom crossing from which that crossing was not the ball (fixed cameras; see {@link ballOverRimAfter}). */
export const OVER_RIM_AFTER_CROSS = 3;

/**
 * Ball sightings over the rim in the frames after `f0` up to `f1`: candidates of ball size and a good score (≥ 0.5)
 * within 1.5 rim widths across, from 1.5 rim widths above the rim down to just under its level (0.1 rim widths), and
 * the frame of the last one (-1 without any). After the ball has crossed the net-bottom level going through the net
 * it is not seen up there again within half a second; a rim-out or bank-out whose contact shook the net, with a blob
 * of the net crossing that level, is. Traced on the tuning set (fixed cameras): a bank-out that flew off sideways over
 * the rim level (game-15 at 13.3 s, 3 sightings after the crossing) and a rim-out that sat on the rim for half a
 * second and then fell behind the net (game-17 at 114.4 s, 4 sightings; its fall crossed the net-bottom level 13
 * frames after the blob did, and the net, still after that, tells the miss). Every make of a fixed camera on the
 * tuning set shows none; a panning camera's moving image puts ball-like blobs there on makes too (up to 4).
 */
export function ballOverRimAfter(candidates: BallCandidate[][], hoop: HoopEstimate, f0: number, f1: number): { count: number; last: number } {
  const w = hoop.w;
  let count = 0;
  let last = -1;
  for (let f = Math.floor(f0) + 1; f <= Math.min(candidates.length - 1, f1); f++) {
    for (const q of candidates[f] ?? []) {
      if (q.score < 0.5 || q.r < 0.5 * hoop.ballR || q.r > 1.8 * hoop.ballR) continue;
      if (Math.abs(q.x - hoop.x) > 1.5 * w || q.y > hoop.y + 0.1 * w || q.y < hoop.y - 1.5 * w) continue;
      count++;
      last = f;
    }
  }
  return { count, last };
}

/** See {@link MakeEvidence.riseAfterRim}. */
export function riseAfterRim(s: ShotDetection, tracks: Track[], hoop: HoopEstimate, fps: number, timeScale = 1): number {
  const w = hoop.w;
  const f1 = s.rimFrame + Math.round((0.6 / timeScale) * fps);
  const span = Math.round((0.7 / timeScale) * fps);
  let best = 0;
  for (const t of tracks) {
    const pts = t.points;
    if (pts[pts.length - 1].frame <= s.rimFrame || pts[0].frame > f1) continue;
    for (let i = 0; i < pts.length; i++) {
      const p = pts[i];
      if (p.frame < s.rimFrame || p.frame > f1) continue;
      if (p.r < 0.5 * hoop.ballR || p.r > 1.8 * hoop.ballR || p.score < 0.3) continue;
      if (Math.abs(p.x - hoop.x) > 1.5 * w || p.y < hoop.y - w || p.y > hoop.y + 0.6 * w) continue;
      for (let j = i + 1; j < pts.length && pts[j].frame <= p.frame + span; j++) {
        const q = pts[j];
        if (q.r < 0.5 * hoop.ballR || q.r > 1.8 * hoop.ballR || q.score < 0.3) continue;
        best = Math.max(best, (p.y - q.y) / w);
      }
    }
  }
  return best;
}

/** How far (rim widths) the ball must rise again off the rim for its return to the rim to be a new arrival (see {@link lastArrival}). */
export const REARRIVAL_RISE = 0.8;
/** The latest a ball that bounced up off the rim may come back down to it to be read there (s of play after `rim_t`). */
export const REARRIVAL_WITHIN_S = 1.4;
/** Sightings in a row, each ≤ 3 frames after the one before, that make the bounce's rise and its fall back (see {@link lastArrival}). */
export const REARRIVAL_RUN = 4;

/**
 * The ball's last arrival at the rim, when it bounced up off the rim and came back down to it: a run of
 * {@link REARRIVAL_RUN} or more sightings of one track, each higher than the one before, that starts near the rim in the
 * 0.6 s after `rim_t` (within 1.5 rim widths across, from 1 above to 0.6 below its level) and climbs at least
 * {@link REARRIVAL_RISE} rim widths (the bounce), then, after its top and within {@link REARRIVAL_WITHIN_S} of
 * `rim_t`, a run of as many sightings, each lower than the one before, that falls from above the rim zone into it
 * (the zone `rim_t` itself is read in: within 1 rim width across, from 0.9 above to 0.6 below the rim's level).
 * Returns the frame of the first sighting of that fall inside the zone, or -1.
 * A rim-in that bounces high sits above the rim for most of a second: whatever the ball does in the windows read from
 * `rim_t` is the bounce (it goes up: an exit flight upwards, a rebound rise; the net stays still), and its drop through
 * the net comes after them. Seen on scripted renders (seeds 31, 32, 36): rises of 1.2–2.3 rim widths, the ball back
 * in the rim zone 0.55–0.9 s after `rim_t`. Runs of sightings, not single ones: at a panning camera's rim, blobs of
 * the net and the moving background jump up and down by a rim width from frame to frame.
 */
export function lastArrival(s: Pick<ShotDetection, 'rimFrame'>, tracks: Track[], hoop: HoopEstimate, fps: number, timeScale = 1): number {
  const w = hoop.w;
  const ballSized = (p: BallCandidate) => p.r >= 0.5 * hoop.ballR && p.r <= 1.8 * hoop.ballR && p.score >= 0.3;
  const f1 = s.rimFrame + Math.round((0.6 / timeScale) * fps);
  const until = s.rimFrame + Math.round((REARRIVAL_WITHIN_S / timeScale) * fps);
  // Runs of ball-sized sightings of one track, each ≤ 3 frames after the one before, moving one way (up: dir -1).
  const runs = (pts: BallCandidate[], dir: 1 | -1) => {
    const out: BallCandidate[][] = [];
    let run: BallCandidate[] = [];
    for (const q of pts) {
      if (!ballSized(q)) continue;
      const p = run[run.length - 1];
      if (p && q.frame - p.frame <= 3 && (q.y - p.y) * dir > 0) run.push(q);
      else {
        if (run.length >= REARRIVAL_RUN) out.push(run);
        run = [q];
      }
    }
    if (run.length >= REARRIVAL_RUN) out.push(run);
    return out;
  };
  let top = -1;
  for (const t of tracks) {
    const pts = t.points;
    if (pts[pts.length - 1].frame <= s.rimFrame || pts[0].frame > f1) continue;
    for (const run of runs(pts, -1)) {
      const p = run[0];
      if (p.frame < s.rimFrame || p.frame > f1) continue;
      if (Math.abs(p.x - hoop.x) > 1.5 * w || p.y < hoop.y - w || p.y > hoop.y + 0.6 * w) continue;
      const q = run[run.length - 1];
      if ((p.y - q.y) / w >= REARRIVAL_RISE && (top < 0 || q.frame < top)) top = q.frame;
    }
  }
  if (top < 0) return -1;
  let arrival = -1;
  for (const t of tracks) {
    const pts = t.points;
    if (pts[pts.length - 1].frame <= top || pts[0].frame > until) continue;
    for (const run of runs(pts.filter((p) => p.frame >= top && p.frame <= until), 1)) {
      if ((run[0].y - hoop.y) / w > -0.9) continue;
      const k = run.findIndex((q) => Math.abs(q.x - hoop.x) < w && q.y > hoop.y - 0.9 * w && q.y < hoop.y + 0.6 * w);
      if (k > 0 && (arrival < 0 || run[k].frame < arrival)) arrival = run[k].frame;
    }
  }
  return arrival;
}

/**
 * Length of the longest run of ball sightings falling below the net between `f0` and `f1`: candidates of ball
 * size and a fair score 1.2–3.2 rim widths under the rim and within 1.6 rim half-widths of its centre, each one
 * lower than the one before, ≤ 3 frames apart, moving sideways by less than 0.6 rim widths per frame.
 */
export function dropBelowNet(candidates: BallCandidate[][], hoop: HoopEstimate, f0: number, f1: number, timeScale = 1): number {
  return dropRunBelowNet(candidates, hoop, f0, f1, timeScale).length;
}

/**
 * The longest run of sightings falling below the net (see {@link dropBelowNet}), in frame order; with `startUnder`, the
 * longest that starts at most that many rim widths under the rim.
 */
function dropRunBelowNet(candidates: BallCandidate[][], hoop: HoopEstimate, f0: number, f1: number, timeScale = 1, startUnder = Infinity): BallCandidate[] {
  const w = hoop.w;
  const pts: BallCandidate[] = [];
  for (let f = Math.max(0, f0); f <= Math.min(candidates.length - 1, f1); f++) {
    for (const q of candidates[f]) {
      if (q.score < 0.4 || q.r < 0.5 * hoop.ballR || q.r > 1.8 * hoop.ballR) continue;
      const dy = (q.y - hoop.y) / w;
      if (dy < 1.2 || dy > 3.2 || Math.abs(q.x - hoop.x) > 0.8 * w) continue;
      pts.push(q);
    }
  }
  // a sighting lower than `startUnder` can only go on a run (0: it cannot start one)
  const run = pts.map((q): number => ((q.y - hoop.y) / w <= startUnder ? 1 : 0));
  const prev = new Array<number>(pts.length).fill(-1);
  let best = -1;
  for (let i = 0; i < pts.length; i++) {
    for (let j = 0; j < i; j++) {
      const df = pts[i].frame - pts[j].frame;
      if (df <= 0 || df > 3 || run[j] === 0) continue;
      if (pts[i].y <= pts[j].y || Math.abs(pts[i].x - pts[j].x) > 0.6 * w * df * Math.max(1, timeScale)) continue;
      if (run[j] + 1 > run[i]) {
        run[i] = run[j] + 1;
        prev[i] = j;
      }
    }
    if (run[i] > 0 && (best < 0 || run[i] > run[best])) best = i;
  }
  const chain: BallCandidate[] = [];
  for (let i = best; i >= 0; i = prev[i]) chain.push(pts[i]);
  return chain.reverse();
}

/** How far under the rim (rim widths) a run of sightings below the net may start to have come out of its bottom. */
export const NET_EXIT_UNDER = 1.6;

/** The most a ball coming out of the net moves across, per unit of its fall, over its first three sightings. */
export const NET_EXIT_SLANT = 0.2;

/** Seconds (real time) after rim arrival within which a ball coming out of the net is looked for ({@link exitRunBelowNet}). */
export const NET_EXIT_WINDOW_S = 1.4;

/**
 * Sightings of the ball coming straight out of the net's bottom: the longest run of sightings falling below the net
 * (see {@link dropBelowNet}) between `f0` and `f1` that starts at most {@link NET_EXIT_UNDER} rim widths under the rim,
 * when its first three sightings moved across by at most {@link NET_EXIT_SLANT} of their fall, 0 when they moved more
 * (a run of one or two sightings counts as it is, under {@link EXIT_RUN_MADE} either way). The net
 * takes a make's sideways speed, and lets it out at its bottom; a ball off the rim keeps its sideways speed, and one
 * first seen lower down (a rebound held or bounced under the net) did not come out of it.
 */
export function exitRunBelowNet(candidates: BallCandidate[][], hoop: HoopEstimate, f0: number, f1: number, timeScale = 1): number {
  const run = dropRunBelowNet(candidates, hoop, f0, f1, timeScale, NET_EXIT_UNDER);
  if (run.length < 3) return run.length;
  return Math.abs(run[2].x - run[0].x) <= NET_EXIT_SLANT * (run[2].y - run[0].y) ? run.length : 0;
}

/**
 * The ball's speed (m/s, real time) as it passed the net's bottom (one rim width, 0.45 m, under the rim), from its run
 * of sightings falling below the net ({@link dropBelowNet}), its two ends taken as a fall under gravity. NaN for a run
 * of fewer than {@link DROP_RUN_MADE} sightings. The image's vertical scale is taken as the rim's width (a camera
 * looking down foreshortens the fall a little, makes and misses alike).
 */
export function dropSpeed(run: Pick<BallCandidate, 'frame' | 'y'>[], hoop: Pick<HoopEstimate, 'y' | 'w'>, fps: number, timeScale = 1): number {
  if (run.length < DROP_RUN_MADE) return NaN;
  const a = run[0];
  const b = run[run.length - 1];
  const metres = RIM_DIAMETER_M / hoop.w;
  const t = ((b.frame - a.frame) / fps) * timeScale;
  // the mean speed between the two ends is the speed at the middle of that time, when the ball was g t² / 8 over
  // the middle of the two heights
  const v = ((b.y - a.y) * metres) / t;
  const under = ((a.y + b.y) / 2 - hoop.y) * metres - (GRAVITY * t * t) / 8 - RIM_DIAMETER_M;
  return Math.sqrt(Math.max(0, v * v - 2 * GRAVITY * under));
}

/**
 * Panning cameras: the least confidence (flight length × ball score) of a shot. The whole image moves, so short
 * flights of ball-like blobs (net edges, heads, the board's corners) reach the hoop; true attempts are followed
 * over longer flights (measured: false shots 0.24–0.55, true ones ≥ 0.86 but for one air ball at 0.20). Run version
 * 22, over the 18 development panning games and the panning games of the tuning, seen and held-out sets (both
 * renders): the candidates from 0.4 to 0.6 no other shot took are false up to 0.45 and true from 0.50; two rim-outs at 0.58
 * and 0.59 (seeds 972 at 11.3 s and 962 at 55.7 s) were dropped at 0.6. The bound sits just over the highest false
 * shot ever measured.
 */
export const PANNING_MIN_SHOT_CONFIDENCE = 0.56;

/**
 * Whether a panning camera's candidate is confident enough to be a shot ({@link PANNING_MIN_SHOT_CONFIDENCE}). A rise
 * lost near the hoop (`lost-rise`, {@link lostRisingArrival}) carries half its rising flight's confidence, at most 0.5,
 * under the bound: no lost rise could ever be a panning camera's shot. Since run version 30 the bound applies to its
 * flight's own confidence. Its release was seen (the rise from the hands), and the ball
 * was seen arriving at the rim. Measured over the 26 development panning games and the panning games of the tuning
 * and seen sets (both renders), the lost rises no other shot took: 5 true (0.23–0.50, all makes) and 4 false
 * (0.12–0.21); the bound takes 4 true (0.36–0.50), none false. The other candidates of one arc (`dropped`, `descent`)
 * guessed their release, and two false ones would pass at twice their confidence (0.32, 0.33): they keep the bound.
 */
export function panningConfident(s: Pick<ShotDetection, 'confidence' | 'origin'>): boolean {
  return (s.origin === 'lost-rise' ? 2 * s.confidence : s.confidence) >= PANNING_MIN_SHOT_CONFIDENCE;
}

/**
 * How far over the rim (rim widths) a flight that starts under the rim level, near the rim, must rise to be a close
 * shot rather than a rebound (see {@link shotFromUnderRim}). A rebound bouncing up off the rim starts at the rim
 * level, not under it, so the bar need not be high. Set for panning cameras first: a broadcast camera looks down from
 * high up the stands, and a close shot's arc over the rim is foreshortened in the image — a 1.2 m swish of a panning
 * game (seed 537 at 62.5 s) rose from 0.9 rim widths under the rim to 0.8 over it and dropped through the net, and was
 * found only as a ball leaving the net, whose half confidence (0.5) a panning camera does not take. A fixed camera
 * asked 1.2 until run version 76: held-1306's bank-out at 6.3 s, from 1.1 m, rose 1.0 rim widths over the rim and was
 * lost; at 0.6 it is found, and no other attempt of the tuning, seen, fifth held-out, development and real sets or of
 * the 108 transformed copies of the real clips changes (no false shot).
 */
export const CLOSE_SHOT_APEX = 0.6;

/** Ball sightings falling below the net that a make shows (see {@link dropBelowNet}). */
export const DROP_RUN_MADE = 4;

/** Sightings of the ball coming straight out of the net's bottom that a make shows (see {@link exitRunBelowNet}). */
export const EXIT_RUN_MADE = 3;

/** The ball seen falling below the net, or coming straight out of its bottom, as a make shows it ({@link DROP_RUN_MADE}, {@link EXIT_RUN_MADE}). */
export function seenLeavingNet(ev: Pick<MakeEvidence, 'dropRun' | 'exitRun'>): boolean {
  return ev.dropRun >= DROP_RUN_MADE || ev.exitRun >= EXIT_RUN_MADE;
}

/**
 * Panning cameras: the whole image moves, so ball-like blobs appear in the net box on every shot and the net's
 * own motion says nothing; a make is kept only when the ball was seen falling below the net (`dropRun`), where
 * there is no net, or seen coming straight out of the net's bottom (`exitRun`, run version 61: a rim-in that rolled
 * on the rim leaves the net up to 1.3 s after rim arrival, and a fast drop is seen there only three times). A
 * rim-out that rolls off sideways or an air ball dropping beside the net is called missed.
 */
export function unseenDropVeto(shots: ShotDetection[], fps: number, timeScale: number): void {
  for (const s of shots) {
    if (s.made !== true || seenLeavingNet(s.evidence)) continue;
    s.made = false;
    s.madeConfidence = s.evidence.dropRun === 0 ? 0.65 : 0.55;
    s.evidence.decidedBy = 'unseen-drop-veto';
    setKind(s, fps, timeScale);
  }
}

/**
 * The fastest a made ball passes the net's bottom (m/s; see {@link dropSpeed}). The net slows a make: on the 18
 * development panning games (seeds 961–970, 981–988) the makes seen falling below the net for 4 sightings or more
 * passed it at up to 3.9 m/s, the misses called made by their crossing and seen falling in line with the net at
 * 3.1–5.9 (three of them over 4.7); on the real clips the makes at 1.7–3.1. A ball that comes off the rim and falls
 * from rest at the rim's level already passes that level at 3.0 m/s; one dropping from a bounce over the rim, faster.
 */
export const NET_EXIT_MAX_SPEED = 4.3;

/**
 * Panning cameras: a make whose fall below the net was seen (see {@link unseenDropVeto}) passing the net's bottom
 * faster than a net lets a ball through ({@link NET_EXIT_MAX_SPEED}) fell in line with the net, in front of it or
 * behind it: missed. A panning camera's net box moves with the picture, so its crossing cannot tell the two apart.
 */
export function fastDropVeto(shots: ShotDetection[], fps: number, timeScale: number): void {
  for (const s of shots) {
    if (s.made !== true || !(s.evidence.dropSpeed > NET_EXIT_MAX_SPEED)) continue;
    s.made = false;
    s.madeConfidence = 0.6;
    s.evidence.decidedBy = 'fast-drop-veto';
    setKind(s, fps, timeScale);
  }
}

/**
 * Seconds (real time) after a make's rim arrival within which a field-goal attempt at the same end says the ball stayed
 * there (see {@link sameEndVeto}). On the 24 panning games measured at run version 43, the rim-outs called made whose
 * next attempt came at the same end (an offensive rebound put back up) had it 5.9–7.4 s after rim arrival; no true
 * make had a field-goal attempt at its end within 12 s.
 */
export const SAME_END_NEXT_S = 8;

/**
 * Full-court games: a made field goal hands the ball to the other team, which attacks the other basket, so the next
 * field-goal attempt at the same basket comes a whole possession later at the earliest — after a turnover on the
 * inbound, or once play has gone down the court and back. An attempt at the same end within {@link SAME_END_NEXT_S}
 * means the ball stayed there: the shot was missed and its rebound was put back up. The make is called missed.
 *
 * Applies only where the clip's shots were taken at two ends (`ends` per shot, from `court-ends.ts#goalEnds`; null
 * when not known): a half-court game or a practice at one basket shoots at it again and again. Free throws take no
 * part, neither as the make (the second of a pair follows at the same end) nor as the attempt after it (an and-one).
 * Only panning games give two ends on the sets measured (a still camera rarely holds both baskets); there it is the
 * cue the image lacks: from a broadcast view a rim-out that drops in front of or behind the net crosses the
 * net-bottom level inside the rim span, and the net's motion is lost in the camera's (see {@link unseenDropVeto}).
 * Returns the indices of the calls changed.
 */
export function sameEndVeto(
  shots: ShotDetection[],
  ends: ReadonlyArray<0 | 1 | null>,
  freeThrows: readonly boolean[],
  fps: number,
  timeScale: number,
): number[] {
  const within = (SAME_END_NEXT_S / timeScale) * fps;
  const changed: number[] = [];
  shots.forEach((s, i) => {
    if (s.made !== true || freeThrows[i] || ends[i] === null) return;
    const next = shots.findIndex((n, j) => j !== i && !freeThrows[j] && n.releaseFrame > s.rimFrame && n.releaseFrame - s.rimFrame <= within && ends[j] === ends[i]);
    if (next < 0) return;
    s.made = false;
    s.madeConfidence = 0.6;
    s.evidence.decidedBy = 'same-end-next';
    setKind(s, fps, timeScale);
    changed.push(i);
  });
  return changed;
}

/** A flight peaking less than this (rim widths) over the rim may be a pass in front of the hoop (see {@link passesInFront}). */
export const IN_FRONT_APEX_OVER_RIM = 0.75;

/** Ball radius near the rim over the hoop's ball radius from which such a flight is nearer the camera than the hoop. */
export const IN_FRONT_BALL_OVER_HOOP = 1.5;

/**
 * A ball that passes the rim in the image without flying to it: a flight that peaks less than
 * {@link IN_FRONT_APEX_OVER_RIM} rim widths over the rim, with its ball near the rim (the median radius of its
 * sightings within 2 rim widths of the rim centre) at least {@link IN_FRONT_BALL_OVER_HOOP} times the hoop's ball:
 * that ball is far nearer the camera than the hoop, and its flat path crosses the rim only in the image. Measured on
 * game-16 (behind the shooter) at 40.2 s: a pass flying flat across the frame close to the camera, peaking 0.32
 * rim widths over the rim with a ball 1.9 times the hoop's, was a shot. Both conditions are needed: of the true
 * shots measured (tuning, seen, real and two new scripted sets), those peaking under 0.75 rim widths over the rim
 * (down to 0.42) have the hoop's ball size near the rim (0.94–1.04 times), and those whose ball near the rim is
 * ≥ 1.5 times the hoop's (up to 1.97: nearer the camera) peak ≥ 2.5 rim widths over it.
 */
export function passesInFront(a: Arc, hoop: HoopEstimate): boolean {
  const w = hoop.w;
  if (hoop.y - a.apexY >= IN_FRONT_APEX_OVER_RIM * w) return false;
  const near = a.points.filter((q) => Math.hypot(q.x - hoop.x, q.y - hoop.y) < 2 * w).map((q) => q.r).sort((x, y) => x - y);
  return near.length > 0 && near[near.length >> 1] >= IN_FRONT_BALL_OVER_HOOP * hoop.ballR;
}

/**
 * Where (rim widths over the rim's centre) a falling ball that stops right over a tracked rim of a panning camera meets the
 * board: from {@link BOARD_STOP_LOW} to {@link BOARD_STOP_HIGH} rim widths above it, within 1.2 rim widths across (the
 * rim zone's own width). See {@link stopsOverRim}.
 */
export const BOARD_STOP_LOW = 1.0;
export const BOARD_STOP_HIGH = 2.7;

/**
 * The frame where a flight, past its apex, stops falling freely right over the rim (`hoop-locate.ts#freeFallEnd`: the
 * last sighting of its track still in free fall), or −1: the ball met the board there, or the rim seen from above. A bank shot of a
 * panning camera's game meets the board before the rim, and its parabola followed on goes on past the rim (the board
 * turns the ball, the parabola does not), so the hoop got no support from it and was dropped with the shot. Measured:
 * seed 539 at 9.1 s (bank-out, the flight stops 2.1 rim widths over the rim, 0.4 across), game-18 at 3.8 s (bank-out,
 * its track falls on to 1.1 over, 0.5 across), seed 538 at 65.8 s (a close bank-out whose rise and fall are two tracks:
 * the rise, 2 frames past its apex, stops 1.6 over, 0.5 across); each was its hoop's only shot. A flight lost at its
 * apex does not count here (it is followed on its parabola instead): a rising ball lost over the rim says nothing.
 * Used for a tracked rim's support (`finish.ts#flightSupport`) and, at a tracked hoop, as the attempt's rim arrival
 * when no other rule finds it (`detectShots(…, boardStops)`).
 */
export function stopsOverRim(a: Arc, x: number, y: number, w: number): number {
  const e = freeFallEnd(a);
  if (e.frame <= a.apexFrame) return -1;
  const dy = (y - e.y) / w;
  return Math.abs(e.x - x) < 1.2 * w && dy >= BOARD_STOP_LOW && dy <= BOARD_STOP_HIGH ? e.frame : -1;
}

/**
 * A close flight (`arcs.ts#isCloseFlightArc`) is a shot (at a still camera's hoop too, since run version 15: held-out
 * seed 207 at 56.5 s, straight up 3.3 rim widths over the rim from under it and back down through it) when it was released
 * within {@link CLOSE_FLIGHT_FROM} rim widths across from the rim, under its level, rose ≥ {@link CLOSE_FLIGHT_APEX}
 * rim widths over it (the height a tracked rim asks of a supporting flight, `finish.ts#TRACKED_APEX_OVER_RIM`), was
 * not falling onto its start and no other flight was at the rim in the 1.5 s before ({@link shotFromUnderRim}: a
 * rebound bouncing up off the rim starts at its level, after the shot). How far under the rim it was released is
 * not asked: seen from high up the stands, a 3.7 m jump shot of a panning game (seed 724 at 6.5 s) left the hands 5
 * rim widths under the rim, straight below it, and rose to 2.1 over it, where the ball was lost.
 */
export const CLOSE_FLIGHT_FROM = 3;
export const CLOSE_FLIGHT_APEX = 1.0;

/**
 * How much wider than the ball says (`2 × RIM_OVER_BALL × ballR`) a rim may be read before {@link startRimWidth} takes
 * the ball's width instead.
 */
export const RIM_WIDER_THAN_BALL = 1.25;

/**
 * The rim width that says whether a flight starts at the rim (and is a rebound, not a shot, unless another rule takes
 * it; see {@link detectShots}): the rim as read, or the width the ball gives when the rim was read more than
 * {@link RIM_WIDER_THAN_BALL} times wider. A panning camera's tracked rim is the median of its reads, and where the
 * rim's orange run joins the board's red lower edge it is read too wide: on the 24 development panning games and
 * held-304 (267 shots) the ball's width was 0.91–1.14 times the true rim's (10th to 90th percentile), and the rims
 * read over 1.4 times the ball's were 1.5–1.7 times the true one. A close jump shot released 2.2 true rim widths from
 * the rim (held-304 at 24.0 s, a bank-in from 1.5 m, its rim read 1.7 times too wide) then started "at the rim" and
 * was lost as a rebound. Only this test measures with it: the same width everywhere (the
 * goal's own, measured on the same games) narrows the make tests' windows around a centre the wide read has also
 * moved: 4 right calls turned wrong and 2 wrong ones right, 2 shots found and 2 lost.
 */
export function startRimWidth(hoop: Pick<HoopEstimate, 'w' | 'ballR'>): number {
  return Math.min(hoop.w, RIM_WIDER_THAN_BALL * 2 * RIM_OVER_BALL * hoop.ballR);
}

/**
 * Finds shot attempts at a hoop: a free flight that rose above the rim level and comes down
 * into the rim zone (or passes close to it, for air balls). Flights that start at the rim are
 * rebounds, not shots. Attempts closer than the minimum spacing are merged. `closeApex`: how far
 * over the rim (rim widths) a flight from under the rim must rise to be a close shot
 * ({@link shotFromUnderRim}, {@link CLOSE_SHOT_APEX}).
 */
export function detectShots(
  arcs: Arc[],
  hoop: HoopEstimate,
  candidates: BallCandidate[][],
  tracks: Track[],
  fps: number,
  timeScale: number,
  motion?: MotionProbe,
  descents: Arc[] = [],
  closeApex = CLOSE_SHOT_APEX,
  boardStops = false,
  closeFlights: Arc[] = [],
): ShotDetection[] {
  const w = hoop.w;
  const shots: ShotDetection[] = [];
  const atBoard: ShotDetection[] = [];
  const sorted = [...arcs].sort((a, b) => a.points[0].frame - b.points[0].frame);
  const close = new Set(closeFlights);
  for (const a of [...sorted, ...closeFlights]) {
    const p = a.points;
    const first = releasePoint(a);
    const last = p[p.length - 1];
    // a close flight (`arcs.ts#isCloseFlightArc`) is taken only as a close shot: thrown up from under the rim, near it
    if (close.has(a) && (Math.abs(first.x - hoop.x) > CLOSE_FLIGHT_FROM * w || !shotFromUnderRim(a, first, hoop, sorted, fps, timeScale, false, CLOSE_FLIGHT_APEX))) continue;
    // Starting at the rim: a rebound, unless a close shot from under the rim, one whose track broke as it rose past
    // the rim's level (starting there, with the ball seen coming up into its start: {@link brokeRisingPastRim}), or the
    // end of a shot falling into it.
    const forcedRim = close.has(a) ? -1 : fallingIntoRim(a, hoop, sorted, fps, timeScale);
    if (Math.hypot(first.x - hoop.x, first.y - hoop.y) < 1.6 * startRimWidth(hoop) && forcedRim < 0 && !shotFromUnderRim(a, first, hoop, sorted, fps, timeScale, false, closeApex) && !brokeRisingPastRim(a, first, hoop, candidates)) continue;
    if (a.apexY > hoop.y - SHOT_APEX_OVER_RIM * w) continue;
    if (a.r > 2.2 * hoop.ballR || a.r < 0.4 * hoop.ballR) continue;
    if (passesInFront(a, hoop)) continue;
    let rimFrame = forcedRim;
    let closest = Infinity;
    let closestFrame = last.frame;
    for (const q of p) {
      if (q.frame < a.apexFrame) continue;
      const dx = (q.x - hoop.x) / w;
      const dy = (q.y - hoop.y) / w;
      const d = Math.hypot(dx, dy * 1.3);
      if (d < closest) {
        closest = d;
        closestFrame = q.frame;
      }
      if (rimFrame < 0 && Math.abs(dx) < 1.0 && dy > -0.9 && dy < 0.6) rimFrame = q.frame;
    }
    const endVy = vyAt(a, last.frame);
    const endNear = Math.abs(last.x - hoop.x) < 1.6 * w && last.y > hoop.y - 1.6 * w && last.y < hoop.y + 1.0 * w;
    if (rimFrame < 0) {
      if (endNear && endVy > 0) rimFrame = last.frame;
      else if (closest < 1.3) rimFrame = closestFrame;
      else rimFrame = passesRimLevel(a, hoop);
      if (rimFrame < 0 && endVy > 0) rimFrame = extrapolatedArrival(a, hoop, Math.round((0.6 / timeScale) * fps));
      if (rimFrame < 0) {
        // the last resort, kept only when no other rule finds the attempt as surely (below): the flight to the board
        // often carries the ball's hold before the release in its track, and a merge would move a release another
        // detection had right
        const atBoardFrame = boardStops ? stopsOverRim(a, hoop.x, hoop.y, w) : -1;
        if (atBoardFrame >= 0) atBoard.push({ ...undecidedShot(a, first, atBoardFrame, Math.min(1, (p.length / 10) * a.score)), origin: 'flight' });
        continue;
      }
    }
    shots.push({ ...undecidedShot(a, first, rimFrame, Math.min(1, (p.length / 10) * a.score)), origin: 'flight' });
  }
  shots.push(...reappearingShots(sorted, hoop, candidates, fps, timeScale, shots));
  const fallers = [...sorted, ...descents].sort((a, b) => a.points[0].frame - b.points[0].frame);
  shots.push(...droppedThroughShots(fallers, hoop, fps, timeScale, shots));
  shots.push(...descentShots(descents, hoop, sorted, fps, timeScale));
  const minGap = Math.round((1.2 / timeScale) * fps);
  for (const s of atBoard) if (!shots.some((o) => Math.abs(o.rimFrame - s.rimFrame) < minGap && o.confidence >= s.confidence)) shots.push(s);
  shots.sort((x, y) => x.rimFrame - y.rimFrame);
  const merged = mergeCloseShots(shots, minGap);
  // `boardStops` is asked for at a panning camera's tracked hoops only: the camera moves.
  for (const s of merged) classifyMake(s, arcs, tracks, hoop, candidates, fps, timeScale, motion, boardStops);
  return merged;
}

/**
 * Detections (sorted by rim arrival) that reach the rim less than `minGap` frames after the one
 * before are one attempt: the one with the stronger arc (points × score) stays, with the release
 * of {@link mergeRelease}.
 */
export function mergeCloseShots(shots: ShotDetection[], minGap: number): ShotDetection[] {
  const merged: ShotDetection[] = [];
  for (const s of shots) {
    const prev = merged[merged.length - 1];
    if (prev && s.rimFrame - prev.rimFrame < minGap) {
      if (s.arc.points.length * s.arc.score > prev.arc.points.length * prev.arc.score) {
        mergeRelease(s, prev);
        merged[merged.length - 1] = s;
      } else if (prev.releaseGuessed && !s.releaseGuessed) takeRelease(prev, s);
      continue;
    }
    merged.push(s);
  }
  return merged;
}

/**
 * The release kept when two detections of one attempt merge: a seen release over a guessed one
 * (a guess is a fixed time before the first sighting and would pull the release — and with it
 * the shooter read at release — away from the real one), else the earlier of the two.
 */
function mergeRelease(keep: ShotDetection, other: ShotDetection): void {
  if (other.releaseGuessed && !keep.releaseGuessed) return;
  if (keep.releaseGuessed && !other.releaseGuessed) takeRelease(keep, other);
  else keep.releaseFrame = Math.min(keep.releaseFrame, other.releaseFrame);
}

function takeRelease(keep: ShotDetection, from: ShotDetection): void {
  keep.releaseFrame = from.releaseFrame;
  keep.releaseX = from.releaseX;
  keep.releaseY = from.releaseY;
  keep.releaseGuessed = false;
}

/**
 * Decides made/missed from what the ball does after it reaches the rim. A made ball shows up
 * below the rim inside the rim span and leaves the net falling with little sideways speed; a
 * miss bounces back up, leaves sideways or falls outside the rim span. A ball lost at the rim,
 * nothing of it read after, is called missed with low confidence.
 */
export function classifyMake(
  s: ShotDetection,
  arcs: Arc[],
  tracks: Track[],
  hoop: HoopEstimate,
  candidates: BallCandidate[][],
  fps: number,
  timeScale: number,
  motion?: MotionProbe,
  movingCamera = false,
): void {
  const w = hoop.w;
  const a = s.arc;
  const win = Math.round((0.9 / timeScale) * fps);
  const ev = s.evidence;
  const last = a.points[a.points.length - 1];
  ev.contact = last.y < hoop.y + 0.3 * w && Math.abs(last.x - hoop.x) < 1.5 * w;
  const c = a.fit.c;
  const b = a.fit.b;
  const aa = a.fit.a - hoop.y;
  const disc = b * b - 4 * c * aa;
  if (c > 0 && disc >= 0) {
    const t = (-b + Math.sqrt(disc)) / (2 * c);
    const x = a.fit.d + a.fit.e * t;
    ev.entryOffset = (x - hoop.x) / (w / 2);
  }
  // A ball that bounced up off the rim and came back down to it is read from its last arrival (see lastArrival).
  const back = lastArrival(s, tracks, hoop, fps, timeScale);
  const rimFrame = back >= 0 ? back : s.rimFrame;
  const at = { ...s, rimFrame };
  ev.anchorFrame = rimFrame;
  let bestExit: Arc | null = null;
  for (const e of arcs) {
    if (e === a) continue;
    const f0 = e.points[0].frame;
    if (f0 < rimFrame - 2 || f0 > rimFrame + win) continue;
    const p0 = e.points[0];
    if (Math.abs(p0.x - hoop.x) > 1.4 * w || p0.y < hoop.y - 1.5 * w || p0.y > hoop.y + 1.6 * w) continue;
    if (!bestExit || f0 < bestExit.points[0].frame) bestExit = e;
  }
  let through = 0;
  let out = 0;
  const start = rimFrame;
  const end = Math.min(candidates.length - 1, rimFrame + win);
  for (let f = start; f <= end; f++) {
    for (const q of candidates[f]) {
      if (q.score < 0.35 || q.r < 0.5 * hoop.ballR || q.r > 1.8 * hoop.ballR) continue;
      const dx = (q.x - hoop.x) / w;
      const dy = (q.y - hoop.y) / w;
      if (Math.abs(dx) < 0.45 && dy > 0.3 && dy < 1.6) through++;
      else if (Math.abs(dx) > 0.9 && Math.abs(dx) < 2.5 && dy > -1.5 && dy < 1.5) out++;
    }
  }
  ev.throughFrames = through;
  ev.outFrames = out;
  const netWin = Math.round((0.6 / timeScale) * fps);
  const netBox = (f0: number, f1: number) => netBoxMotion(motion!, hoop, f0, Math.min(candidates.length - 1, f1));
  ev.netMotion = motion ? netBox(rimFrame, rimFrame + netWin) : NaN;
  ev.netLate = motion ? netBox(rimFrame + Math.round((0.5 / timeScale) * fps), rimFrame + Math.round((1.2 / timeScale) * fps)) : NaN;
  const crossWin = Math.round((1.8 / timeScale) * fps);
  let cross = netCrossing(at, tracks, hoop, crossWin);
  // The ball seen over the rim after that crossing had not gone through yet: the first crossing was something else (a
  // blob of the net the rim contact shook), and the ball's own crossing, if any, comes after it (see ballOverRimAfter).
  if (!movingCamera && Number.isFinite(cross.frame)) {
    const over = ballOverRimAfter(candidates, hoop, cross.frame, cross.frame + (0.5 / timeScale) * fps);
    ev.overRimAfterCross = over.count;
    if (over.count >= OVER_RIM_AFTER_CROSS) cross = netCrossing({ ...s, rimFrame: over.last }, tracks, hoop, rimFrame + crossWin - over.last);
  }
  ev.crossOffset = cross.net;
  ev.rimCrossOffset = cross.rim;
  if (motion && !Number.isNaN(cross.frame)) {
    const f0 = Math.ceil(cross.frame) + 2;
    ev.netAfter = netBox(f0, f0 + Math.round((0.5 / timeScale) * fps));
  }
  const drop = dropRunBelowNet(candidates, hoop, rimFrame, rimFrame + Math.round((1.0 / timeScale) * fps), timeScale);
  ev.dropRun = drop.length;
  ev.dropSpeed = dropSpeed(drop, hoop, fps, timeScale);
  ev.exitRun = exitRunBelowNet(candidates, hoop, rimFrame, rimFrame + Math.round((NET_EXIT_WINDOW_S / timeScale) * fps), timeScale);
  ev.riseAfterRim = riseAfterRim(at, tracks, hoop, fps, timeScale);
  let made: boolean | null = null;
  let conf = 0.5;
  // What the ball sightings around the rim say over the whole window (many frames, not one crossing point): clearly more
  // inside the net than beside it, or the ball seen falling below the net, is a make; clearly more beside it a miss.
  const sightings = sightingsCall(ev);
  if (!Number.isNaN(ev.crossOffset)) {
    const ax = Math.abs(ev.crossOffset);
    // The crossing decides outside a band around its threshold. Inside the band — a few pixels either way on a small
    // rim, which a re-encoding moves — the rim-level crossing decides (it is nearer the rim, so less spread by the net),
    // then the sightings, then the threshold.
    let inside = ax < CROSS_MADE;
    ev.decidedBy = 'cross';
    if (ax > CROSS_MADE - CROSS_BAND && ax < CROSS_MADE + CROSS_BAND) {
      if (Number.isFinite(ev.rimCrossOffset)) {
        inside = Math.abs(ev.rimCrossOffset) < RIM_CROSS_MADE;
        ev.decidedBy = 'cross-band-rim';
      } else if (sightings !== null) {
        inside = sightings;
        ev.decidedBy = 'cross-band-sightings';
      }
    }
    // A still net right after rim arrival means nothing went through it, unless the net swings once the ball has left it (a ball that rolled on the rim before dropping in).
    made = inside;
    conf = Math.abs(ax - CROSS_MADE) > 0.5 ? 0.8 : 0.6;
    // A crossing inside the span with the ball seen beside the net far more often than in it and a net that hardly
    // moved: the crossing was another object (a blob of the net, the ball bouncing in front of it); two cues against one.
    // Unless the ball was also seen leaving the net as a make does (run version 64: `seenLeavingNet`).
    if (made && sightings === false && ev.netMotion < NET_DRAGGED && !seenLeavingNet(ev)) {
      made = false;
      conf = 0.55;
      ev.decidedBy = 'cross-overruled';
    }
    // The same track came down through the rim's level clearly outside the rim: whatever crossed the net-bottom level
    // inside the span afterwards, the ball did not go through the hoop (it fell in front of or behind the net).
    if (made && cameDownOutsideRim(ev)) {
      made = false;
      conf = 0.6;
      ev.decidedBy = 'rim-outside';
    }
    // Back down from a bounce off the rim (fixed cameras): a ball that drops through the net now drags it, one that falls
    // in front of or behind it leaves it still, whatever the clip's other nets show (see bounceNetStill).
    if (made && back >= 0 && !movingCamera && bounceNetStill(ev)) {
      made = false;
      conf = 0.6;
      ev.decidedBy = 'bounce-net-still';
    }
    if (bestExit) {
      const e = bestExit;
      ev.dwellFrames = e.points[0].frame - s.rimFrame;
    }
  } else if (bestExit) {
    const e = bestExit;
    const p0 = e.points[0];
    const pl = e.points[Math.min(e.points.length - 1, Math.round(0.35 * fps / timeScale))];
    const vy0 = vyAt(e, p0.frame);
    const dy = pl.y - p0.y;
    const dxx = pl.x - p0.x;
    ev.exitSlope = Math.abs(dxx) / Math.max(1, Math.abs(dy));
    ev.dwellFrames = p0.frame - s.rimFrame;
    const inside = Math.abs(p0.x - hoop.x) < 0.6 * w;
    // A flight that starts inside the net, under the rim, and never comes back up to the rim is falling through
    // it, whatever a short fit's apex says (the net slows the ball, so the first points bend the parabola).
    const inNet = inside && p0.y > hoop.y + 0.3 * w && e.apexY > hoop.y + 0.1 * w;
    const goesUp = !inNet && (e.apexY < p0.y - 0.6 * e.r || vy0 < -0.5 * e.r * timeScale);
    if (goesUp) {
      ev.exit = 'up';
      made = false;
      conf = 0.75;
      ev.decidedBy = 'exit-up';
    } else if (inside && ev.exitSlope < 0.42 && p0.y > hoop.y - 0.3 * w) {
      ev.exit = 'down-through';
      made = true;
      conf = 0.75;
      ev.decidedBy = 'exit-down';
    } else {
      ev.exit = 'sideways';
      // the weakest exit reading: overruled by sightings that clearly say the ball went through
      made = sightings === true;
      conf = 0.6;
      ev.decidedBy = 'exit-sideways';
    }
  }
  if (made === null) {
    if (through >= 2 && through > out) {
      made = true;
      conf = 0.6;
      ev.decidedBy = 'sightings';
    } else if (out >= 2) {
      made = false;
      conf = 0.55;
      ev.decidedBy = 'sightings';
    } else if (!Number.isNaN(ev.entryOffset)) {
      // Nothing of the ball read after the rim (no crossing, no flight away from it, too few sightings to call), its way
      // in read down to the rim's level: missed. A make drops through the net, where the ball is seen; a ball lost at the
      // rim bounced off it out of sight. Before run version 24 the incoming parabola's aim decided (within 0.6 rim
      // half-widths of the centre: made): right on 13 of 24 such shots of the cached synthetic, development and scripted
      // clips and on 1 of 2 of the real clips' transformed copies. 25 of those 26 were misses (rim-outs, a bank-out); the
      // one make was called missed either way (its parabola came in 6.4 half-widths off). A way in that never comes
      // down to the rim's level (no `entryOffset`) leaves the call open, as before.
      made = false;
      conf = 0.5;
      ev.decidedBy = 'unseen-after-rim';
    }
  }
  // Whatever cue called it made: a ball that went through the net moved it, in the 0.6 s after rim arrival or, once
  // the ball has left it, in the swing after (`netAfter`, or 0.5–1.2 s after rim arrival without a crossing). A net
  // that stayed still over the whole window had nothing go through it — the ball dropped in front of or behind it
  // (seen from the baseline, a rim-out falls in line with the net and is seen "through" and below it).
  if (made === true && netStill(ev)) {
    made = false;
    ev.decidedBy = 'still-net';
  }
  s.made = made;
  s.madeConfidence = conf;
  setKind(s, fps, timeScale);
  const endAt = bestExit ? bestExit.points[Math.min(bestExit.points.length - 1, 6)].frame : s.rimFrame + Math.round(win / 2);
  s.endFrame = Math.max(s.rimFrame, endAt);
}

/** Net-box motion in the 0.6 s after rim arrival (`netMotion`) below which the net did not move while the ball was at it. */
export const NET_STILL = 0.015;

/**
 * The net stayed still through the whole window: below {@link NET_STILL} in the 0.6 s after rim arrival and not
 * swinging afterwards (`netAfter` after a crossing, `netLate` without one, below the moving-net level). Without motion
 * data nothing is known (false).
 */
export function netStill(ev: Pick<MakeEvidence, 'netMotion' | 'netAfter' | 'netLate' | 'crossOffset'>): boolean {
  if (!(ev.netMotion < NET_STILL)) return false;
  const after = Number.isFinite(ev.crossOffset) ? ev.netAfter : ev.netLate;
  return !(after >= NET_AFTER_MOVING);
}

/** Net-bottom crossing within this many rim half-widths of the centre: made. */
export const CROSS_MADE = 1.4;
/** Half-width of the band around {@link CROSS_MADE} where the crossing alone does not decide (rim half-widths). */
export const CROSS_BAND = 0.3;
/** Rim-level crossing within this many rim half-widths of the centre: through the rim (decides inside the band). */
export const RIM_CROSS_MADE = 1.0;
/**
 * Rim-level crossing (`rimCrossOffset`, rim half-widths) from which the ball came down outside the rim, whatever the
 * net-bottom crossing says: beyond the band around {@link CROSS_MADE} (measured: makes up to 0.68 on the synthetic sets
 * and 1.04 on a real 45-degree clip, a rim-in that rolled to the rim's edge before dropping in; an air ball of a
 * panning game that fell past the rim 2.0 half-widths off its centre and then crossed the net-bottom level inside the
 * span, a blob of the net under it, called made).
 */
export const RIM_OUTSIDE = CROSS_MADE + CROSS_BAND;

/** The ball's track came down through the rim's level at least {@link RIM_OUTSIDE} rim half-widths off its centre (false when not seen). */
export function cameDownOutsideRim(ev: Pick<MakeEvidence, 'rimCrossOffset'>): boolean {
  return Math.abs(ev.rimCrossOffset) >= RIM_OUTSIDE;
}
/** Net-box motion in the 0.6 s after rim arrival (`netMotion`) above which the net was clearly dragged by the ball (makes on the real clips: 0.13–0.36 but for one rim-in at 0.02). */
export const NET_DRAGGED = 0.15;
/** Ball sightings inside the net (`throughFrames`) exceeding those beside it (`outFrames`) by this many say made; the reverse, missed. */
export const SIGHTINGS_MARGIN = 3;

/**
 * The call of the ball sightings around the rim (see {@link MakeEvidence.throughFrames}): made when those inside the
 * net outnumber those beside it by {@link SIGHTINGS_MARGIN}, or the ball was seen falling below the net
 * (`dropRun` ≥ {@link DROP_RUN_MADE}) with more sightings inside than beside; missed when those beside outnumber
 * those inside by the margin; null (no call) otherwise.
 */
export function sightingsCall(ev: Pick<MakeEvidence, 'throughFrames' | 'outFrames' | 'dropRun'>): boolean | null {
  const d = ev.throughFrames - ev.outFrames;
  if (seenInNet(ev) || (ev.dropRun >= DROP_RUN_MADE && d > 0)) return true;
  if (-d >= SIGHTINGS_MARGIN) return false;
  return null;
}

function setKind(s: ShotDetection, fps: number, timeScale: number): void {
  const ev = s.evidence;
  if (s.made === true) s.kind = ev.contact && ev.dwellFrames > (0.25 * fps) / timeScale ? 'rim_in' : 'swish';
  else if (s.made === false) s.kind = ev.contact ? 'rim_out' : 'air_ball';
  else s.kind = 'unknown';
}

/**
 * A make whose ball rose again at the rim by this much (rim widths, `riseAfterRim`) bounced off it (cameras looking
 * down). 0.35 up to run version 22; held-206 (an elevated tripod view) had two rim-outs that sat on the rim for 25–28
 * frames and bounced up 0.335 and 0.348 called made, while its makes rose at most 0.20.
 */
export const REBOUND_RISE_MISSED = 0.3;

/**
 * Cameras looking down on the rim (elevated views): a rim-out that bounces off the rim and falls in front of or
 * behind the net crosses the net-bottom level inside the rim span in the image, and its net may swing too (the
 * ball brushes it), so crossing and net swing call it made. Its path says otherwise: after rim arrival it went up
 * again (`riseAfterRim` 0.33–1.8 rim widths on the rim-outs and bank-outs measured) where a ball that drops
 * through the net only falls (≤ 0.20 on the makes measured). A make with such a rise is called missed.
 */
export function reboundRiseVeto(shots: ShotDetection[], fps: number, timeScale: number): void {
  for (const s of shots) {
    if (s.made !== true || s.droppedThrough || !(s.evidence.riseAfterRim >= REBOUND_RISE_MISSED)) continue;
    s.made = false;
    s.madeConfidence = s.evidence.riseAfterRim >= 2 * REBOUND_RISE_MISSED ? 0.7 : 0.6;
    s.evidence.decidedBy = 'rebound-rise-veto';
    setKind(s, fps, timeScale);
  }
}

/**
 * Ball sightings falling below the net (`dropRun`) that say the ball came out of the net whatever the net's swing after
 * it: two more than {@link DROP_RUN_MADE}; a rim-out or air ball dropping in line with the net reaches 3–5 on a fixed
 * camera (below).
 */
export const DROP_RUN_THROUGH = 6;

/**
 * The ball was seen dropping out of the net: a run of ≥ {@link DROP_RUN_THROUGH} sightings falling below it in the second
 * after rim arrival (`dropRun`), or coming straight out of the net's bottom in the 1.4 s after it (`exitRun`, run
 * version 70: a rim-in that sat on the rim leaves the net after the second, a slow make's `dropRun` window misses it),
 * with the sightings inside the net outnumbering those beside it by {@link SIGHTINGS_MARGIN} (the sightings' own call
 * of a make, {@link sightingsCall}). The net-swing veto does not overrule such a make. A ball falling through the net is
 * seen in it on several frames; one falling in line with the net's edge, in front of or behind it, is seen under the
 * net as long but in it once or twice: a bank-out of cases-24 at 37.0 s (baseline view) came down at the rim's edge
 * and fell straight on below the net (`dropRun` 6) with 1 sighting in the net and a dead net after (`netAfter` 0.001
 * against the clip's 0.07), and a rim-out of a new tripod game (seed 711 at 106.9 s) with 2 (`netAfter` 0.003); both
 * were kept made by "more in than beside" (1 > 0, 2 > 0). The makes this keeps (tuning, seen, dev and validation
 * renders) show 5–8 sightings in the net and none beside (a rim-in of cases-26 at 10.1 s showed 2 on an earlier
 * extraction; that clip's nets stay under the veto's reference). Measured on renders of
 * the tuning games and of new games: the five makes the veto called missed had `dropRun` 6–8, 2–6 sightings in the
 * net and none beside, and nets that moved while the ball was in them (`netMotion` 0.13–0.21), but read still after
 * the crossing (`netAfter` 0.01–0.025, `netLate` 0.002 without one: under 0.15 of their clip's reference). Traced on
 * one (a bank-in on a sideline view): the ball sat on the rim for 0.4 s, dropped through the net and was followed
 * falling under it to the floor; the crossing was read from blobs in the net as the drop began. The rim-outs,
 * bank-outs and air balls the veto rightly called missed had `dropRun` 3–4, and one air ball falling just in front of
 * the net 5 (2 sightings in the net, a net that never moved: `netMotion` 0.024).
 */
export function seenDroppingThrough(ev: Pick<MakeEvidence, 'dropRun' | 'exitRun' | 'throughFrames' | 'outFrames'>): boolean {
  return Math.max(ev.dropRun, ev.exitRun) >= DROP_RUN_THROUGH && seenInNet(ev);
}

/** The ball was seen inside the net {@link SIGHTINGS_MARGIN} more times than beside it (the sightings' own call of a make). */
function seenInNet(ev: Pick<MakeEvidence, 'throughFrames' | 'outFrames'>): boolean {
  return ev.throughFrames - ev.outFrames >= SIGHTINGS_MARGIN;
}

/** Net swing after the ball left the net (`netAfter`) that counts as a moving net on its own. */
const NET_AFTER_MOVING = 0.05;
/** A make whose net stays stiller than this fraction of the clip's swinging nets is a ball that dropped in front of or behind the net. */
const NET_AFTER_VETO = 0.15;

/**
 * Second pass over all shots of a clip: a ball that drops through the net leaves it swinging after it has gone
 * (`netAfter`), a ball that falls in front of or behind the net — the same path in the image — leaves it still.
 * How much a net's swing shows in the motion mask depends on the view (net size, texture, background), so the
 * reference is the clip's own: the upper quartile of `netAfter` over its shots (those with a measured crossing,
 * at least 4 of them; the shots called made when those show no swing). When that reference shows swinging nets
 * (≥ `NET_AFTER_MOVING`), makes decided by the net crossing whose net stayed below `NET_AFTER_VETO` of it are called
 * missed, unless the ball was seen dropping out of the net ({@link seenDroppingThrough}) or, against the made shots'
 * reference at rim height (taken there only when the nets over all shots read still, under {@link BOUNCE_NET_AFTER}),
 * seen in the net {@link SIGHTINGS_MARGIN} more times than beside it ({@link seenInNet}). Clips whose nets do not show
 * in the motion mask (the reference stays low) keep the crossing decision.
 */
export function netSwingVeto(shots: ShotDetection[], fps: number, timeScale: number, view: { lookingDown?: boolean } = {}): void {
  const upperQuartile = (values: number[]) => {
    const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return v.length < 4 ? NaN : v[Math.min(v.length - 1, Math.floor(0.75 * v.length))];
  };
  // Shots found from the ball leaving the net were seen below it, not through it: they neither set nor take the veto.
  const flights = shots.filter((s) => !s.droppedThrough);
  // When the nets over all shots show no swing, the reference is the nets of the shots called made (≥ 4 of them): a
  // clip with few makes among many misses has an upper quartile of still nets over all its shots, and the veto would
  // never fire — an elevated view, where rim-outs pass through the rim's ellipse in the image and are called made, or
  // a view at rim height with one make in twelve attempts. At rim height (behind the shooter, makes with a still net
  // are common) that reference is taken only over still nets (< BOUNCE_NET_AFTER over all shots: a clip whose nets all
  // move a little, a shaky camera, has makes seen in the net too rarely to keep them) and overrules only the makes
  // hardly seen in the net (run version 71). Clips whose nets do not show in the motion mask stay below the
  // threshold either way.
  const made = flights.filter((s) => s.made === true);
  const reference = (k: 'netAfter' | 'netLate') => {
    const fromAll = upperQuartile(flights.map((s) => s.evidence[k]));
    if (fromAll >= NET_AFTER_MOVING || (!view.lookingDown && !(fromAll < BOUNCE_NET_AFTER))) return { ref: fromAll, fromMade: false };
    const fromMade = upperQuartile(made.map((s) => s.evidence[k]));
    return Number.isFinite(fromMade) ? { ref: fromMade, fromMade: true } : { ref: fromAll, fromMade: false };
  };
  const refAfter = reference('netAfter');
  const refLate = reference('netLate');
  for (const s of flights) {
    const ev = s.evidence;
    if (s.made !== true) continue;
    // With a crossing: the net after the ball left it. Without one (the ball lost at the rim): the net 0.5–1.2 s after rim arrival.
    const crossed = Number.isFinite(ev.crossOffset);
    const v = crossed ? ev.netAfter : ev.netLate;
    const { ref, fromMade } = crossed ? refAfter : refLate;
    if (!(ref >= NET_AFTER_MOVING) || !Number.isFinite(v) || v >= NET_AFTER_VETO * ref) continue;
    if (seenDroppingThrough(ev)) continue;
    if (fromMade && !view.lookingDown && seenInNet(ev)) continue;
    s.made = false;
    s.madeConfidence = v < 0.5 * NET_AFTER_VETO * ref ? 0.7 : 0.6;
    s.evidence.decidedBy = 'net-swing-veto';
    setKind(s, fps, timeScale);
  }
}
