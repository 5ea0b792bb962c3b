/**
 * Mutable state of the simulated game (players, ball, nets) shared by the director, which
 * changes it, and the renderer, which draws it.
 */
import type { Vec2, Vec3 } from './court.js';
import type { RGB } from './raster.js';
import type { ShotSim } from './physics.js';
import type { Rng } from './prng.js';

/** What a player's arms and legs are doing, for drawing. */
export type PlayerPose = 'idle' | 'run' | 'dribble' | 'hold' | 'gather' | 'shoot' | 'catch' | 'defend' | 'pass';

export interface Player {
  id: string;
  team: 0 | 1;
  jersey: string;
  /** Standing height, m. */
  height: number;
  skin: RGB;
  hair: RGB;
  shoe: RGB;
  pos: Vec2;
  vel: Vec2;
  /** Facing direction, radians from +x. */
  facing: number;
  /** Where the player is heading, or null to stand. */
  target: Vec2 | null;
  /** Preferred speed toward the target, m/s. */
  speed: number;
  /** Point to face when standing (ball, opponent). */
  lookAt: Vec2 | null;
  /** Gait phase, radians. */
  stride: number;
  pose: PlayerPose;
  /** Time the current pose started (s). */
  poseT: number;
  /** Feet height above the floor (jumps), m. */
  jump: number;
  /** Last pass received: from whom and when. */
  lastPass: { from: string; t: number } | null;
  /**
   * Off-ball shuffle (drawn only: the simulation's position is untouched): how much of it shows now
   * (0–1, eased in and out), and the player's own amplitude (m), rate (Hz) and phase.
   */
  shuffle: { k: number; amp: number; hz: number; phase: number };
}

/** Ball modes: in a player's hands (maybe dribbling), a pass in flight, a shot following its simulation, or loose. */
export type BallMode = 'held' | 'pass' | 'shot' | 'loose';

export interface Ball {
  mode: BallMode;
  holder: Player | null;
  dribbling: boolean;
  /** Dribble phase 0..1. */
  dribblePhase: number;
  pos: Vec3;
  vel: Vec3;
  /** Pass flight: start, velocity and duration; receiver. */
  pass: { p0: Vec3; v0: Vec3; t0: number; T: number; to: Player; from: Player; bounce: boolean } | null;
  /** Shot in flight: simulation and release time. */
  shot: { sim: ShotSim; t0: number; hoop: number } | null;
  /** Ball inside a hoop's net (index) or -1, for loose-ball physics. */
  inNet: number;
}

/** Net sway state of one hoop. */
export interface NetState {
  amp: number;
  dirX: number;
  dirY: number;
  t0: number;
}

/**
 * Shirt colours of a pickup game ({@link ownClothes}): each player draws one of these, no two alike, so some
 * shirts are near (black and navy, white and light grey) as in a real gym; none is the ball's orange.
 */
export const SHIRT_COLORS: readonly RGB[] = [
  [235, 235, 232],
  [25, 25, 28],
  [190, 30, 40],
  [30, 70, 180],
  [130, 132, 135],
  [30, 120, 60],
  [240, 195, 40],
  [28, 38, 86],
  [110, 25, 40],
  [20, 130, 130],
  [85, 40, 130],
  [225, 110, 160],
  [120, 175, 225],
];

/** Shorts of a pickup game: drawn with repeats. */
export const SHORTS_COLORS: readonly RGB[] = [
  [25, 25, 28],
  [28, 38, 86],
  [110, 110, 112],
  [170, 150, 110],
  [225, 225, 222],
  [30, 70, 45],
];

/** Each player's own shirt (no two alike, while the palette lasts) and shorts, by player id. */
export function ownClothes(ids: readonly string[], rng: Rng): Map<string, { shirt: RGB; shorts: RGB }> {
  const left = [...SHIRT_COLORS];
  const out = new Map<string, { shirt: RGB; shorts: RGB }>();
  for (const id of ids) {
    if (!left.length) left.push(...SHIRT_COLORS);
    const shirt = left.splice(rng.int(0, left.length - 1), 1)[0];
    out.set(id, { shirt, shorts: rng.pick(SHORTS_COLORS) });
  }
  return out;
}

export const TEAM_COLOR_PRESETS: Record<string, [RGB, RGB]> = {
  'white-navy': [
    [235, 235, 232],
    [28, 38, 86],
  ],
  'red-black': [
    [190, 30, 40],
    [25, 25, 28],
  ],
  'yellow-purple': [
    [240, 195, 40],
    [85, 40, 130],
  ],
  'green-white': [
    [30, 120, 60],
    [235, 235, 232],
  ],
  'blue-orange': [
    [30, 90, 190],
    [235, 120, 30],
  ],
};
