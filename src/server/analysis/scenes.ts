import { finishAnalysis, type FinishInput, type FinishOutput } from './finish';
import { RIM_SEARCH_AFTER_MOVE_S, RIM_SEARCH_SHIFT_PX, RUN } from './extract';
import type { FrameFeatures } from './frame-features';
import { asOnePlayer, isOnePlayerSession } from './players';
import { shotsOf, type ActionRecord, type AnalysisOutcome } from './types';

/**
 * Scenes: the pieces of a video cut together from several recordings (a phone stopped and started again, a camera
 * moved between quarters, an edited compilation). Every finishing rule reads one camera: a hoop found on the samples
 * over the whole clip, one camera path, one court read, one time scale. Across a cut the hoop jumps in the image and
 * the path is not a path, so each scene is finished on its own and the pieces joined (see {@link finishScenes}).
 *
 * A cut is one frame whose camera-shift match (`FrameFeatures.shiftResidual`, the mean colour difference left after
 * the best shift from the frame before) is far off: at least {@link CUT_MIN_RESIDUAL} and {@link CUT_OVER_NEIGHBOURS}
 * times every other frame's within {@link CUT_WINDOW_S} each side. Measured on 97 single-camera clips (the synthetic
 * tuning, seen and held-out sets, 38 panning games, the still-camera sets, the six real clips) and the 108 transformed
 * copies of the real clips (hand-held sway, zoom, compression, frame rates, …): no frame over 46.9, and no frame of 20
 * or more over 3.6 times its neighbourhood's largest; the cuts between real clips joined one after another: 145–262,
 * and 10.8–198 times. A whip pan or a shaking hand keeps the residual high over many frames, a flash moves it on two
 * frames in a row: neither is one frame alone.
 */
export const CUT_MIN_RESIDUAL = 50;
export const CUT_OVER_NEIGHBOURS = 5;
export const CUT_WINDOW_S = 0.5;
/** A scene shorter than this (seconds) is no scene of its own: it joins the one before it (a cut back and forth, a title card). */
export const MIN_SCENE_S = 1;

/**
 * Frames `[from, to)` of one scene. A scene that starts or ends in a dissolve has its share of the dissolve's frames
 * (pictures of both recordings mixed): `mixedHead` frames at its start, `mixedTail` at its end.
 */
export interface Scene {
  from: number;
  to: number;
  mixedHead?: number;
  mixedTail?: number;
}

/** Frames `[from, to)` of a video that mix two recordings (a cross-dissolve, a fade through black), the scenes split at `at`. */
export interface Dissolve {
  from: number;
  to: number;
  at: number;
}

/**
 * Dissolves: two recordings faded into each other (a cross-dissolve, a dip through black) have no cut, since the
 * picture changes a little every frame (the shift residual stays under 18 through a 1-s cross-fade). They are told from
 * the frames' thumbnails (`FrameFeatures.thumb`, mean grey of 16 cells on the long side, each frame's mean taken off):
 * over a window of {@link DISSOLVE_HALF_S} each side of a frame, the pictures at the window's two ends are unlike —
 * the thumbnails, each scaled to unit spread, differ by {@link DISSOLVE_MIN_CHANGE} or more on average — and every frame
 * between is a mix of the two: a·A + b·B leaves at most {@link DISSOLVE_MAX_RESIDUAL} of the ends' spread (a dissolve:
 * a + b = 1; a dip: a falls to 0, then b rises). A camera turning, a player walking past the lens or a crowd standing up
 * change a picture over a second too, but the frames between are not mixes of its ends: they are the scene moved. The
 * window's ends must show a settled picture each ({@link DISSOLVE_SETTLED}). A window holding a cut is left to the cut, and a window whose end is a flat picture (black, a white wall) reads
 * nothing. Transitions up to 2 {@link DISSOLVE_HALF_S} long are found; a longer one is not.
 */
export const DISSOLVE_HALF_S = 1;
export const DISSOLVE_MIN_CHANGE = 0.5;
export const DISSOLVE_MAX_RESIDUAL = 0.12;
/** A window's end flatter than this (spread of its thumbnail, grey levels) reads nothing. */
export const DISSOLVE_FLAT = 3;
/**
 * A window's ends show one recording each, settled: each end's thumbnail differs by at most {@link DISSOLVE_SETTLED}
 * (as {@link DISSOLVE_MIN_CHANGE}) from the one {@link DISSOLVE_SETTLED_S} inside the window. A window that ends in the
 * middle of a change is no window of a dissolve: its end is a mix of the pictures before and after, with whatever else
 * showed through the change.
 */
export const DISSOLVE_SETTLED = 0.15;
export const DISSOLVE_SETTLED_S = 0.1;
/** A frame is the first (second) recording's alone when its mix holds 1 ± this of it and ± this of the other. */
const PURE = 0.15;

/** The thumbnails with each one's mean taken off, and their spreads (root mean square). */
function centred(features: Array<Pick<FrameFeatures, 'thumb'>>): { z: Float32Array[]; spread: Float64Array } {
  const z: Float32Array[] = [];
  const spread = new Float64Array(features.length);
  features.forEach((f, i) => {
    const n = f.thumb.length;
    let m = 0;
    for (let c = 0; c < n; c++) m += f.thumb[c];
    m /= Math.max(1, n);
    const v = new Float32Array(n);
    let ss = 0;
    for (let c = 0; c < n; c++) {
      v[c] = f.thumb[c] - m;
      ss += v[c] * v[c];
    }
    z.push(v);
    spread[i] = Math.sqrt(ss / Math.max(1, n));
  });
  return { z, spread };
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let c = 0; c < a.length; c++) s += a[c] * b[c];
  return s;
};

/** The mean difference of two frames' thumbnails, each scaled to unit spread. */
function changeOf(z: Float32Array[], spread: ArrayLike<number>, a: number, b: number): number {
  let change = 0;
  for (let c = 0; c < z[a].length; c++) change += Math.abs(z[a][c] / spread[a] - z[b][c] / spread[b]);
  return change / Math.max(1, z[a].length);
}

/**
 * How a window from frame `a` to frame `b` reads: `change`, the mean difference of the two ends scaled to unit spread;
 * `residual`, the largest share of the ends' spread a frame between leaves off its best mix of the two; per frame
 * between, the mix (`mixA`, `mixB`).
 */
export function readWindow(z: Float32Array[], spread: ArrayLike<number>, a: number, b: number): { change: number; residual: number; mixA: number[]; mixB: number[] } {
  const A = z[a];
  const B = z[b];
  const n = A.length;
  const change = changeOf(z, spread, a, b);
  const aa = dot(A, A);
  const bb = dot(B, B);
  const ab = dot(A, B);
  const det = aa * bb - ab * ab;
  const scale = Math.sqrt((spread[a] ** 2 + spread[b] ** 2) / 2);
  let residual = 0;
  const mixA: number[] = [];
  const mixB: number[] = [];
  for (let s = a + 1; s < b; s++) {
    const v = z[s];
    if (v.length !== n) return { change, residual: Infinity, mixA, mixB };
    const av = dot(A, v);
    const bv = dot(B, v);
    const x = (bb * av - ab * bv) / det;
    const y = (aa * bv - ab * av) / det;
    let e = 0;
    for (let c = 0; c < n; c++) e += (v[c] - x * A[c] - y * B[c]) ** 2;
    residual = Math.max(residual, Math.sqrt(e / n) / scale);
    mixA.push(x);
    mixB.push(y);
  }
  return { change, residual, mixA, mixB };
}

/** The dissolves of a clip (see {@link DISSOLVE_HALF_S}), none across a cut. */
export function findDissolves(features: Array<Pick<FrameFeatures, 'thumb'>>, fps: number, cuts: number[] = []): Dissolve[] {
  const k = Math.max(2, Math.round(DISSOLVE_HALF_S * fps));
  const m = Math.max(1, Math.round(DISSOLVE_SETTLED_S * fps));
  const { z, spread } = centred(features);
  const out: Dissolve[] = [];
  const cutIn = (a: number, b: number) => cuts.some((c) => c > a && c <= b);
  // The windows that read as a mix; the one whose ends differ most is taken first (both its ends show one recording
  // alone), and every window overlapping a taken one is the same transition.
  const hits: Array<{ t: number; change: number }> = [];
  for (let t = k; t + k < features.length; t++) {
    const a = t - k;
    const b = t + k;
    const settled = (i: number, j: number) => spread[j] >= DISSOLVE_FLAT && changeOf(z, spread, i, j) <= DISSOLVE_SETTLED;
    const ends = spread[a] >= DISSOLVE_FLAT && spread[b] >= DISSOLVE_FLAT && z[a].length === z[b].length && z[a].length > 0;
    if (!ends || cutIn(a, b) || !settled(a, a + m) || !settled(b, b - m)) continue;
    // the fit only where the ends differ (a few windows of a single recording's clip)
    const change = changeOf(z, spread, a, b);
    if (change >= DISSOLVE_MIN_CHANGE && readWindow(z, spread, a, b).residual <= DISSOLVE_MAX_RESIDUAL) hits.push({ t, change });
  }
  const taken: number[] = [];
  for (const { t } of hits.sort((x, y) => y.change - x.change)) {
    if (taken.some((u) => Math.abs(u - t) < 2 * k)) continue;
    taken.push(t);
    const { mixA, mixB } = readWindow(z, spread, t - k, t + k);
    const mixed: number[] = [];
    mixA.forEach((x, j) => {
      const y = mixB[j];
      const pureA = Math.abs(x - 1) <= PURE && Math.abs(y) <= PURE;
      const pureB = Math.abs(y - 1) <= PURE && Math.abs(x) <= PURE;
      if (!pureA && !pureB) mixed.push(t - k + 1 + j);
    });
    if (!mixed.length) continue;
    const from = mixed[0];
    const to = mixed[mixed.length - 1] + 1;
    out.push({ from, to, at: Math.round((from + to) / 2) });
  }
  out.sort((x, y) => x.from - y.from);
  return out;
}

/** The frames that start a new scene, by their shift residuals (see {@link CUT_MIN_RESIDUAL}). */
export function findCuts(residual: ArrayLike<number>, fps: number): number[] {
  const w = Math.max(1, Math.round(CUT_WINDOW_S * fps));
  const cuts: number[] = [];
  for (let i = 1; i < residual.length; i++) {
    const r = residual[i];
    if (!(r >= CUT_MIN_RESIDUAL)) continue;
    let around = 0;
    for (let j = Math.max(0, i - w); j <= Math.min(residual.length - 1, i + w); j++) if (j !== i && residual[j] > around) around = residual[j];
    if (r >= CUT_OVER_NEIGHBOURS * around) cuts.push(i);
  }
  return cuts;
}

/**
 * The scenes of `frames` frames cut at `cuts` and split in the middle of `dissolves` (each side keeps its share of the
 * dissolve's mixed frames); a piece shorter than {@link MIN_SCENE_S} joins the scene before it (the first, the one after).
 */
export function scenesOf(frames: number, cuts: number[], fps: number, dissolves: Dissolve[] = []): Scene[] {
  const min = MIN_SCENE_S * fps;
  const bounds = [
    ...cuts.filter((c) => c > 0 && c < frames).map((at) => ({ at, before: 0, after: 0 })),
    ...dissolves.filter((d) => d.at > 0 && d.at < frames).map((d) => ({ at: d.at, before: d.at - d.from, after: d.to - d.at })),
  ].sort((x, y) => x.at - y.at);
  const edges = [{ at: 0, before: 0, after: 0 }, ...bounds, { at: frames, before: 0, after: 0 }];
  const scenes: Scene[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const s: Scene = { from: edges[k].at, to: edges[k + 1].at };
    if (edges[k].after) s.mixedHead = edges[k].after;
    if (edges[k + 1].before) s.mixedTail = edges[k + 1].before;
    if (s.to <= s.from) continue;
    const last = scenes[scenes.length - 1];
    if (last && (s.to - s.from < min || last.to - last.from < min)) {
      last.to = s.to;
      delete last.mixedTail;
      if (s.mixedTail) last.mixedTail = s.mixedTail;
    } else scenes.push(s);
  }
  return scenes.length ? scenes : [{ from: 0, to: frames }];
}

/** The scenes of a clip from its features: cut at its cuts, split in its dissolves. */
export function findScenes(features: FrameFeatures[], fps: number): Scene[] {
  const cuts = findCuts(features.map((f) => f.shiftResidual), fps);
  return scenesOf(features.length, cuts, fps, findDissolves(features, fps, cuts));
}

/** The frames of a scene that show its recording alone: without its share of a dissolve at either end. */
export const cleanFrames = (sc: Scene): Scene => ({ from: sc.from + (sc.mixedHead ?? 0), to: sc.to - (sc.mixedTail ?? 0) });

/**
 * Sampled frames a scene of a clip of several has at least (fewer for a scene shorter than this many times
 * {@link SCENE_SAMPLE_EVERY_S}): the hoop, rim and court searches and the shooters' background read them (a still
 * camera's background from 5).
 */
export const SCENE_MIN_SAMPLES = 8;
export const SCENE_SAMPLE_EVERY_S = 0.5;

/**
 * The frames to decode again so that each scene of a clip of several has {@link SCENE_MIN_SAMPLES} sampled frames: the
 * extraction spreads its samples over the whole clip, so a short scene may hold one or none. A scene that has enough
 * asks for none (each frame asked for costs a seek and the decode from the key frame before it). Empty for a clip of
 * one scene.
 */
export function sceneSampleFrames(sampled: Array<{ index: number }>, scenes: Scene[], fps: number): number[] {
  if (scenes.length < 2) return [];
  const have = new Set(sampled.map((s) => s.index));
  const out: number[] = [];
  for (const scene of scenes) {
    const sc = cleanFrames(scene);
    const len = sc.to - sc.from;
    const n = Math.min(SCENE_MIN_SAMPLES, Math.max(1, Math.floor(len / (SCENE_SAMPLE_EVERY_S * fps))));
    if (sampled.filter((s) => s.index >= sc.from && s.index < sc.to).length >= n) continue;
    for (let k = 0; k < n; k++) {
      const f = sc.from + Math.floor(((k + 0.5) * len) / n);
      if (!have.has(f)) out.push(f);
    }
  }
  return out;
}

/**
 * The finishing input of one scene: its frames, renumbered from 0, and the samples taken in it. The frames at a cut
 * were measured against the other scene's: the first frame's camera motion is the shift search's best match to the
 * other scene's last frame (kept, it moved the scene's whole path by tens of pixels), and the motion mask of the frames
 * on either side of the cut — a pixel moves when it differs from the frame before and the frame after — had only one
 * neighbour of its own scene, so it kept where the ball was a frame before as well as where it is (a short real clip
 * joined before another took such a ghost for a flight, and its hoop for another). Those frames get no camera motion,
 * no blobs and no motion.
 */
export function sceneInput(input: FinishInput, scene: Scene): FinishInput {
  const clean = cleanFrames(scene);
  const inScene = <T extends { index: number }>(xs: T[] | undefined) =>
    (xs ?? []).filter((x) => x.index >= clean.from && x.index < clean.to).map((x) => ({ ...x, index: x.index - scene.from }));
  const last = scene.to - scene.from - 1;
  const head = scene.mixedHead ?? 0;
  const tail = scene.mixedTail ?? 0;
  const features = input.features.slice(scene.from, scene.to).map((f, i) => {
    const g = { ...f, index: f.index - scene.from };
    // a dissolve's frames: the camera's shift, blobs and motion of two pictures mixed
    if (i <= head || i > last - tail) Object.assign(g, { dx: 0, dy: 0, sx: 0, sy: 0, ss: 1 });
    if ((i <= head && scene.from > 0) || (i >= last - tail && scene.to < input.features.length)) Object.assign(g, { blobs: [], motion: new Uint8Array(f.motion.length) });
    return g;
  });
  // The extraction searches a frame for rims (and keeps some as view samples) while the camera moves: when a run of
  // frames shifted 3 px or more in the 3 s before it (`extract.ts#searchesRims`, `RIM_SEARCH_SHIFT_PX`). The shift into the scene's first
  // frame started such searches in a still scene; only those the scene's own motion asks for are kept (a rim search
  // makes a camera a moving one: `finish.ts#movingHoops`).
  const shifted = [0];
  for (const f of features) shifted.push(shifted[shifted.length - 1] + Math.abs(f.dx) + Math.abs(f.dy));
  const window = Math.round(RIM_SEARCH_AFTER_MOVE_S * input.fps) + RUN;
  const moving = (x: { index: number }) => shifted[x.index] - shifted[Math.max(0, x.index - window)] >= RIM_SEARCH_SHIFT_PX;
  return {
    ...input,
    features,
    samples: inScene(input.samples),
    rimSamples: inScene(input.rimSamples).filter(moving),
    viewSamples: inScene(input.viewSamples).filter(moving),
    durationSeconds: (scene.to - scene.from) / input.fps,
  };
}

/** Seconds as the records give them (4 decimals, as `finish.ts`). */
const seconds = (v: number) => Math.round(v * 1e4) / 1e4;

/** Outcomes from the most to the least found: the clip's is its best scene's. */
const OUTCOME_ORDER: AnalysisOutcome[] = ['ok', 'no_shots', 'no_hoops', 'no_court'];

/**
 * Joins the finished scenes into one clip's output: times and frames moved by the scene's start, hoop ids, track ids
 * and shot ids numbered on from the scenes before. The court ends (`ends`) are kept only when one scene has them:
 * two scenes' ends are two cameras' and need not name the same basket.
 */
export function joinScenes(parts: Array<{ scene: Scene; out: FinishOutput }>, fps: number): FinishOutput {
  const out: FinishOutput = { outcome: 'no_court', actions: [], balls: [], hoops: [], clusters: [], timeScale: 1, evidence: [], moments: [], placement: [], ends: [] };
  const withEnds = parts.filter((p) => p.out.ends?.some((e) => e !== null)).length;
  let hoopBase = 0;
  let trackBase = 0;
  let shotBase = 0;
  let longest = -1;
  for (const { scene, out: o } of parts) {
    const dt = scene.from / fps;
    const t = (v: number) => seconds(v + dt);
    const track = (id: number | null) => (id === null ? null : id + trackBase);
    const shotIds = new Map<string, string>();
    const shots = shotsOf(o.actions);
    shots.forEach((a, k) => shotIds.set(a.id, `s${shotBase + k + 1}`));
    for (const a of o.actions) out.actions.push(moveAction(a, { t, track, hoop: (id) => id + hoopBase, shot: (id) => shotIds.get(id) ?? id, index: (i) => i + shotBase }));
    for (const b of o.balls) out.balls.push({ ...b, t: t(b.t) });
    for (const h of o.hoops) out.hoops.push({ ...h, id: h.id + hoopBase, samples: h.samples.map((q) => ({ ...q, t: t(q.t) })) });
    for (const c of o.clusters) out.clusters.push({ ...c, track_id: c.track_id + trackBase, t_start: t(c.t_start), t_end: t(c.t_end), thumb_t: t(c.thumb_t) });
    out.evidence.push(...o.evidence.map((e) => (e.anchorFrame >= 0 ? { ...e, anchorFrame: e.anchorFrame + scene.from } : e)));
    out.moments!.push(...(o.moments ?? []).map((m) => ({ pass: m.pass.map((p) => ({ ...p, frame: p.frame + scene.from })), ...(m.rebound ? { rebound: m.rebound.map((p) => ({ ...p, frame: p.frame + scene.from })) } : {}) })));
    out.placement!.push(...(o.placement ?? []));
    for (const h of o.hoops) out.ends![h.id + hoopBase] = withEnds === 1 ? (o.ends?.[h.id] ?? null) : null;
    if (OUTCOME_ORDER.indexOf(o.outcome) < OUTCOME_ORDER.indexOf(out.outcome)) out.outcome = o.outcome;
    if (scene.to - scene.from > longest) {
      longest = scene.to - scene.from;
      out.timeScale = o.timeScale;
    }
    hoopBase += o.hoops.reduce((m, h) => Math.max(m, h.id + 1), 0);
    trackBase += Math.max(0, ...o.clusters.map((c) => c.track_id + 1), ...o.actions.flatMap((a) => tracksOf(a).map((id) => id + 1)));
    shotBase += shots.length;
  }
  for (let i = 0; i < out.ends!.length; i++) out.ends![i] ??= null;
  return out;
}

/** The track ids an action names. */
function tracksOf(a: ActionRecord): number[] {
  const ids = a.type === 'shot' ? [a.shooter_track, a.assister_track, a.rebounder_track] : a.type === 'pass' ? [a.from_track, a.to_track] : [a.track];
  return ids.filter((id): id is number => id !== null);
}

function moveAction(
  a: ActionRecord,
  f: { t: (v: number) => number; track: (id: number | null) => number | null; hoop: (id: number) => number; shot: (id: string) => string; index: (i: number) => number },
): ActionRecord {
  if (a.type === 'shot') {
    return {
      ...a,
      id: f.shot(a.id),
      index: f.index(a.index),
      release_t: f.t(a.release_t),
      rim_t: f.t(a.rim_t),
      end_t: f.t(a.end_t),
      shooter_track: f.track(a.shooter_track),
      assister_track: f.track(a.assister_track),
      rebounder_track: f.track(a.rebounder_track),
      hoop_id: f.hoop(a.hoop_id),
    };
  }
  if (a.type === 'pass') return { ...a, t: f.t(a.t), end_t: f.t(a.end_t), from_track: f.track(a.from_track)!, to_track: f.track(a.to_track)! };
  return { ...a, t: f.t(a.t), shot_id: f.shot(a.shot_id), track: f.track(a.track) };
}

/**
 * The finishing stage of a clip, scene by scene (see {@link Scene}): a clip of one scene — every clip measured in the
 * benchmark's sets — is finished as a whole, exactly as before.
 */
export function finishScenes(input: FinishInput, scenes: Scene[] = findScenes(input.features, input.fps)): FinishOutput {
  if (scenes.length === 1) return finishAnalysis(input);
  const parts = scenes.map((scene) => ({ scene, out: finishAnalysis(sceneInput(input, scene)) }));
  const out = joinScenes(parts, input.fps);
  out.scenes = scenes.map((sc) => [seconds(sc.from / input.fps), seconds(sc.to / input.fps)]);
  // one player's session: the scenes' players are one person
  if (isOnePlayerSession(input.options) && out.actions.some((a) => a.type === 'shot')) ({ actions: out.actions, clusters: out.clusters } = asOnePlayer(out.actions, out.clusters));
  return out;
}
