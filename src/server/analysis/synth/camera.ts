/**
 * Pinhole camera looking into the gym. A camera is a position plus yaw (about the world
 * vertical), pitch and roll, and a focal length in pixels. Panning only changes yaw, which
 * keeps the background a pure horizontal shift of a panorama (see background.ts).
 */
import type { Vec3 } from './court.js';
import type { Rng } from './prng.js';

export type ViewPreset = 'behind' | 'sideline' | 'corner45' | 'elevated' | 'baseline' | 'broadcast' | 'midcourt';

export const VIEW_PRESETS: readonly ViewPreset[] = ['behind', 'sideline', 'corner45', 'elevated', 'baseline', 'broadcast', 'midcourt'];

export interface CameraPose {
  pos: Vec3;
  /** Heading of the optical axis in the floor plane, radians from +x toward +y. */
  yaw: number;
  /** Positive looks down. */
  pitch: number;
  roll: number;
  /** Horizontal field of view, radians. */
  hfov: number;
}

/** A projection of a world point: pixel coordinates and depth along the optical axis (m). */
export interface Projected {
  u: number;
  v: number;
  depth: number;
}

/** Camera with precomputed rotation for fast projection. */
export class Camera {
  readonly width: number;
  readonly height: number;
  readonly focal: number;
  readonly cx: number;
  readonly cy: number;
  pose: CameraPose;
  private r = new Float64Array(9);

  constructor(pose: CameraPose, width: number, height: number) {
    this.width = width;
    this.height = height;
    this.focal = width / 2 / Math.tan(pose.hfov / 2);
    this.cx = width / 2;
    this.cy = height / 2;
    this.pose = { ...pose, pos: { ...pose.pos } };
    this.update();
  }

  /** Sets yaw/pitch/roll and recomputes the rotation. */
  setAngles(yaw: number, pitch: number, roll: number): void {
    this.pose.yaw = yaw;
    this.pose.pitch = pitch;
    this.pose.roll = roll;
    this.update();
  }

  /**
   * Rows of the world-to-camera rotation: camera axes right (x), down (y) and forward (z)
   * expressed in world coordinates.
   */
  private update(): void {
    const { yaw, pitch, roll } = this.pose;
    const fwd = [Math.cos(pitch) * Math.cos(yaw), Math.cos(pitch) * Math.sin(yaw), -Math.sin(pitch)];
    const right0 = [Math.sin(yaw), -Math.cos(yaw), 0];
    const down0 = [
      fwd[1] * right0[2] - fwd[2] * right0[1],
      fwd[2] * right0[0] - fwd[0] * right0[2],
      fwd[0] * right0[1] - fwd[1] * right0[0],
    ];
    const cr = Math.cos(roll);
    const sr = Math.sin(roll);
    const right = right0.map((v, i) => v * cr + down0[i] * sr);
    const down = down0.map((v, i) => down0[i] * cr - right0[i] * sr);
    const r = this.r;
    r[0] = right[0];
    r[1] = right[1];
    r[2] = right[2];
    r[3] = down[0];
    r[4] = down[1];
    r[5] = down[2];
    r[6] = fwd[0];
    r[7] = fwd[1];
    r[8] = fwd[2];
  }

  /** Projects a world point. Points behind the camera get depth <= 0. */
  project(x: number, y: number, z: number): Projected {
    const r = this.r;
    const dx = x - this.pose.pos.x;
    const dy = y - this.pose.pos.y;
    const dz = z - this.pose.pos.z;
    const cx = r[0] * dx + r[1] * dy + r[2] * dz;
    const cy = r[3] * dx + r[4] * dy + r[5] * dz;
    const cz = r[6] * dx + r[7] * dy + r[8] * dz;
    const inv = cz > 1e-6 ? this.focal / cz : 0;
    return { u: this.cx + cx * inv, v: this.cy + cy * inv, depth: cz };
  }

  /** World direction (unnormalized) of the ray through pixel (u, v). */
  ray(u: number, v: number): Vec3 {
    const r = this.r;
    const a = (u - this.cx) / this.focal;
    const b = (v - this.cy) / this.focal;
    return {
      x: r[0] * a + r[3] * b + r[6],
      y: r[1] * a + r[4] * b + r[7],
      z: r[2] * a + r[5] * b + r[8],
    };
  }

  /** Pixels per metre at a given depth. */
  scale(depth: number): number {
    return depth > 1e-6 ? this.focal / depth : 0;
  }
}

/** Pose looking from `pos` at `target`. */
export function lookAt(pos: Vec3, target: Vec3, hfovDeg: number, roll = 0): CameraPose {
  const dx = target.x - pos.x;
  const dy = target.y - pos.y;
  const dz = target.z - pos.z;
  return {
    pos: { ...pos },
    yaw: Math.atan2(dy, dx),
    pitch: -Math.atan2(dz, Math.hypot(dx, dy)),
    roll,
    hfov: (hfovDeg * Math.PI) / 180,
  };
}

/**
 * Camera pose of a preset view of the hoop at +x (rim at x = hoopX), with a little seeded
 * variation of position and angle so a set of clips does not share one exact viewpoint.
 * The vertical field of view is what matters for framing; presets are tuned for 16:9 and
 * widened for taller frames.
 */
export function presetPose(view: ViewPreset, hoopX: number, courtHalfWidth: number, rng: Rng, aspect: number): CameraPose {
  const j = (a: number) => rng.range(-a, a);
  const wide = aspect < 1.6 ? 1.6 / aspect : 1;
  const fov = (deg: number) => Math.min(100, deg * Math.sqrt(wide));
  switch (view) {
    case 'behind':
      return lookAt({ x: hoopX - 10.5 + j(1), y: 1.2 + j(1.5), z: 1.65 + j(0.2) }, { x: hoopX - 1.5, y: j(0.3), z: 2.2 + j(0.2) }, fov(56 + j(4)), j(0.015));
    case 'sideline':
      return lookAt({ x: hoopX - 5 + j(1), y: -courtHalfWidth - 3.5 + j(0.8), z: 2.0 + j(0.4) }, { x: hoopX - 2.5, y: -0.5, z: 1.7 + j(0.2) }, fov(60 + j(4)), j(0.015));
    case 'corner45':
      return lookAt({ x: hoopX - 9 + j(0.8), y: -8.5 + j(0.8), z: 1.7 + j(0.3) }, { x: hoopX - 2.2, y: -0.3, z: 2.0 + j(0.2) }, fov(58 + j(4)), j(0.015));
    case 'elevated':
      return lookAt({ x: hoopX - 11 + j(1), y: -courtHalfWidth - 5 + j(1), z: 7.5 + j(0.8) }, { x: hoopX - 3.5, y: -0.3, z: 1.0 }, fov(55 + j(3)), j(0.01));
    case 'baseline':
      return lookAt({ x: hoopX + 3.6 + j(0.4), y: -5.8 + j(0.6), z: 1.5 + j(0.2) }, { x: hoopX - 5, y: 0.8, z: 2.0 }, fov(66 + j(4)), j(0.015));
    case 'broadcast':
      return lookAt({ x: j(0.5), y: -courtHalfWidth - 5.5, z: 6.5 + j(0.5) }, { x: hoopX - 3, y: 0, z: 1.2 }, fov(50 + j(3)), 0);
    case 'midcourt':
      return lookAt({ x: j(1), y: -courtHalfWidth - 4 + j(0.5), z: 2.5 + j(0.3) }, { x: j(0.5), y: 1, z: 0.6 }, fov(54 + j(3)), j(0.01));
  }
}
