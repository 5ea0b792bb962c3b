import { describe, expect, it } from 'vitest';
import {
  backProject,
  cameraFromPose,
  COURTS,
  courtReader,
  courtViewsAt,
  VIEW_FOCAL_SPREAD,
  courtVisible,
  cameraSide,
  checkCourt,
  looksDown,
  fitCourt,
  type CourtFitMemo,
  flightPathDistance,
  FT_PAIR_MAX_GAP_S,
  FT_SPOT_RADIUS_M,
  FT_PAIR_PATH,
  FT_PAIR_PATH_AT_SPOT,
  lineMask,
  longestLine,
  MIN_COVERAGE,
  MAX_RELEASE_REACH,
  MIN_MATCHED_PX,
  STILL_FIT_STARTS,
  modelPoints,
  placeShots,
  project,
  fitFromCamera,
  tripodCameras,
  turnedCamera,
  anglesOf,
  TRIPOD_MIN_COVERAGE,
  MOVING_MAX_FLIGHT_RMS_M,
  MAX_FLIGHT_RMS_M,
  reconstructFlight,
  flightFromFeet,
  FEET_MIN_SIGHTINGS,
  FEET_SPREAD_M,
  BALL_AHEAD_M,
  type FeetSighting,
  riseTrackedApart,
  RISE_JOIN_GAP_S,
  oneThrow,
  threePointDistance,
  locateShot,
  type CourtCamera,
  type CourtModel,
  type CourtFit,
} from './court-lines';
import { fitArc, type BallCandidate } from './ball-track';
import type { ShotDetection } from './shots';
import type { ShotAction } from './types';

const W = 640;
const H = 360;

/** A camera at `pos` looking at `target` (tilted down by `tilt` radians more) with a horizontal field of view in degrees. */
function lookAt(pos: [number, number, number], target: [number, number, number], fovDeg: number, tilt = 0): CourtCamera {
  const dx = target[0] - pos[0];
  const dy = target[1] - pos[1];
  const dz = target[2] - pos[2];
  const yaw = Math.atan2(dy, dx);
  const pitch = -Math.atan2(dz, Math.hypot(dx, dy)) + tilt;
  const focal = W / 2 / Math.tan((fovDeg * Math.PI) / 360);
  return cameraFromPose(pos, yaw, pitch, 0.01, focal, W / 2, H / 2);
}

/** A camera at `pos` looking at the rim (0, 0, 3.05) with a horizontal field of view in degrees. */
function lookAtRim(pos: [number, number, number], fovDeg: number): CourtCamera {
  return lookAt(pos, [0, 0, 3.05], fovDeg, 0.12);
}

/**
 * How a court is painted: the floor's colour, and how much of a line pixel the white paint covers (1: lines two
 * pixels wide in pure paint; less: one pixel that mixes the paint with the floor, a line thinner than a pixel).
 */
interface CourtLook {
  floor: [number, number, number];
  paint: number;
}

/** Light wood with lines two pixels wide. */
const LIGHT_WOOD: CourtLook = { floor: [205, 160, 105], paint: 1 };

/**
 * A floor of wood (light by default) with the half-court lines of `model` (FIBA by default) painted on it as seen
 * by `cam`, plus some light clutter.
 */
function renderCourt(cam: CourtCamera, lines = true, model: CourtModel = COURTS.fiba, look: CourtLook = LIGHT_WOOD): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < W * H; i++) {
    const n = (rnd() - 0.5) * 12;
    for (let c = 0; c < 3; c++) rgb[3 * i + c] = look.floor[c] + n;
  }
  const paint = (u: number, v: number, c: number) => {
    const x = Math.round(u);
    const y = Math.round(v);
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    rgb.fill(c, 3 * (y * W + x), 3 * (y * W + x) + 3);
  };
  const mix = (u: number, v: number) => {
    const x = Math.round(u);
    const y = Math.round(v);
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    for (let c = 0; c < 3; c++) rgb[3 * (y * W + x) + c] = Math.round(look.floor[c] + look.paint * (250 - look.floor[c]));
  };
  if (lines) {
    const pts = modelPoints(model, 0.01);
    for (let i = 0; i < pts.length; i += 2) {
      const q = project(cam, pts[i], pts[i + 1], 0);
      if (q.depth <= 0) continue;
      if (look.paint < 1) {
        mix(q.u, q.v);
        continue;
      }
      paint(q.u, q.v, 245);
      paint(q.u + 0.6, q.v + 0.6, 245);
    }
  }
  // clutter: light boxes (not lines)
  for (let k = 0; k < 12; k++) {
    const x0 = Math.floor(rnd() * (W - 40));
    const y0 = Math.floor(rnd() * (H / 3));
    for (let y = y0; y < y0 + 12; y++) for (let x = x0; x < x0 + 30; x++) paint(x, y, 235);
  }
  return rgb;
}

function rimOf(cam: CourtCamera) {
  const c = project(cam, 0, 0, 3.05);
  const a = project(cam, 0, -0.225, 3.05);
  const b = project(cam, 0, 0.225, 3.05);
  return { x: c.u, y: c.v, w: Math.hypot(b.u - a.u, b.v - a.v) };
}

/** Median floor-position error (m) of the fitted camera over court points the true camera sees. */
function floorError(truth: CourtCamera, fitted: CourtCamera): number {
  const errs: number[] = [];
  for (let x = -1; x <= 9; x++) {
    for (let y = -7; y <= 7; y++) {
      const q = project(truth, x, y, 0);
      if (q.depth <= 0 || q.u < 0 || q.v < 0 || q.u >= W || q.v >= H) continue;
      const p = backProject(fitted, q.u, q.v, 0);
      errs.push(p ? Math.hypot(p.x - x, p.y - y) : 99);
    }
  }
  errs.sort((a, b) => a - b);
  return errs[errs.length >> 1];
}

/** Image track of a ball thrown from floor point (x, y) at 2.7 m so that it drops into the rim after `frames` at 30 fps. */
function flightTrack(cam: CourtCamera, x: number, y: number, frames = 33) {
  const T = frames / 30;
  const vx = -x / T;
  const vy = -y / T;
  const vz = (3.05 - 2.7 + 0.5 * 9.81 * T * T) / T;
  const pts: Array<{ frame: number; x: number; y: number; r: number }> = [];
  for (let f = 0; f <= frames; f++) {
    const t = f / 30;
    const q = project(cam, x + vx * t, y + vy * t, 2.7 + vz * t - 0.5 * 9.81 * t * t);
    pts.push({ frame: 100 + f, x: q.u, y: q.v, r: (cam.focal * 0.12) / q.depth });
  }
  return pts;
}

describe('court geometry', () => {
  it('measures the signed distance from the 3-point line (arc and corner straights)', () => {
    const m = COURTS.fiba;
    expect(threePointDistance(m, 7, 0)).toBeCloseTo(0.25, 5);
    expect(threePointDistance(m, 6.5, 0)).toBeCloseTo(-0.25, 5);
    expect(threePointDistance(m, 0, 7)).toBeCloseTo(0.4, 5);
    expect(threePointDistance(m, 0, -6)).toBeCloseTo(-0.6, 5);
    expect(threePointDistance(m, 4, 4)).toBeLessThan(0);
    expect(threePointDistance(m, 5, 5)).toBeGreaterThan(0);
  });

  it('back-projects an image point to the floor point it came from', () => {
    const cam = lookAtRim([10, 12, 7.5], 55);
    const q = project(cam, 3.2, -1.7, 0);
    const p = backProject(cam, q.u, q.v, 0)!;
    expect(p.x).toBeCloseTo(3.2, 6);
    expect(p.y).toBeCloseTo(-1.7, 6);
  });

  it.each([
    // median floor error allowed (m): a low camera sees the far floor at a grazing angle
    ['elevated', [10.5, 13, 7.8] as [number, number, number], 56, 0.3],
    ['corner, low', [9, -8.5, 1.8] as [number, number, number], 60, 0.45],
  ])('fits the camera to painted lines seen from a %s camera', (_name, pos, fov, maxErr) => {
    const truth = lookAtRim(pos, fov);
    const rim = rimOf(truth);
    // the measured rim width is off by 15 %: the lines correct the scale
    const fit = fitCourt(renderCourt(truth), W, H, { ...rim, w: rim.w * 1.15 });
    expect(fit).not.toBeNull();
    expect(fit!.coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
    expect(fit!.matchedPx).toBeGreaterThan(MIN_MATCHED_PX);
    expect(floorError(truth, fit!.camera)).toBeLessThan(maxErr);
  });

  it.each([
    ['elevated', [10.5, 13, 7.8] as [number, number, number], 56],
    ['corner, raised', [8, -10, 5] as [number, number, number], 60],
    ['corner, low', [9, -8.5, 1.8] as [number, number, number], 60],
  ])('tells NBA lines from FIBA lines (%s camera)', (_name, pos, fov) => {
    const truth = lookAtRim(pos, fov);
    const rim = rimOf(truth);
    for (const model of [COURTS.fiba, COURTS.nba]) {
      const fit = fitCourt(renderCourt(truth, true, model), W, H, { ...rim, w: rim.w * 1.15 });
      expect(fit).not.toBeNull();
      expect(fit!.model.name).toBe(model.name);
      expect(floorError(truth, fit!.camera)).toBeLessThan(0.45);
    }
  });

  it('sees a court in frames with painted lines, none on a floor without lines or on a test pattern', () => {
    const cams = [lookAtRim([10.5, 13, 7.8], 56), lookAtRim([9, -8.5, 1.8], 60)];
    for (const cam of cams) {
      expect(longestLine(renderCourt(cam), W, H)).toBeGreaterThan(0.3);
      expect(courtVisible([{ rgb: renderCourt(cam) }], W, H)).toBe(true);
      expect(courtVisible([{ rgb: renderCourt(cam, false) }], W, H)).toBe(false);
    }
    // colour bars with thin dark and light stripes: edges, but no thin light line a tenth of the width long
    const bars = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = 3 * (y * W + x);
        const k = Math.floor(x / 80);
        bars[i] = k & 1 ? 230 : 40;
        bars[i + 1] = k & 2 ? 220 : 30;
        bars[i + 2] = k & 4 ? 210 : 60;
        if (y % 24 === 0 && x % 80 < 40) bars.fill(250, i, i + 3); // dashes of 40 px
      }
    }
    expect(longestLine(bars, W, H)).toBeLessThan(0.1);
    expect(courtVisible([{ rgb: bars }, { rgb: bars }], W, H)).toBe(false);
    expect(courtVisible([], W, H)).toBe(false);
  });

  it('finds no court on a floor without lines', () => {
    const truth = lookAtRim([10.5, 13, 7.8], 56);
    const fit = fitCourt(renderCourt(truth, false), W, H, rimOf(truth));
    expect(fit === null || fit.coverage < MIN_COVERAGE || fit.matchedPx < MIN_MATCHED_PX).toBe(true);
  });
});

describe('shot placement', () => {
  const cam = lookAtRim([10.5, 13, 7.8], 56);
  const court: CourtFit = { camera: cam, model: COURTS.fiba, coverage: 1, matchedPx: 500 };

  it('reconstructs a flight in court metres: where it was thrown from and the ball size check', () => {
    const fl = reconstructFlight(court, flightTrack(cam, 6.2, 3.6), 30, 1)!;
    expect(fl).not.toBeNull();
    expect(fl.rms).toBeLessThan(0.05);
    expect(fl.sizeRatio).toBeGreaterThan(0.95);
    expect(fl.sizeRatio).toBeLessThan(1.05);
    // thrown from 2.7 m, so the release height (2.6 m) lies a touch behind; the feet 0.25 m further
    const r = Math.hypot(fl.origin.x, fl.origin.y);
    expect(r).toBeGreaterThan(Math.hypot(6.2, 3.6));
    expect(r).toBeLessThan(Math.hypot(6.2, 3.6) + 0.6);
    expect(Math.atan2(fl.origin.y, fl.origin.x)).toBeCloseTo(Math.atan2(3.6, 6.2), 2);
  });

  it('follows a flight first seen near its top back to the release, up to twice as long as it was seen', () => {
    // a three from 7.2 m whose rise was lost (against the crowd, the players): the ball first seen 19 frames into its
    // 33-frame flight, near the top, and followed for 14 frames to the rim
    const track = flightTrack(cam, 7.2, -2.0);
    const late = reconstructFlight(court, track.slice(19), 30, 1)!;
    expect(late).not.toBeNull();
    expect(Math.hypot(late.origin.x, late.origin.y)).toBeGreaterThan(7.2);
    expect(Math.hypot(late.origin.x, late.origin.y)).toBeLessThan(Math.hypot(7.2, 2.0) + 0.6);
    expect(locateShot(court, late).isThree).toBe(true);
    // the release lies 19 frames before a 14-frame piece: more than the piece (refused up to run version 39), at most twice it
    expect(19 / 14).toBeGreaterThan(1);
    expect(19 / 14).toBeLessThanOrEqual(MAX_RELEASE_REACH);
    // first seen 25 frames in, for 8 frames: the release would lie three times as long before it
    expect(reconstructFlight(court, track.slice(25), 30, 1)).toBeNull();
  });

  it('calls 3 beyond the arc, 2 inside, and nothing next to the line', () => {
    const three = locateShot(court, reconstructFlight(court, flightTrack(cam, 6.6, 2.5), 30, 1)!);
    expect(three.isThree).toBe(true);
    expect(three.world![1]).toBeGreaterThan((6.6 - COURTS.fiba.baseX) / 14);
    const two = locateShot(court, reconstructFlight(court, flightTrack(cam, 4.2, -1.5), 30, 1)!);
    expect(two.isThree).toBe(false);
    // a flight thrown from 2.7 m at 6.45 m lands its feet within 0.3 m of the 6.75 m line
    const close = locateShot(court, reconstructFlight(court, flightTrack(cam, 6.45, 0), 30, 1)!);
    expect(close.isThree).toBeNull();
  });

  function detection(pts: ReturnType<typeof flightTrack>, made: boolean): ShotDetection {
    const fit = fitArc(pts.map((p) => ({ ...p, score: 1, ballColour: 1 }) as BallCandidate))!;
    return {
      arc: { points: pts, fit } as unknown as ShotDetection['arc'],
      releaseFrame: pts[0].frame,
      rimFrame: pts[pts.length - 1].frame,
      endFrame: pts[pts.length - 1].frame + 10,
      releaseX: pts[0].x,
      releaseY: pts[0].y,
      made,
    } as ShotDetection;
  }
  function action(): ShotAction {
    return { is_free_throw: false, is_three_point: null, points: 0, shot_world: null } as ShotAction;
  }

  describe('a flight whose rise was tracked apart', () => {
    // a three from 7.2 m: the ball shrank into the ceiling at its apex, and a second track (id 2) picked it up 25 frames
    // into its 33-frame flight, for 9 frames: too short a piece to reach back to the release on its own
    const whole = flightTrack(cam, 7.2, -2.0).map((p) => ({ ...p, score: 1, ballColour: 1 }) as BallCandidate);
    const descent = whole.slice(25);
    const shotOf = () => {
      const d = detection(descent, true);
      const rs = descent.map((p) => p.r).sort((x, y) => x - y);
      d.arc = { ...d.arc, trackId: 2, r: rs[rs.length >> 1] };
      return d;
    };
    const track = (id: number, pts: BallCandidate[]) => ({ id, points: pts });
    const join = (shot: ShotDetection, tracks: Array<{ id: number; points: BallCandidate[] }>) =>
      riseTrackedApart(shot, tracks, 30, 1, (pts) => oneThrow(reconstructFlight(court, pts, 30, 1), pts.length - shot.arc.points.length));

    it('joins the rise of the same throw and places the shot from it', () => {
      const rise = whole.slice(0, 23);
      const shots = [shotOf()];
      const alone = shots.map(action);
      placeShots(alone, shots, court, [0.9], 30, 1);
      expect(alone[0].is_three_point).toBeNull();
      const joined = join(shots[0], [track(1, rise), track(2, descent)])!;
      expect(joined.map((p) => p.frame)).toEqual([...rise, ...descent].map((p) => p.frame));
      const actions = shots.map(action);
      const placed = placeShots(actions, shots, court, [0.9], 30, 1, { tracks: [track(1, rise), track(2, descent)] });
      expect(actions[0].is_three_point).toBe(true);
      expect(placed[0].rise).toBe(rise.length);
      expect(Math.hypot(placed[0].origin!.x, placed[0].origin!.y)).toBeGreaterThan(7.2);
      expect(Math.hypot(placed[0].origin!.x, placed[0].origin!.y)).toBeLessThan(Math.hypot(7.2, 2.0) + 0.6);
    });

    it('leaves out the shrinking ball at the apex, keeps a rise that overlaps the piece seen after it', () => {
      // the first track runs on 2 frames past the second's start with a ball a third of its size
      const rise = [...whole.slice(0, 25), ...whole.slice(25, 27).map((p) => ({ ...p, r: p.r / 3 }))];
      const joined = join(shotOf(), [track(1, rise)])!;
      expect(joined).not.toBeNull();
      expect(joined.length).toBe(25 + descent.length);
    });

    it('joins a rise lost over its apex for half a second (out over the frame\'s top edge)', () => {
      // ended 0.53 s before the piece was first seen: not joined up to run version 64 (0.33 s)
      const rise = whole.slice(0, 10);
      const joined = join(shotOf(), [track(1, rise)])!;
      expect(joined.map((p) => p.frame)).toEqual([...rise, ...descent].map((p) => p.frame));
      const shots = [shotOf()];
      const actions = shots.map(action);
      placeShots(actions, shots, court, [0.9], 30, 1, { tracks: [track(1, rise), track(2, descent)] });
      expect(actions[0].is_three_point).toBe(true);
    });

    it('takes no rise that ended more than RISE_JOIN_GAP_S before the piece seen, even one that fits the throw', () => {
      // a high lob of 2 s from 7.2 m: its true rise, lost 1.3 s before the descent is picked up 10 frames before the rim
      const lob = flightTrack(cam, 7.2, -2.0, 60).map((p) => ({ ...p, score: 1, ballColour: 1 }) as BallCandidate);
      const shot = detection(lob.slice(50), true);
      shot.arc = { ...shot.arc, trackId: 2, r: lob[50].r };
      const accepts = (pts: BallCandidate[]) => oneThrow(reconstructFlight(court, pts, 30, 1), pts.length - shot.arc.points.length);
      expect(accepts([...lob.slice(0, 12), ...lob.slice(50)])).toBe(true);
      expect((lob[50].frame - lob[11].frame) / 30).toBeGreaterThan(RISE_JOIN_GAP_S);
      expect(join(shot, [track(1, lob.slice(0, 12))])).toBeNull();
      // the same throw's rise followed until 0.87 s before the descent is joined
      expect(join(shot, [track(1, lob.slice(0, 25))])).not.toBeNull();
    });

    it('takes no piece of another movement: a pass the other way, another curve', () => {
      const shot = shotOf();
      // a pass flying up and the other way across the image, ending where the throw's rise would
      const end = whole[22];
      const pass = Array.from({ length: 12 }, (_, k) => ({ ...end, frame: end.frame - 11 + k, x: end.x + 6 * (11 - k), y: end.y + 3 * (11 - k) }));
      expect(join(shot, [track(1, pass)])).toBeNull();
      // a lob curving twice as tightly into the same point at the join (another throw's parabola)
      const lob = whole.slice(0, 23).map((p) => ({ ...p, y: end.y + (p.y - end.y) * 2 }));
      expect(join(shot, [track(1, lob)])).toBeNull();
      // the throw's path, but a ball twice the size: nearer the camera than the flight puts it (another ball in line)
      const near = whole.slice(0, 23).map((p) => ({ ...p, r: 2 * p.r }));
      expect(join(shot, [track(1, near)])).toBeNull();
      // a ball that does not rise (a dribble, a ball carried at the waist)
      const flat = whole.slice(0, 23).map((p) => ({ ...p, y: whole[0].y }));
      expect(join(shot, [track(1, flat)])).toBeNull();
      // the flight's own track is never its rise
      expect(join(shot, [track(2, whole.slice(0, 23))])).toBeNull();
      // the true rise, for contrast, is taken
      expect(join(shot, [track(1, whole.slice(0, 23))])).not.toBeNull();
    });
  });

  describe('a flight first seen high, placed from the feet of the body that threw it (run version 73)', () => {
    // a three from 7.2 m across the court whose ball was first seen 25 frames into its 33-frame flight: too short a
    // piece to follow back to the release on its own
    const [x, y] = [7.2, -2.0];
    const piece = flightTrack(cam, x, y).slice(25);
    const d = Math.hypot(x, y);
    // the shooter's feet lie BALL_AHEAD_M behind the ball's release point, seen in the frames around the release (100)
    const feetAt = (fx: number, fy: number, frames: number[]): FeetSighting[] =>
      frames.map((frame) => {
        const q = project(cam, fx, fy, 0);
        return { frame, x: q.u, y: q.v };
      });
    const shooter = feetAt((x * (d + BALL_AHEAD_M)) / d, (y * (d + BALL_AHEAD_M)) / d, [96, 98, 100, 102]);
    // a defender closing out a metre in front of him, a teammate on the other wing, a player under the basket
    const defender = feetAt(6.3, -1.6, [97, 99, 101]);
    const others = [...feetAt(6.8, 4.2, [98, 100]), ...feetAt(1.5, 1.0, [99, 101])];

    it('is not placed from the ball alone', () => {
      expect(reconstructFlight(court, piece, 30, 1)).toBeNull();
    });

    it("takes the shooter's feet among the bodies seen near the release, and calls the three", () => {
      const fl = flightFromFeet(court, piece, [...others, ...shooter], 30, 1)!;
      expect(fl).not.toBeNull();
      expect(fl.feet).toBe(4);
      expect(Math.hypot(fl.origin.x - (x * (d + BALL_AHEAD_M)) / d, fl.origin.y - (y * (d + BALL_AHEAD_M)) / d)).toBeLessThan(0.05);
      expect(fl.sizeRatio).toBeGreaterThan(0.95);
      expect(fl.sizeRatio).toBeLessThan(1.05);
      expect(locateShot(court, fl).isThree).toBe(true);
    });

    it('refuses bodies the flight does not come from: off its plane, or in it but where the ball was not at release height then', () => {
      // the teammate and the player under the basket are off the flight's plane; the defender stands in it, but the ball
      // passed over him at 3.6 m
      expect(flightFromFeet(court, piece, others, 30, 1)).toBeNull();
      expect(flightFromFeet(court, piece, defender, 30, 1)).toBeNull();
      // the shooter seen half a second before the release (gathering the ball): too early for this flight
      expect(flightFromFeet(court, piece, shooter.map((b) => ({ ...b, frame: b.frame - 15 })), 30, 1)).toBeNull();
    });

    it("refuses a box seen once, and two bodies on the flight's line that stand apart", () => {
      expect(flightFromFeet(court, piece, shooter.slice(0, FEET_MIN_SIGHTINGS - 1), 30, 1)).toBeNull();
      expect(flightFromFeet(court, piece, shooter.slice(0, FEET_MIN_SIGHTINGS), 30, 1)).not.toBeNull();
      // each fits on its own: the ball passed at a release height 0.9 m before and after the shooter's spot
      const along = (k: number, frames: number[]) => feetAt((x * (d + BALL_AHEAD_M + k)) / d, (y * (d + BALL_AHEAD_M + k)) / d, frames);
      const behind = along(-0.9, [94, 96, 98, 100, 102]);
      const ahead = along(0.9, [97, 99, 101]);
      expect(flightFromFeet(court, piece, behind, 30, 1)).not.toBeNull();
      expect(flightFromFeet(court, piece, ahead, 30, 1)).not.toBeNull();
      // together, 1.8 m apart (more than FEET_SPREAD_M, this test's premise): which of them threw it is not known
      expect(1.8).toBeGreaterThan(FEET_SPREAD_M);
      expect(flightFromFeet(court, piece, [...behind, ...ahead], 30, 1)).toBeNull();
    });
  });

  describe("a shot whose arc is the bounce after rim arrival (run version 66)", () => {
    // a three from 7.2 m followed on one track (id 3) into the rim and on up off it; the shot's arc is the bounce
    const whole = flightTrack(cam, 7.2, -2.0).map((p) => ({ ...p, score: 1, ballColour: 1 }) as BallCandidate);
    const rim = whole[whole.length - 1];
    const bounce = Array.from({ length: 10 }, (_, k) => ({ ...rim, frame: rim.frame + 1 + k, x: rim.x + 3 * (k + 1), y: rim.y - 4 * (k + 1) + 0.4 * (k + 1) ** 2 }) as BallCandidate);
    const shotOf = () => {
      const d = detection(bounce, true);
      return Object.assign(d, { arc: { ...d.arc, trackId: 3 }, releaseFrame: whole[0].frame, rimFrame: rim.frame });
    };

    it("is placed from its own track's sightings between release and rim arrival", () => {
      const alone = [action()];
      expect(placeShots(alone, [shotOf()], court, [0.9], 30, 1, { tracks: [] })[0].why).toBe('no_flight');
      expect(alone[0].is_three_point).toBeNull();
      const actions = [action()];
      const placed = placeShots(actions, [shotOf()], court, [0.9], 30, 1, { tracks: [{ id: 3, points: [...whole, ...bounce] }] });
      expect(placed[0].why).toBe('placed');
      expect(actions[0].is_three_point).toBe(true);
      expect(Math.hypot(placed[0].origin!.x, placed[0].origin!.y)).toBeGreaterThan(7.2);
      expect(Math.hypot(placed[0].origin!.x, placed[0].origin!.y)).toBeLessThan(Math.hypot(7.2, 2.0) + 0.6);
    });

    it('places nothing from a track whose sightings before the rim are not a throw (a ball carried level)', () => {
      const carried = whole.map((p) => ({ ...p, y: rim.y + 40 }));
      const actions = [action()];
      const placed = placeShots(actions, [shotOf()], court, [0.9], 30, 1, { tracks: [{ id: 3, points: [...carried, ...bounce] }] });
      expect(placed[0].why).toBe('no_flight');
      expect(actions[0].is_three_point).toBeNull();
    });
  });

  it('sets free throws, 3-pointers, points and shot_world on the shot actions', () => {
    const shots = [
      detection(flightTrack(cam, COURTS.fiba.ftX + 0.05, 0), true), // free throw
      detection(flightTrack(cam, 7.2, -2.0), true), // three
      detection(flightTrack(cam, 7.2, 2.0), true), // calm, but far from the spot: a three
      detection(flightTrack(cam, 3.5, 2.5), false), // missed two
    ];
    const actions = shots.map(action);
    placeShots(actions, shots, court, [0.01, 0.9, 0.01, 0.5], 30, 1);
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, false, false, false]);
    expect(actions.map((a) => a.is_three_point)).toEqual([false, true, true, false]);
    expect(actions.map((a) => a.points)).toEqual([1, 3, 3, 0]);
    for (const a of actions) expect(a.shot_world).not.toBeNull();
    expect(actions[1].shot_world![0]).toBeLessThan(0.5);
    expect(actions[2].shot_world![0]).toBeGreaterThan(0.5);
  });

  it('takes a calm shot from the elbow, 1.7 m beside the free-throw spot, for no free throw', () => {
    const shots = [detection(flightTrack(cam, COURTS.fiba.ftX + 0.05, 1.7), true), detection(flightTrack(cam, COURTS.fiba.ftX + 0.05, 0.3), true)];
    const actions = shots.map(action);
    const placed = placeShots(actions, shots, court, [0.01, 0.01], 30, 1);
    expect(placed[0].ftSpotDistance!).toBeGreaterThan(FT_SPOT_RADIUS_M);
    expect(placed[0].ftSpotDistance!).toBeLessThan(2);
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, true]);
    expect(actions.map((a) => a.points)).toEqual([2, 1]);
  });

  it('without court geometry: 3-pointers unknown, no shot_world, no free throw from a still camera\'s calm scene alone', () => {
    const shots = [detection(flightTrack(cam, 7.2, 0), true), detection(flightTrack(cam, 4.5, 0), true)];
    const actions = shots.map(action);
    placeShots(actions, shots, null, [0.5, 0.01], 30, 1);
    expect(actions.map((a) => a.is_three_point)).toEqual([null, null]);
    // a field goal from a baseline view waits as still in the image as a free throw: a still camera's free throws
    // without geometry come in pairs (see the next tests)
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    expect(actions.map((a) => a.points)).toEqual([2, 2]);
    expect(actions.every((a) => a.shot_world === null)).toBe(true);
    // a moving camera's court reads do not place its free throws: its calm scene alone still makes one
    const moving = shots.map(action);
    placeShots(moving, shots, null, [0.5, 0.01], 30, 1, { views: [null, null], moving: true });
    expect(moving.map((a) => a.is_free_throw)).toEqual([false, true]);
    expect(moving.map((a) => a.points)).toEqual([2, 1]);
  });

  it('drops the geometry when the ball sizes contradict the camera', () => {
    const shots = [detection(flightTrack(cam, 7.2, -2.0), true)];
    shots[0].arc.points.forEach((p) => (p.r *= 1.8));
    const actions = shots.map(action);
    placeShots(actions, shots, court, [0.9], 30, 1);
    expect(actions[0].is_three_point).toBeNull();
    expect(actions[0].shot_world).toBeNull();
  });

  /** The same flight `dt` frames later (a second attempt), optionally its start missed (picked up `late` frames after the release). */
  function later(pts: ReturnType<typeof flightTrack>, dt: number, late = 0) {
    return pts.slice(late).map((p) => ({ ...p, frame: p.frame + dt }));
  }

  it('measures how far apart two flights run in the image: the same path twice, or from elsewhere', () => {
    const rim = rimOf(cam);
    const ft = flightTrack(cam, COURTS.fiba.ftX + 0.05, 0);
    const a = detection(ft, true);
    // the second free throw, its first 6 frames not followed (its release is found late)
    const b = detection(later(ft, 150, 6), true);
    expect(flightPathDistance(a, b, rim, 30)).toBeLessThan(0.1);
    // a jump shot from 1.5 m to the side of the line, and one from 2 m further out on the same bearing
    expect(flightPathDistance(a, detection(later(flightTrack(cam, COURTS.fiba.ftX, 1.5), 150), true), rim, 30)).toBeGreaterThan(1);
    expect(flightPathDistance(a, detection(later(flightTrack(cam, COURTS.fiba.ftX + 2, 0, 38), 150), true), rim, 30)).toBeGreaterThan(1);
  });

  it('two attempts from the same spot a few seconds apart while the scene waits are a pair of free throws', () => {
    const rim = { ...rimOf(cam), id: 0 };
    const ft = flightTrack(cam, COURTS.fiba.ftX + 0.05, 0);
    // 5 s apart; the first is not calm enough for a lone free throw (the players still walk to the lane)
    const pair = [detection(ft, false), detection(later(ft, 150, 4), true)];
    let actions = pair.map(action);
    placeShots(actions, pair, null, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    expect(actions.map((a) => a.points)).toEqual([0, 1]);
    // the same, but the scene is busy before one of them (play goes on): two field goals
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.15, 0.6], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    // a moving camera's scene is never calm: the looser bound (the second throw of seed 963's pair at 0.88)
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.5, 0.6], 30, 1, { rims: [rim, rim], moving: true });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.29, 0.88], 30, 1, { rims: [rim, rim], moving: true });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.29, 1.0], 30, 1, { rims: [rim, rim], moving: true });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    // a panning camera's hoop tracked in pieces: the two free throws at two goals at one place are a pair, at two hoops not
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.5, 0.6], 30, 1, { rims: [rim, { ...rim, x: rim.x + 0.5 * rim.w, id: 1 }], moving: true });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.5, 0.6], 30, 1, { rims: [rim, { ...rim, x: rim.x + 20 * rim.w, id: 1 }], moving: true });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    // too long apart: not a pair
    const apart = [detection(ft, false), detection(later(ft, Math.round((FT_PAIR_MAX_GAP_S + 3) * 30)), true)];
    actions = apart.map(action);
    placeShots(actions, apart, null, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    // two threes from one spot with the court read: the geometry says they are not free throws
    const three = flightTrack(cam, 7.2, -2.0);
    const threes = [detection(three, true), detection(later(three, 150), true)];
    actions = threes.map(action);
    placeShots(actions, threes, court, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    expect(actions.map((a) => a.points)).toEqual([3, 3]);
  });

  it('two attempts placed at the free-throw spot are a pair on paths further apart than the image alone accepts', () => {
    const rim = { ...rimOf(cam), id: 0 };
    // the second throw's path runs beside the first (the shooter a little to the side, a turning camera, a re-read rim)
    const first = detection(flightTrack(cam, COURTS.fiba.ftX + 0.05, 0), false);
    const near = (y: number) => [first, detection(later(flightTrack(cam, COURTS.fiba.ftX + 0.05, y), 150), true)];
    const pair = near(0.6);
    const path = flightPathDistance(pair[0], pair[1], rim, 30);
    expect(path).toBeGreaterThan(FT_PAIR_PATH);
    expect(path).toBeLessThanOrEqual(FT_PAIR_PATH_AT_SPOT);
    let actions = pair.map(action);
    placeShots(actions, pair, court, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    expect(actions.map((a) => a.points)).toEqual([0, 1]);
    // without the court, the paths alone are too far apart
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
    // a moving camera's reads place both at the spot: a pair too
    actions = pair.map(action);
    placeShots(actions, pair, null, [0.5, 0.6], 30, 1, { rims: [rim, rim], moving: true, views: [{ fit: court, dx: 0, dy: 0 }, { fit: court, dx: 0, dy: 0 }] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([true, true]);
    // one of them from over a metre behind the spot (a jumper after a missed free throw): no pair
    const behind = [first, detection(later(flightTrack(cam, COURTS.fiba.ftX + 1.3, 0.3), 150), true)];
    expect(flightPathDistance(behind[0], behind[1], rim, 30)).toBeLessThanOrEqual(FT_PAIR_PATH_AT_SPOT);
    actions = behind.map(action);
    placeShots(actions, behind, court, [0.15, 0.2], 30, 1, { rims: [rim, rim] });
    expect(actions.map((a) => a.is_free_throw)).toEqual([false, false]);
  });

  it('reads the court again from the other side of the board when the ball sizes contradict the camera', () => {
    // a low camera behind the shooter; the fit first put it behind the board (mirrored), where the
    // ball would look smaller at release than at the rim
    const truth = lookAtRim([12, 0.8, 1.5], 58);
    const right: CourtFit = { camera: truth, model: COURTS.fiba, coverage: 0.6, matchedPx: 200 };
    const mirrored: CourtFit = { camera: lookAtRim([-4.5, -0.8, 1.3], 58), model: COURTS.fiba, coverage: 0.6, matchedPx: 200 };
    expect(cameraSide(right)).toBe('court');
    expect(cameraSide(mirrored)).toBe('behind');
    const shots = [detection(flightTrack(truth, 7.3, 1.0), true), detection(flightTrack(truth, 3.5, -1.0), true)];
    const asked: string[] = [];
    const refit = (side: 'court' | 'behind') => {
      asked.push(side);
      return side === 'court' ? right : mirrored;
    };
    let actions = shots.map(action);
    placeShots(actions, shots, mirrored, [0.9, 0.9], 30, 1, { refit });
    expect(asked).toEqual(['court']);
    expect(actions.map((a) => a.is_three_point)).toEqual([true, false]);
    expect(actions.map((a) => a.points)).toEqual([3, 2]);
    // without the other side's fit the geometry is dropped, as before
    actions = shots.map(action);
    placeShots(actions, shots, mirrored, [0.9, 0.9], 30, 1, { refit: () => null });
    expect(actions.map((a) => a.is_three_point)).toEqual([null, null]);
  });

  it('checks a read by the ball sizes before the camera height is taken from it', () => {
    // a low camera behind the shooter, whose lines alone also fit a high camera behind the board (mirrored): the ball
    // would look smaller at release than at the rim there
    const truth = lookAtRim([12, 0.8, 1.5], 58);
    const right: CourtFit = { camera: truth, model: COURTS.fiba, coverage: 0.6, matchedPx: 200 };
    const high: CourtFit = { camera: lookAtRim([-4.5, -0.8, 5.5], 58), model: COURTS.fiba, coverage: 0.6, matchedPx: 200 };
    expect(looksDown(high)).toBe(true);
    expect(looksDown(right)).toBe(false);
    const shots = [detection(flightTrack(truth, 7.3, 1.0), true), detection(flightTrack(truth, 3.5, -1.0), true)];
    // without another side's read the check drops the high one: no court, so no camera looking down
    const dropped = checkCourt(shots, high, 30, 1, { refit: () => null });
    expect(dropped).toMatchObject({ sized: false, read: true, court: null });
    expect(dropped.flights).toEqual([null, null]);
    expect(looksDown(dropped.court)).toBe(false);
    // the other side's read agrees with the ball sizes and replaces it
    const refitted = checkCourt(shots, high, 30, 1, { refit: (side) => (side === 'court' ? right : null) });
    expect(refitted).toMatchObject({ sized: true, court: right });
    expect(refitted.flights.every((f) => f !== null)).toBe(true);
    // placeShots given the check's result places the shots as it does checking on its own
    const actions = shots.map(action);
    placeShots(actions, shots, high, [0.9, 0.9], 30, 1, { checked: refitted });
    expect(actions.map((a) => a.is_three_point)).toEqual([true, false]);
    const own = shots.map(action);
    placeShots(own, shots, high, [0.9, 0.9], 30, 1, { refit: (side) => (side === 'court' ? right : null) });
    expect(own).toEqual(actions);
  });

  it('reads thin lines on strongly coloured wood from a low view behind the baseline, where each line pixel is part floor', () => {
    // orange wood (saturation ~130) with one-pixel lines a third paint: brighter and less coloured than the
    // floor beside them, but too coloured (~85) to be taken for paint on their own
    const look: CourtLook = { floor: [228, 160, 98], paint: 0.35 };
    // beside the basket, behind the baseline, 1.5 m up, looking down the court: the rim in a top corner
    const truth = lookAt([-3.4, 5.5, 1.5], [5, 0.8, 2], 68);
    const rgb = renderCourt(truth, true, COURTS.fiba, look);
    const mask = lineMask(rgb, W, H);
    const onLine = project(truth, 4, 2.45, 0); // on the lane's side line
    const x = Math.round(onLine.u);
    const y = Math.round(onLine.v);
    expect(x >= 0 && y >= 0 && x < W && y < H).toBe(true);
    expect(mask[y * W + x]).toBe(1);
    // a bright, still strongly coloured ridge (a highlight on the wood) is not a line
    const glare = renderCourt(truth, false, COURTS.fiba, look);
    for (let xx = 100; xx < 300; xx++) glare.set([250, 185, 120], 3 * (200 * W + xx));
    expect(lineMask(glare, W, H).slice(200 * W + 110, 200 * W + 290).every((m) => m === 0)).toBe(true);
    const fit = fitCourt(rgb, W, H, rimOf(truth));
    expect(fit).not.toBeNull();
    expect(fit!.coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
    expect(fit!.matchedPx).toBeGreaterThanOrEqual(MIN_MATCHED_PX);
    expect(floorError(truth, fit!.camera)).toBeLessThan(0.3);
  });

  it("refines more of the coarse grid's poses for a still camera: a corner view with the rim read 40 % wide", () => {
    // the coarse grid ranks the right pose below wrong ones here; the default search settles on a camera
    // 0.3 m off on the floor, the still camera's wider one finds it
    const truth = lookAt([8.8, 8.4, 1.9], [2.2, 0.3, 2.0], 62);
    const rim = rimOf(truth);
    const fit = fitCourt(renderCourt(truth), W, H, { ...rim, w: rim.w * 1.4 }, 'any', undefined, STILL_FIT_STARTS);
    expect(fit).not.toBeNull();
    expect(fit!.coverage).toBeGreaterThan(0.8);
    expect(floorError(truth, fit!.camera)).toBeLessThan(0.2);
  });

  it('reads each side of the board with starts of its own when both at once confirm no camera: a low corner view of thin lines', () => {
    // lines thinner than a pixel (half paint, half wood) seen from 1.6 m up in the corner: the search over both sides
    // settles on a camera whose lines cover under 40 % of what it shows; the court side's own starts find the camera
    const truth = lookAt([9, 10, 1.6], [2.2, 0.3, 2.0], 58);
    const img = renderCourt(truth, true, COURTS.fiba, { floor: [205, 160, 105], paint: 0.5 });
    const rim = rimOf(truth);
    const both = fitCourt(img, W, H, rim, 'any', undefined, STILL_FIT_STARTS);
    expect(both === null || both.coverage < MIN_COVERAGE || both.matchedPx < MIN_MATCHED_PX).toBe(true);
    const path = { ox: new Float64Array(3), oy: new Float64Array(3) };
    const fit = courtReader([0, 1, 2].map((index) => ({ index, rgb: img })), path, W, H)(rim);
    expect(fit).not.toBeNull();
    expect(fit!.coverage).toBeGreaterThan(0.8);
    expect(cameraSide(fit!)).toBe('court');
    expect(floorError(truth, fit!.camera)).toBeLessThan(0.3);
  });

  it('finds only cameras a person films with: at least 1 m up, within 30 m of the basket, a field of view up to 80°', () => {
    const plausible = (c: CourtCamera) => {
      const fov = (2 * Math.atan(W / 2 / c.focal) * 180) / Math.PI;
      return c.pos[2] >= 1 - 1e-9 && Math.hypot(c.pos[0], c.pos[1]) <= 30 && fov <= 80 + 1e-9;
    };
    // a camera on the floor (0.6 m) and one with a 95° lens: the lines fit them best, but they are not read
    for (const truth of [lookAt([9, -8.5, 0.6], [2.2, -0.3, 2.0], 60), lookAt([6, -6, 1.6], [1.5, 0, 1.8], 95)]) {
      const fit = fitCourt(renderCourt(truth), W, H, rimOf(truth), 'any', undefined, STILL_FIT_STARTS);
      if (fit) expect(plausible(fit.camera)).toBe(true);
    }
    // a plausible camera is still read
    const truth = lookAt([9, -8.5, 1.8], [2.2, -0.3, 2.0], 60);
    const fit = fitCourt(renderCourt(truth), W, H, rimOf(truth), 'any', undefined, STILL_FIT_STARTS);
    expect(fit && plausible(fit.camera)).toBe(true);
    expect(floorError(truth, fit!.camera)).toBeLessThan(0.45);
  });

  it('fits a low camera behind the shooter on the side of the board it is asked for', () => {
    const truth = lookAtRim([12, 0.8, 1.5], 58);
    const rim = rimOf(truth);
    const fit = fitCourt(renderCourt(truth), W, H, rim, 'court');
    expect(fit).not.toBeNull();
    // on the court side, in front of the free-throw line (the grazing view leaves its height and
    // distance loosely fixed: the ball sizes check it afterwards)
    expect(cameraSide(fit!)).toBe('court');
    expect(fit!.camera.pos[0]).toBeGreaterThan(COURTS.fiba.ftX);
    const behind = fitCourt(renderCourt(truth), W, H, rim, 'behind');
    if (behind) expect(cameraSide(behind)).toBe('behind');
  });

  it('gives the same fits when its reads share one memo (the second side and another rim as without it)', () => {
    const truth = lookAtRim([12, 0.8, 1.5], 58);
    const img = renderCourt(truth);
    const rim = rimOf(truth);
    const memo: CourtFitMemo = { coarse: new Map() };
    const any = fitCourt(img, W, H, rim, 'any', memo);
    const scored = memo.coarse.size;
    expect(scored).toBeGreaterThan(1000);
    expect(fitCourt(img, W, H, rim, 'court', memo)).toEqual(fitCourt(img, W, H, rim, 'court'));
    // the court side lies inside the first read's bearings: nothing new to score
    expect(memo.coarse.size).toBe(scored);
    expect(fitCourt(img, W, H, rim, 'behind', memo)).toEqual(fitCourt(img, W, H, rim, 'behind'));
    expect(any).toEqual(fitCourt(img, W, H, rim, 'any'));
    const other = { ...rim, x: rim.x + 7, w: rim.w * 1.1 };
    expect(fitCourt(img, W, H, other, 'any', memo)).toEqual(fitCourt(img, W, H, other, 'any'));
    expect(memo.rim).toEqual(other);
  });
  it("reads a panning camera's court per shot from the frame taken where the camera was, shifted into that frame's image", () => {
    // the camera turns: 60 px right of the path's origin for frames 0-199, 300 px from frame 200 on
    // (image = stabilised + shift); it looked at the painted court at the first place and at a floor
    // without lines at the second
    const frames = 500;
    const path = { ox: new Float64Array(frames).map((_, f) => (f < 200 ? 60 : 300)), oy: new Float64Array(frames) };
    const samples = [
      { index: 50, rgb: renderCourt(cam) },
      { index: 260, rgb: renderCourt(cam, false) },
    ];
    const toStabilised = (pts: ReturnType<typeof flightTrack>, dx: number) => pts.map((p) => ({ ...p, x: p.x - dx }));
    const rim = rimOf(cam);
    const stabRim = { x: rim.x - 60, y: rim.y, w: rim.w };
    const three = detection(toStabilised(flightTrack(cam, 7.2, -2.0), 60), true);
    const two = detection(toStabilised(flightTrack(cam, 4.2, 1.5), 60).map((p) => ({ ...p, frame: p.frame + 40 })), true);
    const there = detection(toStabilised(flightTrack(cam, 7.2, 2.0), 300).map((p) => ({ ...p, frame: p.frame + 300 })), true);
    const shots = [three, two, there];
    // the clip's court reader sees a camera that moved and reads nothing
    expect(courtReader(samples, path, W, H)(stabRim)).toBeNull();
    const views = courtViewsAt(
      shots.map((s) => ({ frame: s.rimFrame, rim: s === there ? { ...stabRim, x: rim.x - 300 } : stabRim })),
      samples,
      path,
      W,
      H,
    );
    expect(views[0]).not.toBeNull();
    // one read for both shots at that place and rim
    expect(views[1]).toBe(views[0]);
    expect(views[0]!.dx).toBe(60);
    expect(floorError(cam, views[0]!.fit.camera)).toBeLessThan(0.3);
    // no lines where the camera looked for the third shot
    expect(views[2]).toBeNull();
    const actions = shots.map(action);
    const placed = placeShots(actions, shots, null, [0.9, 0.9, 0.9], 30, 1, { views, moving: true });
    expect(actions.map((a) => a.is_three_point)).toEqual([true, false, null]);
    expect(actions.map((a) => a.points)).toEqual([3, 2, 2]);
    expect(actions[2].shot_world).toBeNull();
    expect(placed.map((p) => p.why)).toEqual(['placed', 'placed', 'no_court']);
    // thrown from 2.7 m at (7.2, -2.0): the feet a touch behind, on the same bearing
    const off = (o: { x: number; y: number } | null) => (o ? Math.hypot(o.x - 7.2, o.y + 2.0) : Infinity);
    expect(off(placed[0].origin)).toBeLessThan(0.6);
    // read in the stabilised frame (no shift), the same flight is placed elsewhere
    const unshifted = placeShots(shots.map(action), shots, null, [0.9, 0.9, 0.9], 30, 1, { views: views.map((v) => v && { ...v, dx: 0 }), moving: true });
    expect(off(unshifted[0].origin)).toBeGreaterThan(1);
  });
  it("drops a moving camera's court read whose focal length is far from the clip's other reads (distance traded for zoom)", () => {
    // three places the camera turned to, 300 px apart; the third frame was taken by a camera twice as far with a
    // narrower lens: its lines fit as well, but one camera turning on its tripod keeps its focal length
    const far = lookAtRim([16, 20, 9.5], 30);
    const frames = 900;
    const path = { ox: new Float64Array(frames).map((_, f) => 300 * Math.floor(f / 300)), oy: new Float64Array(frames) };
    const samples = [
      { index: 10, rgb: renderCourt(cam) },
      { index: 310, rgb: renderCourt(cam) },
      { index: 610, rgb: renderCourt(far) },
    ];
    const stab = (c: CourtCamera, dx: number) => ({ ...rimOf(c), x: rimOf(c).x - dx });
    const moments = [
      { frame: 100, rim: stab(cam, 0) },
      { frame: 400, rim: stab(cam, 300) },
      { frame: 700, rim: stab(far, 600) },
    ];
    // read alone, each is a court the lines confirm
    const [near] = courtViewsAt(moments.slice(0, 1), samples, path, W, H);
    const [zoomed] = courtViewsAt(moments.slice(2), samples, path, W, H);
    expect(near).not.toBeNull();
    expect(zoomed).not.toBeNull();
    expect(zoomed!.fit.camera.focal / near!.fit.camera.focal).toBeGreaterThan(1 + VIEW_FOCAL_SPREAD);
    const views = courtViewsAt(moments, samples, path, W, H);
    expect(views.map((v) => v !== null)).toEqual([true, true, false]);
  });
  /** `cam` turned on its tripod by `dyaw` (to its left) and `dpitch` (down), radians. */
  const turn = (c: CourtCamera, dyaw: number, dpitch: number) => {
    const { yaw, pitch } = anglesOf(c);
    return cameraFromPose(c.pos, yaw + dyaw, pitch + dpitch, 0.01, c.focal, c.cx, c.cy);
  };
  /** How far the image moved between two cameras at one place: a point seen near the first one's centre, in both. */
  const imageShift = (a: CourtCamera, b: CourtCamera) => {
    const p = backProject(a, W / 2, H / 2, 1.5)!;
    const qa = project(a, p.x, p.y, 1.5);
    const qb = project(b, p.x, p.y, 1.5);
    return { du: qb.u - qa.u, dv: qb.v - qa.v };
  };

  it('turns a read camera to another frame of the pan by how far the image moved', () => {
    for (const [dyaw, dpitch] of [
      [0.12, 0],
      [-0.2, 0.03],
      [0.05, -0.04],
    ]) {
      const other = turn(cam, dyaw, dpitch);
      const { du, dv } = imageShift(cam, other);
      const turned = turnedCamera(cam, du, dv);
      // court points across the view land within ~2 px of where the truly turned camera sees them
      let worst = 0;
      for (const [x, y] of [
        [0, 0],
        [5.8, 0],
        [6.75, 4],
        [1, -6],
        [10, 3],
      ]) {
        const a = project(other, x, y, 0);
        const b = project(turned, x, y, 0);
        worst = Math.max(worst, Math.hypot(a.u - b.u, a.v - b.v));
      }
      expect(worst).toBeLessThan(2.5);
      // the read frame's camera, unturned, is far off
      const still = project(cam, 6.75, 4, 0);
      expect(Math.hypot(still.u - project(other, 6.75, 4, 0).u, still.v - project(other, 6.75, 4, 0).v)).toBeGreaterThan(10);
    }
    expect(turnedCamera(cam, 0, 0)).toBe(cam);
  });

  it("places a flight followed by a turning camera with each frame's camera, not the read frame's", () => {
    // the camera turns left 0.25 rad over the 33 frames of a three from (7.4, -2.2); the court was read at the
    // flight's last frame; the path's shifts are the image's motion at the centre, as the frame-to-frame shifts give
    const frames = 200;
    const first = 100;
    const last = 133;
    const camAt = (f: number) => turn(cam, -0.25 * (1 - (Math.min(Math.max(f, first), last) - first) / (last - first)), 0);
    const shift = (f: number) => imageShift(cam, camAt(f));
    const path = { ox: new Float64Array(frames).map((_, f) => shift(f).du), oy: new Float64Array(frames).map((_, f) => shift(f).dv) };
    // the ball seen by each frame's camera, in stabilised coordinates (image − shift)
    const seen = flightTrack(cam, 7.4, -2.2).map((p) => {
      const T = 33 / 30;
      const t = (p.frame - first) / 30;
      const q = project(camAt(p.frame), 7.4 - (7.4 / T) * t, -2.2 + (2.2 / T) * t, 2.7 + ((3.05 - 2.7 + 0.5 * 9.81 * T * T) / T) * t - 0.5 * 9.81 * t * t);
      return { ...p, x: q.u - path.ox[p.frame], y: q.v - path.oy[p.frame] };
    });
    const shot = detection(seen, true);
    const view = { fit: { ...court, camera: camAt(last) }, dx: path.ox[last], dy: path.oy[last], index: last };
    const off = (o: { x: number; y: number } | null) => (o ? Math.hypot(o.x - 7.4, o.y + 2.2) : Infinity);
    const turned = placeShots([action()], [shot], null, [0.9], 30, 1, { views: [view], moving: true, path });
    expect(off(turned[0].origin)).toBeLessThan(0.6);
    // the read frame's camera for every point (the view's shift alone) bends the flight
    const still = placeShots([action()], [shot], null, [0.9], 30, 1, { views: [view], moving: true });
    expect(off(still[0].origin)).toBeGreaterThan(off(turned[0].origin) + 0.5);
  });

  it("takes a tripod camera's place per end from reads that agree, and none from reads that spread", () => {
    const fit = (pos: [number, number, number], focal = 600): CourtFit => ({
      camera: cameraFromPose(pos, Math.atan2(-pos[1], -pos[0]), 0.3, 0.01, focal, W / 2, H / 2),
      model: COURTS.fiba,
      coverage: 0.6,
      matchedPx: 300,
    });
    // one sideline camera: reads of the near end at y < 0, of the far end at y > 0 (each basket's own frame)
    const cams = tripodCameras([fit([12.2, -13.1, 6.2]), fit([12.6, -13.5, 6.4], 640), fit([12.4, -12.9, 6.1], 610), fit([12.5, 13.4, 6.3]), fit([12.1, 13.0, 6.0], 620)]);
    expect(cams).toHaveLength(2);
    const near = cams.find((c) => c.pos[1] < 0)!;
    expect(near.pos[0]).toBeCloseTo(12.4, 5);
    expect(near.pos[1]).toBeCloseTo(-13.1, 5);
    expect(near.focal).toBe(610);
    expect(near.roll).toBeCloseTo(0.01, 5);
    const far = cams.find((c) => c.pos[1] > 0)!;
    expect(far.pos[1]).toBeCloseTo(13.2, 5);
    // a camera carried around: its reads of one end lie metres apart
    expect(tripodCameras([fit([12.2, -13.1, 6.2]), fit([7, -9, 2]), fit([12.4, -12.9, 6.1])])).toEqual([]);
    // one read of an end is its place (and, mirrored, the other end's)
    const lone = tripodCameras([fit([12.2, -13.1, 6.2])]);
    expect(lone.map((c) => c.pos)).toEqual([
      [12.2, -13.1, 6.2],
      [2 * COURTS.fiba.midX - 12.2, 13.1, 6.2],
    ]);
    expect(tripodCameras([])).toEqual([]);
    // an end never read: the other end's place seen from its basket (24.85 m down the court, mirrored across)
    const one = tripodCameras([fit([8.2, -13.1, 6.2]), fit([8.4, -12.9, 6.1])]);
    expect(one).toHaveLength(2);
    expect(one[1].pos[0]).toBeCloseTo(2 * COURTS.fiba.midX - 8.3, 5);
    expect(one[1].pos[1]).toBeCloseTo(13, 5);
    expect(one[1].pos[2]).toBeCloseTo(one[0].pos[2], 5);
  });

  it("reads the court with the tripod camera where the players hide most lines, and turns it to the frame's rim", () => {
    // the camera turned 0.1 rad from where it was read; players hide most lines in its frame (blue stripes 34 px wide
    // every 48 px over the lower 70 % of the image): the lines left do not confirm a free fit, but with the camera's
    // place and lens known only its turn is fitted
    const other = turn(cam, 0.1, 0.02);
    const img = renderCourt(other);
    for (let y = Math.round(0.3 * H); y < H; y++) for (let x = 0; x < W; x++) if (x % 48 < 34) img.set([40, 50, 160], 3 * (y * W + x));
    const rim = rimOf(other);
    const free = fitCourt(img, W, H, rim);
    expect(free === null || free.coverage < MIN_COVERAGE || free.matchedPx < MIN_MATCHED_PX).toBe(true);
    const tripod = { pos: cam.pos, focal: cam.focal, roll: 0.01, model: COURTS.fiba };
    const fit = fitFromCamera(img, W, H, rim, tripod)!;
    expect(fit).not.toBeNull();
    expect(fit.coverage).toBeGreaterThanOrEqual(TRIPOD_MIN_COVERAGE);
    expect(floorError(other, fit.camera)).toBeLessThan(0.3);
    // the same place seen from the far end (mirrored) fits the lines far worse
    const mirrored = fitFromCamera(img, W, H, rim, { ...tripod, pos: [cam.pos[0], -cam.pos[1], cam.pos[2]] });
    expect(mirrored === null || mirrored.coverage < fit.coverage - 0.2).toBe(true);
    // a rim read far wider than the camera's distance gives is not this camera's basket
    expect(fitFromCamera(img, W, H, { ...rim, w: 3 * rim.w }, tripod)).toBeNull();
  });
  it("reads a moment no frame's lines confirm with the clip's tripod camera, from a frame of the moment's own hoop span", () => {
    // the camera turns on its tripod: three places, each a turn to the left of the one before; the path's shifts are
    // the image's motion there. Its frames at the first two places show the painted court; players hide most lines at
    // the third. A fourth frame, taken after the hoop left the view, has the third place's shift but no court (the
    // integrated path drifts between hoops: its stabilised coordinates are another hoop's)
    const turns = [0, 0.06, 0.12];
    const cams = turns.map((a) => turn(cam, a, 0));
    const shifts = cams.map((c) => imageShift(cam, c));
    const frames = 1200;
    const placeOf = (f: number) => (f < 300 ? 0 : f < 600 ? 1 : 2);
    const path = { ox: new Float64Array(frames).map((_, f) => shifts[placeOf(f)].du), oy: new Float64Array(frames).map((_, f) => shifts[placeOf(f)].dv) };
    const hidden = renderCourt(cams[2]);
    for (let y = Math.round(0.3 * H); y < H; y++) for (let x = 0; x < W; x++) if (x % 48 < 34) hidden.set([40, 50, 160], 3 * (y * W + x));
    const samples = [
      { index: 50, rgb: renderCourt(cams[0]) },
      { index: 350, rgb: renderCourt(cams[1]) },
      { index: 650, rgb: hidden },
      { index: 1000, rgb: renderCourt(cams[2], false) },
    ];
    // the fourth frame is exactly where the third moment's camera was; the third frame 2 px off
    path.ox[700] = path.ox[1000] = path.ox[650] + 2;
    const stabRim = (k: number) => ({ ...rimOf(cams[k]), x: rimOf(cams[k]).x - shifts[k].du, y: rimOf(cams[k]).y - shifts[k].dv });
    const moments = [
      { frame: 100, rim: stabRim(0), span: [0, 299] as [number, number] },
      { frame: 400, rim: stabRim(1), span: [300, 599] as [number, number] },
      { frame: 700, rim: { ...stabRim(2), x: stabRim(2).x - 2 }, span: [600, 899] as [number, number] },
    ];
    const views = courtViewsAt(moments, samples, path, W, H);
    expect(views[0]).not.toBeNull();
    expect(views[1]).not.toBeNull();
    expect(views[2]).not.toBeNull();
    expect(views[2]!.index).toBe(650);
    expect(views[2]!.fit.coverage).toBeLessThan(MIN_COVERAGE);
    expect(floorError(cams[2], views[2]!.fit.camera)).toBeLessThan(0.3);
    // without the spans the nearest frame is the drifted one, with no court
    expect(courtViewsAt(moments.map(({ frame, rim }) => ({ frame, rim })), samples, path, W, H)[2]).toBeNull();
    // without the tripod camera, the third moment has no court
    process.env.SWISH_TRIPOD_VIEWS = '0';
    try {
      expect(courtViewsAt(moments, samples, path, W, H)[2]).toBeNull();
    } finally {
      delete process.env.SWISH_TRIPOD_VIEWS;
    }
  });
  it("does not place a moving camera's loosely fitting flight", () => {
    // a two from 5.2 m whose track jitters by a few pixels (a misjudged turn of the camera bends it)
    const jitter = (pts: ReturnType<typeof flightTrack>, a: number) => pts.map((p, k) => ({ ...p, y: p.y + a * Math.sin(k * 1.7), x: p.x + a * Math.cos(k * 2.3) }));
    const view = { fit: court, dx: 0, dy: 0 };
    const place = (pts: ReturnType<typeof flightTrack>, moving: boolean) => {
      const a = action();
      const p = placeShots([a], [detection(pts, true)], moving ? null : court, [0.9], 30, 1, moving ? { views: [view], moving: true } : {});
      return { call: a.is_three_point, world: a.shot_world, why: p[0].why, rms: p[0].rms! };
    };
    const loose = place(jitter(flightTrack(cam, 5.0, 1.2), 5), true);
    expect(loose.rms).toBeGreaterThan(MOVING_MAX_FLIGHT_RMS_M);
    expect(loose.rms).toBeLessThan(MAX_FLIGHT_RMS_M);
    expect(loose).toMatchObject({ call: null, world: null, why: 'flight_misfit' });
    // a fixed camera's read keeps the usual bound; a clean flight from the same spot is placed and called
    expect(place(jitter(flightTrack(cam, 5.0, 1.2), 5), false)).toMatchObject({ call: false, why: 'placed' });
    expect(place(flightTrack(cam, 5.0, 1.2), true)).toMatchObject({ call: false, why: 'placed' });
  });
});
