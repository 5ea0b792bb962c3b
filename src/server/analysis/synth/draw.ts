/**
 * Draws the moving scene (players, ball, hoops with board, rim and net, shadows) over the
 * background, back to front by camera depth. Bodies are articulated stick-and-capsule
 * figures whose joints are placed in 3-D and projected, so size, foreshortening and
 * occlusion follow the camera like real footage.
 */
import type { Camera, Projected } from './camera.js';
import {
  BALL_RADIUS,
  BOARD_BOTTOM,
  BOARD_HEIGHT,
  BOARD_INNER_H,
  BOARD_INNER_W,
  BOARD_WIDTH,
  NET_LENGTH,
  RIM_HEIGHT,
  RIM_RADIUS,
  type HoopGeom,
  type Vec3,
} from './court.js';
import type { Ball, NetState, Player } from './entities.js';
import { capsule, drawDigits, fillEllipse, fillPolygon, fillShadedDisc, strokeLine, type Frame, type RGB } from './raster.js';

/** Appearance shared by the scene. */
export interface SceneLook {
  teamColors: [RGB, RGB];
  shorts: [RGB, RGB];
  /** A pickup game's own shirt and shorts per player id (no team jerseys, no numbers), or undefined. */
  clothes?: ReadonlyMap<string, { shirt: RGB; shorts: RGB }>;
  boardGlass: boolean;
  boardFrame: RGB;
  pad: RGB;
}

interface Joints {
  head: Vec3;
  neck: Vec3;
  shL: Vec3;
  shR: Vec3;
  elL: Vec3;
  elR: Vec3;
  haL: Vec3;
  haR: Vec3;
  hipL: Vec3;
  hipR: Vec3;
  knL: Vec3;
  knR: Vec3;
  ftL: Vec3;
  ftR: Vec3;
  pelvis: Vec3;
}

const v3 = (x: number, y: number, z: number): Vec3 => ({ x, y, z });

/** Two-bone IK: joint between a and b with segment lengths l1, l2, bending toward `bend`. */
function ik(a: Vec3, b: Vec3, l1: number, l2: number, bend: Vec3): Vec3 {
  let dx = b.x - a.x;
  let dy = b.y - a.y;
  let dz = b.z - a.z;
  let d = Math.hypot(dx, dy, dz);
  const maxD = (l1 + l2) * 0.999;
  if (d > maxD) {
    const k = maxD / d;
    dx *= k;
    dy *= k;
    dz *= k;
    d = maxD;
  }
  if (d < 1e-6) return v3(a.x + bend.x * l1, a.y + bend.y * l1, a.z + bend.z * l1);
  const ux = dx / d;
  const uy = dy / d;
  const uz = dz / d;
  const along = (l1 * l1 - l2 * l2 + d * d) / (2 * d);
  const h = Math.sqrt(Math.max(0, l1 * l1 - along * along));
  const bd = bend.x * ux + bend.y * uy + bend.z * uz;
  let px = bend.x - bd * ux;
  let py = bend.y - bd * uy;
  let pz = bend.z - bd * uz;
  const pl = Math.hypot(px, py, pz) || 1;
  px /= pl;
  py /= pl;
  pz /= pl;
  return v3(a.x + ux * along + px * h, a.y + uy * along + py * h, a.z + uz * along + pz * h);
}

/** Within this floor distance of the ball (m) a player does not shuffle; over the next {@link SHUFFLE_FADE_M} the shuffle fades in. */
const SHUFFLE_STILL_NEAR_M = 1.0;
const SHUFFLE_FADE_M = 1.5;

/**
 * The player as drawn at time `t`: moved sideways by its off-ball shuffle (see the game's
 * `shuffles`), stepping as it goes. The player itself when it does not shuffle.
 */
export function shuffled(p: Player, t: number, ball: Ball): Player {
  const sh = p.shuffle;
  // fades out as the ball comes within reach (a pass on its way, a loose ball), so a player
  // stands where the ball meets its hands
  const near = Math.hypot(ball.pos.x - p.pos.x, ball.pos.y - p.pos.y);
  const k = sh.k * Math.min(1, Math.max(0, (near - SHUFFLE_STILL_NEAR_M) / SHUFFLE_FADE_M));
  if (k <= 0) return p;
  const w = 2 * Math.PI * sh.hz * t + sh.phase;
  const side = k * sh.amp * Math.sin(w);
  // the facing's right-hand vector, as in playerJoints
  const rx = Math.sin(p.facing);
  const ry = -Math.cos(p.facing);
  // the legs step with it: one gait cycle per shuffle, at the shuffle's speed
  const v = k * sh.amp * 2 * Math.PI * sh.hz * Math.cos(w);
  return { ...p, pos: { x: p.pos.x + rx * side, y: p.pos.y + ry * side }, vel: { x: p.vel.x + rx * v, y: p.vel.y + ry * v }, stride: p.stride + w };
}

/** Places a player's joints in world coordinates from its pose, gait and the ball. */
export function playerJoints(p: Player, ball: Ball, t: number): Joints {
  const H = p.height;
  const fx = Math.cos(p.facing);
  const fy = Math.sin(p.facing);
  const rx = fy;
  const ry = -fx;
  const speed = Math.hypot(p.vel.x, p.vel.y);
  const gaitAmp = Math.min(1, speed / 5);
  const s = p.stride;
  const poseAge = t - p.poseT;
  let crouch = p.pose === 'defend' ? 0.1 : p.pose === 'dribble' ? 0.06 : 0.02 + 0.03 * gaitAmp;
  if (p.pose === 'gather') crouch = 0.14 * Math.min(1, poseAge / 0.25);
  const base = p.jump;
  const at = (fwd: number, side: number, z: number): Vec3 => v3(p.pos.x + fx * fwd + rx * side, p.pos.y + fy * fwd + ry * side, base + z);
  const hipZ = H * 0.53 - crouch;
  const pelvis = at(0, 0, hipZ);
  const hipL = at(0, -0.09 * H / 1.9, hipZ);
  const hipR = at(0, 0.09 * H / 1.9, hipZ);
  const legLen = H * 0.265;
  const stride = 0.42 * gaitAmp;
  const lift = 0.2 * gaitAmp;
  const footL = at(Math.sin(s) * stride, -0.11, Math.max(0, -Math.cos(s)) * lift);
  const footR = at(Math.sin(s + Math.PI) * stride, 0.11, Math.max(0, -Math.cos(s + Math.PI)) * lift);
  if (p.jump > 0.01) {
    footL.z = base + 0.02;
    footR.z = base + 0.05;
  } else {
    footL.z = Math.max(footL.z, 0.02);
    footR.z = Math.max(footR.z, 0.02);
  }
  const fwdBend = v3(fx, fy, 0.2);
  const knL = ik(hipL, footL, legLen, legLen, fwdBend);
  const knR = ik(hipR, footR, legLen, legLen, fwdBend);
  const lean = p.pose === 'run' || p.pose === 'dribble' ? 0.12 * gaitAmp : 0;
  const shZ = H * 0.82 - crouch;
  const shW = 0.2 * H / 1.9;
  const shL = at(lean, -shW, shZ);
  const shR = at(lean, shW, shZ);
  const neck = at(lean, 0, H * 0.86 - crouch);
  const head = at(lean * 1.1, 0, H * 0.925 - crouch);
  const armL = H * 0.17;
  const foreL = H * 0.19;
  let haL: Vec3;
  let haR: Vec3;
  const swing = Math.sin(s) * 0.35 * gaitAmp;
  switch (p.pose) {
    case 'dribble': {
      const bz = ball.holder === p ? ball.pos.z - base : 0.8;
      haR = at(0.32, 0.3, Math.min(1.05, Math.max(0.75, bz + 0.12)));
      haL = at(0.15 - swing, -0.35, H * 0.5 - crouch);
      break;
    }
    case 'hold':
    case 'pass':
      haL = at(0.32, -0.12, H * 0.62 - crouch);
      haR = at(0.32, 0.12, H * 0.62 - crouch);
      break;
    case 'gather': {
      const k = Math.min(1, poseAge / 0.3);
      haL = at(0.28, -0.12, H * (0.62 + 0.3 * k) - crouch);
      haR = at(0.28, 0.1, H * (0.62 + 0.32 * k) - crouch);
      break;
    }
    case 'shoot': {
      const k = Math.min(1, poseAge / 0.12);
      haR = at(0.22 + 0.12 * k, 0.12, H * (0.95 + 0.2 * k));
      haL = at(0.22, -0.08, H * (0.92 + 0.1 * k));
      break;
    }
    case 'catch':
      haL = at(0.25, -0.18, H * 1.08);
      haR = at(0.25, 0.18, H * 1.1);
      break;
    case 'defend':
      haL = at(0.15, -0.55, H * 0.62 + Math.sin(t * 3 + s) * 0.1);
      haR = at(0.15, 0.55, H * 0.7);
      break;
    default:
      haL = at(swing, -0.26, H * 0.44 - crouch);
      haR = at(-swing, 0.26, H * 0.44 - crouch);
  }
  const elbowBend = v3(-fx * 0.5, -fy * 0.5, -1);
  const elL = ik(shL, haL, armL, foreL, v3(elbowBend.x - rx * 0.6, elbowBend.y - ry * 0.6, elbowBend.z));
  const elR = ik(shR, haR, armL, foreL, v3(elbowBend.x + rx * 0.6, elbowBend.y + ry * 0.6, elbowBend.z));
  return { head, neck, shL, shR, elL, elR, haL, haR, hipL, hipR, knL, knR, ftL: footL, ftR: footR, pelvis };
}

/** Ball position when held by a player (hands or dribble), used by the director. */
export function heldBallPosition(p: Player, ball: Ball, t: number): Vec3 {
  const H = p.height;
  const fx = Math.cos(p.facing);
  const fy = Math.sin(p.facing);
  const rx = fy;
  const ry = -fx;
  if (ball.dribbling && (p.pose === 'dribble' || p.pose === 'run' || p.pose === 'idle')) {
    const ph = ball.dribblePhase;
    const top = 0.95;
    const z = BALL_RADIUS + (top - BALL_RADIUS) * Math.abs(Math.cos(Math.PI * ph));
    return v3(p.pos.x + fx * 0.38 + rx * 0.3, p.pos.y + fy * 0.38 + ry * 0.3, z);
  }
  const poseAge = t - p.poseT;
  switch (p.pose) {
    case 'gather': {
      const k = Math.min(1, poseAge / 0.3);
      return v3(p.pos.x + fx * 0.3, p.pos.y + fy * 0.3, p.jump + H * (0.66 + 0.33 * k));
    }
    case 'shoot':
      return v3(p.pos.x + fx * 0.3 + rx * 0.05, p.pos.y + fy * 0.3 + ry * 0.05, p.jump + H * 1.12);
    case 'catch':
      return v3(p.pos.x + fx * 0.3, p.pos.y + fy * 0.3, p.jump + H * 1.12);
    default:
      return v3(p.pos.x + fx * 0.38, p.pos.y + fy * 0.38, p.jump + H * 0.63);
  }
}

interface DrawItem {
  depth: number;
  draw: () => void;
}

function darker(c: RGB, k: number): RGB {
  return [c[0] * k, c[1] * k, c[2] * k];
}

function hull(pts: Array<[number, number]>): number[] {
  const s = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Array<[number, number]> = [];
  for (const p of s) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Array<[number, number]> = [];
  for (let i = s.length - 1; i >= 0; i--) {
    const p = s[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper).flat();
}

/** Renders the dynamic scene for one frame. */
export class SceneDrawer {
  constructor(
    readonly look: SceneLook,
    readonly hoops: readonly HoopGeom[],
  ) {}

  private lightness(c: RGB): number {
    return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
  }

  private drawPlayer(f: Frame, cam: Camera, p: Player, ball: Ball, t: number, exposure: number): void {
    const J = playerJoints(p, ball, t);
    const P = (q: Vec3): Projected => cam.project(q.x, q.y, q.z);
    const center = P(J.pelvis);
    if (center.depth <= 0.3) return;
    const sc = cam.scale(center.depth);
    const own = this.look.clothes?.get(p.id);
    const jersey = darker(own?.shirt ?? this.look.teamColors[p.team], exposure);
    const shorts = darker(own?.shorts ?? this.look.shorts[p.team], exposure);
    const skin = darker(p.skin, exposure);
    const skinDark = darker(p.skin, exposure * 0.82);
    const shoe = darker(p.shoe, exposure);
    const fx = Math.cos(p.facing);
    const fy = Math.sin(p.facing);
    const cpos = cam.pose.pos;
    const tcx = cpos.x - p.pos.x;
    const tcy = cpos.y - p.pos.y;
    const tcl = Math.hypot(tcx, tcy) || 1;
    const facingCam = (fx * tcx + fy * tcy) / tcl;
    const leftFar = P(J.shL).depth > P(J.shR).depth;

    const limb = (a: Vec3, b: Vec3, w0: number, w1: number, c: RGB) => {
      const pa = P(a);
      const pb = P(b);
      if (pa.depth <= 0.3 || pb.depth <= 0.3) return;
      capsule(f, pa.u, pa.v, pb.u, pb.v, Math.max(1, w0 * sc), Math.max(1, w1 * sc), c);
    };
    const leg = (hip: Vec3, kn: Vec3, ft: Vec3) => {
      limb(hip, kn, 0.17, 0.12, skin);
      limb(kn, ft, 0.115, 0.085, skinDark);
      limb(hip, v3(hip.x + (kn.x - hip.x) * 0.55, hip.y + (kn.y - hip.y) * 0.55, hip.z + (kn.z - hip.z) * 0.55), 0.2, 0.18, shorts);
      const toe = v3(ft.x + fx * 0.14, ft.y + fy * 0.14, ft.z);
      limb(v3(ft.x - fx * 0.05, ft.y - fy * 0.05, ft.z + 0.03), toe, 0.11, 0.1, shoe);
    };
    const arm = (sh: Vec3, el: Vec3, ha: Vec3) => {
      limb(sh, el, 0.1, 0.085, skin);
      limb(el, ha, 0.085, 0.07, skinDark);
      const ph = P(ha);
      if (ph.depth > 0.3) fillEllipse(f, ph.u, ph.v, Math.max(0.8, 0.055 * sc), Math.max(0.8, 0.055 * sc), skinDark);
    };
    if (leftFar) {
      arm(J.shL, J.elL, J.haL);
      leg(J.hipL, J.knL, J.ftL);
      leg(J.hipR, J.knR, J.ftR);
    } else {
      arm(J.shR, J.elR, J.haR);
      leg(J.hipR, J.knR, J.ftR);
      leg(J.hipL, J.knL, J.ftL);
    }
    const rx = fy;
    const ry = -fx;
    const box = (zTop: number, zBot: number, wTop: number, wBot: number, depthHalf: number, lean: number): number[] => {
      const pts: Array<[number, number]> = [];
      for (const [z, w, l] of [
        [zTop, wTop, lean],
        [zBot, wBot, 0],
      ] as const) {
        for (const sd of [-1, 1]) {
          for (const dd of [-1, 1]) {
            const q = P(v3(p.pos.x + rx * w * sd + fx * (dd * depthHalf + l), p.pos.y + ry * w * sd + fy * (dd * depthHalf + l), z));
            pts.push([q.u, q.v]);
          }
        }
      }
      return hull(pts);
    };
    const lean = J.neck.x - p.pos.x;
    const leanF = (J.neck.x - p.pos.x) * fx + (J.neck.y - p.pos.y) * fy;
    void lean;
    const hipZ = J.pelvis.z;
    const shZ = J.shL.z;
    fillPolygon(f, box(hipZ + 0.05, hipZ - 0.22, 0.19, 0.21, 0.13, 0), shorts);
    fillPolygon(f, box(shZ + 0.02, hipZ + 0.02, 0.2 * p.height / 1.9, 0.16, 0.12, leanF), jersey);
    const torsoTop = P(v3(J.neck.x, J.neck.y, shZ));
    const torsoBot = P(v3(p.pos.x, p.pos.y, hipZ + 0.05));
    const torsoPx = torsoBot.v - torsoTop.v;
    if (!own && torsoPx >= 14 && Math.abs(facingCam) > 0.25) {
      const lj = this.lightness(this.look.teamColors[p.team]);
      const numC: RGB = lj > 140 ? darker([30, 30, 60], exposure) : darker([240, 240, 235], exposure);
      const cell = torsoPx * 0.075;
      drawDigits(f, p.jersey, (torsoTop.u + torsoBot.u) / 2, torsoTop.v + torsoPx * 0.42, cell, numC, 1, Math.max(0.3, Math.abs(facingCam)));
    }
    limb(J.neck, v3(J.neck.x, J.neck.y, J.neck.z + 0.06), 0.1, 0.1, skin);
    const ph = P(J.head);
    const hr = Math.max(1.2, 0.105 * sc);
    const hairC = darker(p.hair, exposure);
    const faceOff = P(v3(J.head.x + fx * 0.04, J.head.y + fy * 0.04, J.head.z - 0.015));
    if (facingCam > -0.2) {
      fillEllipse(f, ph.u, ph.v - hr * 0.12, hr * 1.02, hr * 1.0, hairC);
      fillEllipse(f, faceOff.u, faceOff.v + hr * 0.08, hr * 0.9, hr * 0.92, skin);
    } else {
      fillEllipse(f, faceOff.u, faceOff.v + hr * 0.08, hr * 0.9, hr * 0.92, skin);
      fillEllipse(f, ph.u, ph.v - hr * 0.05, hr * 1.02, hr * 0.98, hairC);
    }
    if (leftFar) arm(J.shR, J.elR, J.haR);
    else arm(J.shL, J.elL, J.haL);
  }

  private drawBall(f: Frame, cam: Camera, pos: Vec3, prev: Vec3 | null, exposure: number): void {
    const p = cam.project(pos.x, pos.y, pos.z);
    if (p.depth <= 0.3) return;
    const r = Math.max(0.9, BALL_RADIUS * cam.scale(p.depth));
    const base: RGB = [196 * exposure, 92 * exposure, 38 * exposure];
    const seamA = (pos.x * 7 + pos.z * 5) % 6.28;
    const shade = (nx: number, ny: number, out: number[]) => {
      const l = 0.62 + 0.5 * Math.max(0, -ny * 0.7 - nx * 0.3) + 0.25 * (1 - nx * nx - ny * ny);
      let k = l;
      if (r > 4) {
        const s1 = Math.abs(nx * Math.cos(seamA) + ny * Math.sin(seamA));
        const s2 = Math.abs(Math.hypot(nx - 0.9 * Math.sin(seamA), ny + 0.9 * Math.cos(seamA)) - 0.75);
        if (s1 < 0.07 || s2 < 0.06) k *= 0.35;
      }
      out[0] = base[0] * k;
      out[1] = base[1] * k;
      out[2] = base[2] * k;
    };
    if (prev) {
      const q = cam.project(prev.x, prev.y, prev.z);
      const dpx = Math.hypot(q.u - p.u, q.v - p.v);
      if (q.depth > 0.3 && dpx > r * 1.2) {
        for (const a of [0.33, 0.66]) {
          fillShadedDisc(f, p.u + (q.u - p.u) * a * 0.5, p.v + (q.v - p.v) * a * 0.5, r, shade, 0.45);
        }
      }
    }
    fillShadedDisc(f, p.u, p.v, r, shade);
  }

  private drawShadow(f: Frame, cam: Camera, x: number, y: number, rx: number, ry: number, alpha: number): void {
    const pts: number[] = [];
    for (let i = 0; i < 14; i++) {
      const a = (i / 14) * Math.PI * 2;
      const q = cam.project(x + Math.cos(a) * rx, y + Math.sin(a) * ry, 0.003);
      if (q.depth <= 0.3) return;
      pts.push(q.u, q.v);
    }
    fillPolygon(f, pts, [0, 0, 0], alpha);
  }

  private netPoint(h: HoopGeom, net: NetState, ball: Vec3, t: number, ring: number, ang: number, rings: number): Vec3 {
    const f = ring / rings;
    const r = RIM_RADIUS + 0.005 - 0.08 * f;
    let x = h.rim.x + Math.cos(ang) * r;
    let y = h.rim.y + Math.sin(ang) * r;
    let z = RIM_HEIGHT - NET_LENGTH * f;
    const age = t - net.t0;
    if (net.amp > 0 && age >= 0 && age < 3) {
      const s = net.amp * Math.exp(-age / 0.45) * Math.sin(age * 17) * f;
      x += net.dirX * s;
      y += net.dirY * s;
      z += Math.abs(s) * 0.4;
    }
    const dx = x - ball.x;
    const dy = y - ball.y;
    const dz = z - ball.z;
    const d = Math.hypot(dx, dy, dz);
    const minD = BALL_RADIUS + 0.015;
    if (d < minD && f > 0) {
      const hd = Math.hypot(dx, dy) || 1;
      const push = minD - d;
      x += (dx / hd) * push * 1.2;
      y += (dy / hd) * push * 1.2;
      z -= push * 0.3;
    }
    return v3(x, y, z);
  }

  /** Appends draw items (board, rim halves, net halves, stanchion) for one hoop. */
  private hoopItems(items: DrawItem[], f: Frame, cam: Camera, h: HoopGeom, net: NetState, ball: Vec3, t: number, exposure: number): void {
    const rimC = cam.project(h.rim.x, h.rim.y, h.rim.z);
    if (rimC.depth <= 0.5) return;
    const sc = cam.scale(rimC.depth);
    const s = h.side;
    const P = (x: number, y: number, z: number) => cam.project(x, y, z);
    const frame = darker(this.look.boardFrame, exposure);
    const pad = darker(this.look.pad, exposure);
    const metal: RGB = darker([70, 72, 78], exposure);
    const baseX = h.baselineX + s * 1.3;
    const poleTop = P(baseX, 0, 3.75);
    const poleBot = P(baseX, 0, 1.0);
    items.push({
      depth: poleBot.depth,
      draw: () => {
        const bq = [P(baseX - s * 0.6, -0.55, 0), P(baseX + s * 1.0, -0.55, 0), P(baseX + s * 1.0, 0.55, 0), P(baseX - s * 0.6, 0.55, 0)];
        const tq = [P(baseX - s * 0.6, -0.55, 1.0), P(baseX + s * 1.0, -0.55, 1.0), P(baseX + s * 1.0, 0.55, 1.0), P(baseX - s * 0.6, 0.55, 1.0)];
        if (bq.some((q) => q.depth <= 0.3)) return;
        const pts: Array<[number, number]> = [...bq, ...tq].map((q) => [q.u, q.v]);
        fillPolygon(f, hull(pts), pad);
        if (poleTop.depth > 0.3 && poleBot.depth > 0.3) capsule(f, poleBot.u, poleBot.v, poleTop.u, poleTop.v, 0.14 * cam.scale(poleBot.depth), 0.14 * cam.scale(poleTop.depth), metal);
      },
    });
    const bx = h.boardX + s * 0.03;
    const armEnd = P(bx + s * 0.05, 0, 3.55);
    const armEnd2 = P(bx + s * 0.05, 0, 3.15);
    items.push({
      depth: P(h.boardX, 0, 3.4).depth + 0.01,
      draw: () => {
        if (poleTop.depth > 0.3 && armEnd.depth > 0.3) {
          strokeLine(f, poleTop.u, poleTop.v, armEnd.u, armEnd.v, 0.09 * sc, metal);
          const mid = P(baseX, 0, 3.0);
          if (mid.depth > 0.3) strokeLine(f, mid.u, mid.v, armEnd2.u, armEnd2.v, 0.07 * sc, metal);
        }
        const hw = BOARD_WIDTH / 2;
        const z0 = BOARD_BOTTOM;
        const z1 = BOARD_BOTTOM + BOARD_HEIGHT;
        const c = [P(h.boardX, -hw, z0), P(h.boardX, hw, z0), P(h.boardX, hw, z1), P(h.boardX, -hw, z1)];
        if (c.some((q) => q.depth <= 0.3)) return;
        const quad = c.flatMap((q) => [q.u, q.v]);
        if (this.look.boardGlass) fillPolygon(f, quad, darker([215, 225, 228], exposure), 0.42);
        else fillPolygon(f, quad, darker([238, 238, 234], exposure));
        const lw = Math.max(1, 0.05 * sc);
        for (let i = 0; i < 4; i++) {
          const a = c[i];
          const b = c[(i + 1) % 4];
          strokeLine(f, a.u, a.v, b.u, b.v, lw, frame);
        }
        const iw = BOARD_INNER_W / 2;
        const iz0 = RIM_HEIGHT + 0.0;
        const iz1 = iz0 + BOARD_INNER_H;
        const ic = [P(h.boardX, -iw, iz0), P(h.boardX, iw, iz0), P(h.boardX, iw, iz1), P(h.boardX, -iw, iz1)];
        for (let i = 0; i < 4; i++) {
          const a = ic[i];
          const b = ic[(i + 1) % 4];
          strokeLine(f, a.u, a.v, b.u, b.v, lw, frame);
        }
        const pb = [P(h.boardX, -hw, z0), P(h.boardX, hw, z0)];
        const pb2 = [P(h.boardX, -hw, z0 - 0.05), P(h.boardX, hw, z0 - 0.05)];
        fillPolygon(f, [pb[0].u, pb[0].v, pb[1].u, pb[1].v, pb2[1].u, pb2[1].v, pb2[0].u, pb2[0].v], pad);
      },
    });
    const N = 28;
    const rimPts: Projected[] = [];
    const rimR = RIM_RADIUS + 0.01;
    for (let i = 0; i <= N; i++) {
      const a = (i / N) * Math.PI * 2;
      rimPts.push(P(h.rim.x + Math.cos(a) * rimR, h.rim.y + Math.sin(a) * rimR, RIM_HEIGHT));
    }
    const rimColor = darker([222, 84, 28], exposure);
    const rimW = Math.max(1, 0.02 * sc * 1.6);
    const rings = 4;
    const strings = 12;
    const grid: Vec3[][] = [];
    for (let k = 0; k <= rings; k++) {
      const row: Vec3[] = [];
      for (let j = 0; j < strings; j++) {
        const ang = ((j + (k % 2) * 0.5) / strings) * Math.PI * 2;
        row.push(this.netPoint(h, net, ball, t, k, ang, rings));
      }
      grid.push(row);
    }
    const netC = darker([238, 238, 238], exposure);
    const netW = Math.max(0.5, 0.012 * sc * 2);
    const drawHalf = (front: boolean) => {
      for (let i = 0; i < N; i++) {
        const a = rimPts[i];
        const b = rimPts[i + 1];
        const isFront = (a.depth + b.depth) / 2 < rimC.depth;
        if (isFront === front && a.depth > 0.3 && b.depth > 0.3) strokeLine(f, a.u, a.v, b.u, b.v, rimW, rimColor);
      }
      for (let k = 0; k < rings; k++) {
        for (let j = 0; j < strings; j++) {
          const a = grid[k][j];
          const shift = k % 2 === 0 ? 0 : 1;
          for (const jj of [(j - 1 + shift + strings) % strings, (j + shift) % strings]) {
            const b = grid[k + 1][jj];
            const pa = P(a.x, a.y, a.z);
            const pb = P(b.x, b.y, b.z);
            const isFront = (pa.depth + pb.depth) / 2 < rimC.depth;
            if (isFront === front && pa.depth > 0.3) strokeLine(f, pa.u, pa.v, pb.u, pb.v, netW, netC, 0.9);
          }
        }
      }
    };
    items.push({ depth: rimC.depth + 0.02, draw: () => drawHalf(false) });
    items.push({ depth: rimC.depth - 0.02, draw: () => drawHalf(true) });
  }

  /**
   * Draws shadows and all objects for one frame. `ballPrev` (ball a frame earlier) adds a
   * little motion blur to fast balls.
   */
  draw(
    f: Frame,
    cam: Camera,
    players: readonly Player[],
    ball: Ball,
    ballPrev: Vec3 | null,
    nets: readonly NetState[],
    t: number,
    exposure: number,
  ): void {
    const drawn = players.map((p) => shuffled(p, t, ball));
    for (const p of drawn) this.drawShadow(f, cam, p.pos.x, p.pos.y, 0.42, 0.32, 0.22);
    this.drawShadow(f, cam, ball.pos.x, ball.pos.y, 0.13 + ball.pos.z * 0.03, 0.13 + ball.pos.z * 0.03, Math.max(0.05, 0.3 - ball.pos.z * 0.06));
    const items: DrawItem[] = [];
    for (const h of this.hoops) this.hoopItems(items, f, cam, h, nets[h.index], ball.pos, t, exposure);
    for (const p of drawn) {
      const d = cam.project(p.pos.x, p.pos.y, 1).depth;
      items.push({ depth: d, draw: () => this.drawPlayer(f, cam, p, ball, t, exposure) });
    }
    let bd = cam.project(ball.pos.x, ball.pos.y, ball.pos.z).depth;
    for (const h of this.hoops) {
      const hd = Math.hypot(ball.pos.x - h.rim.x, ball.pos.y - h.rim.y);
      if (hd < RIM_RADIUS + 0.05 && ball.pos.z < RIM_HEIGHT + 0.1 && ball.pos.z > RIM_HEIGHT - NET_LENGTH - 0.1) {
        bd = cam.project(h.rim.x, h.rim.y, h.rim.z).depth + 0.005;
      }
    }
    if (ball.holder) {
      const pd = cam.project(ball.holder.pos.x, ball.holder.pos.y, 1).depth;
      const front = bd < pd;
      bd = pd + (front ? -0.01 : 0.01);
    }
    items.push({ depth: bd, draw: () => this.drawBall(f, cam, ball.pos, ballPrev, exposure) });
    items.sort((a, b) => b.depth - a.depth);
    for (const it of items) it.draw();
  }
}
