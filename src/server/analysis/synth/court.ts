/**
 * Court and hoop geometry in world metres. Origin at centre court, x along the court length
 * (hoop 0 at +x), y across, z up. Regulation numbers (FIBA by default, NBA option) so shot
 * distances, 2/3-point classification and free-throw positions in the ground truth are exact.
 */

export type ThreePointLine = 'fiba' | 'nba' | 'none';

export interface Vec2 {
  x: number;
  y: number;
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface CourtSpec {
  /** Court length (baseline to baseline), m. */
  length: number;
  /** Court width (sideline to sideline), m. */
  width: number;
  /** Which 3-point line is painted and scored. */
  threePoint: ThreePointLine;
  /** 3-point arc radius from the basket centre, m (0 when none). */
  threeRadius: number;
  /** |y| of the straight corner segments of the 3-point line, m. */
  threeCornerY: number;
  /** Lane (key) width, m. */
  laneWidth: number;
  /** Free-throw line distance from the baseline, m. */
  ftFromBaseline: number;
  /** Centre and free-throw circle radius, m. */
  circleRadius: number;
  /** Painted line width, m. */
  lineWidth: number;
}

/** Rim height above the floor (m). */
export const RIM_HEIGHT = 3.05;
/** Inner rim radius (m): 0.45 m diameter. */
export const RIM_RADIUS = 0.225;
/** Rim tube radius (m). */
export const RIM_TUBE = 0.01;
/** Ball radius (m): 0.24 m diameter. */
export const BALL_RADIUS = 0.12;
/** Backboard face distance from the baseline, m. */
export const BOARD_FROM_BASELINE = 1.2;
/** Basket centre distance from the baseline, m (board 1.2 + 0.15 gap + rim radius). */
export const BASKET_FROM_BASELINE = 1.2 + 0.15 + RIM_RADIUS;
/** Backboard width, height and bottom-edge height, m. */
export const BOARD_WIDTH = 1.8;
export const BOARD_HEIGHT = 1.05;
export const BOARD_BOTTOM = 2.9;
/** Inner rectangle of the backboard (width, height), its bottom edge at rim height. */
export const BOARD_INNER_W = 0.59;
export const BOARD_INNER_H = 0.45;
/** Net length below the rim, m. */
export const NET_LENGTH = 0.42;
/** Gravity, m/s^2. */
export const GRAVITY = 9.81;

/** Court dimensions for a 3-point line variant. */
export function courtSpec(line: ThreePointLine): CourtSpec {
  if (line === 'nba') {
    return {
      length: 28.65,
      width: 15.24,
      threePoint: 'nba',
      threeRadius: 7.24,
      threeCornerY: 6.71,
      laneWidth: 4.88,
      ftFromBaseline: 5.79,
      circleRadius: 1.83,
      lineWidth: 0.05,
    };
  }
  return {
    length: 28,
    width: 15,
    threePoint: line,
    threeRadius: line === 'none' ? 0 : 6.75,
    threeCornerY: line === 'none' ? 0 : 6.6,
    laneWidth: 4.9,
    ftFromBaseline: 5.8,
    circleRadius: 1.8,
    lineWidth: 0.05,
  };
}

/** Geometry of one hoop. `side` is +1 for the hoop at +x, -1 at -x. */
export interface HoopGeom {
  index: number;
  side: 1 | -1;
  /** Rim centre. */
  rim: Vec3;
  /** x of the backboard face (court side). */
  boardX: number;
  /** x of the baseline. */
  baselineX: number;
}

/** Builds the hoop at one end of the court. */
export function hoopGeom(spec: CourtSpec, index: number, side: 1 | -1): HoopGeom {
  const half = spec.length / 2;
  return {
    index,
    side,
    rim: { x: side * (half - BASKET_FROM_BASELINE), y: 0, z: RIM_HEIGHT },
    boardX: side * (half - BOARD_FROM_BASELINE),
    baselineX: side * half,
  };
}

/** Floor distance from a point to the basket centre of a hoop. */
export function distToBasket(h: HoopGeom, p: Vec2): number {
  return Math.hypot(p.x - h.rim.x, p.y - h.rim.y);
}

/**
 * Signed distance (m) of a floor point from the 3-point line of a hoop: negative inside the
 * 2-point area, positive beyond the line. The line is the corner straights at |y| =
 * threeCornerY up to where they meet the arc, then the arc.
 */
export function threePointSignedDistance(spec: CourtSpec, h: HoopGeom, p: Vec2): number {
  if (spec.threePoint === 'none') return -Infinity;
  const ax = (p.x - h.rim.x) * -h.side;
  const ay = p.y - h.rim.y;
  const R = spec.threeRadius;
  const cy = spec.threeCornerY;
  const axMeet = Math.sqrt(Math.max(0, R * R - cy * cy));
  const r = Math.hypot(ax, ay);
  const inside = Math.abs(ay) < cy && (ax <= axMeet || r < R);
  const behind = -BASKET_FROM_BASELINE;
  const sx = Math.min(Math.max(ax, behind), axMeet);
  const dStraight = Math.hypot(ax - sx, Math.abs(ay) - cy);
  const maxAngle = Math.acos(Math.min(1, axMeet / R));
  const ang = Math.atan2(Math.abs(ay), ax);
  const dArc =
    ang <= maxAngle ? Math.abs(r - R) : Math.hypot(ax - axMeet, Math.abs(ay) - cy);
  const d = Math.min(dStraight, dArc);
  return inside ? -d : d;
}

/** True when a floor point is beyond the 3-point line of a hoop. */
export function isThreePoint(spec: CourtSpec, h: HoopGeom, p: Vec2): boolean {
  return threePointSignedDistance(spec, h, p) > 0;
}

/** Floor point at polar position (distance, angle) around a hoop; angle 0 points to centre court, positive toward +y. */
export function spotAround(h: HoopGeom, dist: number, angle: number): Vec2 {
  return { x: h.rim.x - h.side * dist * Math.cos(angle), y: h.rim.y + dist * Math.sin(angle) };
}

/** Position (feet) of a free-throw shooter: just behind the free-throw line, centred. */
export function freeThrowSpot(spec: CourtSpec, h: HoopGeom): Vec2 {
  return { x: h.baselineX - h.side * (spec.ftFromBaseline + 0.25), y: 0 };
}

/** True when a floor point is inside the court lines (with a margin, m). */
export function onCourt(spec: CourtSpec, p: Vec2, margin = 0): boolean {
  return Math.abs(p.x) <= spec.length / 2 - margin && Math.abs(p.y) <= spec.width / 2 - margin;
}
