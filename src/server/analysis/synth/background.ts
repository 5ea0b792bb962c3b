/**
 * Static scene behind the players: the wooden court with its painted lines, the apron,
 * walls, bleachers with spectators, and the ceiling with its lights, found by casting a ray
 * per sample. A stationary camera renders it once (2x2 supersampled); a panning camera
 * renders a panorama once and looks each frame's pixels up in it, since pure yaw turns a
 * panorama lookup into an index shift.
 */
import type { Camera } from './camera.js';
import type { CourtSpec, HoopGeom } from './court.js';
import type { Frame, RGB } from './raster.js';
import type { Rng } from './prng.js';

function hash2(a: number, b: number): number {
  let h = Math.imul(a | 0, 0x27d4eb2d) ^ Math.imul(b | 0, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Colours and layout of one gym, drawn from the scene rng. */
export interface GymStyle {
  wood: RGB;
  paint: RGB | null;
  apron: RGB;
  line: RGB;
  pad: RGB;
  wall: RGB;
  seat: RGB;
  ceiling: RGB;
  gloss: number;
  brightness: number;
}

export function randomGymStyle(rng: Rng): GymStyle {
  const woods: RGB[] = [
    [205, 160, 108],
    [190, 142, 92],
    [214, 172, 122],
    [176, 128, 80],
  ];
  const paints: Array<RGB | null> = [null, [40, 80, 150], [150, 40, 45], [35, 110, 70], [120, 80, 50]];
  const pads: RGB[] = [
    [30, 50, 110],
    [120, 30, 35],
    [40, 40, 45],
    [25, 85, 60],
  ];
  const walls: RGB[] = [
    [200, 198, 190],
    [170, 175, 180],
    [215, 205, 180],
    [150, 160, 175],
  ];
  const paint = rng.pick(paints);
  return {
    wood: rng.pick(woods),
    paint,
    apron: paint ?? [150, 105, 70],
    line: [238, 238, 232],
    pad: rng.pick(pads),
    wall: rng.pick(walls),
    seat: rng.pick<RGB>([
      [60, 60, 70],
      [140, 40, 40],
      [40, 70, 130],
      [150, 150, 155],
    ]),
    ceiling: [70, 72, 78],
    gloss: rng.range(0.12, 0.35),
    brightness: rng.range(0.9, 1.08),
  };
}

/** Ray-cast gym interior. */
export class Gym {
  readonly halfL: number;
  readonly halfW: number;
  readonly wallX: number;
  readonly wallNearY: number;
  readonly bleachY: number;
  readonly farWallY: number;
  readonly ceilZ = 10;
  private readonly lights: Array<[number, number]> = [];
  private readonly lightZ = 9.6;

  constructor(
    readonly spec: CourtSpec,
    readonly hoops: readonly HoopGeom[],
    readonly style: GymStyle,
  ) {
    this.halfL = spec.length / 2;
    this.halfW = spec.width / 2;
    this.wallX = this.halfL + 3.5;
    this.wallNearY = -(this.halfW + 9);
    this.bleachY = this.halfW + 2.2;
    this.farWallY = this.halfW + 9;
    for (let x = -this.halfL; x <= this.halfL + 0.1; x += 5.6) for (let y = -this.halfW; y <= this.halfW + 0.1; y += 5) this.lights.push([x, y]);
  }

  /** Illumination factor of a floor point: brighter under the light grid. */
  private illum(x: number, y: number): number {
    let s = 0;
    for (const [lx, ly] of this.lights) {
      const d2 = (x - lx) ** 2 + (y - ly) ** 2 + 60;
      s += 1 / d2;
    }
    return 0.55 + s * 6.5;
  }

  /** Painted line and paint area test for a floor point; returns 0 none, 1 line, 2 paint. */
  private floorMark(x: number, y: number): number {
    const sp = this.spec;
    const hw = sp.lineWidth / 2;
    const ax = Math.abs(x);
    const ay = Math.abs(y);
    if (ax <= this.halfL + hw && ay <= this.halfW + hw) {
      if (Math.abs(ax - this.halfL) < hw || Math.abs(ay - this.halfW) < hw) return 1;
    } else return 3;
    if (Math.abs(x) < hw) return 1;
    const rc = Math.hypot(x, y);
    if (Math.abs(rc - sp.circleRadius) < hw) return 1;
    if (rc < sp.circleRadius - hw && this.style.paint) return 2;
    const side = x > 0 ? 1 : -1;
    const bx = this.halfL - ax;
    const basketBx = 1.575;
    const lh = sp.laneWidth / 2;
    if (bx <= sp.ftFromBaseline + hw && ay <= lh + hw) {
      if (Math.abs(ay - lh) < hw || Math.abs(bx - sp.ftFromBaseline) < hw) return 1;
      for (const m of [1.75, 2.85, 3.7]) if (Math.abs(bx - m) < 0.05 && ay > lh && ay < lh + 0.1) return 1;
    }
    const fx = bx - sp.ftFromBaseline;
    const rf = Math.hypot(fx, y);
    if (Math.abs(rf - sp.circleRadius) < hw && fx > 0) return 1;
    if (Math.abs(rf - sp.circleRadius) < hw && fx <= 0 && (Math.floor(Math.atan2(fx, y) * 6) & 1) === 0) return 1;
    const rb = Math.hypot(bx - basketBx, y);
    if (Math.abs(rb - 1.25) < hw && bx > basketBx) return 1;
    if (sp.threePoint !== 'none') {
      const R = sp.threeRadius;
      const cy = sp.threeCornerY;
      const meet = basketBx + Math.sqrt(R * R - cy * cy);
      if (bx <= meet && Math.abs(ay - cy) < hw) return 1;
      if (bx > meet && Math.abs(rb - R) < hw) return 1;
    }
    if (bx <= sp.ftFromBaseline && ay <= lh && this.style.paint) return 2;
    void side;
    return 0;
  }

  private floor(x: number, y: number, dx: number, dy: number, dz: number, out: number[]): void {
    const st = this.style;
    const mark = this.floorMark(x, y);
    let r: number, g: number, b: number;
    if (mark === 1) {
      [r, g, b] = st.line;
    } else {
      const base = mark === 2 ? (st.paint as RGB) : mark === 3 ? st.apron : st.wood;
      const plank = Math.floor((y + 50) / 0.057);
      const off = hash2(plank, 7) * 3;
      const seg = Math.floor((x + 50 + off) / 1.9);
      const v = (hash2(plank, seg) - 0.5) * (mark === 0 ? 26 : 10);
      const grain = Math.sin(x * 9 + hash2(plank, seg + 99) * 20) * 4;
      const low = Math.sin(x * 0.7 + y * 0.4) * 5 + Math.sin(x * 0.23 - y * 0.9) * 4;
      r = base[0] + v + grain + low;
      g = base[1] + v * 0.8 + grain * 0.8 + low * 0.8;
      b = base[2] + v * 0.6 + grain * 0.5 + low * 0.6;
    }
    const il = this.illum(x, y);
    let spec = 0;
    if (dz < 0) {
      const t = (this.lightZ - 0) / -dz;
      const rx = x + dx * t;
      const ry = y + dy * t;
      for (const [lx, ly] of this.lights) {
        const d2 = (rx - lx) ** 2 + ((ry - ly) * 1.6) ** 2;
        if (d2 < 6) spec += Math.exp(-d2 * 1.4);
      }
    }
    const k = il * st.brightness;
    const sh = spec * st.gloss * 200;
    out[0] = r * k + sh;
    out[1] = g * k + sh;
    out[2] = b * k + sh * 0.95;
  }

  private wall(along: number, z: number, end: boolean, seed: number, out: number[]): void {
    const st = this.style;
    let c: RGB = st.wall;
    let k = 0.85;
    if (z < 2.2) c = st.pad;
    else if (Math.abs((z * 5) % 1) < 0.06 || Math.abs((along * 2.5) % 1) < 0.04) k = 0.78;
    if (!end && z > 3.2 && z < 5 && (Math.floor((along + 100) / 7) & 1) === 0 && Math.abs(((along + 100) % 7) - 3.5) < 2.2) {
      const banners: RGB[] = [
        [180, 30, 40],
        [30, 60, 140],
        [220, 180, 40],
        [30, 120, 60],
      ];
      c = banners[Math.floor(hash2(Math.floor((along + 100) / 7), seed) * 4)];
      k = 0.9;
    }
    if (end && z > 4.8 && z < 6.4 && Math.abs(along - 6.8) < 1.8) {
      c = [25, 25, 28];
      if (z > 5.1 && z < 6.1 && Math.abs(along - 6.8) < 1.5 && hash2(Math.floor(along * 8), Math.floor(z * 8)) > 0.6) c = [230, 60, 40];
      k = 1;
    }
    if (!end && z < 2.1 && z > 0 && Math.abs(((along + 100) % 11) - 5.5) < 0.55) {
      c = [95, 85, 75];
      k = 0.9;
    }
    if (end && z < 2.1 && Math.abs(Math.abs(along) - 5) < 0.6) {
      c = [110, 95, 80];
      k = 0.9;
    }
    const light = 0.75 + 0.25 * Math.min(1, z / 6);
    out[0] = c[0] * k * light * st.brightness;
    out[1] = c[1] * k * light * st.brightness;
    out[2] = c[2] * k * light * st.brightness;
  }

  private bleachers(x: number, y: number, z: number, out: number[]): void {
    const st = this.style;
    const row = Math.floor((y - this.bleachY) / 0.75);
    const seat = Math.floor((x + 100) / 0.55);
    const h = hash2(row, seat);
    const inRow = ((y - this.bleachY) / 0.75) % 1;
    let c: RGB = inRow < 0.35 ? [55, 55, 60] : st.seat;
    if (h < 0.28 && inRow > 0.15) {
      const pal: RGB[] = [
        [200, 60, 50],
        [40, 40, 45],
        [220, 220, 215],
        [60, 90, 160],
        [180, 150, 60],
        [90, 130, 80],
        [120, 90, 70],
      ];
      c = pal[Math.floor(hash2(seat, row + 31) * pal.length)];
      if (inRow > 0.75 && z > 0) c = [200, 160, 130];
    }
    const k = 0.7 * st.brightness;
    out[0] = c[0] * k;
    out[1] = c[1] * k;
    out[2] = c[2] * k;
  }

  private ceiling(x: number, y: number, out: number[]): void {
    const st = this.style;
    for (const [lx, ly] of this.lights) {
      if (Math.abs(x - lx) < 0.7 && Math.abs(y - ly) < 0.35) {
        out[0] = 255;
        out[1] = 252;
        out[2] = 240;
        return;
      }
    }
    let k = 1;
    if (Math.abs(((x + 100) % 5.6) - 2.8) > 2.6) k = 0.55;
    if (Math.abs(((y + 100) % 2) - 1) > 0.93) k = 0.75;
    out[0] = st.ceiling[0] * k;
    out[1] = st.ceiling[1] * k;
    out[2] = st.ceiling[2] * k;
  }

  /** Colour seen along a ray from (ox,oy,oz) with direction (dx,dy,dz), written to out[0..2]. */
  shade(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, out: number[]): void {
    let t = Infinity;
    let what = 0;
    if (dz < 0) {
      t = -oz / dz;
      what = 1;
    } else if (dz > 0) {
      t = (this.ceilZ - oz) / dz;
      what = 2;
    }
    if (dx !== 0) {
      const tw = ((dx > 0 ? this.wallX : -this.wallX) - ox) / dx;
      if (tw > 0 && tw < t) {
        t = tw;
        what = 3;
      }
    }
    if (dy < 0) {
      const tw = (this.wallNearY - oy) / dy;
      if (tw > 0 && tw < t) {
        t = tw;
        what = 4;
      }
    } else if (dy > 0) {
      const tw = (this.farWallY - oy) / dy;
      if (tw > 0 && tw < t) {
        t = tw;
        what = 5;
      }
      const k = 4.8 / (this.farWallY - this.bleachY);
      const denom = dz - k * dy;
      if (Math.abs(denom) > 1e-9) {
        const tb = (k * (oy - this.bleachY) + 0.6 - oz) / denom;
        const yb = oy + dy * tb;
        if (tb > 0 && tb < t && yb >= this.bleachY && yb <= this.farWallY) {
          t = tb;
          what = 6;
        }
      }
      const tf = (this.bleachY - oy) / dy;
      const zf = oz + dz * tf;
      if (tf > 0 && tf < t && zf >= 0 && zf <= 0.6) {
        t = tf;
        what = 7;
      }
    }
    const x = ox + dx * t;
    const y = oy + dy * t;
    const z = oz + dz * t;
    switch (what) {
      case 1:
        this.floor(x, y, dx, dy, dz, out);
        return;
      case 2:
        this.ceiling(x, y, out);
        return;
      case 3:
        this.wall(y, z, true, 1, out);
        return;
      case 4:
        this.wall(x, z, false, 2, out);
        return;
      case 5:
        this.wall(x, z, false, 3, out);
        return;
      case 6:
        this.bleachers(x, y, z, out);
        return;
      case 7:
        out[0] = this.style.pad[0] * 0.7;
        out[1] = this.style.pad[1] * 0.7;
        out[2] = this.style.pad[2] * 0.7;
        return;
      default:
        out[0] = out[1] = out[2] = 60;
    }
  }
}

/** Renders the gym as seen by a camera, 2x2 supersampled, with a mild lens vignette. */
export function renderStaticBackground(gym: Gym, cam: Camera, f: Frame): void {
  const o = cam.pose.pos;
  const acc = [0, 0, 0];
  const c = [0, 0, 0];
  const d = f.data;
  const rmax2 = cam.cx * cam.cx + cam.cy * cam.cy;
  for (let v = 0; v < f.height; v++) {
    for (let u = 0; u < f.width; u++) {
      acc[0] = acc[1] = acc[2] = 0;
      for (let s = 0; s < 4; s++) {
        const r = cam.ray(u + 0.25 + 0.5 * (s & 1), v + 0.25 + 0.5 * (s >> 1));
        gym.shade(o.x, o.y, o.z, r.x, r.y, r.z, c);
        acc[0] += c[0];
        acc[1] += c[1];
        acc[2] += c[2];
      }
      const du = u - cam.cx;
      const dv = v - cam.cy;
      const vig = 0.25 * (1 - 0.22 * ((du * du + dv * dv) / rmax2));
      const i = (v * f.width + u) * 3;
      d[i] = acc[0] * vig;
      d[i + 1] = acc[1] * vig;
      d[i + 2] = acc[2] * vig;
    }
  }
}

/**
 * A panorama for a camera that only pans (yaw). Cells are indexed by azimuth column and
 * elevation row at `res` cells per radian. `lookup` maps each output pixel at yaw = 0 to a
 * cell index, so a frame at yaw y is `pano[lookup[p] + shift(y)]`.
 */
export class Panorama {
  readonly data: Uint8ClampedArray;
  readonly cols: number;
  readonly rows: number;
  readonly lookup: Int32Array;
  private readonly azMin: number;
  private readonly res: number;

  constructor(gym: Gym, cam: Camera, yawMin: number, yawMax: number, maxShakeRows: number) {
    const res = cam.focal * 1.25;
    this.res = res;
    const yaw0 = cam.pose.yaw;
    cam.setAngles(0, cam.pose.pitch, cam.pose.roll);
    const azAt = new Float32Array(cam.width * cam.height);
    const elAt = new Float32Array(cam.width * cam.height);
    let aLo = Infinity;
    let aHi = -Infinity;
    let eLo = Infinity;
    let eHi = -Infinity;
    for (let v = 0; v < cam.height; v++) {
      for (let u = 0; u < cam.width; u++) {
        const r = cam.ray(u + 0.5, v + 0.5);
        const az = Math.atan2(r.y, r.x);
        const el = Math.atan2(r.z, Math.hypot(r.x, r.y));
        const p = v * cam.width + u;
        azAt[p] = az;
        elAt[p] = el;
        if (az < aLo) aLo = az;
        if (az > aHi) aHi = az;
        if (el < eLo) eLo = el;
        if (el > eHi) eHi = el;
      }
    }
    const margin = (maxShakeRows + 2) / res;
    this.azMin = aLo + yawMin - margin;
    const azMax = aHi + yawMax + margin;
    const elMin = eLo - margin;
    const elMax = eHi + margin;
    this.cols = Math.ceil((azMax - this.azMin) * res) + 1;
    this.rows = Math.ceil((elMax - elMin) * res) + 1;
    this.lookup = new Int32Array(cam.width * cam.height);
    for (let p = 0; p < this.lookup.length; p++) {
      const col = Math.round((azAt[p] - this.azMin) * res);
      const row = Math.round((elMax - elAt[p]) * res);
      this.lookup[p] = row * this.cols + col;
    }
    this.data = new Uint8ClampedArray(this.cols * this.rows * 3);
    const o = cam.pose.pos;
    const c = [0, 0, 0];
    const acc = [0, 0, 0];
    for (let row = 0; row < this.rows; row++) {
      for (let col = 0; col < this.cols; col++) {
        acc[0] = acc[1] = acc[2] = 0;
        for (let s = 0; s < 2; s++) {
          const az = this.azMin + (col + (s ? 0.25 : -0.25)) / res;
          const el = elMax - (row + (s ? 0.25 : -0.25)) / res;
          const ce = Math.cos(el);
          gym.shade(o.x, o.y, o.z, ce * Math.cos(az), ce * Math.sin(az), Math.sin(el), c);
          acc[0] += c[0];
          acc[1] += c[1];
          acc[2] += c[2];
        }
        const i = (row * this.cols + col) * 3;
        this.data[i] = acc[0] * 0.5;
        this.data[i + 1] = acc[1] * 0.5;
        this.data[i + 2] = acc[2] * 0.5;
      }
    }
    cam.setAngles(yaw0, cam.pose.pitch, cam.pose.roll);
  }

  /** Writes the view at a yaw, shifted down by `shakeRows` pixels, into f. */
  render(f: Frame, yaw: number, shakeRows: number): void {
    const shift = Math.round(yaw * this.res) + Math.round(-shakeRows * 1.25) * this.cols;
    const lk = this.lookup;
    const src = this.data;
    const dst = f.data;
    const n = lk.length;
    const maxIdx = this.cols * this.rows - 1;
    for (let p = 0, o = 0; p < n; p++, o += 3) {
      let i = lk[p] + shift;
      if (i < 0) i = 0;
      else if (i > maxIdx) i = maxIdx;
      i *= 3;
      dst[o] = src[i];
      dst[o + 1] = src[i + 1];
      dst[o + 2] = src[i + 2];
    }
  }
}
