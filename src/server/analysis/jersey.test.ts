import { describe, expect, it } from 'vitest';
import {
  jerseyLike,
  attributeTeams,
  colourDistance,
  commonColours,
  medianBackground,
  robustColour,
  sampleShooter,
  teamColours,
  teamOfColour,
  type TeamInput,
} from './jersey';
import type { ClusterRecord, ShotAction } from './types';

const W = 160;
const H = 120;
type RGB = [number, number, number];

function frameOf(fill: RGB): Uint8Array {
  const f = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) f.set(fill, i * 3);
  return f;
}

function rect(f: Uint8Array, x0: number, y0: number, x1: number, y1: number, c: RGB): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) f.set(c, (y * W + x) * 3);
}

const FLOOR: RGB = [215, 175, 120];
const SKIN: RGB = [200, 140, 100];
const GREEN: RGB = [30, 120, 60];
const WHITE: RGB = [235, 235, 232];
const BALL: RGB = [220, 110, 40];

/** A shooter: arms (skin) from the ball down to a jersey, shorts in the jersey colour; a ball (7 px) at (bx, by). */
function drawShooter(f: Uint8Array, bx: number, by: number, jersey: RGB): void {
  rect(f, bx - 1, by + 3, bx + 2, by + 14, SKIN); // arm up to the ball
  rect(f, bx - 5, by + 10, bx + 1, by + 16, SKIN); // head
  rect(f, bx - 8, by + 16, bx + 4, by + 40, jersey); // torso + shorts (3.4 ball diameters)
  rect(f, bx - 6, by + 40, bx + 2, by + 54, SKIN); // legs
  rect(f, bx - 3, by - 3, bx + 4, by + 4, BALL);
}

describe('robust colours', () => {
  it('keeps a jersey close to itself under an exposure change and far from the other team', () => {
    const g = robustColour(...GREEN);
    const gDark = robustColour(GREEN[0] * 0.7, GREEN[1] * 0.7, GREEN[2] * 0.7);
    const w = robustColour(...WHITE);
    expect(colourDistance(g, gDark)).toBeLessThan(0.45);
    expect(colourDistance(g, w)).toBeGreaterThan(1.2);
    // Black and white: no chroma, told apart by lightness.
    expect(colourDistance(robustColour(25, 25, 28), w)).toBeGreaterThan(1.5);
  });
});

describe('sampleShooter', () => {
  it('reads the jersey of the body holding the ball, not the defender beside it', () => {
    const bg = frameOf(FLOOR);
    const f = bg.slice();
    drawShooter(f, 60, 30, GREEN);
    rect(f, 68, 46, 84, 70, WHITE); // contesting defender, touching nothing the ball touches
    const background = medianBackground([bg, bg, bg, bg, bg], W);
    const s = sampleShooter({ rgb: f, width: W, height: H }, { x: 60.5, y: 30.5, r: 3.5 }, { background });
    expect(s.colour).not.toBeNull();
    expect(colourDistance(s.colour!, robustColour(...GREEN))).toBeLessThan(0.1);
    expect(s.share).toBeGreaterThan(0.8);
  });

  it('works without a background by leaving out the frame-wide colours', () => {
    const f = frameOf(FLOOR);
    drawShooter(f, 60, 30, WHITE);
    const img = { rgb: f, width: W, height: H };
    const s = sampleShooter(img, { x: 60.5, y: 30.5, r: 3.5 }, { common: commonColours(img) });
    expect(s.colour).not.toBeNull();
    expect(colourDistance(s.colour!, robustColour(...WHITE))).toBeLessThan(0.1);
  });

  it('in a crowd, reads the body the ball is held by rather than the larger group it touches farther along', () => {
    const bg = frameOf(FLOOR);
    const f = bg.slice();
    drawShooter(f, 60, 30, GREEN);
    // a defender of the other team, larger than the shooter's jersey, joined to his body low at its far side
    rect(f, 64, 60, 84, 90, WHITE);
    const s = sampleShooter({ rgb: f, width: W, height: H }, { x: 60.5, y: 30.5, r: 3.5 }, { background: medianBackground([bg, bg, bg, bg, bg], W) });
    expect(s.colour).not.toBeNull();
    expect(colourDistance(s.colour!, robustColour(...GREEN))).toBeLessThan(0.1);
  });

  it("reads an orange kit (ball-coloured) as the jersey against a background image, the ball's own fringe left out", () => {
    const ORANGE: RGB = [235, 120, 30];
    const bg = frameOf(FLOOR);
    const f = bg.slice();
    drawShooter(f, 60, 30, ORANGE);
    // the ball blurred upwards: a ball-coloured streak within two radii of its centre
    rect(f, 58, 23, 63, 27, BALL);
    const s = sampleShooter({ rgb: f, width: W, height: H }, { x: 60.5, y: 30.5, r: 3.5 }, { background: medianBackground([bg, bg, bg, bg, bg], W) });
    expect(s.colour).not.toBeNull();
    expect(colourDistance(s.colour!, robustColour(...ORANGE))).toBeLessThan(0.1);
    expect(colourDistance(s.colour!, robustColour(...SKIN))).toBeGreaterThan(0.3);
  });

  it('finds nothing when no body is attached to the ball', () => {
    const bg = frameOf(FLOOR);
    const f = bg.slice();
    rect(f, 57, 27, 64, 34, BALL);
    const s = sampleShooter({ rgb: f, width: W, height: H }, { x: 60.5, y: 30.5, r: 3.5 }, { background: medianBackground([bg, bg, bg], W) });
    expect(s.colour).toBeNull();
  });
});

describe('medianBackground', () => {
  it('gives per pixel and channel the value a sort of the frames puts at position n/2, for odd and even counts', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (const n of [5, 6, 11, 24]) {
      // values spread wide on some pixels and bunched (with ties) on others
      const frames = Array.from({ length: n }, () => Uint8Array.from({ length: W * H * 3 }, (_, i) => (i % 7 === 0 ? 100 + (rnd() % 4) : rnd() % 256)));
      const bg = medianBackground(frames, W);
      for (let k = 0; k < 400; k++) {
        const x = rnd() % W;
        const y = rnd() % H;
        const got = bg(x, y)!;
        for (let c = 0; c < 3; c++) {
          const v = frames.map((f) => f[(y * W + x) * 3 + c]).sort((a, b) => a - b);
          expect(got[c]).toBe(v[n >> 1]);
        }
        expect(bg(x, y)).toEqual(got);
      }
    }
  });
});

describe('teamColours / teamOfColour', () => {
  const noisy = (c: RGB, k: number): RGB => [c[0] + ((k * 7) % 11) - 5, c[1] + ((k * 5) % 9) - 4, c[2] + ((k * 3) % 7) - 3];

  it('splits two jerseys under varying exposure, the lighter team first, and tolerates a stray sample', () => {
    const samples = [];
    for (let k = 0; k < 6; k++) {
      const e = 0.75 + 0.05 * k;
      const g = noisy(GREEN, k);
      const w = noisy(WHITE, k);
      samples.push({ c: robustColour(g[0] * e, g[1] * e, g[2] * e), w: 1 });
      samples.push({ c: robustColour(w[0] * e, w[1] * e, w[2] * e), w: 1 });
    }
    samples.push({ c: robustColour(...FLOOR), w: 0.3 });
    const t = teamColours(samples);
    expect(t).not.toBeNull();
    expect(teamOfColour(robustColour(...WHITE), t!)).toBe(0);
    expect(teamOfColour(robustColour(...GREEN), t!)).toBe(1);
    expect(teamOfColour(robustColour(GREEN[0] * 0.8, GREEN[1] * 0.8, GREEN[2] * 0.8), t!)).toBe(1);
  });

  it('finds the two jerseys when a heavy stray colour (the floor read as a jersey) is farther from both than they are apart', () => {
    const RED: RGB = [204, 58, 67];
    const samples = [];
    for (let k = 0; k < 5; k++) samples.push({ c: robustColour(...noisy(WHITE, k)), w: 0.5 });
    for (let k = 0; k < 3; k++) samples.push({ c: robustColour(...noisy(GREEN, k)), w: 0.4 });
    samples.push({ c: robustColour(...RED), w: 0.9 });
    const t = teamColours(samples);
    expect(t).not.toBeNull();
    expect(teamOfColour(robustColour(...WHITE), t!)).toBe(0);
    expect(teamOfColour(robustColour(...GREEN), t!)).toBe(1);
  });

  it('gives no teams when every sample is the same jersey', () => {
    const samples = Array.from({ length: 8 }, (_, k) => ({ c: robustColour(...noisy(GREEN, k)), w: 1 }));
    expect(teamColours(samples)).toBeNull();
  });
});

/**
 * Seven made shots `gap` seconds apart whose shooters are read green, white, green, white, white, white, green (the
 * fifth, in the play, a defender's jersey: the teams alternate), each on one wrong-coloured motion track.
 */
async function madeShots(gap: number, unread: number | null = null, people = false) {
  const geo = { width: W, height: H, fps: 30 };
  const bg = frameOf(FLOOR);
  const frames = new Map<number, Uint8Array>();
  const actions: ShotAction[] = [];
  const jerseys = [GREEN, WHITE, GREEN, WHITE, WHITE, WHITE, GREEN];
  jerseys.forEach((j, i) => {
    const f = bg.slice();
    const t = gap * (i + 1);
    if (i === unread) rect(f, 57, 27, 64, 34, BALL); // the ball alone: no body attached to it
    else drawShooter(f, 60, 30, j);
    rect(f, 100, 40, 114, 70, j === GREEN ? WHITE : GREEN); // a player of the other team elsewhere
    frames.set(30 * t, f);
    actions.push({
      type: 'shot', id: `s${i + 1}`, index: i, release_t: t, rim_t: t + 0.5, end_t: t + 1, made: true, made_confidence: 1,
      is_free_throw: false, is_three_point: null, points: 2, kind: 'swish',
      // Every shot starts on one (wrong-coloured) motion track: the step must split them by jersey. The unread shot has none.
      shooter_track: i === unread ? null : 1, assister_track: null, rebounder_track: null,
      shot_image: [60.5 / W, 30.5 / H], shot_world: null, hoop_image: [0.8, 0.2], hoop_id: 0, excitement: 0.5, confidence: 1,
    });
  });
  const cluster: ClusterRecord = {
    track_id: 1, team: null, jersey_rgb: [150, 120, 90], jersey_number: null, t_start: 0, t_end: 8 * gap, frames: 100,
    thumb_t: 1, thumb_box: [0, 0, 0.1, 0.1], confidence: 1,
  };
  const out: TeamInput = {
    actions,
    balls: actions.map((a) => ({ t: a.release_t, x: a.shot_image[0], y: a.shot_image[1], r: 3.5 / W, confidence: 1, source: 'motion' as const })),
    clusters: [cluster],
    hoops: [{ id: 0, x: 0.8, y: 0.2, w: 13 / W, samples: [], backboard: null, support: 1, is_target: true, confidence: 1 }],
  };
  // with the finishing stage's moments (no passes, no rebounds) the shooters are grouped into people
  if (people) out.moments = actions.map(() => ({ pass: [], rebound: [] }));
  const dec = await attributeTeams(out, async () => frames, medianBackground([bg, bg, bg, bg, bg], W), geo, { moments: out.moments, teamSize: null });
  const teamOf = new Map(out.clusters.map((c) => [c.track_id, c.team]));
  return { dec, out, shooterTeams: actions.map((a) => teamOf.get(a.shooter_track!)) };
}

describe('jerseyLike', () => {
  const read = (rgb: [number, number, number]) => ({ shotId: 's', team: null, sample: { colour: robustColour(...rgb), rgb, share: 0.6, box: [0, 0, 1, 1] as [number, number, number, number] } });
  const navy: [number, number, number] = [28, 38, 86];
  const white: [number, number, number] = [235, 235, 232];

  it('takes reads in two tight colours for team jerseys, and many colours for own shirts', () => {
    const navyToo: [number, number, number] = [30, 40, 90];
    expect(jerseyLike([navy, white, navy, white, navy, white, navyToo].map(read))).toBe(true);
    const shirts: Array<[number, number, number]> = [[190, 30, 40], [30, 70, 180], [240, 195, 40], [30, 120, 60], [85, 40, 130], [130, 132, 135], [20, 130, 130]];
    expect(jerseyLike(shirts.map(read))).toBe(false);
  });

  it('says nothing on fewer than six reads', () => {
    expect(jerseyLike([navy, white, navy, white, navy].map(read))).toBe(false);
  });
});

describe('attributeTeams', () => {
  it('gives each shot a shooter track of the team whose jersey holds the ball', async () => {
    // a minute apart: the play between them says nothing (PLAY_GAP_S), the jerseys decide
    const { dec, shooterTeams } = await madeShots(60);
    expect(dec.map((d) => d.team)).toEqual([1, 0, 1, 0, 0, 0, 1]);
    expect(dec.every((d) => d.overruled === undefined)).toBe(true);
    expect(shooterTeams).toEqual([1, 0, 1, 0, 0, 0, 1]);
  });

  it('names the team of a shot the play gives to the other team: after a make, the ball changes hands', async () => {
    // ten seconds apart: white scores, and a white jersey is read at the next shot too
    const { dec, shooterTeams } = await madeShots(10);
    expect(dec.map((d) => d.team)).toEqual([1, 0, 1, 0, 1, 0, 1]);
    expect(dec.map((d) => d.overruled ?? null)).toEqual([null, null, null, null, 'play', null, null]);
    expect(shooterTeams).toEqual([1, 0, 1, 0, 1, 0, 1]);
  });

  it.each([false, true])("gives a shot no body was read at the team the play names, as a record in that team's jersey colour (people: %s)", async (people) => {
    const { dec, out, shooterTeams } = await madeShots(10, 2, people);
    expect(dec[2].sample?.colour ?? null).toBeNull();
    expect(dec.map((d) => d.team)).toEqual([1, 0, 1, 0, 1, 0, 1]);
    expect(dec.map((d) => d.overruled ?? null)).toEqual([null, null, 'play', null, 'play', null, null]);
    expect(shooterTeams).toEqual([1, 0, 1, 0, 1, 0, 1]);
    const own = out.clusters.find((c) => c.track_id === (out.actions[2] as ShotAction).shooter_track)!;
    expect(own.jersey_rgb).toEqual(out.clusters.find((c) => c.track_id === (out.actions[0] as ShotAction).shooter_track)!.jersey_rgb);
    expect(own.t_start).toBe(30);
  });
});

describe('attributeTeams: the rebounder', () => {
  it('reads the rebounder from the jersey holding the ball after the miss, voted over the frames he holds it', async () => {
    const geo = { width: W, height: H, fps: 30 };
    const bg = frameOf(FLOOR);
    const frames = new Map<number, Uint8Array>();
    const actions: ShotAction[] = [];
    const jerseys = [WHITE, GREEN, WHITE, GREEN];
    jerseys.forEach((j, i) => {
      const f = bg.slice();
      drawShooter(f, 60, 30, j);
      frames.set(30 * (i + 1), f);
      actions.push({
        type: 'shot', id: `s${i + 1}`, index: i, release_t: i + 1, rim_t: i + 1.5, end_t: i + 2, made: i !== 0, made_confidence: 1,
        is_free_throw: false, is_three_point: null, points: i !== 0 ? 2 : 0, kind: i !== 0 ? 'swish' : 'rim_out',
        shooter_track: null, assister_track: null,
        // The motion track at the ball after the miss: its torso colour (mostly floor) says nothing.
        rebounder_track: i === 0 ? 1 : null,
        shot_image: [60.5 / W, 30.5 / H], shot_world: null, hoop_image: [0.8, 0.2], hoop_id: 0, excitement: 0.5, confidence: 1,
      });
    });
    // The white shooter misses; a green player holds the ball where the flight after the miss
    // ends (frames 300 and 303); in frame 306 a white player runs past the ball (a single frame).
    for (const [k, j] of [[300, GREEN], [303, GREEN], [306, WHITE]] as Array<[number, RGB]>) {
      const f = bg.slice();
      drawShooter(f, 100, 40, j);
      frames.set(k, f);
    }
    const cluster: ClusterRecord = {
      track_id: 1, team: null, jersey_rgb: [210, 172, 121], jersey_number: null, t_start: 9, t_end: 11, frames: 40,
      thumb_t: 10, thumb_box: [0.5, 0.3, 0.7, 0.7], confidence: 1,
    };
    const out: TeamInput = {
      actions: [...actions, { type: 'rebound', t: 10, shot_id: 's1', track: 1, offensive: null, confidence: 0.5 }],
      balls: actions.map((a) => ({ t: a.release_t, x: a.shot_image[0], y: a.shot_image[1], r: 3.5 / W, confidence: 1, source: 'motion' as const })),
      clusters: [cluster],
      hoops: [{ id: 0, x: 0.8, y: 0.2, w: 13 / W, samples: [], backboard: null, support: 1, is_target: true, confidence: 1 }],
      moments: actions.map((_, i) => ({ pass: [], rebound: i === 0 ? [{ frame: 300, x: 100.5, y: 40.5, r: 3.5 }] : [] })),
    };
    const asked: number[][] = [];
    const dec = await attributeTeams(
      out,
      async (idx) => {
        asked.push(idx);
        return frames;
      },
      medianBackground([bg, bg, bg, bg, bg], W),
      geo,
      { moments: out.moments, teamSize: null },
    );
    expect(dec.map((d) => d.team)).toEqual([0, 1, 0, 1]);
    expect(asked[0]).toEqual(expect.arrayContaining([300, 303, 306]));
    const shot = out.actions.find((a): a is ShotAction => a.type === 'shot' && a.id === 's1')!;
    const teamOf = new Map(out.clusters.map((c) => [c.track_id, c.team]));
    expect(shot.rebounder_track).not.toBeNull();
    expect(teamOf.get(shot.rebounder_track!)).toBe(1);
    const reb = out.actions.find((a) => a.type === 'rebound')!;
    expect(reb.type === 'rebound' && reb.track).toBe(shot.rebounder_track);
    expect(reb.type === 'rebound' && reb.offensive).toBe(false);
  });
});

describe('attributeTeams: the ends of a full court', () => {
  it("names the team attacking an end for every shot taken there, the one whose jersey read was a defender's included", async () => {
    const geo = { width: W, height: H, fps: 30 };
    const bg = frameOf(FLOOR);
    const frames = new Map<number, Uint8Array>();
    const actions: ShotAction[] = [];
    // green attacks hoop 0, white hoop 1; at the fifth shot (hoop 0) a white defender holds the ball up in front of the shooter
    const hoopOf = [0, 1, 0, 1, 0, 1, 0, 1];
    hoopOf.forEach((hoop, i) => {
      const f = bg.slice();
      const t = 60 * (i + 1); // a minute apart: the play between them says nothing, the jerseys and the ends decide
      drawShooter(f, 60, 30, hoop === 0 && i !== 4 ? GREEN : WHITE);
      frames.set(30 * t, f);
      actions.push({
        type: 'shot', id: `s${i + 1}`, index: i, release_t: t, rim_t: t + 0.5, end_t: t + 1, made: true, made_confidence: 1,
        is_free_throw: false, is_three_point: null, points: 2, kind: 'swish',
        shooter_track: null, assister_track: null, rebounder_track: null,
        shot_image: [60.5 / W, 30.5 / H], shot_world: null, hoop_image: [0.8, 0.2], hoop_id: hoop, excitement: 0.5, confidence: 1,
      });
    });
    const input = (ends?: TeamInput['ends']): TeamInput => ({
      actions: actions.map((a) => ({ ...a })),
      balls: actions.map((a) => ({ t: a.release_t, x: a.shot_image[0], y: a.shot_image[1], r: 3.5 / W, confidence: 1, source: 'motion' as const })),
      clusters: [],
      hoops: [0, 1].map((id) => ({ id, x: 0.8, y: 0.2, w: 13 / W, samples: [], backboard: null, support: 1, is_target: true, confidence: 1 })),
      ends,
    });
    const shooterTeams = (out: TeamInput) => {
      const teamOf = new Map(out.clusters.map((c) => [c.track_id, c.team]));
      return out.actions.map((a) => (a.type === 'shot' && a.shooter_track !== null ? teamOf.get(a.shooter_track) : undefined));
    };
    const background = medianBackground([bg, bg, bg, bg, bg], W);
    // the jerseys alone: the defender's white at the fifth shot
    const alone = input();
    const byJersey = await attributeTeams(alone, async () => frames, background, geo);
    expect(byJersey.map((d) => d.team)).toEqual([1, 0, 1, 0, 0, 0, 1, 0]);
    expect(shooterTeams(alone)).toEqual([1, 0, 1, 0, 0, 0, 1, 0]);
    // hoop 0 is one end of the court and hoop 1 the other: the end names the fifth shot's team
    const withEnds = input([0, 1]);
    const byEnd = await attributeTeams(withEnds, async () => frames, background, geo);
    expect(byEnd.map((d) => d.team)).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    expect(byEnd.map((d) => d.overruled ?? null)).toEqual([null, null, null, null, 'end', null, null, null]);
    expect(shooterTeams(withEnds)).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
  });
});
