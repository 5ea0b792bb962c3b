/**
 * Ball physics in world metres: gravity, floor bounces, rim (a torus), backboard (a box) and
 * the net. Shots are planned by choosing an aim point and a flight time, simulating, and
 * keeping the first candidate whose simulated outcome is the requested kind, so every
 * outcome in the ground truth is what the physics actually did, not a label painted on.
 */
import type { ShotKind } from '../ground-truth.js';
import {
  BALL_RADIUS,
  BOARD_BOTTOM,
  BOARD_HEIGHT,
  BOARD_WIDTH,
  GRAVITY,
  NET_LENGTH,
  RIM_HEIGHT,
  RIM_RADIUS,
  RIM_TUBE,
  type HoopGeom,
  type Vec3,
} from './court.js';
import type { Rng } from './prng.js';

/** Simulation step (s). */
export const SIM_DT = 1 / 1000;

/** Mutable ball state used by the step function. */
export interface BallState {
  p: Vec3;
  v: Vec3;
  /** Index of the hoop whose net holds the ball, or -1. */
  inNet: number;
}

/** A contact reported by {@link stepBall}. */
export interface BallContact {
  what: 'rim' | 'board' | 'floor';
  hoop: number;
  /** Impact speed along the contact normal (m/s). */
  speed: number;
}

/** Events observed while stepping a ball once. */
export interface StepResult {
  contacts: BallContact[];
  /** Hoop index whose rim plane the ball centre crossed downward inside the rim, or -1. */
  entered: number;
}

const RIM_E = 0.5;
const BOARD_E = 0.62;
const FLOOR_E = 0.78;

function reflect(v: Vec3, nx: number, ny: number, nz: number, e: number, friction: number): number {
  const vn = v.x * nx + v.y * ny + v.z * nz;
  if (vn >= 0) return 0;
  const tx = v.x - vn * nx;
  const ty = v.y - vn * ny;
  const tz = v.z - vn * nz;
  v.x = tx * friction - e * vn * nx;
  v.y = ty * friction - e * vn * ny;
  v.z = tz * friction - e * vn * nz;
  return -vn;
}

/**
 * Advances a ball by dt with collisions against every hoop, the floor and the gym walls.
 * Returns the contacts of this step and whether the ball entered a hoop from above.
 */
export function stepBall(s: BallState, dt: number, hoops: readonly HoopGeom[], bounds: { x: number; y: number }): StepResult {
  const res: StepResult = { contacts: [], entered: -1 };
  const p = s.p;
  const v = s.v;
  const zPrev = p.z;
  v.z -= GRAVITY * dt;
  const drag = 1 - 0.02 * dt;
  v.x *= drag;
  v.y *= drag;
  v.z *= drag;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;

  for (const h of hoops) {
    const dx = p.x - h.rim.x;
    const dy = p.y - h.rim.y;
    const hd = Math.hypot(dx, dy);
    if (zPrev > RIM_HEIGHT && p.z <= RIM_HEIGHT && hd < RIM_RADIUS) {
      res.entered = h.index;
      s.inNet = h.index;
    }
    if (hd < 1.2 && Math.abs(p.z - RIM_HEIGHT) < 0.5) {
      const ux = hd > 1e-9 ? dx / hd : 1;
      const uy = hd > 1e-9 ? dy / hd : 0;
      const R = RIM_RADIUS + RIM_TUBE;
      const cx = h.rim.x + ux * R;
      const cy = h.rim.y + uy * R;
      const ddx = p.x - cx;
      const ddy = p.y - cy;
      const ddz = p.z - RIM_HEIGHT;
      const d = Math.hypot(ddx, ddy, ddz);
      const minD = BALL_RADIUS + RIM_TUBE;
      if (d < minD && d > 1e-9) {
        const nx = ddx / d;
        const ny = ddy / d;
        const nz = ddz / d;
        p.x += nx * (minD - d);
        p.y += ny * (minD - d);
        p.z += nz * (minD - d);
        const sp = reflect(v, nx, ny, nz, RIM_E, 0.88);
        if (sp > 0.05) res.contacts.push({ what: 'rim', hoop: h.index, speed: sp });
      }
    }
    const bx0 = h.boardX;
    const bx1 = h.boardX + h.side * 0.05;
    const qx = Math.min(Math.max(p.x, Math.min(bx0, bx1)), Math.max(bx0, bx1));
    const qy = Math.min(Math.max(p.y, -BOARD_WIDTH / 2), BOARD_WIDTH / 2);
    const qz = Math.min(Math.max(p.z, BOARD_BOTTOM), BOARD_BOTTOM + BOARD_HEIGHT);
    const bdx = p.x - qx;
    const bdy = p.y - qy;
    const bdz = p.z - qz;
    const bd = Math.hypot(bdx, bdy, bdz);
    if (bd < BALL_RADIUS) {
      let nx: number, ny: number, nz: number;
      if (bd > 1e-9) {
        nx = bdx / bd;
        ny = bdy / bd;
        nz = bdz / bd;
      } else {
        nx = -h.side;
        ny = 0;
        nz = 0;
      }
      const push = BALL_RADIUS - bd;
      p.x += nx * push;
      p.y += ny * push;
      p.z += nz * push;
      const sp = reflect(v, nx, ny, nz, BOARD_E, 0.9);
      if (sp > 0.05) res.contacts.push({ what: 'board', hoop: h.index, speed: sp });
    }
    if (s.inNet === h.index) {
      const top = RIM_HEIGHT;
      const bottom = RIM_HEIGHT - NET_LENGTH;
      if (p.z < bottom - 0.05) {
        s.inNet = -1;
      } else if (p.z < top) {
        const f = (top - p.z) / NET_LENGTH;
        const netR = RIM_RADIUS - 0.075 * f;
        const allowed = Math.max(0.005, netR - BALL_RADIUS * 0.75);
        const ndx = p.x - h.rim.x;
        const ndy = p.y - h.rim.y;
        const nd = Math.hypot(ndx, ndy);
        if (nd > allowed) {
          const k = allowed / nd;
          p.x = h.rim.x + ndx * k;
          p.y = h.rim.y + ndy * k;
          const ux = ndx / nd;
          const uy = ndy / nd;
          const vr = v.x * ux + v.y * uy;
          if (vr > 0) {
            v.x -= vr * ux * 1.3;
            v.y -= vr * uy * 1.3;
          }
        }
        const damp = Math.exp(-5 * dt);
        v.x *= damp;
        v.y *= damp;
        if (v.z < -2.2) v.z *= Math.exp(-7 * dt);
      }
    }
  }

  if (p.z < BALL_RADIUS) {
    p.z = BALL_RADIUS;
    const sp = reflect(v, 0, 0, 1, FLOOR_E, 0.93);
    if (Math.abs(v.z) < 0.25) v.z = 0;
    if (sp > 0.3) res.contacts.push({ what: 'floor', hoop: -1, speed: sp });
    if (v.z === 0) {
      const roll = Math.exp(-0.6 * dt);
      v.x *= roll;
      v.y *= roll;
    }
  }
  if (Math.abs(p.x) > bounds.x) {
    p.x = Math.sign(p.x) * bounds.x;
    v.x = -v.x * 0.5;
  }
  if (Math.abs(p.y) > bounds.y) {
    p.y = Math.sign(p.y) * bounds.y;
    v.y = -v.y * 0.5;
  }
  return res;
}

/** A simulated shot: ball centre positions every SIM_DT from release, and what happened. */
export interface ShotSim {
  /** x, y, z triples, one per SIM_DT from the release. */
  samples: Float64Array;
  /** Number of samples. */
  count: number;
  /** Velocity at the last sample (to continue as a loose ball). */
  endVelocity: Vec3;
  made: boolean;
  kind: ShotKind;
  /** Seconds after release of the first rim/board contact, or null. */
  firstContactT: number | null;
  firstContact: 'rim' | 'board' | null;
  /** Seconds after release the ball centre went down through the rim plane (made shots), or null. */
  entryT: number | null;
  /** Seconds after release the ball reached the rim area (first contact, entry, or closest approach for air balls). */
  rimArrivalT: number;
  /** Seconds after release the ball left the net bottom (made shots), or null. */
  netExitT: number | null;
  /** Times (s after release) and speeds of rim and board contacts, for rim/net shake. */
  contacts: Array<{ t: number; what: 'rim' | 'board' | 'floor'; speed: number }>;
}

/** Simulates a ball from a release state for `duration` seconds against one target hoop (others are also solid). */
export function simulateShot(
  p0: Vec3,
  v0: Vec3,
  target: HoopGeom,
  hoops: readonly HoopGeom[],
  bounds: { x: number; y: number },
  duration = 3.2,
): ShotSim {
  const n = Math.ceil(duration / SIM_DT) + 1;
  const samples = new Float64Array(n * 3);
  const s: BallState = { p: { ...p0 }, v: { ...v0 }, inNet: -1 };
  let firstContactT: number | null = null;
  let firstContact: 'rim' | 'board' | null = null;
  let entryT: number | null = null;
  let netExitT: number | null = null;
  let approachT = 0;
  let approachD = Infinity;
  let areaT: number | null = null;
  let confirmed = false;
  const contacts: ShotSim['contacts'] = [];
  samples[0] = s.p.x;
  samples[1] = s.p.y;
  samples[2] = s.p.z;
  for (let i = 1; i < n; i++) {
    const t = i * SIM_DT;
    const wasIn = s.inNet;
    const r = stepBall(s, SIM_DT, hoops, bounds);
    for (const c of r.contacts) {
      contacts.push({ t, what: c.what, speed: c.speed });
      if (c.what !== 'floor' && c.hoop === target.index && firstContact === null && entryT === null) {
        firstContact = c.what;
        firstContactT = t;
      }
    }
    if (r.entered === target.index && entryT === null) entryT = t;
    if (wasIn === target.index && s.inNet === -1 && entryT !== null && netExitT === null) {
      netExitT = t;
      confirmed = Math.hypot(s.p.x - target.rim.x, s.p.y - target.rim.y) < RIM_RADIUS + 0.05;
    }
    const hd = Math.hypot(s.p.x - target.rim.x, s.p.y - target.rim.y);
    const d3 = Math.hypot(hd, s.p.z - RIM_HEIGHT);
    if (d3 < approachD && firstContactT === null) {
      approachD = d3;
      approachT = t;
    }
    if (areaT === null && hd < RIM_RADIUS + BALL_RADIUS && s.p.z <= RIM_HEIGHT + BALL_RADIUS && s.v.z < 0) areaT = t;
    samples[i * 3] = s.p.x;
    samples[i * 3 + 1] = s.p.y;
    samples[i * 3 + 2] = s.p.z;
  }
  const made = entryT !== null && confirmed;
  let kind: ShotKind;
  if (made) kind = firstContact === 'board' ? 'bank_in' : firstContact === 'rim' ? 'rim_in' : 'swish';
  else kind = firstContact === 'board' ? 'bank_out' : firstContact === 'rim' ? 'rim_out' : 'air_ball';
  const cands = [firstContactT, areaT].filter((x): x is number => x !== null);
  const rimArrivalT = cands.length ? Math.min(...cands) : approachT;
  return {
    samples,
    count: n,
    endVelocity: { ...s.v },
    made,
    kind,
    firstContactT,
    firstContact,
    entryT: made ? entryT : null,
    rimArrivalT,
    netExitT: made ? netExitT : null,
    contacts,
  };
}

/** Position of a simulated shot at t seconds after release (linear interpolation, clamped to the end). */
export function shotPosition(sim: ShotSim, t: number): Vec3 {
  const f = Math.max(0, t / SIM_DT);
  const i = Math.min(sim.count - 1, Math.floor(f));
  const j = Math.min(sim.count - 1, i + 1);
  const a = f - i;
  const s = sim.samples;
  return {
    x: s[i * 3] + (s[j * 3] - s[i * 3]) * a,
    y: s[i * 3 + 1] + (s[j * 3 + 1] - s[i * 3 + 1]) * a,
    z: s[i * 3 + 2] + (s[j * 3 + 2] - s[i * 3 + 2]) * a,
  };
}

/** Initial velocity that takes a ball from p0 to p1 in time T under gravity. */
export function ballisticVelocity(p0: Vec3, p1: Vec3, T: number): Vec3 {
  return {
    x: (p1.x - p0.x) / T,
    y: (p1.y - p0.y) / T,
    z: (p1.z - p0.z + 0.5 * GRAVITY * T * T) / T,
  };
}

/** A planned shot: release velocity and its simulation. */
export interface PlannedShot {
  v0: Vec3;
  sim: ShotSim;
  /** Candidates tried before one matched. */
  tries: number;
}

function aimPoint(rng: Rng, kind: ShotKind, p0: Vec3, h: HoopGeom): { aim: Vec3; T: number } {
  const dx = h.rim.x - p0.x;
  const dy = h.rim.y - p0.y;
  const dist = Math.hypot(dx, dy);
  const fx = dx / dist;
  const fy = dy / dist;
  const T0 = 0.78 + 0.07 * dist + rng.range(-0.06, 0.08);
  const polar = (r: number, a: number): Vec3 => ({
    x: h.rim.x + r * (fx * Math.cos(a) - fy * Math.sin(a)),
    y: h.rim.y + r * (fy * Math.cos(a) + fx * Math.sin(a)),
    z: RIM_HEIGHT + 0.02,
  });
  switch (kind) {
    case 'swish':
      return { aim: polar(rng.range(0, 0.05), rng.range(-Math.PI, Math.PI)), T: T0 };
    case 'rim_in':
    case 'rim_out': {
      const front = rng.chance(0.5);
      const a = rng.chance(0.75) ? (front ? Math.PI : 0) + rng.range(-0.6, 0.6) : rng.pick([-1, 1]) * Math.PI * 0.5 + rng.range(-0.4, 0.4);
      return { aim: polar(rng.range(0.07, 0.2), a), T: T0 };
    }
    case 'bank_in':
    case 'bank_out': {
      const sideSign = Math.abs(dy) > 0.3 ? -Math.sign(dy) : rng.pick([-1, 1]);
      return {
        aim: {
          x: h.boardX - h.side * (BALL_RADIUS + 0.002),
          y: h.rim.y + sideSign * rng.range(0.02, 0.3),
          z: RIM_HEIGHT + rng.range(0.15, 0.55),
        },
        T: T0 - 0.03,
      };
    }
    case 'air_ball':
    case 'blocked': {
      const a = rng.chance(0.6) ? Math.PI + rng.range(-0.5, 0.5) : rng.pick([-1, 1]) * Math.PI * 0.5 + rng.range(-0.3, 0.3);
      return { aim: polar(rng.range(0.45, 0.9), a), T: T0 };
    }
  }
}

/**
 * Finds a release velocity from p0 whose simulated outcome at hoop h is `kind`. Candidates
 * come from the seeded rng, so the result is deterministic. Falls back to the last
 * candidate of the closest kind family (made/missed) if none matches after many tries;
 * callers read the actual kind from `sim.kind`.
 */
export function planShot(
  rng: Rng,
  kind: ShotKind,
  p0: Vec3,
  h: HoopGeom,
  hoops: readonly HoopGeom[],
  bounds: { x: number; y: number },
): PlannedShot {
  const wantMade = kind === 'swish' || kind === 'rim_in' || kind === 'bank_in';
  let fallback: PlannedShot | null = null;
  for (let tries = 1; tries <= 400; tries++) {
    const { aim, T } = aimPoint(rng, kind, p0, h);
    const v0 = ballisticVelocity(p0, aim, T);
    const sim = simulateShot(p0, v0, h, hoops, bounds);
    if (sim.kind === kind) return { v0, sim, tries };
    if (sim.made === wantMade && !fallback) fallback = { v0, sim, tries };
  }
  if (fallback) return fallback;
  const { aim, T } = aimPoint(rng, 'swish', p0, h);
  const v0 = ballisticVelocity(p0, aim, T);
  return { v0, sim: simulateShot(p0, v0, h, hoops, bounds), tries: 401 };
}
