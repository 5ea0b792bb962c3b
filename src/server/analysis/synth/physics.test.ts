import { describe, expect, it } from 'vitest';
import {
  BALL_RADIUS,
  RIM_HEIGHT,
  RIM_RADIUS,
  RIM_TUBE,
  courtSpec,
  freeThrowSpot,
  hoopGeom,
  isThreePoint,
  spotAround,
  threePointSignedDistance,
} from './court.js';
import { Camera, lookAt, presetPose, VIEW_PRESETS } from './camera.js';
import { planShot, shotPosition, SIM_DT, type ShotSim } from './physics.js';
import { Rng } from './prng.js';

const spec = courtSpec('fiba');
const hoop = hoopGeom(spec, 0, 1);
const bounds = { x: 17.5, y: 10 };

function minRimDistance(sim: ShotSim): number {
  let best = Infinity;
  for (let i = 0; i < sim.count; i++) {
    const x = sim.samples[i * 3] - hoop.rim.x;
    const y = sim.samples[i * 3 + 1] - hoop.rim.y;
    const z = sim.samples[i * 3 + 2] - RIM_HEIGHT;
    const hd = Math.hypot(x, y);
    const d = Math.hypot(hd - (RIM_RADIUS + RIM_TUBE), z);
    best = Math.min(best, d);
  }
  return best;
}

describe('shot physics', () => {
  it('a swish passes down through the rim circle without touching the rim', () => {
    const rng = new Rng(42);
    const p0 = { ...spotAround(hoop, 5, 0.4), z: 2.5 };
    const plan = planShot(rng, 'swish', p0, hoop, [hoop], bounds);
    expect(plan.sim.kind).toBe('swish');
    expect(plan.sim.made).toBe(true);
    const tEntry = plan.sim.entryT!;
    const atEntry = shotPosition(plan.sim, tEntry);
    expect(Math.hypot(atEntry.x - hoop.rim.x, atEntry.y - hoop.rim.y)).toBeLessThan(RIM_RADIUS);
    expect(minRimDistance(plan.sim)).toBeGreaterThan(BALL_RADIUS + RIM_TUBE);
    const below = shotPosition(plan.sim, tEntry + 0.25);
    expect(below.z).toBeLessThan(RIM_HEIGHT - 0.2);
  });

  it('a rim-out touches the rim and ends outside the hoop', () => {
    const rng = new Rng(7);
    const p0 = { ...spotAround(hoop, 6, -0.3), z: 2.6 };
    const plan = planShot(rng, 'rim_out', p0, hoop, [hoop], bounds);
    expect(plan.sim.kind).toBe('rim_out');
    expect(plan.sim.made).toBe(false);
    expect(plan.sim.firstContact).toBe('rim');
    expect(minRimDistance(plan.sim)).toBeLessThan(BALL_RADIUS + RIM_TUBE + 0.002);
    expect(plan.sim.entryT).toBeNull();
  });

  it('every outcome kind can be produced and is what the simulation did', () => {
    const rng = new Rng(3);
    for (const kind of ['swish', 'rim_in', 'bank_in', 'rim_out', 'air_ball', 'bank_out'] as const) {
      const p0 = { ...spotAround(hoop, 4.5, 0.7), z: 2.55 };
      const plan = planShot(rng, kind, p0, hoop, [hoop], bounds);
      expect(plan.sim.kind).toBe(kind);
      const made = kind === 'swish' || kind === 'rim_in' || kind === 'bank_in';
      expect(plan.sim.made).toBe(made);
      if (kind === 'air_ball') expect(minRimDistance(plan.sim)).toBeGreaterThan(BALL_RADIUS + RIM_TUBE);
      expect(plan.sim.rimArrivalT).toBeGreaterThan(0.5);
      expect(plan.sim.rimArrivalT).toBeLessThan(2);
    }
  });

  it('release heights and flight times are realistic', () => {
    const rng = new Rng(9);
    const p0 = { ...spotAround(hoop, 7.2, 0), z: 2.7 };
    const plan = planShot(rng, 'swish', p0, hoop, [hoop], bounds);
    let apex = 0;
    for (let i = 0; i < plan.sim.count; i++) apex = Math.max(apex, plan.sim.samples[i * 3 + 2]);
    expect(apex).toBeGreaterThan(3.6);
    expect(apex).toBeLessThan(5.5);
    expect(plan.sim.rimArrivalT).toBeGreaterThan(0.9);
    expect(plan.sim.rimArrivalT).toBeLessThan(1.6);
    expect(SIM_DT).toBeLessThan(0.002);
  });
});

describe('court geometry', () => {
  it('classifies 2s and 3s by the FIBA line (arc 6.75 m, corners 6.6 m)', () => {
    expect(isThreePoint(spec, hoop, spotAround(hoop, 6.5, 0))).toBe(false);
    expect(isThreePoint(spec, hoop, spotAround(hoop, 7.0, 0))).toBe(true);
    expect(isThreePoint(spec, hoop, { x: hoop.baselineX - 1, y: 6.8 })).toBe(true);
    expect(isThreePoint(spec, hoop, { x: hoop.baselineX - 1, y: 6.4 })).toBe(false);
    expect(threePointSignedDistance(spec, hoop, spotAround(hoop, 6.75, 0.3))).toBeCloseTo(0, 6);
  });

  it('uses the NBA line when asked (7.24 m arc)', () => {
    const nba = courtSpec('nba');
    const h = hoopGeom(nba, 0, 1);
    expect(isThreePoint(nba, h, spotAround(h, 7.0, 0))).toBe(false);
    expect(isThreePoint(nba, h, spotAround(h, 7.4, 0))).toBe(true);
  });

  it('puts the free-throw shooter behind the line 4.6 m from the backboard', () => {
    const ft = freeThrowSpot(spec, hoop);
    const lineFromBoard = Math.abs(hoop.baselineX - hoop.boardX - spec.ftFromBaseline);
    expect(lineFromBoard).toBeCloseTo(4.6, 6);
    const feetFromBoard = Math.abs(hoop.boardX - ft.x);
    expect(feetFromBoard).toBeGreaterThan(4.6);
    expect(feetFromBoard).toBeLessThan(5.0);
    expect(isThreePoint(spec, hoop, ft)).toBe(false);
  });
});

describe('camera', () => {
  it('projects and back-projects consistently', () => {
    const cam = new Camera(lookAt({ x: 0, y: -12, z: 5 }, { x: 10, y: 0, z: 1 }, 55), 1280, 720);
    const q = cam.project(10, 0, 1);
    expect(q.u).toBeCloseTo(640, 6);
    expect(q.v).toBeCloseTo(360, 6);
    const p = cam.project(12, 2, 0);
    const r = cam.ray(p.u, p.v);
    const t = -5 / r.z;
    expect(r.x * t).toBeCloseTo(12, 6);
    expect(-12 + r.y * t).toBeCloseTo(2, 6);
  });

  it('every hoop view shows the rim, small and thin as in real footage', () => {
    for (const view of VIEW_PRESETS) {
      if (view === 'midcourt' || view === 'broadcast') continue;
      for (let seed = 1; seed <= 5; seed++) {
        const cam = new Camera(presetPose(view, hoop.rim.x, spec.width / 2, new Rng(seed), 16 / 9), 640, 360);
        const q = cam.project(hoop.rim.x, hoop.rim.y, hoop.rim.z);
        expect(q.u, `${view} seed ${seed}`).toBeGreaterThan(20);
        expect(q.u).toBeLessThan(620);
        expect(q.v).toBeGreaterThan(10);
        expect(q.v).toBeLessThan(250);
        const rimPx = 2 * RIM_RADIUS * cam.scale(q.depth);
        expect(rimPx).toBeGreaterThan(6);
        expect(rimPx).toBeLessThan(60);
      }
    }
  });
});
