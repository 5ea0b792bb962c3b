import { spawn } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegPath } from '../media/ffmpeg';
import { courtEndsEnabled, teamsByEnd, type CourtEnd } from './court-ends';
import { playTeamsEnabled, reboundTeamByPlay, teamsByPlay } from './possession';
import { FrameBuffers, scaleFilter, type DecodeGeometry } from './decode';
import type { BallMoment, ShotMoments } from './finish';
import type { Scene } from './scenes';
import { BG_TOLERANCE, foregroundThumb, offenceOf, spacingTeamsEnabled, teamSpacing, type ForegroundThumb, type TeamSpacing } from './spacing';
import { sideOfCamera, type CourtCamera } from './court-lines';
import { groupPlayers, isOnePlayerSession, SAME_PERSON_LOOK, SAME_PLAYER_SKIN, teamSizeOf, twoMeans, UNKNOWN_SKIN, type PlayerEvent } from './players';
import { shotsOf, type AnalysisOptions, type ActionRecord, type BallRecord, type ClusterRecord, type HoopRecord, type ReboundAction, type ShotAction } from './types';

/**
 * Jersey colours sampled directly in the frames where they matter (the shooter at release),
 * and the two team colours learned from those samples.
 *
 * Colours are compared in a lighting-robust space: chromaticity (red–green and yellow–blue
 * differences over the lightness) and log-lightness. A change of exposure moves every colour
 * along the lightness axis only, and white, grey and black jerseys (no chroma) still separate on
 * lightness.
 */

/** A colour in the robust space: [red–green, yellow–blue, log lightness]. */
export type RobustColour = [number, number, number];

/** RGB (0–255) → robust colour. */
export function robustColour(r: number, g: number, b: number): RobustColour {
  const l = (r + g + b) / 3;
  const k = 1 / (l + 25);
  return [1.6 * (r - g) * k, 1.6 * ((r + g) / 2 - b) * k, Math.log((l + 10) / 60)];
}

/** Distance between two robust colours. */
export function colourDistance(a: RobustColour, b: RobustColour): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function isSkinLike(r: number, g: number, b: number): boolean {
  return r > 95 && g > 40 && b > 20 && r > g && r > b && r - Math.min(g, b) > 15 && Math.abs(r - g) > 12 && r - b < 120 && g - b > 5;
}

function isBallLike(r: number, g: number, b: number): boolean {
  return r > 110 && r > g * 1.35 && g > b * 1.1 && r - b > 70;
}

/** One shooter sample: the dominant colour of the body under the ball at release. */
export interface JerseySample {
  /** Dominant robust colour of the torso region (null: nothing but background, skin or ball there). */
  colour: RobustColour | null;
  /** Mean RGB of the pixels of the dominant colour. */
  rgb: [number, number, number] | null;
  /** Fraction (0–1) of the region's weight on the dominant colour. */
  share: number;
  /** The sampled torso box in image pixels [x0, y0, x1, y1]. */
  box: [number, number, number, number];
  /** Mean robust colour of the skin-like pixels of the body (arms, face, legs), null with fewer than {@link MIN_SKIN} ball areas of them: a cue to tell teammates apart. */
  skin?: RobustColour | null;
}

/** Least skin area (in ball areas, πr²) for a body's skin colour to be read. */
const MIN_SKIN = 0.25;

/**
 * How far from the ball's centre (ball radii) a ball-coloured pixel is taken for the ball (its blurred fringe) and left
 * out of the body, against a still camera's background image; farther out it is the body's — an orange kit is
 * ball-coloured (run version 79; before, every ball-coloured pixel was left out, and an orange team's shooters were
 * read by their skin and shorts). Without a background image (a moving camera) every ball-coloured pixel is still left
 * out: there a wooden floor's orange joins the bodies.
 */
export const BALL_COLOUR_REACH = 2.5;

/** Least height (ball diameters) of the region attached to the ball for it to be a body. */
const MIN_BODY = 3;

/** Path length (ball diameters) from the ball over which a body pixel's weight halves (see {@link sampleShooter}). */
export const BODY_REACH = 3;

/** Coarse RGB cell (8 levels per channel) of a colour, for the frame's common-colour table. */
const coarse = (r: number, g: number, b: number) => ((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5);

/** How many of a frame's pixels (every 4th in both directions, `n` in all) fall in each coarse RGB cell. */
function colourCounts(frame: { rgb: Uint8Array; width: number; height: number }): { counts: Uint32Array; n: number } {
  const { rgb, width, height } = frame;
  const counts = new Uint32Array(512);
  let n = 0;
  for (let y = 0; y < height; y += 4) {
    for (let x = 0; x < width; x += 4) {
      const p = (y * width + x) * 3;
      counts[coarse(rgb[p], rgb[p + 1], rgb[p + 2])]++;
      n++;
    }
  }
  return { counts, n };
}

/** The cells covering at least `minShare` of the frame, as a 0/1 table. */
const atLeast = ({ counts, n }: { counts: Uint32Array; n: number }, minShare: number) => Uint8Array.from(counts, (c) => (c >= minShare * n ? 1 : 0));

/**
 * Colours that cover much of a frame (floor, walls, stands): a table of coarse RGB cells whose
 * share of the frame (sampled every 4th pixel) is at least `minShare`. A jersey covers far less.
 */
export function commonColours(frame: { rgb: Uint8Array; width: number; height: number }, minShare = 0.03): Uint8Array {
  return atLeast(colourCounts(frame), minShare);
}

/** The background colour at a pixel, or null where it is not known. */
export type PixelBackground = (x: number, y: number) => [number, number, number] | null;

/** A clip's backgrounds scene by scene (see `scenes.ts`): the background of the scene a frame is in, or null. */
export interface SceneBackgrounds {
  at(frame: number): PixelBackground | null;
}

/** What {@link sampleShooter} takes as background: a background image, or the frame's colour tables. */
export interface ShooterBackground {
  /** The background colour at a pixel (per-pixel median of frames spread over the clip, fixed camera); null where unknown. */
  background?: ((x: number, y: number) => [number, number, number] | null) | null;
  /** Sum of absolute RGB differences from the background at which a pixel is foreground (default 45). */
  bgTolerance?: number;
  /** Coarse colour cells common in the frame (see {@link commonColours}): background without an image. */
  common?: Uint8Array | null;
  /** Cells not rare in the frame: with the border rule, background when frequent on the window's border. */
  frequent?: Uint8Array | null;
}

/**
 * Samples the shooter's jersey at release. The body holding the ball is the foreground region
 * connected to the ball: pixels that differ from the background (the per-pixel median of frames
 * spread over the clip, for a fixed camera) or, without one, whose colour is not common in the
 * frame (floor, walls). Starting from the foreground next to and below the ball (hands, arms,
 * head), the region is grown through foreground pixels inside a window of 7 × 10.5 ball
 * diameters under the ball; a contesting defender beside the shooter is only reached where the
 * two touch. The jersey is the dominant colour of that region without skin and ball-coloured
 * pixels: the heaviest cell of a coarse histogram in the robust space (with its neighbours),
 * refined to the mean of the pixels in and next to that cell.
 */
export function sampleShooter(
  frame: { rgb: Uint8Array; width: number; height: number },
  ball: { x: number; y: number; r: number },
  against: ShooterBackground,
): JerseySample {
  const { background = null, common = null, frequent = null, bgTolerance = BG_TOLERANCE } = against;
  const { rgb, width, height } = frame;
  const d = Math.max(4, 2 * ball.r);
  const x0 = Math.max(0, Math.round(ball.x - 3.5 * d));
  const x1 = Math.min(width, Math.round(ball.x + 3.5 * d) + 1);
  const y0 = Math.max(0, Math.round(ball.y - 0.6 * d));
  const y1 = Math.min(height, Math.round(ball.y + 10.5 * d) + 1);
  const w = x1 - x0;
  const h = y1 - y0;
  const none = (box: [number, number, number, number]): JerseySample => ({ colour: null, rgb: null, share: 0, box });
  if (w <= 0 || h <= 0) return none([x0, y0, x1, y1]);
  const fg = new Uint8Array(w * h);
  // Without a background image, colours frequent on the window's border are background too (the
  // floor, lane paint and stands continue past it; the shooter's body is inside).
  let edge: Uint8Array | null = null;
  if (!background) {
    const counts = new Uint32Array(512);
    const sides = new Uint8Array(512);
    let n = 0;
    const add = (x: number, y: number, side: number) => {
      const p = (y * width + x) * 3;
      const c = coarse(rgb[p], rgb[p + 1], rgb[p + 2]);
      counts[c]++;
      sides[c] |= side;
      n++;
    };
    for (let x = x0; x < x1; x++) {
      add(x, y0, 1);
      add(x, y1 - 1, 2);
    }
    for (let y = y0; y < y1; y++) {
      add(x0, y, 4);
      add(x1 - 1, y, 8);
    }
    // The floor, the wall and the stands run on past the window on three sides; a teammate cut
    // by the window's edge (his jersey the shooter's colour) touches one or two sides and covers
    // little of the frame: his colour is only background when the frame has much of it.
    edge = new Uint8Array(512);
    const sideCount = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
    for (let i = 0; i < 512; i++) edge[i] = counts[i] >= 0.04 * n && (sideCount(sides[i]) >= 3 || (frequent !== null && frequent[i] === 1)) ? 1 : 0;
  }
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const p = (y * width + x) * 3;
      const r = rgb[p];
      const g = rgb[p + 1];
      const b = rgb[p + 2];
      let isFg: boolean;
      const bg = background ? background(x, y) : null;
      if (bg) isFg = Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) >= bgTolerance;
      else {
        const cell = coarse(r, g, b);
        isFg = !(common && common[cell]) && !(edge && edge[cell]);
      }
      if (isFg) fg[(y - y0) * w + (x - x0)] = 1;
    }
  }
  // Seeds: foreground within 1.6 radii of the ball centre (hands) or in a column under it.
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const seed = (x: number, y: number) => {
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return;
    const i = (y - y0) * w + (x - x0);
    if (fg[i] && !seen[i]) {
      seen[i] = 1;
      stack.push(i);
    }
  };
  const br = 1.6 * ball.r;
  for (let y = Math.floor(ball.y - br); y <= ball.y + br; y++)
    for (let x = Math.floor(ball.x - br); x <= ball.x + br; x++) if (Math.hypot(x - ball.x, y - ball.y) <= br) seed(x, y);
  if (!stack.length) {
    for (let y = Math.floor(ball.y + br); y <= ball.y + 3 * d && !stack.length; y++)
      for (let x = Math.floor(ball.x - 0.7 * d); x <= ball.x + 0.7 * d; x++) seed(x, y);
  }
  // Breadth-first from the seeds: `dist` is each pixel's path length (pixels) from the ball
  // through the foreground. In a crowd the region reaches other bodies, farther along.
  const region: number[] = stack.slice();
  const dist = new Float32Array(w * h);
  for (let q = 0; q < region.length; q++) {
    const i = region[q];
    const x = i % w;
    const y = (i / w) | 0;
    const nd = dist[i] + 1;
    if (x > 0 && fg[i - 1] && !seen[i - 1]) (seen[i - 1] = 1), (dist[i - 1] = nd), region.push(i - 1);
    if (x < w - 1 && fg[i + 1] && !seen[i + 1]) (seen[i + 1] = 1), (dist[i + 1] = nd), region.push(i + 1);
    if (y > 0 && fg[i - w] && !seen[i - w]) (seen[i - w] = 1), (dist[i - w] = nd), region.push(i - w);
    if (y < h - 1 && fg[i + w] && !seen[i + w]) (seen[i + w] = 1), (dist[i + w] = nd), region.push(i + w);
  }
  const near = BODY_REACH * d;
  const weightOf = (i: number) => 1 / (1 + (dist[i] / near) ** 2);
  let rx0 = w;
  let ry0 = h;
  let rx1 = 0;
  let ry1 = 0;
  const cells = new Map<number, number>();
  const px: Array<{ c: RobustColour; p: number; key: [number, number, number]; w: number }> = [];
  let wsum = 0;
  const skinAcc = [0, 0, 0, 0];
  for (const i of region) {
    const x = i % w;
    const y = (i / w) | 0;
    const p = ((y + y0) * width + x + x0) * 3;
    const r = rgb[p];
    const g = rgb[p + 1];
    const b = rgb[p + 2];
    const fromBall = Math.hypot(x + x0 - ball.x, y + y0 - ball.y);
    if (fromBall <= ball.r) continue;
    // ball-coloured: the ball's fringe and blur; with a background image only near the ball (an orange kit is ball-coloured)
    if (isBallLike(r, g, b) && (!background || fromBall <= BALL_COLOUR_REACH * ball.r)) continue;
    if (isSkinLike(r, g, b)) {
      skinAcc[0] += r;
      skinAcc[1] += g;
      skinAcc[2] += b;
      skinAcc[3]++;
      continue;
    }
    rx0 = Math.min(rx0, x);
    ry0 = Math.min(ry0, y);
    rx1 = Math.max(rx1, x + 1);
    ry1 = Math.max(ry1, y + 1);
    const c = robustColour(r, g, b);
    const key: [number, number, number] = [Math.round(c[0] / 0.18), Math.round(c[1] / 0.18), Math.round(c[2] / 0.3)];
    const k = (key[0] + 64) * 16384 + (key[1] + 64) * 128 + (key[2] + 64);
    const wt = weightOf(i);
    cells.set(k, (cells.get(k) ?? 0) + wt);
    px.push({ c, p, key, w: wt });
    wsum += wt;
  }
  const box: [number, number, number, number] = px.length ? [rx0 + x0, ry0 + y0, rx1 + x0, ry1 + y0] : [x0, y0, x1, y1];
  let bestKey: [number, number, number] | null = null;
  let bestW = 0;
  for (const p of px) {
    const key = p.key;
    let wt = 0;
    for (let a = -1; a <= 1; a++)
      for (let b = -1; b <= 1; b++)
        for (let c = -1; c <= 1; c++) {
          const k = (key[0] + a + 64) * 16384 + (key[1] + b + 64) * 128 + (key[2] + c + 64);
          wt += (a || b || c ? 0.5 : 1) * (cells.get(k) ?? 0);
        }
    if (wt > bestW) {
      bestW = wt;
      bestKey = key;
    }
  }
  // Too few pixels, or too short, for a body: nothing the ball was attached to (a ball in the
  // air over the stands or the backboard).
  if (!bestKey || px.length < 0.6 * d * d || box[3] - box[1] < MIN_BODY * d) return none(box);
  const acc = [0, 0, 0, 0, 0, 0, 0];
  for (const q of px) {
    if (Math.abs(q.key[0] - bestKey[0]) > 1 || Math.abs(q.key[1] - bestKey[1]) > 1 || Math.abs(q.key[2] - bestKey[2]) > 1) continue;
    for (let i = 0; i < 3; i++) acc[i] += q.w * q.c[i];
    for (let i = 0; i < 3; i++) acc[3 + i] += q.w * rgb[q.p + i];
    acc[6] += q.w;
  }
  const n = skinAcc[3];
  return {
    colour: [acc[0] / acc[6], acc[1] / acc[6], acc[2] / acc[6]],
    rgb: [acc[3] / acc[6], acc[4] / acc[6], acc[5] / acc[6]],
    share: Math.min(1, acc[6] / wsum),
    box,
    skin: n >= MIN_SKIN * Math.PI * ball.r * ball.r ? robustColour(skinAcc[0] / n, skinAcc[1] / n, skinAcc[2] / n) : null,
  };
}

/**
 * {@link sampleShooter} in a decoded frame: with a background image, against it; without one,
 * against the colours common in the frame (≥ 3 %) and those frequent on the window's border
 * that are not rare in the frame (≥ 1 %; see the border rule there).
 */
export function sampleBody(
  img: { rgb: Uint8Array; width: number; height: number },
  ball: { x: number; y: number; r: number },
  background: PixelBackground | null,
): JerseySample {
  if (background) return sampleShooter(img, ball, { background });
  const counts = colourCounts(img);
  return sampleShooter(img, ball, { common: atLeast(counts, 0.03), frequent: atLeast(counts, 0.01) });
}

/** Two team colours in the robust space (team 0 is the lighter one). */
export interface TeamColours {
  centres: [RobustColour, RobustColour];
  /** Distance between the centres. */
  separation: number;
}

/**
 * Splits weighted colour samples into two teams (2-means in the robust space, seeded with the
 * farthest pair among the heaviest samples). Returns null with fewer than two samples or when
 * the two groups are not clearly apart (one team, or shirts and skins).
 */
export function teamColours(samples: Array<{ c: RobustColour; w: number }>, minSeparation = 0.35): TeamColours | null {
  const pts = samples.filter((s) => s.w > 0);
  if (pts.length < 2) return null;
  // a sample far from both centres (a referee, a bad sample) costs at most 1
  const split = twoMeans(pts, { seeds: 12, iterations: 12, costCap: 1, allPairs: true });
  if (!split) return null;
  const best = { c0: split.c0 as RobustColour, c1: split.c1 as RobustColour };
  const separation = colourDistance(best.c0, best.c1);
  if (separation < minSeparation) return null;
  const centres: [RobustColour, RobustColour] = best.c0[2] >= best.c1[2] ? [best.c0, best.c1] : [best.c1, best.c0];
  return { centres, separation };
}

/** The team (0 | 1) of a colour, or null when it is not clearly nearer one centre (margin as a fraction of the separation). */
export function teamOfColour(c: RobustColour, teams: TeamColours, margin = 0.15): 0 | 1 | null {
  const d0 = colourDistance(c, teams.centres[0]);
  const d1 = colourDistance(c, teams.centres[1]);
  if (Math.abs(d0 - d1) < margin * teams.separation) return null;
  if (Math.min(d0, d1) > 1.2 * teams.separation + 0.3) return null;
  return d0 < d1 ? 0 : 1;
}

/**
 * Decodes the frames at the given indices (analysis geometry, scaled as the main decode scales
 * them), with at most two ffmpeg processes at a time (`processes`: a limit shared with other
 * requests, so that several requests in flight keep to it together). Indices less than
 * `joinSeconds` apart share one seek and are decoded as a run. Each seek decodes from the
 * previous key frame, so a run costs a fraction of a second on long-GOP files: this is for a few
 * moments per shot, not for scanning. Several runs go to one ffmpeg process (one input per run,
 * each seeked on its own, concatenated): starting ffmpeg, and forking it from a large analysis
 * process, cost about as much as a run's decoding. Frames that cannot be decoded are left out.
 * Each process writes its frames to a temporary file (deleted once read: at most ~60 MB, six runs'
 * frames at the analysis size). With `buffers` (of the frame size), the frames are read into
 * buffers taken from it: the caller gives them back once read.
 */
export async function fetchFrames(
  path: string,
  geo: DecodeGeometry,
  indices: number[],
  signal?: AbortSignal,
  joinSeconds = 1,
  processes: Limiter = limiter(2),
  buffers?: FrameBuffers,
): Promise<Map<number, Uint8Array>> {
  const out = new Map<number, Uint8Array>();
  const todo = [...new Set(indices.filter((i) => i >= 0))].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const i of todo) {
    const last = runs[runs.length - 1];
    if (last && i - last[last.length - 1] < joinSeconds * geo.fps) last.push(i);
    else runs.push([i]);
  }
  const perProcess = runsPerProcess(geo.sourcePixels ?? 1280 * 720);
  const groups: number[][][] = [];
  for (let k = 0; k < runs.length; k += perProcess) groups.push(runs.slice(k, k + perProcess));
  const decodeGroup = async (group: number[][]) => {
    if (signal?.aborted) return;
    const missing = await decodeRuns(path, geo, group, out, signal, buffers);
    // A process that failed part-way (a seek past the end, a broken input) loses the runs after
    // the failure: those are decoded again one by one.
    if (group.length > 1 && missing.length && !signal?.aborted) {
      for (const run of missing) await decodeRuns(path, geo, [run], out, signal, buffers);
    }
  };
  await Promise.all(groups.map((group) => processes(() => decodeGroup(group))));
  return out;
}

/** Runs the tasks given to it at most `n` at a time, in the order they were given. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // a finished task hands its place straight to the next waiting one
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Runs decoded by one ffmpeg process: each input keeps a decoder (its reference frames) open
 * until the process ends, so the count is bounded by the source size (~5 at 720p, 1 at 4K).
 */
export function runsPerProcess(sourcePixels: number): number {
  return Math.max(1, Math.min(6, Math.floor((5 * 1280 * 720) / Math.max(1, sourcePixels))));
}

/**
 * Decodes `runs` (sorted, disjoint) in one ffmpeg process into `out`; returns the runs of which
 * no frame arrived (all of them when the process failed before its first frame).
 */
async function decodeRuns(
  path: string,
  geo: DecodeGeometry,
  runs: number[][],
  out: Map<number, Uint8Array>,
  signal?: AbortSignal,
  buffers?: FrameBuffers,
): Promise<number[][]> {
  const bytes = geo.width * geo.height * 3;
  const inputs: string[] = [];
  const branches: string[] = [];
  runs.forEach((run, k) => {
    const first = run[0];
    const last = run[run.length - 1];
    // Frame i starts at i / fps (from the file's start, which -ss counts from): seeking half a
    // frame before it makes it the first frame of the input, and the input ends half a frame
    // after the run's last frame.
    const t = Math.max(0, (first - 0.5) / geo.fps);
    const d = (last + 0.5) / geo.fps - t;
    inputs.push('-threads', '1', '-skip_loop_filter', 'all', '-ss', t.toFixed(4), '-t', d.toFixed(4), '-i', path);
    // Only the wanted frames of the run are scaled, converted and written (`select` on the frame
    // number from the seek point): a run spans up to PLAY_RUN_S seconds between a pass and a
    // release but wants a few frames.
    const select = run.map((i) => `eq(n,${i - first})`).join('+');
    branches.push(`[${k}:v]select='${select}',${scaleFilter(geo)}[s${k}]`);
  });
  const graph =
    runs.length === 1
      ? branches[0].replace(/\[s0\]$/, '[out]')
      : `${branches.join(';')};${runs.map((_, k) => `[s${k}]`).join('')}concat=n=${runs.length}:v=1:a=0[out]`;
  const total = runs.reduce((a, r) => a + r.length, 0);
  // ffmpeg writes the frames to a file, read once it has finished: through a pipe, its 32 KB
  // writes, spread over the seconds a run's decoding takes, woke this thread some twenty times a
  // frame (measured: ~6 ms of this process's CPU per frame against ~0.9 read from a file).
  const work = await mkdtemp(join(tmpdir(), 'swish-frames-'));
  const file = join(work, 'frames.rgb');
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin', ...inputs,
    '-filter_complex', graph, '-map', '[out]',
    // Passthrough sync: nothing fills the gaps between the selected frames.
    '-vsync', '0', '-frames:v', String(total),
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', file,
  ];
  try {
    const child = spawn(ffmpegPath(), args, { stdio: 'ignore' });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await new Promise<void>((resolve) => {
        child.on('error', () => resolve());
        child.on('close', () => resolve());
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted) return runs;
    // The frames come in run order, each run's wanted frames in order. Only a run reaching the end
    // of the file can come out short, and the runs after it (later still) then have no frames; a
    // process that failed part-way leaves the frames written before the failure.
    await readFrames(file, bytes, runs.flat(), out, buffers);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return runs.filter((run) => !run.some((i) => out.has(i)));
}

/** Reads whole frames of `bytes` bytes from `file` into `out` under the indices of `order`; none when the file is missing. */
async function readFrames(file: string, bytes: number, order: number[], out: Map<number, Uint8Array>, buffers?: FrameBuffers): Promise<void> {
  const fh = await open(file, 'r').catch(() => null);
  if (!fh) return;
  try {
    for (const index of order) {
      const frame = buffers?.bytes === bytes ? buffers.take() : new Uint8Array(bytes);
      let filled = 0;
      while (filled < bytes) {
        const { bytesRead } = await fh.read(frame, filled, bytes - filled, null);
        if (!bytesRead) break;
        filled += bytesRead;
      }
      if (filled < bytes) {
        buffers?.give([frame.buffer]);
        return;
      }
      out.set(index, frame);
    }
  } finally {
    await fh.close();
  }
}

/** What the team step needs of the finished analysis (records as written to the artifacts). */
export interface TeamInput {
  actions: ActionRecord[];
  balls: BallRecord[];
  clusters: ClusterRecord[];
  hoops: HoopRecord[];
  /** Where passers may be seen, per shot (the finishing stage's `moments`); without them only the shooters' teams are read (no player grouping). */
  moments?: ShotMoments[];
  /** The end of the court of each hoop, by hoop id (the finishing stage's `ends`); the team attacking it names its shots' team. */
  ends?: CourtEnd[];
  /** A still camera's court read (the finishing stage's `floor`): where the players stand at release names the team on offence (`spacing.ts`). */
  floor?: CourtCamera;
}

/** Per-shot diagnostics of {@link attributeTeams}. */
export interface ShooterTeam {
  shotId: string;
  sample: JerseySample | null;
  team: 0 | 1 | null;
  /**
   * What named the team against, or without, the jersey read: where the players stood, seen from behind the basket
   * (`spacing.ts`), the shot's end of the court (`court-ends.ts`) or the flow of play (`possession.ts`). The body read
   * is then not the shooter's.
   */
  overruled?: 'end' | 'play' | 'spacing';
  /** Where (analysis frame, image pixels of the ball) the sample was taken; null when no candidate frame was decoded. */
  at?: { frame: number; x: number; y: number } | null;
  /** The ball's radius (image pixels) the sample was taken with. */
  r?: number;
  /** The team of the jersey read itself, before the spacing, the end of the court or the flow of play overruled it. */
  read?: 0 | 1 | null;
  /** Where each team's players stood at release (`spacing.ts`; a still camera with a court read). */
  spacing?: TeamSpacing;
}

/**
 * The most the release frames' foregrounds kept for the spacing read may take (bytes; ~0.1 MB a shot at 640 px, so
 * some 400 shots): a longer game's later shots keep their jersey reads.
 */
export const SPACING_MAX_BYTES = 48 * 1024 * 1024;

/** Shots whose release and pass frames are decoded in one request (see {@link attributeTeams}). */
export const SHOTS_PER_FETCH = 5;

/**
 * Requests decoded at the same time: a request of a few runs often takes one ffmpeg process, so
 * two keep both cores decoding (and the next frames are ready while a batch is read).
 */
export const FETCHES_AHEAD = 2;

/**
 * Names the shooter's team from the jersey under the ball at release (see {@link sampleShooter}) — seen from behind
 * the basket, from where the two teams stand (`spacing.ts`: the body at the ball is there as often the defender's) —
 * and makes the records agree with it: the team colours are learned from all shooters' samples,
 * every player track is re-assigned by its median torso colour, a track whose shots say
 * otherwise takes the team of its shots (the direct samples are better evidence than the
 * motion-blob colour), and a shot whose track is not of its shooter's team gets a track of its
 * own (a player seen standing at release). Mutates `out`; returns per-shot decisions.
 */
export async function attributeTeams(
  out: TeamInput,
  getFrames: (indices: number[]) => Promise<Map<number, Uint8Array>>,
  backgrounds: PixelBackground | SceneBackgrounds | null,
  geo: DecodeGeometry,
  players: {
    moments?: ShotMoments[];
    teamSize?: number | null;
    noTeams?: boolean;
    /** Called with each batch's frames once they are read (their buffers may then be reused). */
    recycle?: (frames: Map<number, Uint8Array>) => void;
  } = {},
): Promise<ShooterTeam[]> {
  const shots = shotsOf(out.actions);
  const backgroundAt = (frame: number): PixelBackground | null => (typeof backgrounds === 'function' ? backgrounds : (backgrounds?.at(frame) ?? null));
  const rimW = new Map(out.hoops.map((h) => [h.id, h.w * geo.width]));
  const decisions: ShooterTeam[] = [];
  const held: Array<{ pass: HeldBall | null; rebound: HeldBall[] }> = [];
  // a still camera behind the basket: each release frame's foreground, for the spacing read once the team colours are known
  const spacingView = out.floor && sideOfCamera(out.floor) === 'behind' && spacingTeamsEnabled() ? out.floor : null;
  const thumbs = new Map<number, ForegroundThumb>();
  let thumbBytes = 0;
  const moments = players.moments && shots.length && players.moments.length === shots.length ? players.moments : null;
  const plans = shots.map((s, i) => {
    const r = ballRadius(out.balls, s.release_t, geo.width) ?? (rimW.get(s.hoop_id) ?? 0) / (2 * 1.875);
    const cands = r ? releaseCandidates(out.balls, s, geo) : [];
    const m = moments?.[i];
    const passFrom = (p: BallMoment) => Math.hypot(p.x - s.shot_image[0] * geo.width, p.y - s.shot_image[1] * geo.height) >= 6 * p.r;
    const extra = m ? m.pass.filter(passFrom) : [];
    const reb = m?.rebound ?? [];
    const want = [...cands.map((c) => c.frame), ...extra.map((p) => p.frame), ...reb.flatMap((p) => REBOUND_HOLD_FRAMES.map((k) => p.frame + k))];
    return { r, cands, m, passFrom, reb, want };
  });
  // The frames of SHOTS_PER_FETCH shots at a time (one decode request: fewer ffmpeg starts), so a
  // long game's frames are never held together. FETCHES_AHEAD batches are decoded at a time, the
  // next ones while this one is read (at most FETCHES_AHEAD + 1 batches are held).
  const fetchBatch = (from: number): Promise<Map<number, Uint8Array>> => {
    const want = plans.slice(from, from + SHOTS_PER_FETCH).flatMap((p) => p.want);
    const got = want.length ? getFrames(want) : Promise.resolve(new Map<number, Uint8Array>());
    // a batch still being decoded when a read fails must not become an unhandled rejection
    got.catch(() => undefined);
    return got;
  };
  let frames = new Map<number, Uint8Array>();
  const pending: Array<Promise<Map<number, Uint8Array>>> = [];
  for (let k = 0; k < FETCHES_AHEAD && k * SHOTS_PER_FETCH < shots.length; k++) pending.push(fetchBatch(k * SHOTS_PER_FETCH));
  for (const [i, s] of shots.entries()) {
    if (i % SHOTS_PER_FETCH === 0) {
      if (i) players.recycle?.(frames);
      frames = await pending.shift()!;
      const from = i + FETCHES_AHEAD * SHOTS_PER_FETCH;
      if (from < shots.length) pending.push(fetchBatch(from));
    }
    const { r, cands, m, passFrom, reb } = plans[i];
    let sample: JerseySample | null = null;
    let where: { frame: number; x: number; y: number } | null = null;
    for (const c of cands) {
      const f = frames.get(c.frame);
      if (!f) continue;
      const img = { rgb: f, width: geo.width, height: geo.height };
      const smp = sampleBody(img, { x: c.x, y: c.y, r }, backgroundAt(c.frame));
      if (smp.colour) {
        sample = smp;
        where = c;
        break;
      }
      sample ??= smp;
    }
    decisions.push({ shotId: s.id, sample, team: null, at: where, r });
    // the release frame, whichever frame the body was read in (a field goal's: players line the lane at a free throw)
    const rf = spacingView && !s.is_free_throw && cands.length ? cands[0].frame : -1;
    const bg = rf >= 0 ? backgroundAt(rf) : null;
    const f = frames.get(rf);
    if (bg && f && thumbBytes < SPACING_MAX_BYTES) {
      const thumb = foregroundThumb({ rgb: f, width: geo.width, height: geo.height }, bg);
      thumbs.set(i, thumb);
      thumbBytes += thumb.index.byteLength + thumb.rgb.byteLength;
    }
    const hold = (p: BallMoment) => heldAt(p, frames, backgroundAt(p.frame), geo);
    held.push({ pass: m ? firstHeld(m.pass.filter(passFrom), hold) : null, rebound: reboundHeld(reb, hold) });
  }
  players.recycle?.(frames);
  // Without team jerseys (a pickup game) the bodies read name people, not teams: their clothes tell them apart.
  if (players.noTeams) {
    if (moments) identifyPlayers(out, shots, decisions, held, null, geo, players.teamSize ?? null, jerseyLike(decisions) ? SAME_PLAYER_SKIN : SAME_PERSON_LOOK);
    return decisions;
  }
  const teams = teamColours(colourReads(decisions));
  if (!teams) return decisions;
  for (const d of decisions) d.read = d.team = d.sample?.colour ? teamOfColour(d.sample.colour, teams) : null;
  const overrule = (i: number, team: 0 | 1 | null, by: NonNullable<ShooterTeam['overruled']>) => {
    if (team === null || team === decisions[i].team) return;
    decisions[i].team = team;
    decisions[i].overruled = by;
  };
  // Seen from behind the basket, the defender closing out stands between the camera and the shooter, and the body at
  // the ball is as often his as the shooter's: where the two teams stand names the team on offence instead (spacing.ts).
  if (spacingView) {
    const jerseyOf = (r: number, g: number, b: number) => {
      if (isSkinLike(r, g, b)) return null;
      const c = robustColour(r, g, b);
      const t = teamOfColour(c, teams);
      return t !== null && colourDistance(c, teams.centres[t]) < 0.5 * teams.separation ? t : null;
    };
    shots.forEach((s, i) => {
      const thumb = thumbs.get(i);
      if (!thumb) return;
      const spacing = teamSpacing(thumb, jerseyOf, spacingView, plans[i].r);
      decisions[i].spacing = spacing;
      overrule(i, offenceOf(spacing), 'spacing');
    });
  }
  // where the jerseys side with one team per end of a full court, the end names the team of every shot taken there
  const byEnd = teamsByEnd(shots.map((s, i) => ({ team: decisions[i].team, end: courtEndsEnabled() ? (out.ends?.[s.hoop_id] ?? null) : null, t: s.release_t })));
  byEnd.forEach((team, i) => overrule(i, team, 'end'));
  // the other shots through the flow of play: a make gives the ball to the other team, a miss mostly does too
  if (playTeamsEnabled()) {
    const order = shots.map((_, i) => i).sort((a, b) => shots[a].release_t - shots[b].release_t);
    const play = teamsByPlay(order.map((i) => ({ team: decisions[i].team, made: shots[i].made, freeThrow: shots[i].is_free_throw, t: shots[i].release_t })));
    order.forEach((i, k) => {
      if (byEnd[i] === null) overrule(i, play[k], 'play');
    });
  }
  for (const c of out.clusters) c.team = teamOfColour(robustColour(...c.jersey_rgb), teams, 0.05);
  const votes = new Map<number, [number, number]>();
  shots.forEach((s, i) => {
    const t = decisions[i].team;
    if (s.shooter_track === null || t === null) return;
    const v = votes.get(s.shooter_track) ?? [0, 0];
    v[t]++;
    votes.set(s.shooter_track, v);
  });
  const byId = new Map(out.clusters.map((c) => [c.track_id, c]));
  for (const [id, v] of votes) {
    const c = byId.get(id);
    if (c && v[0] !== v[1]) c.team = v[0] > v[1] ? 0 : 1;
  }
  if (moments) {
    identifyPlayers(out, shots, decisions, held, teams, geo, players.teamSize ?? null);
    return decisions;
  }
  let nextId = Math.max(0, ...out.clusters.map((c) => c.track_id)) + 1;
  const jerseys = teamJerseys(decisions);
  shots.forEach((s, i) => {
    const d = decisions[i];
    const own = recordSample(d, jerseys);
    if (d.team === null || !own) return;
    const c = s.shooter_track === null ? undefined : byId.get(s.shooter_track);
    if (c && c.team === d.team) return;
    const rec = ownRecord(nextId++, d.team, own, sampledAt(d, s, geo), geo);
    out.clusters.push(rec);
    byId.set(rec.track_id, rec);
    s.shooter_track = rec.track_id;
  });
  return decisions;
}

/**
 * Frames (after the end of a flight that followed a miss) at which the body holding the ball is
 * read: a rebounder catches the ball and holds it for a moment, so the jersey under it is read
 * several times and voted on (one frame is often a body in passing).
 */
export const REBOUND_HOLD_FRAMES = [0, 3, 6];

/** The body holding the ball at a moment (its frame decoded), or null when none is attached to it or the frame is missing. */
function heldAt(
  p: BallMoment,
  frames: Map<number, Uint8Array>,
  background: PixelBackground | null,
  geo: DecodeGeometry,
): HeldBall | null {
  const f = frames.get(p.frame);
  if (!f) return null;
  const img = { rgb: f, width: geo.width, height: geo.height };
  const smp = sampleBody(img, p, background);
  return smp.colour ? { moment: p, sample: smp } : null;
}

/** The first of the moments at which a body holds the ball. */
function firstHeld(list: BallMoment[], at: (p: BallMoment) => HeldBall | null): HeldBall | null {
  for (const p of list) {
    const h = at(p);
    if (h) return h;
  }
  return null;
}

/**
 * The rebounder's samples: the first flight end after the miss where a body is attached to the
 * ball in at least one of the {@link REBOUND_HOLD_FRAMES}; all its samples with a colour.
 */
function reboundHeld(moments: BallMoment[], at: (p: BallMoment) => HeldBall | null): HeldBall[] {
  for (const p of moments) {
    const got = REBOUND_HOLD_FRAMES.flatMap((k) => at({ ...p, frame: p.frame + k }) ?? []);
    if (got.length) return got;
  }
  return [];
}

/** The team most samples say (ties and undecided samples: null), and the clearest sample of that team. */
function voteTeam(samples: HeldBall[], teams: TeamColours): { team: 0 | 1 | null; best: HeldBall | null } {
  const v = [0, 0];
  const read = samples.map((h) => ({ h, t: teamOfColour(h.sample.colour!, teams) }));
  for (const { t } of read) if (t !== null) v[t]++;
  const team = v[0] === v[1] ? null : v[0] > v[1] ? 0 : 1;
  let best: HeldBall | null = null;
  for (const { h, t } of read) if (team !== null && t === team && (!best || h.sample.share > best.sample.share)) best = h;
  return { team, best };
}

/** The bodies' colours read at the shots, weighted by their share, for {@link teamColours}. */
function colourReads(decisions: ShooterTeam[]): Array<{ c: RobustColour; w: number }> {
  return decisions.flatMap((d) => (d.sample?.colour ? [{ c: d.sample.colour, w: d.sample.share }] : []));
}

/** Least body reads for {@link jerseyLike} to say anything. */
export const JERSEY_LIKE_MIN_READS = 6;
/** Share of the body reads within {@link JERSEY_LIKE_RADIUS} of one of two clothes colours that makes a session jersey-like. */
export const JERSEY_LIKE_SHARE = 0.6;
/** Robust-space distance from a centre of the two clothes colours within which a read counts for {@link jerseyLike}. */
export const JERSEY_LIKE_RADIUS = 0.15;

/**
 * Whether the shooters' clothes, in a session said to have no team jerseys, look like two teams' jerseys anyway: at least
 * {@link JERSEY_LIKE_SHARE} of the reads lie close to one of two colours (a team game sent without `has_jerseys`). Then
 * people in one colour are told apart by their skin only as strictly as teammates are ({@link SAME_PLAYER_SKIN}).
 */
export function jerseyLike(decisions: ShooterTeam[]): boolean {
  const reads = colourReads(decisions);
  if (reads.length < JERSEY_LIKE_MIN_READS) return false;
  const two = teamColours(reads);
  if (!two) return false;
  const near = reads.filter((r) => Math.min(colourDistance(r.c, two.centres[0]), colourDistance(r.c, two.centres[1])) < JERSEY_LIKE_RADIUS).length;
  return near >= JERSEY_LIKE_SHARE * reads.length;
}

/** The sample with the largest share on its dominant colour, or null. */
function clearest(samples: HeldBall[]): HeldBall | null {
  return samples.reduce<HeldBall | null>((a, h) => (!a || h.sample.share > a.sample.share ? h : a), null);
}

/** A ball held by a body at a moment of a shot's play (rebound, pass), with the body's sample. */
interface HeldBall {
  moment: BallMoment;
  sample: JerseySample;
}

const r4 = (v: number) => Math.round(v * 1e4) / 1e4;

/** A record's thumbnail box in image pixels. */
const thumbPixels = (c: ClusterRecord, geo: DecodeGeometry): [number, number, number, number] => [
  c.thumb_box[0] * geo.width,
  c.thumb_box[1] * geo.height,
  c.thumb_box[2] * geo.width,
  c.thumb_box[3] * geo.height,
];

/** Per channel, the value at position ⌊n/2⌋ of the sorted values of a non-empty list of colours. */
function medianRgb(rgbs: Array<[number, number, number]>): [number, number, number] {
  return [0, 1, 2].map((c) => rgbs.map((v) => v[c]).sort((a, b) => a - b)[rgbs.length >> 1]) as [number, number, number];
}

/** Each team's jersey as its shooters were read (the median RGB of the reads no rule overruled), or null. */
function teamJerseys(decisions: ShooterTeam[]): Array<[number, number, number] | null> {
  return ([0, 1] as const).map((t) => {
    const rgbs = decisions.flatMap((d) => (d.team === t && !d.overruled && d.sample?.rgb ? [d.sample.rgb] : []));
    return rgbs.length ? medianRgb(rgbs) : null;
  });
}

/**
 * What a shot's own record (a player seen at release) is made from: the body read at the ball, or, for a shot whose
 * team the end or the play named against the read or where no body was read, the window searched there in the team's
 * jersey colour.
 */
function recordSample(d: ShooterTeam, jerseys: Array<[number, number, number] | null>): JerseySample | null {
  if (d.team === null) return null;
  if (!d.overruled) return d.sample?.rgb ? d.sample : null;
  const rgb = jerseys[d.team];
  return d.sample && rgb ? { ...d.sample, rgb, share: 0 } : null;
}

/** When a shot's body was read (the frame of its sample, before the release), so a record's thumbnail box and time agree. */
const sampledAt = (d: ShooterTeam, s: ShotAction, geo: DecodeGeometry): number => (d.at ? Math.round((d.at.frame / geo.fps) * 1000) / 1000 : s.release_t);

/** A player record for one sampled body (a shooter seen standing at release). */
function ownRecord(id: number, team: 0 | 1 | null, sample: JerseySample, t: number, geo: DecodeGeometry): ClusterRecord {
  const [x0, y0, x1, y1] = sample.box;
  return {
    track_id: id,
    team,
    jersey_rgb: sample.rgb!.map((v) => Math.round(v)) as [number, number, number],
    jersey_number: null,
    t_start: t,
    t_end: t,
    frames: 1,
    thumb_t: t,
    thumb_box: [x0 / geo.width, y0 / geo.height, x1 / geo.width, y1 / geo.height].map(r4) as [number, number, number, number],
    confidence: Math.round(sample.share * 1000) / 1000,
  };
}

/**
 * The players of the box score: every moment a body was seen holding the ball — the shooter at
 * release, the rebounder (the first body holding the ball where a flight after the miss ends),
 * the passer (a body of the shooter's team at the start of a flight that ended in the 4.5 s
 * before a made field goal's release, away from the shooter) — read for team and skin colour and
 * grouped into people by {@link groupPlayers} (events on one motion track are one body; a team
 * has at most `teamSize` players when the session says how many play). Each person becomes one
 * clusters record (`track_id` 1, 2, … in order of first appearance; `frames` = the moments it
 * was seen holding the ball; the thumbnail is its clearest sample), and the shots name them as
 * shooter, rebounder and assister. Motion tracks still referenced by other actions follow with
 * higher ids; the others are dropped.
 *
 * Without team jerseys (`teams` null: a pickup game) every moment with a body read is one of a
 * single group of people, grouped by the colour of their clothes as well as their skin
 * ({@link PlayerEvent.look}); `teamSize` is then how many people play, and the records have no team.
 * The passer is whoever held the ball (teams cannot tell a teammate), the rebounder the clearest body
 * read over the hold.
 */
function identifyPlayers(
  out: TeamInput,
  shots: ShotAction[],
  decisions: ShooterTeam[],
  held: Array<{ pass: HeldBall | null; rebound: HeldBall[] }>,
  teams: TeamColours | null,
  geo: DecodeGeometry,
  teamSize: number | null,
  samePerson = SAME_PERSON_LOOK,
): void {
  const events: PlayerEvent[] = [];
  const meta: Array<{ shot: number; role: 'shot' | 'rebound' | 'pass'; sample: JerseySample; t: number }> = [];
  const cannotLink: Array<[number, number]> = [];
  const oldTeam = new Map(out.clusters.map((c) => [c.track_id, c.team]));
  const rebounds = new Map(out.actions.filter((a): a is ReboundAction => a.type === 'rebound').map((a) => [a.shot_id, a]));
  shots.forEach((s, i) => {
    const d = decisions[i];
    let shotEvent = -1;
    if (!teams && d.sample?.colour) {
      shotEvent = events.length;
      events.push({ team: 0, skin: d.sample.skin ?? null, look: d.sample.colour, track: s.shooter_track });
      meta.push({ shot: i, role: 'shot', sample: d.sample, t: sampledAt(d, s, geo) });
    } else if (d.sample?.colour && d.team !== null) {
      shotEvent = events.length;
      const motion = s.shooter_track !== null && oldTeam.get(s.shooter_track) === d.team ? s.shooter_track : null;
      // a body whose jersey was overruled is not the shooter: its skin would join him to another player
      events.push({ team: d.team, skin: d.overruled ? null : (d.sample.skin ?? null), track: motion });
      meta.push({ shot: i, role: 'shot', sample: d.sample, t: sampledAt(d, s, geo) });
    }
    // The rebounder: the body holding the ball where a flight after the miss ends, its jersey
    // voted over a few frames; when that says nothing, the moving body at the ball there
    // (finish.ts) with its torso colour's team.
    // The rebounding team shoots next (see possession.ts#reboundTeamByPlay): its team, when known, overrules both.
    // Without teams: the clearest body read over the hold.
    const rebTeam = s.rebounder_track === null ? null : (oldTeam.get(s.rebounder_track) ?? null);
    const rv = teams ? voteTeam(held[i].rebound, teams) : { team: 0 as const, best: clearest(held[i].rebound) };
    const nextTeam = teams && playTeamsEnabled() && i + 1 < shots.length ? reboundTeamByPlay(s, shots[i + 1], decisions[i + 1].team) : null;
    if (rv.team !== null && rv.best) {
      const team = nextTeam ?? rv.team;
      const motion = s.rebounder_track !== null && (!teams || rebTeam === team) ? s.rebounder_track : null;
      // No skin colour: a body read at a flight's end is more often a wrong one than a shooter
      // at release, and its skin would pull shooters' groups apart (purity 0.82 → 0.78 on the
      // seen set when it was given); it joins a person through its motion track or the team size.
      events.push({ team, skin: null, look: teams ? undefined : rv.best.sample.colour, track: motion });
      meta.push({ shot: i, role: 'rebound', sample: rv.best.sample, t: rv.best.moment.frame / geo.fps });
    } else if (teams && rebTeam !== null) {
      const c = out.clusters.find((x) => x.track_id === s.rebounder_track)!;
      const team = nextTeam ?? rebTeam;
      events.push({ team, skin: null, track: team === rebTeam ? s.rebounder_track : null });
      meta.push({ shot: i, role: 'rebound', sample: { colour: robustColour(...c.jersey_rgb), rgb: c.jersey_rgb, share: c.confidence, box: thumbPixels(c, geo) }, t: c.thumb_t });
    }
    const ps = held[i].pass;
    if (ps && shotEvent >= 0) {
      const team = teams ? teamOfColour(ps.sample.colour!, teams) : 0;
      if (team !== null && (!teams || team === d.team)) {
        cannotLink.push([shotEvent, events.length]);
        events.push({ team, skin: ps.sample.skin ?? null, look: teams ? undefined : ps.sample.colour, track: null });
        meta.push({ shot: i, role: 'pass', sample: ps.sample, t: ps.moment.frame / geo.fps });
      }
    }
  });
  const group = groupPlayers(events, { teamSize, cannotLink, sameBelow: teams ? SAME_PLAYER_SKIN : samePerson, unknown: UNKNOWN_SKIN });
  const k = Math.max(-1, ...group) + 1;
  const people: ClusterRecord[] = [];
  for (let g = 0; g < k; g++) {
    const mine = meta.filter((_, e) => group[e] === g);
    const best = mine.reduce((a, b) => (b.sample.share > a.sample.share ? b : a));
    const rec = ownRecord(g + 1, teams ? events[meta.indexOf(mine[0])].team : null, best.sample, best.t, geo);
    rec.jersey_rgb = medianRgb(mine.map((m) => m.sample.rgb!)).map(Math.round) as [number, number, number];
    rec.t_start = Math.min(...mine.map((m) => m.t));
    rec.t_end = Math.max(...mine.map((m) => m.t));
    rec.frames = mine.length;
    rec.confidence = Math.round((mine.reduce((a, m) => a + m.sample.share, 0) / mine.length) * 1000) / 1000;
    people.push(rec);
  }
  // The old ids (motion tracks, shooters' own records) move past the people's ids.
  const old = new Map(out.clusters.map((c) => [c.track_id, c]));
  const remap = new Map<number, number>();
  let nextId = k + 1;
  const keep: ClusterRecord[] = [];
  const ref = (id: number | null): number | null => {
    if (id === null) return null;
    let n = remap.get(id);
    if (n === undefined) {
      const c = old.get(id);
      if (!c) return null;
      n = nextId++;
      remap.set(id, n);
      keep.push({ ...c, track_id: n });
    }
    return n;
  };
  const person = (shot: number, role: string) => {
    const e = meta.findIndex((m) => m.shot === shot && m.role === role);
    return e >= 0 && group[e] >= 0 ? group[e] + 1 : null;
  };
  const jerseys = teamJerseys(decisions);
  let nextOwn = -1;
  shots.forEach((s, i) => {
    const shooter = person(i, 'shot');
    const d = decisions[i];
    const own = recordSample(d, jerseys);
    if (shooter !== null) s.shooter_track = shooter;
    else if (d.team !== null && own && !(s.shooter_track !== null && old.get(s.shooter_track)?.team === d.team)) {
      const rec = ownRecord(nextOwn--, d.team, own, sampledAt(d, s, geo), geo);
      old.set(rec.track_id, rec);
      s.shooter_track = ref(rec.track_id);
    } else s.shooter_track = ref(s.shooter_track);
    const shooterTeam = s.shooter_track === null ? null : s.shooter_track <= k ? people[s.shooter_track - 1].team : (keep.find((c) => c.track_id === s.shooter_track)?.team ?? null);
    const passer = person(i, 'pass');
    if (s.made && !s.is_free_throw && passer !== null && passer !== s.shooter_track) s.assister_track = passer;
    else s.assister_track = ref(s.assister_track);
    const rebounder = person(i, 'rebound');
    const rebAction = rebounds.get(s.id);
    if (rebounder !== null) {
      s.rebounder_track = rebounder;
      const m = meta.find((x) => x.shot === i && x.role === 'rebound')!;
      const team = people[rebounder - 1].team;
      const rec: ReboundAction = rebAction ?? { type: 'rebound', t: 0, shot_id: s.id, track: null, offensive: null, confidence: 0.5 };
      rec.t = Math.round(m.t * 1000) / 1000;
      rec.track = rebounder;
      rec.offensive = shooterTeam === null || team === null ? null : team === shooterTeam;
      if (!rebAction) out.actions.push(rec);
    } else {
      s.rebounder_track = ref(s.rebounder_track);
      if (rebAction) rebAction.track = ref(rebAction.track);
    }
  });
  for (const a of out.actions) {
    if (a.type !== 'pass') continue;
    a.from_track = ref(a.from_track) ?? a.from_track;
    a.to_track = ref(a.to_track) ?? a.to_track;
  }
  out.actions.sort((a, b) => (a.type === 'shot' ? a.release_t : a.t) - (b.type === 'shot' ? b.release_t : b.t));
  out.clusters.splice(0, out.clusters.length, ...people, ...keep);
}

/**
 * Where to look for the shooter, best first: the ball at the detected release, then where the
 * ball's track comes from — a release is often detected late (the ball picked up near its apex,
 * or lost and found again on the way up), and the body the ball rose from is the shooter. The
 * ball records of the same flight before the release are followed back as long as they follow
 * each other within 0.35 s, up to {@link TRACK_BACK_S}; the candidates are the release, then the
 * earliest of those records (where the rise was first seen) and the ones after it, then the rest
 * of the track (every second record). From the earliest point seen (the release without such
 * records), the flight's parabola is extrapolated back by up to {@link WALK_BACK_FRAMES}: the
 * ball may have been lost between the hands and the first record. Image pixels, analysis frames.
 */
export function releaseCandidates(balls: BallRecord[], s: ShotAction, geo: DecodeGeometry): Array<{ frame: number; x: number; y: number }> {
  const rf = Math.round(s.release_t * geo.fps);
  const out = [{ frame: rf, x: s.shot_image[0] * geo.width, y: s.shot_image[1] * geo.height }];
  const before = balls.filter((b) => b.t < s.release_t - 0.5 / geo.fps && b.t >= s.release_t - TRACK_BACK_S).sort((p, q) => q.t - p.t);
  let last = s.release_t;
  const chain: BallRecord[] = [];
  for (const b of before) {
    if (last - b.t > 0.35) break;
    chain.push(b);
    last = b.t;
  }
  const at = (b: BallRecord) => ({ frame: Math.round(b.t * geo.fps), x: b.x * geo.width, y: b.y * geo.height });
  const n = chain.length;
  const picked = new Set<number>();
  // the start of the track first (the hands), then back from the release
  for (const k of [n - 1, n - 3, n - 5]) if (k >= 0 && !picked.has(k)) picked.add(k), out.push(at(chain[k]));
  chain.forEach((b, i) => {
    if (i % 2 === 1 && !picked.has(i)) out.push(at(b));
  });
  const t0 = n ? chain[n - 1].t : s.release_t;
  const f0 = Math.round(t0 * geo.fps);
  const flight = flightFit(balls, t0, geo);
  if (!flight) return out;
  for (let k = WALK_BACK_STEP; k <= WALK_BACK_FRAMES && f0 - k >= 0; k += WALK_BACK_STEP) {
    const p = flight((f0 - k) / geo.fps);
    if (p.x < 0 || p.x >= geo.width || p.y < 0 || p.y >= geo.height) break;
    out.push({ frame: f0 - k, ...p });
  }
  return out;
}

/** How far back (s) the ball's track before a detected release is followed (see {@link releaseCandidates}). */
export const TRACK_BACK_S = 1.5;

/**
 * Frames of one shot's play (a pass before, the release, a rebound after) less than this many
 * seconds apart are decoded in one run after one seek: a seek decodes from the previous key
 * frame (on average half a key-frame interval, ~4 s on x264 defaults), so decoding on costs less.
 */
export const PLAY_RUN_S = 3;

/** How far (frames) and in which steps the shooter is looked for before a detected release. */
export const WALK_BACK_FRAMES = 18;
export const WALK_BACK_STEP = 3;

/**
 * The ball's flight after a release as a function of time (image pixels): x linear, y quadratic
 * in time, fitted to the ball records of the first 0.6 s; null with fewer than 4 records.
 */
function flightFit(balls: BallRecord[], t0: number, geo: DecodeGeometry): ((t: number) => { x: number; y: number }) | null {
  const pts = balls.filter((b) => b.t >= t0 - 0.02 && b.t <= t0 + 0.6);
  if (pts.length < 4) return null;
  // Least squares in u = t - t0: x = a + b u; y = c + d u + e u².
  let n = 0, su = 0, suu = 0, suuu = 0, suuuu = 0, sx = 0, sxu = 0, sy = 0, syu = 0, syuu = 0;
  for (const p of pts) {
    const u = p.t - t0;
    const x = p.x * geo.width;
    const y = p.y * geo.height;
    n++;
    su += u;
    suu += u * u;
    suuu += u * u * u;
    suuuu += u * u * u * u;
    sx += x;
    sxu += x * u;
    sy += y;
    syu += y * u;
    syuu += y * u * u;
  }
  const det2 = n * suu - su * su;
  if (Math.abs(det2) < 1e-9) return null;
  const b = (n * sxu - su * sx) / det2;
  const a = (sx - b * su) / n;
  const m = [
    [n, su, suu],
    [su, suu, suuu],
    [suu, suuu, suuuu],
  ];
  const rhs = [sy, syu, syuu];
  const det3 = (q: number[][]) =>
    q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) + q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  const D = det3(m);
  if (Math.abs(D) < 1e-12) return null;
  const col = (k: number) => m.map((row, i) => row.map((v, j) => (j === k ? rhs[i] : v)));
  const c = det3(col(0)) / D;
  const d = det3(col(1)) / D;
  const e = det3(col(2)) / D;
  return (t: number) => {
    const u = t - t0;
    return { x: a + b * u, y: c + d * u + e * u * u };
  };
}

/** Median ball radius (pixels) on the flight in the half second after a release, or null. */
function ballRadius(balls: BallRecord[], t: number, width = 1): number | null {
  const rs = balls.filter((b) => b.t >= t - 0.02 && b.t <= t + 0.5).map((b) => b.r).sort((a, b) => a - b);
  return rs.length ? rs[rs.length >> 1] * width : null;
}

/**
 * A lazily computed per-pixel median of frames taken from a fixed camera over the clip (the
 * players move on, the floor stays): the background the shooter is told from.
 */
export function medianBackground(frames: Uint8Array[], width: number): PixelBackground {
  // One slot per pixel (an array indexed by pixel, not a Map: the shooter windows ask for
  // thousands of pixels per sample), and the median by a 256-bin count of the bytes: the value
  // at position ⌊n/2⌋ of the sorted list, as a sort would give.
  const pixels = Math.floor(Math.min(...frames.map((f) => f.length)) / 3);
  const cache = new Array<[number, number, number] | undefined>(pixels);
  const n = frames.length;
  const rank = n >> 1;
  const counts = new Uint16Array(256);
  const median = (p: number) => {
    let lo = 255;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const v = frames[i][p];
      counts[v]++;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    let seen = 0;
    let out = hi;
    for (let v = lo; v <= hi; v++) {
      seen += counts[v];
      if (seen > rank) {
        out = v;
        break;
      }
    }
    for (let i = 0; i < n; i++) counts[frames[i][p]] = 0;
    return out;
  };
  return (x, y) => {
    const key = y * width + x;
    const hit = cache[key];
    if (hit) return hit;
    const p = key * 3;
    const out: [number, number, number] = [median(p), median(p + 1), median(p + 2)];
    cache[key] = out;
    return out;
  };
}

/** A fixed camera's background (its hoops do not move in the image): the median of the frames sampled over the clip, from 5 of them. */
function fixedBackground(hoops: HoopRecord[], samples: Array<{ rgb: Uint8Array }>, width: number): PixelBackground | null {
  const fixed = hoops.length > 0 && hoops.every((h) => h.samples.every((q) => Math.abs(q.x - h.x) < 0.01 && Math.abs(q.y - h.y) < 0.01));
  return fixed && samples.length >= 5 ? medianBackground(samples.map((s) => s.rgb), width) : null;
}

/** The background of each scene of a clip cut together from several (see `scenes.ts`), from its own hoops and samples. */
function sceneBackgrounds(hoops: HoopRecord[], samples: Array<{ index: number; rgb: Uint8Array }>, scenes: Scene[], geo: DecodeGeometry): SceneBackgrounds {
  const within = (sc: Scene, frame: number) => frame >= sc.from && frame < sc.to;
  const each = scenes.map((sc) =>
    fixedBackground(
      hoops.filter((h) => h.samples.length > 0 && within(sc, Math.round(h.samples[0].t * geo.fps))),
      samples.filter((smp) => within(sc, smp.index)),
      geo.width,
    ),
  );
  return { at: (frame) => each[scenes.findIndex((sc) => within(sc, frame))] ?? null };
}

/**
 * The team step of an analysis, run after the post-decode stage in the same worker: decodes
 * the frame at each shot's release from the video (see {@link fetchFrames}) and applies
 * {@link attributeTeams}. A fixed camera (the hoops do not move in the image) gets the median of
 * the sampled frames as background. Skipped for solo sessions; a session without team jerseys gets
 * its people from the same reads, without teams (see {@link identifyPlayers}).
 */
export async function attributeTeamsFromVideo(
  out: TeamInput,
  video: { path: string; samples: Array<{ index: number; rgb: Uint8Array }>; options: AnalysisOptions; signal?: AbortSignal; scenes?: Scene[] },
  geo: DecodeGeometry,
): Promise<ShooterTeam[]> {
  const o = video.options;
  if (isOnePlayerSession(o)) return [];
  const noTeams = o.hasJerseys === false;
  const shots = shotsOf(out.actions);
  if (!shots.length) return [];
  const scenes = video.scenes && video.scenes.length > 1 ? video.scenes : null;
  const bg = scenes ? sceneBackgrounds(out.hoops, video.samples, scenes, geo) : fixedBackground(out.hoops, video.samples, geo.width);
  // without teams, the bound on the people is the session's player count itself
  const teamSize = noTeams ? (o.numPlayers && o.numPlayers >= 2 ? o.numPlayers : null) : teamSizeOf(o);
  // the requests attributeTeams keeps in flight share two ffmpeg processes
  const processes = limiter(2);
  // a fresh 0.7 MB buffer per decoded frame cost ~2 ms of allocation and page faults, and garbage
  // collections of the finishing worker's large heap: the batches' buffers are reused
  const buffers = new FrameBuffers(geo.width * geo.height * 3);
  return attributeTeams(out, (indices) => fetchFrames(video.path, geo, indices, video.signal, PLAY_RUN_S, processes, buffers), bg, geo, {
    moments: out.moments,
    teamSize,
    noTeams,
    recycle: (frames) => buffers.give([...frames.values()].map((f) => f.buffer)),
  });
}
