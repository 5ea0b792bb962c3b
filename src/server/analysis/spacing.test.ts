import { describe, expect, it } from 'vitest';
import { cameraFromPose, project, sideOfCamera } from './court-lines';
import { attributeTeams, medianBackground, type TeamInput } from './jersey';
import type { ShotAction } from './types';
import { foregroundThumb, HEM_HEIGHT_M, isShadow, MIN_JERSEY_BALLS, OFFENCE_MARGIN_M, offenceOf, teamSpacing } from './spacing';

const W = 320;
const H = 180;
type RGB = [number, number, number];
const FLOOR: RGB = [215, 175, 120];
const GREEN: RGB = [30, 120, 60];
const WHITE: RGB = [235, 235, 232];

/** A low camera 4 m behind the basket (1.5 m up), looking up the court at the players' faces. */
const BEHIND = cameraFromPose([-4, -1, 1.5], 0.1, 0.05, 0, 260, W / 2, H / 2);

function frameOf(fill: RGB): Uint8Array {
  const f = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) f.set(fill, i * 3);
  return f;
}

/** A player standing at court (x, y): his kit (team colour) from the hem up, drawn to the camera's scale. */
function drawPlayer(f: Uint8Array, x: number, y: number, kit: RGB): void {
  const hem = project(BEHIND, x, y, HEM_HEIGHT_M);
  const top = project(BEHIND, x, y, 1.6);
  const half = (0.25 * BEHIND.focal) / hem.depth;
  for (let v = Math.round(top.v); v <= Math.round(hem.v); v++)
    for (let u = Math.round(hem.u - half); u <= Math.round(hem.u + half); u++) if (u >= 0 && u < W && v >= 0 && v < H) f.set(kit, (v * W + u) * 3);
}

const teamOf = (r: number, g: number, b: number): 0 | 1 | null => (g > 200 ? 1 : g < 140 && b < 100 ? 0 : null);

describe('spacing: the team on offence from where the players stand', () => {
  const background = medianBackground([frameOf(FLOOR), frameOf(FLOOR), frameOf(FLOOR)], W);

  it('sees the camera behind the basket', () => {
    expect(sideOfCamera(BEHIND)).toBe('behind');
    expect(sideOfCamera(cameraFromPose([8, -9, 2], 2.3, 0.1, 0, 260, W / 2, H / 2))).toBe('court');
  });

  it('leaves the background and shadows (the floor darkened evenly) out of the foreground', () => {
    expect(isShadow(130, 105, 72, FLOOR)).toBe(true);
    expect(isShadow(...GREEN, FLOOR)).toBe(false);
    expect(isShadow(...FLOOR, FLOOR)).toBe(false);
    const f = frameOf(FLOOR);
    drawPlayer(f, 6, 0, GREEN);
    for (let u = 0; u < 40; u++) f.set([130, 105, 72], (170 * W + u) * 3);
    const thumb = foregroundThumb({ rgb: f, width: W, height: H }, background);
    expect(thumb.index.length).toBeGreaterThan(50);
    for (let k = 0; k < thumb.index.length; k++) expect([...thumb.rgb.subarray(3 * k, 3 * k + 3)]).toEqual(GREEN);
  });

  it('puts each team at its players’ distance from the basket, and the team farther out on offence', () => {
    const f = frameOf(FLOOR);
    // the defenders (white) between their men (green) and the basket, each a step to the side of his man; the men's
    // feet hidden behind them
    for (const [x, y] of [[6.5, -3], [7, 1.5], [5.5, 4.5]]) drawPlayer(f, x, y, GREEN);
    for (const [x, y] of [[5.3, -2.2], [5.7, 0.7], [4.4, 3.3]]) drawPlayer(f, x, y, WHITE);
    const sp = teamSpacing(foregroundThumb({ rgb: f, width: W, height: H }, background), teamOf, BEHIND, 2);
    expect(sp.n).toEqual([3, 3]);
    // the medians: 7.16 m and 5.74 m
    expect(sp.distance[0]).toBeCloseTo(Math.hypot(7, 1.5), 0);
    expect(sp.distance[1]).toBeCloseTo(Math.hypot(5.7, 0.7), 0);
    expect(offenceOf(sp)).toBe(0);
  });

  it('says nothing when a team is not seen, or both stand about as far out', () => {
    expect(offenceOf({ distance: [6, null], n: [3, 0] })).toBeNull();
    expect(offenceOf({ distance: [6, 6 + 0.9 * OFFENCE_MARGIN_M], n: [3, 3] })).toBeNull();
    expect(offenceOf({ distance: [6, 6 + 1.1 * OFFENCE_MARGIN_M], n: [3, 3] })).toBe(1);
  });

  it('takes no blob smaller than a piece of kit for a player', () => {
    const f = frameOf(FLOOR);
    drawPlayer(f, 6, 0, GREEN);
    // a white fleck (a shoe, a wristband) of under MIN_JERSEY_BALLS ball areas
    const r = 2;
    const side = Math.floor(Math.sqrt(MIN_JERSEY_BALLS * Math.PI * r * r)) - 1;
    for (let v = 100; v < 100 + side; v++) for (let u = 40; u < 40 + side; u++) f.set(WHITE, (v * W + u) * 3);
    const sp = teamSpacing(foregroundThumb({ rgb: f, width: W, height: H }, background), teamOf, BEHIND, r);
    expect(sp.n).toEqual([1, 0]);
    expect(offenceOf(sp)).toBeNull();
  });
});

describe('attributeTeams: a camera behind the basket', () => {
  const background = medianBackground([frameOf(FLOOR), frameOf(FLOOR), frameOf(FLOOR)], W);
  const BALL: RGB = [220, 110, 40];
  const SKIN: RGB = [200, 140, 100];

  /** A release: green men out at the arc, white defenders a step nearer the basket; the ball held up by a green shooter, or (`closeOut`) in front of him by his white defender's raised hand. */
  function release(closeOut: boolean): { frame: Uint8Array; ball: { x: number; y: number } } {
    const f = frameOf(FLOOR);
    const men: Array<[number, number]> = [[7.5, -3], [7.2, 0], [6.8, 3.5]];
    const defenders: Array<[number, number]> = [[6.3, -2.3], [5.9, 0.4], [5.6, 2.8]];
    for (const [x, y] of men) drawPlayer(f, x, y, GREEN);
    for (const [x, y] of defenders) drawPlayer(f, x, y, WHITE);
    const [hx, hy] = closeOut ? defenders[1] : men[1];
    const top = project(BEHIND, hx, hy, 1.6);
    const ball = { x: Math.round(top.u), y: Math.round(top.v) - 9 };
    for (let v = ball.y + 2; v <= top.v; v++) f.set(SKIN, (v * W + ball.x) * 3);
    for (let v = ball.y - 3; v <= ball.y + 3; v++) for (let u = ball.x - 3; u <= ball.x + 3; u++) f.set(BALL, (v * W + u) * 3);
    return { frame: f, ball };
  }

  async function teams(floor: TeamInput['floor']) {
    const frames = new Map<number, Uint8Array>();
    const actions: ShotAction[] = [];
    // four shots a minute apart (the play between them says nothing), green on offence at each; at the second and the
    // fourth the ball is read at the white defender closing out
    for (let i = 0; i < 4; i++) {
      const t = 60 * (i + 1);
      const { frame, ball } = release(i % 2 === 1);
      frames.set(30 * t, frame);
      actions.push({
        type: 'shot', id: `s${i + 1}`, index: i, release_t: t, rim_t: t + 0.8, end_t: t + 1.5, made: false, made_confidence: 1,
        is_free_throw: false, is_three_point: null, points: 0, kind: 'rim_out',
        shooter_track: null, assister_track: null, rebounder_track: null,
        shot_image: [(ball.x + 0.5) / W, (ball.y + 0.5) / H], shot_world: null, hoop_image: [0.5, 0.1], hoop_id: 0, excitement: 0.5, confidence: 1,
      });
    }
    const input: TeamInput = {
      actions,
      balls: actions.map((a) => ({ t: a.release_t, x: a.shot_image[0], y: a.shot_image[1], r: 3.5 / W, confidence: 1, source: 'motion' as const })),
      clusters: [],
      hoops: [{ id: 0, x: 0.5, y: 0.1, w: 13 / W, samples: [], backboard: null, support: 1, is_target: true, confidence: 1 }],
      ...(floor ? { floor } : {}),
    };
    return attributeTeams(input, async () => frames, background, { width: W, height: H, fps: 30 });
  }

  it('names the team standing farther from the basket, not the defender whose body holds the ball up', async () => {
    const byJersey = await teams(undefined);
    // the jerseys alone (team 0 the lighter kit, white): the white defender's at the second and fourth shots
    expect(byJersey.map((d) => d.team)).toEqual([1, 0, 1, 0]);
    expect(byJersey.every((d) => d.spacing === undefined)).toBe(true);
    const bySpacing = await teams(BEHIND);
    expect(bySpacing.map((d) => d.read)).toEqual([1, 0, 1, 0]);
    expect(bySpacing.map((d) => d.team)).toEqual([1, 1, 1, 1]);
    expect(bySpacing.map((d) => d.overruled ?? null)).toEqual([null, 'spacing', null, 'spacing']);
    expect(bySpacing.every((d) => d.spacing && d.spacing.distance[1]! > d.spacing.distance[0]! + OFFENCE_MARGIN_M)).toBe(true);
  });

  it('keeps the jersey read of a camera on the court side, which sees the shooter in front of his defender', async () => {
    const side = cameraFromPose([8, -9, 2], 2.3, 0.1, 0, 260, W / 2, H / 2);
    const dec = await teams(side);
    expect(dec.map((d) => d.team)).toEqual([1, 0, 1, 0]);
    expect(dec.every((d) => d.spacing === undefined)).toBe(true);
  });
});
