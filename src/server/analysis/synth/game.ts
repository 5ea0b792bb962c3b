/**
 * The game director: a deterministic simulation of players, ball and nets, advanced one
 * video frame at a time. Plays are generator functions that yield once per frame, which
 * reads like a script ("dribble to the wing, pass, shoot, crash the boards") while keeping
 * every frame's state available to the renderer. All randomness comes from the `sim` rng,
 * so a dry run without rendering yields the same attempts as a full render.
 */
import type { ShotKind } from '../ground-truth.js';
import {
  BALL_RADIUS,
  NET_LENGTH,
  RIM_HEIGHT,
  RIM_RADIUS,
  distToBasket,
  freeThrowSpot,
  isThreePoint,
  onCourt,
  spotAround,
  threePointSignedDistance,
  type CourtSpec,
  type HoopGeom,
  type Vec2,
  type Vec3,
} from './court.js';
import { heldBallPosition } from './draw.js';
import type { Ball, NetState, Player, PlayerPose } from './entities.js';
import { planShot, shotPosition, stepBall, SIM_DT } from './physics.js';
import type { Rng } from './prng.js';
import type { RGB } from './raster.js';

/** One scripted event (script mode). */
export interface ScriptEvent {
  /**
   * Outcome kind, or a shorthand: `three`/`two` (a field goal of that value, `made` decides),
   * `free_throw` (`made` decides), `made`/`miss` (random kind).
   */
  kind: ShotKind | 'three' | 'two' | 'free_throw' | 'made' | 'miss';
  /** For `three`, `two`, `free_throw`, `made`/`miss` shorthands. */
  made?: boolean;
  /** 2 or 3 for field goals (default 2, or 3 for `three`). */
  points?: 2 | 3;
  /** Shooter distance from the basket (m); overrides the random spot distance. */
  distance?: number;
}

/** A shot attempt as it happened. */
export interface AttemptRecord {
  releaseT: number;
  rimArrivalT: number;
  made: boolean;
  kind: ShotKind;
  points: number;
  isThree: boolean;
  isFreeThrow: boolean;
  shooter: Player;
  assister: string | null;
  rebounder: string | null;
  hoopIndex: number;
  distance: number;
  release: Vec3;
}

export interface GameConfig {
  fps: number;
  /** Stop time in seconds; null in script mode (the script decides). */
  duration: number | null;
  nPlayers: number;
  spec: CourtSpec;
  /** Hoops that exist physically (empty with noHoop). */
  hoops: HoopGeom[];
  /** Hoop geometry used for positioning even when no hoop exists. */
  layoutHoops: HoopGeom[];
  /** Team i attacks layoutHoops[attack[i]]. */
  attack: [number, number];
  noShots: boolean;
  /** Off-ball players shuffle in place in live play (see `shuffles`). */
  offBallMotion: boolean;
  script: ScriptEvent[] | null;
  teamColors: [RGB, RGB];
}

const SKINS: RGB[] = [
  [241, 200, 170],
  [224, 172, 135],
  [198, 140, 100],
  [160, 105, 70],
  [120, 78, 50],
  [92, 60, 40],
  [70, 45, 32],
];
const HAIRS: RGB[] = [
  [20, 16, 14],
  [45, 30, 20],
  [90, 60, 30],
  [160, 120, 70],
  [30, 25, 22],
];

const OFFENSE_SPOTS: Array<[number, number]> = [
  [7.7, 0],
  [7.3, 0.85],
  [7.3, -0.85],
  [7.05, 1.45],
  [7.05, -1.45],
  [4.9, 0.55],
  [4.9, -0.55],
  [2.7, 1.15],
  [2.7, -1.15],
  [5.2, 0.05],
];

type Gen = Generator<void, void, void>;

/** Seconds for an off-ball shuffle to fade in or out. */
const SHUFFLE_EASE_S = 0.4;

/**
 * A player's own off-ball shuffle: amplitude 0.12–0.3 m, 0.45–0.95 shuffles (there and back) a second, any
 * phase. Derived from the jersey and the player's index, not drawn from the game's random
 * stream, so the simulated game (every attempt, pass and rebound) does not depend on it.
 */
function shuffleStyle(jersey: string, index: number): { amp: number; hz: number; phase: number } {
  let h = 2166136261 ^ index;
  for (const c of `${jersey}#${index}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  const u = (k: number) => (((h >>> (k * 8)) & 0xff) + 0.5) / 256;
  return { amp: 0.12 + 0.18 * u(0), hz: 0.45 + 0.5 * u(1), phase: 2 * Math.PI * u(2) };
}

/** Deterministic game simulation. */
export class Game {
  readonly players: Player[] = [];
  readonly ball: Ball;
  readonly nets: NetState[];
  readonly attempts: AttemptRecord[] = [];
  readonly score: [number, number] = [0, 0];
  /** Shot attempts whose hoop was not in view (filled by the renderer). */
  t = 0;
  frame = 0;
  done = false;
  /** Highest number of simultaneous passes recorded, for statistics. */
  passes = 0;
  private readonly dt: number;
  private readonly director: Gen;
  private offenseTeam: 0 | 1 = 0;
  private needsClear = false;
  /** Free throws are being set up or taken: everybody waits in place (no off-ball shuffle). */
  private deadBall = false;
  private readonly bounds: { x: number; y: number };
  private pendingNet: Array<{ t: number; hoop: number; amp: number }> = [];

  constructor(
    readonly cfg: GameConfig,
    private readonly rng: Rng,
  ) {
    this.dt = 1 / cfg.fps;
    this.bounds = { x: cfg.spec.length / 2 + 3.3, y: cfg.spec.width / 2 + 2 };
    this.nets = cfg.layoutHoops.map(() => ({ amp: 0, dirX: 1, dirY: 0, t0: -10 }));
    const n = cfg.nPlayers;
    const sizes = [Math.ceil(n / 2), Math.floor(n / 2)];
    const used = new Set<string>();
    for (let team = 0 as 0 | 1; team <= 1; team = (team + 1) as 0 | 1) {
      for (let k = 0; k < sizes[team]; k++) {
        let jersey: string;
        do jersey = String(rng.pick([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 30, 32, 33, 34, 41, 44, 55]));
        while (used.has(`${team}:${jersey}`));
        used.add(`${team}:${jersey}`);
        const h = this.layoutHoop(team);
        const spot = spotAround(h, rng.range(3, 8), rng.range(-1.3, 1.3));
        this.players.push({
          id: `t${team}p${k + 1}`,
          team,
          jersey,
          height: rng.range(1.78, 2.06),
          skin: rng.pick(SKINS),
          hair: rng.pick(HAIRS),
          shoe: rng.pick<RGB>([
            [240, 240, 240],
            [20, 20, 20],
            [200, 40, 40],
            [240, 240, 240],
          ]),
          pos: this.clampCourt(spot),
          vel: { x: 0, y: 0 },
          facing: Math.atan2(h.rim.y - spot.y, h.rim.x - spot.x),
          target: null,
          speed: 3,
          lookAt: null,
          stride: rng.range(0, 6.28),
          pose: 'idle',
          poseT: 0,
          jump: 0,
          lastPass: null,
          shuffle: { k: 0, ...shuffleStyle(jersey, this.players.length) },
        });
      }
      if (team === 1) break;
    }
    const first = this.players[0];
    this.ball = {
      mode: 'held',
      holder: first,
      dribbling: true,
      dribblePhase: 0,
      pos: heldBallPosition(first, { dribbling: true, dribblePhase: 0 } as Ball, 0),
      vel: { x: 0, y: 0, z: 0 },
      pass: null,
      shot: null,
      inNet: -1,
    };
    this.director = this.run();
  }

  /** Hoop (layout) attacked by a team. */
  layoutHoop(team: 0 | 1): HoopGeom {
    return this.cfg.layoutHoops[this.cfg.attack[team]];
  }

  private clampCourt(p: Vec2, margin = 0.4): Vec2 {
    const hx = this.cfg.spec.length / 2 - margin;
    const hy = this.cfg.spec.width / 2 - margin;
    return { x: Math.max(-hx, Math.min(hx, p.x)), y: Math.max(-hy, Math.min(hy, p.y)) };
  }

  private team(t: 0 | 1): Player[] {
    return this.players.filter((p) => p.team === t);
  }

  private setPose(p: Player, pose: PlayerPose): void {
    if (p.pose !== pose) {
      p.pose = pose;
      p.poseT = this.t;
    }
  }

  /** Seconds left before the configured end (Infinity in script mode). */
  remaining(): number {
    return this.cfg.duration === null ? Infinity : this.cfg.duration - this.t;
  }

  /** Advances the simulation by one frame; the state then describes time `t`. */
  step(): void {
    if (this.done) return;
    if (this.frame > 0) this.t = this.frame / this.cfg.fps;
    const r = this.director.next();
    if (r.done) this.done = true;
    this.updatePlayers();
    this.updateBall();
    this.frame++;
    if (this.cfg.duration !== null && this.frame >= Math.round(this.cfg.duration * this.cfg.fps)) this.done = true;
  }

  private updatePlayers(): void {
    const dt = this.dt;
    for (const p of this.players) {
      let ax = 0;
      let ay = 0;
      if (p.target) {
        const dx = p.target.x - p.pos.x;
        const dy = p.target.y - p.pos.y;
        const d = Math.hypot(dx, dy);
        if (d < 0.08) {
          p.target = null;
        } else {
          const want = Math.min(p.speed, d * 2.5);
          ax = (dx / d) * want - p.vel.x;
          ay = (dy / d) * want - p.vel.y;
        }
      }
      if (!p.target) {
        ax = -p.vel.x;
        ay = -p.vel.y;
      }
      const al = Math.hypot(ax, ay);
      const maxA = 9 * dt;
      if (al > maxA) {
        ax *= maxA / al;
        ay *= maxA / al;
      }
      p.vel.x += ax;
      p.vel.y += ay;
      p.pos.x += p.vel.x * dt;
      p.pos.y += p.vel.y * dt;
      const sp = Math.hypot(p.vel.x, p.vel.y);
      p.stride += (sp * dt * 2 * Math.PI) / 2.3;
      let want: number | null = null;
      if (p.lookAt && (sp < 1.2 || p.pose === 'defend')) want = Math.atan2(p.lookAt.y - p.pos.y, p.lookAt.x - p.pos.x);
      else if (sp > 0.4) want = Math.atan2(p.vel.y, p.vel.x);
      if (want !== null) {
        let d = want - p.facing;
        d = Math.atan2(Math.sin(d), Math.cos(d));
        const maxTurn = 7 * dt;
        p.facing += Math.max(-maxTurn, Math.min(maxTurn, d));
      }
      if (p.pose === 'idle' || p.pose === 'run' || p.pose === 'dribble') {
        const holding = this.ball.holder === p && this.ball.mode === 'held';
        this.setPose(p, holding && this.ball.dribbling ? 'dribble' : holding ? 'hold' : sp > 0.6 ? 'run' : 'idle');
      }
      const sh = p.shuffle;
      const on = this.shuffles(p) ? 1 : 0;
      sh.k = on > sh.k ? Math.min(on, sh.k + dt / SHUFFLE_EASE_S) : Math.max(on, sh.k - dt / SHUFFLE_EASE_S);
    }
  }

  /**
   * Whether a player standing off the ball shuffles in place now: in live play nobody stands frozen (they
   * shift, check, set their feet — the calm before a free throw is the exception); the ball's
   * holder and a player about to receive it or shoot keep still (and anyone the ball comes near:
   * see the drawing's `shuffled`).
   */
  private shuffles(p: Player): boolean {
    if (!this.cfg.offBallMotion || this.deadBall || p.jump > 0) return false;
    // a player on the move is not frozen anyway
    if ((p.pose !== 'idle' && p.pose !== 'defend') || Math.hypot(p.vel.x, p.vel.y) > 1) return false;
    const b = this.ball;
    return b.holder !== p && !(b.mode === 'pass' && b.pass?.to === p);
  }

  private updateBall(): void {
    const b = this.ball;
    const prev = { ...b.pos };
    for (const n of this.pendingNet) {
      if (n.t <= this.t) {
        const net = this.nets[n.hoop];
        const vl = Math.hypot(b.vel.x, b.vel.y) || 1;
        net.amp = n.amp;
        net.dirX = b.vel.x / vl;
        net.dirY = b.vel.y / vl;
        net.t0 = n.t;
      }
    }
    this.pendingNet = this.pendingNet.filter((n) => n.t > this.t);
    switch (b.mode) {
      case 'held': {
        const h = b.holder as Player;
        if (b.dribbling) b.dribblePhase = (b.dribblePhase + this.dt / 0.55) % 2;
        b.pos = heldBallPosition(h, b, this.t);
        break;
      }
      case 'pass': {
        const ps = b.pass!;
        const tau = Math.min(ps.T, this.t - ps.t0);
        b.pos = {
          x: ps.p0.x + ps.v0.x * tau,
          y: ps.p0.y + ps.v0.y * tau,
          z: ps.p0.z + ps.v0.z * tau - 0.5 * 9.81 * tau * tau,
        };
        if (ps.bounce && b.pos.z < BALL_RADIUS) b.pos.z = 2 * BALL_RADIUS - b.pos.z;
        if (this.t - ps.t0 >= ps.T - 1e-9) {
          b.mode = 'held';
          b.holder = ps.to;
          b.dribbling = false;
          b.pass = null;
          ps.to.lastPass = { from: ps.from.id, t: this.t };
          this.setPose(ps.to, 'hold');
          b.pos = heldBallPosition(ps.to, b, this.t);
        }
        break;
      }
      case 'shot': {
        const s = b.shot!;
        const tau = this.t - s.t0;
        if (tau >= (s.sim.count - 1) * SIM_DT) {
          b.mode = 'loose';
          b.pos = shotPosition(s.sim, tau);
          b.vel = { ...s.sim.endVelocity };
          b.shot = null;
        } else {
          b.pos = shotPosition(s.sim, tau);
          const p2 = shotPosition(s.sim, tau + 0.01);
          b.vel = { x: (p2.x - b.pos.x) * 100, y: (p2.y - b.pos.y) * 100, z: (p2.z - b.pos.z) * 100 };
        }
        break;
      }
      case 'loose': {
        const sub = 8;
        const st = { p: { ...b.pos }, v: { ...b.vel }, inNet: b.inNet };
        for (let i = 0; i < sub; i++) {
          const r = stepBall(st, this.dt / sub, this.cfg.hoops, this.bounds);
          for (const c of r.contacts) if (c.what === 'rim' && c.speed > 0.5) this.pendingNet.push({ t: this.t, hoop: c.hoop, amp: 0.02 });
        }
        b.pos = st.p;
        b.vel = st.v;
        b.inNet = st.inNet;
        break;
      }
    }
    if (b.mode !== 'shot' && b.mode !== 'loose') {
      b.vel = { x: (b.pos.x - prev.x) / this.dt, y: (b.pos.y - prev.y) / this.dt, z: (b.pos.z - prev.z) / this.dt };
    }
  }

  private *wait(sec: number): Gen {
    const n = Math.max(0, Math.round(sec * this.cfg.fps));
    for (let i = 0; i < n; i++) yield;
  }

  private *until(cond: () => boolean, maxSec: number): Gen {
    const n = Math.round(maxSec * this.cfg.fps);
    for (let i = 0; i < n && !cond(); i++) yield;
  }

  private moveTo(p: Player, to: Vec2, speed: number): void {
    p.target = this.clampCourt(to, 0.3);
    p.speed = speed;
  }

  private arrived(p: Player): boolean {
    return p.target === null && Math.hypot(p.vel.x, p.vel.y) < 0.5;
  }

  /** Sets offensive spots and defensive assignments toward a hoop. */
  private setFormation(off: 0 | 1, handler: Player | null, spread = true): void {
    const h = this.layoutHoop(off);
    const offense = this.team(off);
    const defense = this.team((1 - off) as 0 | 1);
    const spots = OFFENSE_SPOTS.slice();
    for (const p of offense) {
      if (p === handler) continue;
      if (spread || this.rng.chance(0.5)) {
        const k = this.rng.int(0, spots.length - 1);
        const [d, a] = spots.splice(k, 1)[0];
        this.moveTo(p, spotAround(h, d + this.rng.range(-0.4, 0.4), a + this.rng.range(-0.12, 0.12)), this.rng.range(2.5, 5.5));
      }
      p.lookAt = this.ball.pos;
    }
    defense.forEach((d, i) => {
      const opp = offense[i % Math.max(1, offense.length)];
      if (!opp) return;
      const goal = opp.target ?? opp.pos;
      const dx = h.rim.x - goal.x;
      const dy = h.rim.y - goal.y;
      const dl = Math.hypot(dx, dy) || 1;
      const off = Math.min(1.4, dl * 0.35) + (i >= offense.length ? 1.5 : 0);
      this.moveTo(d, { x: goal.x + (dx / dl) * off, y: goal.y + (dy / dl) * off }, this.rng.range(3, 5.5));
      d.lookAt = opp.pos;
      this.setPose(d, 'defend');
    });
  }

  /** Defenders re-track their men every frame of a wait. */
  private *play(sec: number, off: 0 | 1): Gen {
    const n = Math.round(sec * this.cfg.fps);
    for (let i = 0; i < n; i++) {
      if (i % 6 === 0) this.trackDefense(off);
      yield;
    }
  }

  private trackDefense(off: 0 | 1): void {
    const h = this.layoutHoop(off);
    const offense = this.team(off);
    this.team((1 - off) as 0 | 1).forEach((d, i) => {
      const opp = offense[i % Math.max(1, offense.length)];
      if (!opp) return;
      const dx = h.rim.x - opp.pos.x;
      const dy = h.rim.y - opp.pos.y;
      const dl = Math.hypot(dx, dy) || 1;
      const off2 = Math.min(1.3, dl * 0.35) + (i >= offense.length ? 1.5 : 0);
      const goal = { x: opp.pos.x + (dx / dl) * off2, y: opp.pos.y + (dy / dl) * off2 };
      if (Math.hypot(goal.x - d.pos.x, goal.y - d.pos.y) > 0.3) this.moveTo(d, goal, 4.5);
      d.lookAt = this.ball.pos;
      if (d.pose !== 'catch') this.setPose(d, 'defend');
    });
  }

  private *dribbleTo(p: Player, to: Vec2, speed: number, off: 0 | 1, maxSec = 6): Gen {
    this.ball.dribbling = true;
    this.setPose(p, 'dribble');
    this.moveTo(p, to, speed);
    p.lookAt = null;
    const n = Math.round(maxSec * this.cfg.fps);
    for (let i = 0; i < n && p.target; i++) {
      if (i % 6 === 0) this.trackDefense(off);
      yield;
    }
  }

  private *pass(from: Player, to: Player): Gen {
    const b = this.ball;
    from.target = null;
    to.target = null;
    from.lookAt = to.pos;
    to.lookAt = from.pos;
    b.dribbling = false;
    this.setPose(from, 'hold');
    yield* this.wait(0.25);
    this.setPose(from, 'pass');
    yield* this.wait(0.08);
    const p0 = { ...b.pos };
    const fake: Ball = { ...b, holder: to, dribbling: false };
    const saved = to.pose;
    to.pose = 'hold';
    const p1 = heldBallPosition(to, fake, this.t);
    to.pose = saved;
    const dist = Math.hypot(p1.x - p0.x, p1.y - p0.y);
    const bounce = dist > 3 && dist < 7 && this.rng.chance(0.2);
    const T = bounce ? dist / 7 + 0.2 : dist / 10 + 0.18;
    const v0 = bounce
      ? { x: (p1.x - p0.x) / T, y: (p1.y - p0.y) / T, z: (2 * BALL_RADIUS - p1.z - p0.z + 4.905 * T * T) / T }
      : { x: (p1.x - p0.x) / T, y: (p1.y - p0.y) / T, z: (p1.z - p0.z + 4.905 * T * T) / T };
    b.mode = 'pass';
    b.holder = null;
    b.pass = { p0, v0, t0: this.t, T, to, from, bounce };
    this.passes++;
    this.setPose(from, 'idle');
    this.setPose(to, 'catch');
    yield* this.until(() => b.mode === 'held', T + 0.5);
    this.setPose(to, 'hold');
    to.lookAt = null;
    from.lookAt = b.pos;
  }

  /** Chooses a floor spot for a shot: 3s beyond the arc, 2s inside it, never within 0.35 m of the line. */
  private shotSpot(h: HoopGeom, three: boolean, distance?: number): Vec2 {
    const spec = this.cfg.spec;
    for (let i = 0; i < 200; i++) {
      let d: number;
      let a: number;
      if (three) {
        a = this.rng.range(-1.5, 1.5);
        d = distance ?? spec.threeRadius + this.rng.range(0.4, 1.3);
      } else {
        const r = this.rng.next();
        d = distance ?? (r < 0.3 ? this.rng.range(1.0, 2.6) : this.rng.range(2.6, Math.max(3, (spec.threeRadius || 7) - 0.5)));
        a = this.rng.range(-1.35, 1.35);
      }
      const p = spotAround(h, d, a);
      if (!onCourt(spec, p, 0.4)) continue;
      if (spec.threePoint !== 'none') {
        const sd = threePointSignedDistance(spec, h, p);
        if (Math.abs(sd) < 0.35) continue;
        if (three !== sd > 0) continue;
      }
      return p;
    }
    return spotAround(h, three ? (spec.threeRadius || 7) + 0.8 : 3, 0);
  }

  private randomKind(dist: number, made: boolean | null): ShotKind {
    const m = made ?? this.rng.chance(Math.max(0.25, 0.62 - 0.045 * dist));
    if (m) return this.rng.weighted({ swish: 0.45, rim_in: 0.38, bank_in: dist < 5.5 ? 0.17 : 0.04 });
    return this.rng.weighted({ rim_out: 0.62, bank_out: 0.16, air_ball: dist > 5 ? 0.14 : 0.06 });
  }

  /** Gather, jump, release, flight; records the attempt; returns it when the ball reaches the rim area. */
  private *shotAction(shooter: Player, hoopIdx: number, kind: ShotKind, ft: boolean, out: { rec: AttemptRecord | null }): Gen {
    const h = this.cfg.layoutHoops[hoopIdx];
    const b = this.ball;
    shooter.target = null;
    shooter.lookAt = { x: h.rim.x, y: h.rim.y };
    b.dribbling = false;
    this.setPose(shooter, 'hold');
    yield* this.until(() => Math.hypot(shooter.vel.x, shooter.vel.y) < 0.6, 0.6);
    const want = Math.atan2(h.rim.y - shooter.pos.y, h.rim.x - shooter.pos.x);
    yield* this.until(() => Math.abs(Math.atan2(Math.sin(want - shooter.facing), Math.cos(want - shooter.facing))) < 0.05, 1);
    shooter.facing = want;
    this.setPose(shooter, 'gather');
    yield* this.wait(ft ? 0.5 : 0.32);
    const jumpH = ft ? 0.04 : this.rng.range(0.22, 0.45);
    const rise = 0.24;
    this.setPose(shooter, 'shoot');
    const n = Math.max(1, Math.round(rise * this.cfg.fps));
    for (let i = 1; i <= n; i++) {
      shooter.jump = jumpH * Math.sin((Math.PI / 2) * (i / n));
      yield;
    }
    const release = heldBallPosition(shooter, b, this.t);
    const plan = planShot(this.rng, kind, release, h, this.cfg.hoops, this.bounds);
    const sim = plan.sim;
    const spec = this.cfg.spec;
    const feet = { x: shooter.pos.x, y: shooter.pos.y };
    const isThree = !ft && isThreePoint(spec, h, feet);
    const value = ft ? 1 : isThree ? 3 : 2;
    const assister =
      !ft && sim.made && shooter.lastPass && this.t - shooter.lastPass.t <= 4 && this.players.find((p) => p.id === shooter.lastPass!.from)?.team === shooter.team
        ? shooter.lastPass.from
        : null;
    const rec: AttemptRecord = {
      releaseT: this.t,
      rimArrivalT: this.t + sim.rimArrivalT,
      made: sim.made,
      kind: sim.kind,
      points: sim.made ? value : 0,
      isThree,
      isFreeThrow: ft,
      shooter,
      assister,
      rebounder: null,
      hoopIndex: hoopIdx,
      distance: distToBasket(h, feet),
      release,
    };
    this.attempts.push(rec);
    out.rec = rec;
    if (sim.made) this.score[shooter.team] += value;
    shooter.lastPass = null;
    b.mode = 'shot';
    b.holder = null;
    b.shot = { sim, t0: this.t, hoop: hoopIdx };
    for (const c of sim.contacts) if (c.what === 'rim' && c.speed > 0.4) this.pendingNet.push({ t: this.t + c.t, hoop: hoopIdx, amp: 0.025 });
    if (sim.netExitT !== null) this.pendingNet.push({ t: this.t + sim.entryT!, hoop: hoopIdx, amp: 0.07 });
    const fall = Math.max(1, Math.round(0.28 * this.cfg.fps));
    for (let i = 1; i <= fall; i++) {
      shooter.jump = jumpH * Math.cos((Math.PI / 2) * (i / fall));
      yield;
    }
    shooter.jump = 0;
    this.setPose(shooter, 'idle');
  }

  /** Ball position predicted `lead` seconds ahead (shot simulation or loose ballistic guess). */
  private predictBall(lead: number): Vec3 {
    const b = this.ball;
    if (b.mode === 'shot' && b.shot) return shotPosition(b.shot.sim, this.t - b.shot.t0 + lead);
    if (b.mode === 'loose') {
      const k = b.pos.z < 0.3 ? Math.min(lead, 1.2) : lead;
      return { x: b.pos.x + b.vel.x * k, y: b.pos.y + b.vel.y * k, z: b.pos.z };
    }
    return { ...b.pos };
  }

  /** Whether a player can grab the ball now. */
  private canGrab(p: Player, notBefore: number): boolean {
    const b = this.ball;
    if (this.t < notBefore || (b.mode !== 'loose' && b.mode !== 'shot')) return false;
    const d = Math.hypot(b.pos.x - p.pos.x, b.pos.y - p.pos.y);
    if (d > 0.65 || b.pos.z > p.height + 0.55) return false;
    for (const h of this.cfg.hoops) {
      const hd = Math.hypot(b.pos.x - h.rim.x, b.pos.y - h.rim.y);
      if (hd < RIM_RADIUS + 0.25 && b.pos.z > RIM_HEIGHT - NET_LENGTH - 0.3) return false;
    }
    return true;
  }

  /**
   * A player of `team` (nearest to where the ball is heading) chases the loose ball and
   * grabs it; others drift toward the hoop. Returns the player who got the ball.
   */
  private *recover(team: 0 | 1, notBefore: number, out: { who: Player | null }, crash: Player[] = []): Gen {
    const pool = this.team(team).length ? this.team(team) : this.players;
    const land = this.predictBall(1.0);
    let chaser = pool[0];
    let best = Infinity;
    for (const p of pool) {
      const d = Math.hypot(p.pos.x - land.x, p.pos.y - land.y) + (p.jump > 0 ? 2 : 0);
      if (d < best) {
        best = d;
        chaser = p;
      }
    }
    for (const p of crash) if (p !== chaser) this.moveTo(p, { x: land.x + this.rng.range(-1.5, 1.5), y: land.y + this.rng.range(-1.5, 1.5) }, 3.5);
    const maxN = Math.round(12 * this.cfg.fps);
    for (let i = 0; i < maxN; i++) {
      if (this.canGrab(chaser, notBefore)) break;
      const d = Math.hypot(this.ball.pos.x - chaser.pos.x, this.ball.pos.y - chaser.pos.y);
      const lead = Math.min(1.2, d / 6);
      const aim = this.predictBall(lead);
      chaser.target = this.clampCourt({ x: aim.x, y: aim.y }, -1.5);
      chaser.speed = i > 6 * this.cfg.fps ? 8 : 5.8;
      chaser.lookAt = this.ball.pos;
      if (this.ball.pos.z > 1.7 && d < 1.0 && this.t >= notBefore) this.setPose(chaser, 'catch');
      yield;
    }
    const b = this.ball;
    b.mode = 'held';
    b.holder = chaser;
    b.shot = null;
    b.dribbling = false;
    b.inNet = -1;
    chaser.target = null;
    chaser.lookAt = null;
    this.setPose(chaser, b.pos.z > 1.6 ? 'catch' : 'hold');
    out.who = chaser;
    yield* this.wait(0.35);
    this.setPose(chaser, 'hold');
  }

  /** Full shot play: shot, flight and recovery of the ball; updates possession. */
  private *shootAndRecover(shooter: Player, kind: ShotKind, ft: boolean, liveAfter: boolean): Gen {
    const off = shooter.team;
    const def = (1 - off) as 0 | 1;
    const hoopIdx = this.cfg.attack[off];
    const h = this.cfg.layoutHoops[hoopIdx];
    const out: { rec: AttemptRecord | null } = { rec: null };
    const defenders = this.team(def);
    if (!ft && defenders.length) {
      let closest = defenders[0];
      for (const d of defenders) if (Math.hypot(d.pos.x - shooter.pos.x, d.pos.y - shooter.pos.y) < Math.hypot(closest.pos.x - shooter.pos.x, closest.pos.y - shooter.pos.y)) closest = d;
      const dx = h.rim.x - shooter.pos.x;
      const dy = h.rim.y - shooter.pos.y;
      const dl = Math.hypot(dx, dy) || 1;
      this.moveTo(closest, { x: shooter.pos.x + (dx / dl) * 1.0, y: shooter.pos.y + (dy / dl) * 1.0 }, 5);
      closest.lookAt = shooter.pos;
      this.setPose(closest, 'catch');
    }
    yield* this.shotAction(shooter, hoopIdx, kind, ft, out);
    const rec = out.rec!;
    const crash = this.players.filter((p) => p !== shooter && Math.hypot(p.pos.x - h.rim.x, p.pos.y - h.rim.y) < 6.5);
    for (const p of this.players) {
      if (p.pose === 'catch' || p.pose === 'defend') this.setPose(p, 'idle');
      p.lookAt = this.ball.pos;
    }
    if (!ft) for (const p of crash) if (this.rng.chance(0.6)) this.moveTo(p, spotAround(h, this.rng.range(1.5, 3.2), this.rng.range(-1.2, 1.2)), 3.5);
    yield* this.until(() => this.t >= rec.rimArrivalT, 4);
    if (!liveAfter) return;
    const who: { who: Player | null } = { who: null };
    if (rec.made) {
      const newOff = this.team(def).length ? def : off;
      yield* this.recover(newOff, rec.rimArrivalT + 0.6, who);
      this.offenseTeam = newOff;
    } else {
      const team: 0 | 1 = this.team(def).length && this.rng.chance(0.7) ? def : off;
      yield* this.recover(team, rec.rimArrivalT + 0.12, who, crash);
      rec.rebounder = who.who ? who.who.id : null;
      this.offenseTeam = who.who ? who.who.team : team;
    }
    this.needsClear = this.cfg.attack[0] === this.cfg.attack[1];
  }

  private *freeThrows(shooter: Player, madeList: boolean[], finalLive: boolean): Gen {
    this.deadBall = true;
    try {
      yield* this.freeThrowTrip(shooter, madeList, finalLive);
    } finally {
      this.deadBall = false;
    }
  }

  private *freeThrowTrip(shooter: Player, madeList: boolean[], finalLive: boolean): Gen {
    const off = shooter.team;
    const def = (1 - off) as 0 | 1;
    const h = this.layoutHoop(off);
    const b = this.ball;
    for (const p of this.players) {
      p.target = null;
      p.lookAt = null;
      if (p.pose === 'defend' || p.pose === 'catch') this.setPose(p, 'idle');
    }
    b.dribbling = false;
    yield* this.wait(0.5);
    const lane = this.cfg.spec.laneWidth / 2 + 0.45;
    const laneSpots: Vec2[] = [];
    for (const bx of [2.3, 3.3, 4.2]) for (const s of [1, -1]) laneSpots.push({ x: h.baselineX - h.side * bx, y: s * lane });
    const others = this.players.filter((p) => p !== shooter);
    others.sort((a, b2) => (a.team === def ? 0 : 1) - (b2.team === def ? 0 : 1));
    others.forEach((p, i) => {
      const spot = i < laneSpots.length ? laneSpots[i] : spotAround(h, this.rng.range(7.6, 8.6), this.rng.range(-1, 1));
      this.moveTo(p, spot, 3.8);
      p.lookAt = { x: h.rim.x, y: h.rim.y };
    });
    this.moveTo(shooter, freeThrowSpot(this.cfg.spec, h), 3.5);
    yield* this.until(() => this.players.every((p) => this.arrived(p)), 3.5);
    if (b.holder !== shooter) {
      if (b.mode === 'held' && b.holder) yield* this.pass(b.holder, shooter);
      else {
        b.mode = 'held';
        b.holder = shooter;
      }
    }
    for (let i = 0; i < madeList.length; i++) {
      const last = i === madeList.length - 1;
      shooter.lookAt = { x: h.rim.x, y: h.rim.y };
      b.dribbling = true;
      this.setPose(shooter, 'dribble');
      yield* this.wait(this.rng.range(0.7, 1.3));
      b.dribbling = false;
      this.setPose(shooter, 'hold');
      yield* this.wait(0.5);
      const kind = madeList[i] ? this.rng.weighted({ swish: 0.55, rim_in: 0.45 }) : this.rng.weighted({ rim_out: 0.85, bank_out: 0.1, air_ball: 0.05 });
      yield* this.shootAndRecover(shooter, kind, true, false);
      const rec = this.attempts[this.attempts.length - 1];
      if (last && finalLive) {
        // the ball is live again once the last free throw reaches the rim
        this.deadBall = false;
        for (const p of others) if (Math.abs(p.pos.y) > 1 && Math.abs(p.pos.x - h.rim.x) < 5) this.moveTo(p, { x: p.pos.x, y: p.pos.y * 0.5 }, 3);
        const who: { who: Player | null } = { who: null };
        if (rec.made) {
          const newOff = this.team(def).length ? def : off;
          yield* this.recover(newOff, rec.rimArrivalT + 0.6, who);
          this.offenseTeam = newOff;
        } else {
          const team: 0 | 1 = this.team(def).length && this.rng.chance(0.75) ? def : off;
          yield* this.recover(team, rec.rimArrivalT + 0.12, who, others);
          rec.rebounder = who.who ? who.who.id : null;
          this.offenseTeam = who.who ? who.who.team : team;
        }
        this.needsClear = this.cfg.attack[0] === this.cfg.attack[1];
      } else {
        const who: { who: Player | null } = { who: null };
        const retriever = this.team(def).length ? def : off;
        yield* this.recover(retriever, rec.rimArrivalT + 0.5, who);
        if (who.who && who.who !== shooter) {
          yield* this.wait(0.3);
          yield* this.pass(who.who, shooter);
        }
        for (const p of others) {
          const k = others.indexOf(p);
          if (k < laneSpots.length) this.moveTo(p, laneSpots[k], 2);
        }
        if (!last) {
          this.moveTo(shooter, freeThrowSpot(this.cfg.spec, h), 2);
          yield* this.until(() => this.arrived(shooter), 3);
        }
      }
    }
  }

  private ensureHolder(): Player {
    const b = this.ball;
    if (b.mode === 'held' && b.holder) return b.holder;
    const p = this.players[0];
    b.mode = 'held';
    b.holder = p;
    return p;
  }

  private *possession(): Gen {
    const off = this.offenseTeam;
    const def = (1 - off) as 0 | 1;
    const h = this.layoutHoop(off);
    let handler = this.ensureHolder();
    if (handler.team !== off) {
      this.offenseTeam = handler.team;
      return;
    }
    const fullCourt = this.cfg.attack[0] !== this.cfg.attack[1];
    handler.lookAt = null;
    this.setFormation(off, handler);
    const inHalf = (handler.pos.x - 0) * h.side > 1;
    if (fullCourt && !inHalf) {
      yield* this.dribbleTo(handler, spotAround(h, this.rng.range(8, 9.5), this.rng.range(-0.5, 0.5)), this.rng.range(4, 6), off, 8);
    } else if (distToBasket(h, handler.pos) < (this.needsClear ? 6.9 : 5.5)) {
      yield* this.dribbleTo(handler, spotAround(h, this.rng.range(7.6, 8.6), this.rng.range(-0.9, 0.9)), this.rng.range(4, 5.5), off, 4);
    }
    this.needsClear = false;
    const offense = this.team(off);
    const ftChance = this.cfg.noShots || offense.length + this.team(def).length < 2 ? 0 : 0.07;
    if (this.rng.chance(ftChance) && this.remaining() > 16) {
      const shooter = this.rng.pick(offense);
      const made = [this.rng.chance(0.75), this.rng.chance(0.75)];
      yield* this.freeThrows(shooter, made, true);
      return;
    }
    const nPass = offense.length > 1 ? this.rng.weighted({ 0: 0.4, 1: 0.35, 2: 0.2, 3: this.cfg.noShots ? 0.3 : 0.05 }) : '0';
    for (let i = 0; i < Number(nPass) + (this.cfg.noShots ? 1 : 0) && this.remaining() > 8; i++) {
      if (i > 0 || this.rng.chance(0.5)) this.setFormation(off, handler, false);
      yield* this.play(this.rng.range(0.2, 0.9), off);
      const mates = offense.filter((p) => p !== handler);
      const to = this.rng.pick(mates);
      yield* this.pass(handler, to);
      handler = to;
      if (this.rng.chance(0.3)) yield* this.dribbleTo(handler, spotAround(h, this.rng.range(5, 8), this.rng.range(-1.3, 1.3)), 4, off, 1.5);
    }
    if (this.cfg.noShots) {
      yield* this.play(this.rng.range(0.5, 1.5), off);
      const defenders = this.team(def);
      if (defenders.length) {
        const thief = defenders.reduce((a, d) => (Math.hypot(d.pos.x - handler.pos.x, d.pos.y - handler.pos.y) < Math.hypot(a.pos.x - handler.pos.x, a.pos.y - handler.pos.y) ? d : a));
        yield* this.pass(handler, thief);
        this.offenseTeam = def;
      } else {
        yield* this.dribbleTo(handler, spotAround(h, this.rng.range(3, 8), this.rng.range(-1.3, 1.3)), 3.5, off, 4);
      }
      this.needsClear = !fullCourt;
      return;
    }
    if (this.remaining() < 6) return;
    const three = this.cfg.spec.threePoint !== 'none' && this.rng.chance(0.36);
    const spot = this.shotSpot(h, three);
    yield* this.dribbleTo(handler, spot, this.rng.range(4.5, 6), off, 2.5);
    const kind = this.randomKind(distToBasket(h, handler.pos), null);
    yield* this.shootAndRecover(handler, kind, false, true);
  }

  private *runScript(): Gen {
    const events = this.cfg.script ?? [];
    for (const ev of events) {
      const holder = this.ensureHolder();
      const off = holder.team;
      this.offenseTeam = off;
      const h = this.layoutHoop(off);
      if (ev.kind === 'free_throw') {
        yield* this.freeThrows(holder, [ev.made ?? true], true);
        continue;
      }
      const explicit = ev.kind !== 'three' && ev.kind !== 'two' && ev.kind !== 'made' && ev.kind !== 'miss';
      const three = this.cfg.spec.threePoint !== 'none' && (ev.kind === 'three' || ev.points === 3);
      let shooter = holder;
      this.setFormation(off, holder);
      const mates = this.team(off).filter((p) => p !== holder);
      if (mates.length && this.rng.chance(0.6)) {
        yield* this.play(0.6, off);
        const to = this.rng.pick(mates);
        yield* this.pass(holder, to);
        shooter = to;
      }
      const spot = this.shotSpot(h, three, ev.distance);
      yield* this.dribbleTo(shooter, spot, 4, off, 4);
      const made = ev.made ?? (ev.kind === 'made' ? true : ev.kind === 'miss' ? false : null);
      const kind: ShotKind = explicit ? (ev.kind as ShotKind) : this.randomKind(distToBasket(h, shooter.pos), made ?? null);
      yield* this.shootAndRecover(shooter, kind, false, true);
      if (this.remaining() < 1) break;
    }
    yield* this.wait(1.0);
  }

  private *idle(): Gen {
    const holder = this.ensureHolder();
    const h = this.layoutHoop(holder.team);
    this.setFormation(holder.team, holder);
    while (true) {
      yield* this.dribbleTo(holder, spotAround(h, this.rng.range(6.5, 9), this.rng.range(-1.2, 1.2)), 2.5, holder.team, 2);
      yield* this.play(0.5, holder.team);
    }
  }

  private *run(): Gen {
    yield* this.wait(0.4);
    if (this.cfg.script) {
      yield* this.runScript();
      return;
    }
    while (true) {
      if (this.remaining() < 7) {
        yield* this.idle();
        return;
      }
      yield* this.possession();
    }
  }
}
