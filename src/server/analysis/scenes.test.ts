import { describe, expect, it } from 'vitest';
import type { FinishInput, FinishOutput } from './finish';
import type { FrameFeatures } from './frame-features';
import { CUT_MIN_RESIDUAL, CUT_OVER_NEIGHBOURS, DISSOLVE_MAX_RESIDUAL, findCuts, findDissolves, joinScenes, MIN_SCENE_S, SCENE_MIN_SAMPLES, sceneInput, sceneSampleFrames, scenesOf } from './scenes';
import { shotsOf, type ShotAction } from './types';

const FPS = 30;
/** Residuals of a still camera (1–3), with `at` frames set to given values. */
function residuals(n: number, at: Record<number, number> = {}): number[] {
  return Array.from({ length: n }, (_, i) => at[i] ?? 1 + (i % 3));
}

describe('findCuts: one frame whose shift match is far off', () => {
  it('finds a cut between two recordings', () => {
    expect(findCuts(residuals(300, { 120: 180 }), FPS)).toEqual([120]);
  });

  it('takes no frame under the bound, however far above its neighbours', () => {
    expect(findCuts(residuals(300, { 120: CUT_MIN_RESIDUAL - 1 }), FPS)).toEqual([]);
  });

  it('takes no frame a neighbour comes near: a whip pan or a shaking hand keeps the residual high', () => {
    const pan = residuals(300);
    for (let i = 100; i < 130; i++) pan[i] = 60 + (i % 4) * 10;
    expect(findCuts(pan, FPS)).toEqual([]);
    // the largest frame of a pan is still within CUT_OVER_NEIGHBOURS of the one before it
    expect(findCuts(residuals(300, { 120: 200, 127: 200 / CUT_OVER_NEIGHBOURS + 1 }), FPS)).toEqual([]);
  });

  it('takes no flash: a bright frame moves the residual on two frames in a row', () => {
    expect(findCuts(residuals(300, { 120: 150, 121: 150 }), FPS)).toEqual([]);
  });

  it('finds a cut in the first and the last half second', () => {
    expect(findCuts(residuals(100, { 3: 120, 97: 120 }), FPS)).toEqual([3, 97]);
  });
});

describe('findDissolves: the frames between two recordings are mixes of both', () => {
  const TW = 16;
  const TH = 9;
  /** A deterministic picture: grey cells from a seeded generator, with a little of the seed's texture. */
  const picture = (seed: number, w = TW): number[] => {
    let x = seed * 7919 + 1;
    return Array.from({ length: w * TH }, () => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return 40 + (x % 170);
    });
  };
  const frames = (pics: number[][]) => pics.map((p) => ({ thumb: Uint8Array.from(p.map((v) => Math.max(0, Math.min(255, Math.round(v))))) }));
  /** Frame-to-frame noise of a recording (compression, players moving a little). */
  const noisy = (p: number[], i: number) => p.map((v, c) => v + 3 * Math.sin(i * 1.7 + c * 2.3));
  const mix = (a: number[], b: number[], w: number) => a.map((v, c) => (1 - w) * v + w * b[c]);
  const A = picture(1);
  const B = picture(2);

  it('finds a 1-s cross-dissolve, split in its middle', () => {
    const pics = Array.from({ length: 300 }, (_, i) => (i < 140 ? noisy(A, i) : i >= 170 ? noisy(B, i) : noisy(mix(A, B, (i - 139) / 31), i)));
    const d = findDissolves(frames(pics), FPS);
    expect(d).toHaveLength(1);
    expect(d[0].from).toBeGreaterThanOrEqual(138);
    expect(d[0].from).toBeLessThanOrEqual(145);
    expect(d[0].to).toBeGreaterThanOrEqual(165);
    expect(d[0].to).toBeLessThanOrEqual(172);
    expect(Math.abs(d[0].at - 155)).toBeLessThanOrEqual(3);
  });

  it('finds a dip through black and a short dissolve', () => {
    const pics = Array.from({ length: 400 }, (_, i) => {
      if (i < 100) return noisy(A, i);
      if (i < 115) return mix(noisy(A, i), A.map(() => 16), (i - 99) / 15);
      if (i < 130) return mix(B.map(() => 16), noisy(B, i), (i - 114) / 16);
      if (i < 250) return noisy(B, i);
      if (i < 265) return mix(noisy(B, i), picture(3), (i - 249) / 16);
      return noisy(picture(3), i);
    });
    const d = findDissolves(frames(pics), FPS);
    expect(d.map((x) => x.at)).toHaveLength(2);
    expect(Math.abs(d[0].at - 115)).toBeLessThanOrEqual(3);
    expect(Math.abs(d[1].at - 257)).toBeLessThanOrEqual(3);
  });

  it('takes no camera turning over a wide scene: the frames between are the scene moved, not mixed', () => {
    const wide = picture(4, 80);
    const view = (x0: number) => {
      const out: number[] = [];
      for (let y = 0; y < TH; y++) {
        for (let x = 0; x < TW; x++) {
          const u = x0 + x;
          const f = Math.floor(u);
          const v0 = wide[y * 80 + f];
          const v1 = wide[y * 80 + Math.min(79, f + 1)];
          out.push(v0 + (u - f) * (v1 - v0));
        }
      }
      return out;
    };
    // still, a turn of 60 cells over 2 s, still again
    const pics = Array.from({ length: 300 }, (_, i) => noisy(view(i < 100 ? 0 : i < 160 ? (i - 100) : 60), i));
    expect(findDissolves(frames(pics), FPS)).toEqual([]);
  });

  it('takes no change of exposure, and nothing in one recording', () => {
    const pics = Array.from({ length: 300 }, (_, i) => noisy(A.map((v) => 128 + (v - 128) * (i < 100 ? 1 : i < 160 ? 1 + (i - 100) / 40 : 2.5)), i));
    expect(findDissolves(frames(pics), FPS)).toEqual([]);
    expect(findDissolves(frames(Array.from({ length: 300 }, (_, i) => noisy(A, i))), FPS)).toEqual([]);
  });

  it('leaves a cut to the cut, and reads nothing next to a flat picture', () => {
    const cut = Array.from({ length: 300 }, (_, i) => noisy(i < 150 ? A : B, i));
    expect(findDissolves(frames(cut), FPS, [150])).toEqual([]);
    // without the cut named, a step between two pictures has no frame mixing them: nothing either
    expect(findDissolves(frames(cut), FPS)).toEqual([]);
    const black = Array.from({ length: 300 }, (_, i) => (i < 150 ? A.map(() => 16) : noisy(B, i)));
    expect(findDissolves(frames(black), FPS)).toEqual([]);
  });

  it('takes no player walking in front of the lens: the frames between are not mixes of the ends', () => {
    // a dark shirt covers the columns left of x, x moving from 0 to 10 cells over a second, then staying
    const covered = (x: number) => A.map((v, c) => (c % TW < x ? 25 : v));
    const pics = Array.from({ length: 300 }, (_, i) => noisy(covered(i < 140 ? 0 : i < 170 ? (i - 140) / 3 : 10), i));
    // the change is as large as a dissolve's, yet no mix of the two ends
    expect(findDissolves(frames(pics), FPS)).toEqual([]);
    expect(DISSOLVE_MAX_RESIDUAL).toBeLessThan(0.5);
  });
});

describe('scenesOf', () => {
  it('cuts the frames into scenes at the cuts', () => {
    expect(scenesOf(300, [100, 200], FPS)).toEqual([
      { from: 0, to: 100 },
      { from: 100, to: 200 },
      { from: 200, to: 300 },
    ]);
  });

  it('joins a piece shorter than MIN_SCENE_S to the scene before it, the first piece to the one after', () => {
    const short = Math.round(MIN_SCENE_S * FPS) - 1;
    expect(scenesOf(300, [100, 100 + short], FPS)).toEqual([
      { from: 0, to: 100 + short },
      { from: 100 + short, to: 300 },
    ]);
    expect(scenesOf(300, [short, 150], FPS)).toEqual([
      { from: 0, to: 150 },
      { from: 150, to: 300 },
    ]);
    expect(scenesOf(300, [], FPS)).toEqual([{ from: 0, to: 300 }]);
  });
});

describe('scenesOf with dissolves', () => {
  it('splits a dissolve in its middle, each side keeping its share of the mixed frames', () => {
    expect(scenesOf(300, [200], FPS, [{ from: 90, to: 120, at: 105 }])).toEqual([
      { from: 0, to: 105, mixedTail: 15 },
      { from: 105, to: 200, mixedHead: 15 },
      { from: 200, to: 300 },
    ]);
  });

  it('joins a piece shorter than MIN_SCENE_S after a dissolve to the scene before it, which then ends as the piece does', () => {
    expect(scenesOf(300, [], FPS, [{ from: 90, to: 120, at: 105 }, { from: 115, to: 125, at: 120 }])).toEqual([
      { from: 0, to: 120, mixedTail: 5 },
      { from: 120, to: 300, mixedHead: 5 },
    ]);
  });
});

describe('sceneInput: a scene finished on its own', () => {
  it('takes the scene’s frames and samples, numbered from its first frame, without what was measured across the cuts', () => {
    const blob = { x: 1, y: 2 } as unknown as FrameFeatures['blobs'][number];
    const features = Array.from(
      { length: 90 },
      (_, i) => ({ index: i, shiftResidual: 1, dx: 0, dy: 0, sx: 0, sy: 0, ss: 1, blobs: [blob], motion: new Uint8Array([3, 4]) }) as unknown as FrameFeatures,
    );
    // the cut: the shift search's best match to the other scene's last frame
    Object.assign(features[30], { shiftResidual: 180, dx: -4, dy: 32, sx: -4.98, sy: 30.93, ss: 1.004 });
    Object.assign(features[31], { dx: 1, sx: 0.7 });
    // the camera turns a little in the scene: 4 px
    for (const i of [32, 33, 34]) Object.assign(features[i], { dx: 1, sx: 1 });
    const rgb = new Uint8Array(3);
    const input = {
      features,
      samples: [0, 40, 70].map((index) => ({ index, rgb })),
      rimSamples: [45, 75].map((index) => ({ index, rims: [] })),
      viewSamples: [{ index: 40, rgb }],
      width: 640,
      height: 360,
      fps: FPS,
      durationSeconds: 3,
      options: {},
    } as unknown as FinishInput;
    const s = sceneInput(input, { from: 30, to: 60 });
    expect(s.features.map((f) => f.index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(s.features[0]).not.toBe(features[30]);
    // no camera motion into the scene's first frame; the frames after it keep theirs
    expect(s.features[0]).toMatchObject({ dx: 0, dy: 0, sx: 0, sy: 0, ss: 1, shiftResidual: 180 });
    expect(s.features[1]).toMatchObject({ dx: 1, sx: 0.7 });
    expect(features[30]).toMatchObject({ dx: -4, sy: 30.93 });
    // the frames on either side of a cut keep no blobs and no motion; the others keep theirs
    for (const i of [0, 29]) {
      expect(s.features[i].blobs).toEqual([]);
      expect([...s.features[i].motion]).toEqual([0, 0]);
    }
    expect(s.features[1].blobs).toHaveLength(1);
    expect([...s.features[28].motion]).toEqual([3, 4]);
    expect(features[30].blobs).toHaveLength(1);
    // the clip's own first and last frames are no cut
    const first = sceneInput(input, { from: 0, to: 30 });
    expect(first.features[0].blobs).toHaveLength(1);
    expect(first.features[29].blobs).toEqual([]);
    const end = sceneInput(input, { from: 60, to: 90 });
    expect(end.features[0].blobs).toEqual([]);
    expect(end.features[29].blobs).toHaveLength(1);
    // a rim search the shift into the scene started (the scene's own camera still) is not the scene's
    expect(end.rimSamples).toEqual([]);
    expect(s.samples.map((x) => x.index)).toEqual([10]);
    expect(s.rimSamples!.map((x) => x.index)).toEqual([15]);
    expect(s.viewSamples!.map((x) => x.index)).toEqual([10]);
    expect(s.durationSeconds).toBe(1);
    expect(features[30].index).toBe(30);
  });
});

describe('sceneInput of a scene between dissolves', () => {
  it('clears the camera motion, blobs and motion of its mixed frames and takes no sample from them', () => {
    const blob = { x: 1, y: 2 } as unknown as FrameFeatures['blobs'][number];
    const features = Array.from(
      { length: 90 },
      (_, i) => ({ index: i, shiftResidual: 1, dx: 1, dy: 0, sx: 1, sy: 0, ss: 1, blobs: [blob], motion: new Uint8Array([3, 4]) }) as unknown as FrameFeatures,
    );
    const rgb = new Uint8Array(3);
    const input = {
      features,
      samples: [22, 26, 40, 63, 67].map((index) => ({ index, rgb })),
      rimSamples: [],
      viewSamples: [],
      width: 640,
      height: 360,
      fps: FPS,
      durationSeconds: 3,
      options: {},
    } as unknown as FinishInput;
    // frames 20–29 and 60–69 mix two recordings each
    const s = sceneInput(input, { from: 25, to: 65, mixedHead: 5, mixedTail: 5 });
    expect(s.features).toHaveLength(40);
    // the head's 5 mixed frames and the first clean one: no camera motion (the shift from a mixed frame); the tail's 5
    for (const i of [0, 4, 5, 35, 39]) expect(s.features[i]).toMatchObject({ dx: 0, sx: 0 });
    for (const i of [6, 20, 34]) expect(s.features[i]).toMatchObject({ dx: 1, sx: 1 });
    // blobs and motion: the mixed frames and the clean frame next to them (its motion mask read a mixed neighbour)
    for (const i of [0, 5, 34, 39]) expect(s.features[i].blobs).toEqual([]);
    for (const i of [6, 33]) expect(s.features[i].blobs).toHaveLength(1);
    expect(s.samples.map((x) => x.index)).toEqual([15]);
  });
});

function shot(id: number, rim: number, hoop: number, shooter: number | null): ShotAction {
  return {
    type: 'shot', id: `s${id + 1}`, index: id, release_t: rim - 1, rim_t: rim, end_t: rim + 0.5, made: false, made_confidence: 0.9,
    is_free_throw: false, is_three_point: null, points: 0, kind: 'rim_out', shooter_track: shooter, assister_track: null,
    rebounder_track: shooter === null ? null : shooter + 1, shot_image: [0.5, 0.6], shot_world: null, hoop_image: [0.5, 0.3], hoop_id: hoop,
    excitement: 0.3, confidence: 0.8,
  };
}

function finished(o: Partial<FinishOutput>): FinishOutput {
  return { outcome: 'ok', actions: [], balls: [], hoops: [], clusters: [], timeScale: 1, evidence: [], moments: [], placement: [], ends: [], ...o };
}

const hoop = (id: number, t: number) => ({ id, x: 0.5, y: 0.3, w: 0.05, samples: [{ t, x: 0.5, y: 0.3, w: 0.05 }], backboard: null, support: 1, is_target: id === 0, confidence: 0.9 });
const cluster = (id: number, t: number) => ({ track_id: id, team: null, jersey_rgb: [1, 2, 3] as [number, number, number], jersey_number: null, t_start: t, t_end: t + 1, frames: 10, thumb_t: t, thumb_box: [0, 0, 0.1, 0.2] as [number, number, number, number], confidence: 0.5 });
const evidence = (anchorFrame: number) => ({ anchorFrame }) as FinishOutput['evidence'][number];

describe('joinScenes', () => {
  const first = finished({
    actions: [shot(0, 2, 0, 1), { type: 'rebound', t: 3, shot_id: 's1', track: 2, offensive: false, confidence: 0.5 }],
    balls: [{ t: 2, x: 0.5, y: 0.3, r: 0.01, confidence: 1, source: 'motion' }],
    hoops: [hoop(0, 0)],
    clusters: [cluster(1, 1), cluster(2, 3)],
    evidence: [evidence(60)],
    moments: [{ pass: [], rebound: [{ frame: 90, x: 1, y: 2, r: 3 }] }],
    ends: [null],
    timeScale: 1,
  });
  const second = finished({
    actions: [
      { type: 'pass', t: 0.5, end_t: 1, from_track: 1, to_track: 4, confidence: 0.5 },
      shot(0, 2, 0, 4),
      shot(1, 5, 1, null),
    ],
    hoops: [hoop(0, 0), hoop(1, 4)],
    clusters: [cluster(1, 0), cluster(4, 1)],
    evidence: [evidence(60), evidence(-1)],
    moments: [{ pass: [{ frame: 15, x: 1, y: 2, r: 3 }] }, { pass: [], rebound: [] }],
    ends: [0, 1],
    outcome: 'ok',
    timeScale: 2,
  });
  const joined = joinScenes(
    [
      { scene: { from: 0, to: 300 }, out: first },
      { scene: { from: 300, to: 900 }, out: second },
    ],
    FPS,
  );

  it('moves the second scene’s times and frames by its start', () => {
    const shots = shotsOf(joined.actions);
    expect(shots.map((s) => s.rim_t)).toEqual([2, 12, 15]);
    expect(shots.map((s) => s.release_t)).toEqual([1, 11, 14]);
    expect(joined.hoops.map((h) => h.samples[0].t)).toEqual([0, 10, 14]);
    expect(joined.clusters.map((c) => c.t_start)).toEqual([1, 3, 10, 11]);
    expect(joined.evidence.map((e) => e.anchorFrame)).toEqual([60, 360, -1]);
    expect(joined.moments![1].pass[0].frame).toBe(315);
    expect(joined.moments![0].rebound![0].frame).toBe(90);
  });

  it('numbers hoops, tracks and shots on from the scenes before', () => {
    const shots = shotsOf(joined.actions);
    expect(shots.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(shots.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(shots.map((s) => s.hoop_id)).toEqual([0, 1, 2]);
    expect(joined.hoops.map((h) => h.id)).toEqual([0, 1, 2]);
    // the first scene names tracks up to 2: the second's are numbered from 3 on
    expect(shots.map((s) => s.shooter_track)).toEqual([1, 7, null]);
    expect(shots.map((s) => s.rebounder_track)).toEqual([2, 8, null]);
    expect(joined.clusters.map((c) => c.track_id)).toEqual([1, 2, 4, 7]);
    const pass = joined.actions.find((a) => a.type === 'pass');
    expect(pass).toMatchObject({ t: 10.5, from_track: 4, to_track: 7 });
    expect(joined.actions.find((a) => a.type === 'rebound')).toMatchObject({ shot_id: 's1', track: 2 });
  });

  it('keeps the court ends of the one scene that has them, the longest scene’s time scale and the best outcome', () => {
    expect(joined.ends).toEqual([null, 0, 1]);
    expect(joined.timeScale).toBe(2);
    const none = joinScenes(
      [
        { scene: { from: 0, to: 300 }, out: finished({ outcome: 'no_hoops' }) },
        { scene: { from: 300, to: 600 }, out: finished({ outcome: 'no_shots', hoops: [hoop(0, 0)], ends: [null] }) },
      ],
      FPS,
    );
    expect(none.outcome).toBe('no_shots');
    const twoWithEnds = joinScenes(
      [
        { scene: { from: 0, to: 300 }, out: second },
        { scene: { from: 300, to: 600 }, out: second },
      ],
      FPS,
    );
    expect(twoWithEnds.ends).toEqual([null, null, null, null]);
  });
});

describe('sceneSampleFrames: the samples a scene of a clip of several gets', () => {
  it('asks for SCENE_MIN_SAMPLES frames spread over a scene that has fewer, none for a scene that has enough', () => {
    // a 2 s scene (4 samples at most: one per 0.5 s), a 10 s one and a 60 s one; the clip's samples every 150 frames
    const scenes = [
      { from: 0, to: 60 },
      { from: 60, to: 360 },
      { from: 360, to: 2160 },
    ];
    const sampled = Array.from({ length: 15 }, (_, k) => ({ index: k * 150 }));
    const want = sceneSampleFrames(sampled, scenes, FPS);
    expect(want.filter((f) => f < 60)).toEqual([7, 22, 37, 52]);
    expect(want.filter((f) => f >= 60 && f < 360)).toEqual([78, 116, 153, 191, 228, 266, 303, 341]);
    // the 60 s scene holds 12 of the clip's samples
    expect(want.filter((f) => f >= 360)).toEqual([]);
    expect(SCENE_MIN_SAMPLES).toBe(8);
  });

  it('asks for nothing for a clip of one scene', () => {
    expect(sceneSampleFrames([{ index: 0 }], [{ from: 0, to: 900 }], FPS)).toEqual([]);
  });
});
