/**
 * Public API of the synthetic game generator: resolves options, runs the game simulation
 * frame by frame, draws each frame into an RGB24 buffer, streams it into ffmpeg (H.264 +
 * a quiet noise audio track) with backpressure, and returns the exact ground truth in the
 * shared format. `simulateSyntheticGame` runs the same simulation without video, which
 * yields the same ground truth (render-only randomness has its own rng streams).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { GroundTruthAttempt, GroundTruthClip, GroundTruthFile } from '../ground-truth.js';
import { ffmpegPath } from '../../media/ffmpeg.js';
import { Gym, Panorama, randomGymStyle, renderStaticBackground } from './background.js';
import { Camera, presetPose, type ViewPreset } from './camera.js';
import { courtSpec, hoopGeom, RIM_HEIGHT, RIM_RADIUS, type ThreePointLine, type Vec3 } from './court.js';
import { SceneDrawer } from './draw.js';
import { ownClothes, TEAM_COLOR_PRESETS } from './entities.js';
import { Game, type ScriptEvent } from './game.js';
import { Rng } from './prng.js';
import { createFrame, type Frame, type RGB } from './raster.js';
import { x264ReferenceArgs } from './x264-cpu.js';

/** Bumped when the same seed and options would render a different game or different pixels. */
export const GENERATOR_VERSION = '1';

export type { ScriptEvent } from './game.js';

export interface SynthOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** Clip length in seconds (default 60; ignored in script mode unless given, then a cap). */
  durationSeconds?: number;
  /** Alternative to durationSeconds. */
  minutes?: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Tripod (`stationary`, default) or `panning` (follows the ball with a little handheld shake). */
  camera?: 'stationary' | 'panning';
  /** Camera placement; default picked from the seed (stationary) or `broadcast` (panning). */
  view?: ViewPreset;
  /** 1 = half-court game at one hoop (default for stationary), 2 = full court (default for panning). */
  hoops?: 1 | 2;
  /** 1-10 players, split into two teams (default 6 at one hoop, 10 at two). */
  players?: number;
  /** Jersey colours: a preset name (`white-navy`, `red-black`, ...) or two RGB triples. */
  teamColors?: string | [RGB, RGB];
  /**
   * A pickup game: every player in a shirt and shorts of their own (no team jerseys, no numbers), so
   * colours tell people apart but not teams. The game and its truth (teams included) are the same.
   */
  shirts?: boolean;
  /** Painted and scored 3-point line (default `fiba`, 6.75 m). */
  threePointLine?: ThreePointLine;
  /** Sensor noise strength 0..2 (default 1). */
  noise?: number;
  /** x264 CRF (default 23). */
  crf?: number;
  /** x264 preset (default `veryfast`). */
  preset?: string;
  /** Render exactly these events in order (script mode). */
  script?: ScriptEvent[];
  /** No hoop exists (implies noShots); the camera looks at midcourt. */
  noHoop?: boolean;
  /** Players dribble and pass (possessions end in steals), nobody shoots. */
  noShots?: boolean;
  /**
   * Off-ball players shuffle in place during live play instead of standing frozen (drawn only:
   * the game and its truth are the same). Off by default until the analyser handles it (analyser MEASUREMENTS.md, "Off-ball players who move").
   */
  offBallMotion?: boolean;
}

/** Options after defaults, as recorded in the ground truth. */
export interface ResolvedOptions {
  seed: number;
  durationSeconds: number | null;
  width: number;
  height: number;
  fps: number;
  camera: 'stationary' | 'panning';
  view: ViewPreset;
  hoops: 0 | 1 | 2;
  players: number;
  teamColors: [RGB, RGB];
  /** Present only when set, so the options of the games rendered before it (and their truth files) stay as they were. */
  shirts?: true;
  threePointLine: ThreePointLine;
  noise: number;
  crf: number;
  preset: string;
  script: ScriptEvent[] | null;
  noHoop: boolean;
  noShots: boolean;
  offBallMotion: boolean;
}

const STATIONARY_VIEWS: ViewPreset[] = ['behind', 'sideline', 'corner45', 'elevated', 'baseline'];

/** Fills defaults and validates; throws on invalid values so callers fail early. */
export function resolveOptions(o: SynthOptions): ResolvedOptions {
  const seed = o.seed ?? 1;
  if (!Number.isInteger(seed)) throw new Error('seed must be an integer');
  const rng = new Rng(seed).fork('options');
  const cameraKind = o.camera ?? 'stationary';
  if (cameraKind !== 'stationary' && cameraKind !== 'panning') throw new Error(`camera must be stationary or panning`);
  const noHoop = o.noHoop ?? false;
  const hoops = noHoop ? 0 : (o.hoops ?? (cameraKind === 'panning' ? 2 : 1));
  if (hoops !== 0 && hoops !== 1 && hoops !== 2) throw new Error('hoops must be 1 or 2');
  const view = o.view ?? (noHoop ? 'midcourt' : cameraKind === 'panning' ? 'broadcast' : rng.pick(STATIONARY_VIEWS));
  const players = o.players ?? (hoops === 2 ? 10 : 6);
  if (!Number.isInteger(players) || players < 1 || players > 10) throw new Error('players must be 1-10');
  let teamColors: [RGB, RGB];
  if (Array.isArray(o.teamColors)) teamColors = o.teamColors;
  else {
    const name = o.teamColors ?? rng.pick(Object.keys(TEAM_COLOR_PRESETS));
    const p = TEAM_COLOR_PRESETS[name];
    if (!p) throw new Error(`unknown teamColors preset ${name}; one of ${Object.keys(TEAM_COLOR_PRESETS).join(', ')}`);
    teamColors = p;
  }
  const width = o.width ?? 1280;
  const height = o.height ?? 720;
  if (width % 2 || height % 2 || width < 64 || height < 64) throw new Error('width and height must be even and at least 64');
  const fps = o.fps ?? 30;
  if (!(fps > 0 && fps <= 120)) throw new Error('fps must be in (0, 120]');
  let durationSeconds: number | null = o.durationSeconds ?? (o.minutes !== undefined ? o.minutes * 60 : null);
  if (!o.script && durationSeconds === null) durationSeconds = 60;
  if (durationSeconds !== null && !(durationSeconds > 0)) throw new Error('duration must be positive');
  const threePointLine = o.threePointLine ?? 'fiba';
  if (!['fiba', 'nba', 'none'].includes(threePointLine)) throw new Error('threePointLine must be fiba, nba or none');
  return {
    seed,
    durationSeconds,
    width,
    height,
    fps,
    camera: cameraKind,
    view,
    hoops: hoops as 0 | 1 | 2,
    players,
    teamColors,
    ...(o.shirts ? { shirts: true as const } : {}),
    threePointLine,
    noise: o.noise ?? 1,
    crf: o.crf ?? 23,
    preset: o.preset ?? 'veryfast',
    script: o.script ?? null,
    noHoop,
    noShots: noHoop || (o.noShots ?? false),
    offBallMotion: o.offBallMotion ?? false,
  };
}

interface AttemptView {
  releaseXY: { x: number; y: number } | null;
  hoop: { x: number; y: number; rim_half_width: number; rim_half_height: number } | null;
  visible: boolean | null;
}

/** Milliseconds spent per stage of a render (accumulated), to see whether drawing or encoding is the bottleneck. */
export interface RenderTiming {
  setupMs: number;
  simMs: number;
  drawMs: number;
  sensorMs: number;
  /** Waiting for ffmpeg to take the frame (encoder-bound when large). */
  waitMs: number;
}

/** Everything needed to run (and optionally draw) one clip. */
class Session {
  readonly opts: ResolvedOptions;
  readonly game: Game;
  readonly cam: Camera;
  readonly gym: Gym;
  readonly drawer: SceneDrawer;
  readonly hoops;
  readonly layoutHoops;
  private readonly camRng: Rng;
  private readonly panning: boolean;
  private yaw: number;
  private yawVel = 0;
  private readonly yawRange: [number, number];
  private readonly basePitch: number;
  private readonly shakePhase: number[];
  shakeRows = 0;
  readonly views: AttemptView[] = [];
  playersVisible = 0;

  constructor(opts: ResolvedOptions) {
    this.opts = opts;
    const root = new Rng(opts.seed);
    const simRng = root.fork('sim');
    const sceneRng = root.fork('scene');
    this.camRng = root.fork('camera');
    const spec = courtSpec(opts.threePointLine);
    const h0 = hoopGeom(spec, 0, 1);
    const h1 = hoopGeom(spec, 1, -1);
    this.layoutHoops = [h0, h1];
    this.hoops = opts.hoops === 2 ? [h0, h1] : opts.hoops === 1 ? [h0] : [];
    const fullCourt = opts.hoops === 2 || (opts.hoops === 0 && opts.camera === 'panning');
    this.game = new Game(
      {
        fps: opts.fps,
        duration: opts.durationSeconds,
        nPlayers: opts.players,
        spec,
        hoops: this.hoops,
        layoutHoops: this.layoutHoops,
        attack: fullCourt ? [0, 1] : [0, 0],
        noShots: opts.noShots,
        offBallMotion: opts.offBallMotion,
        script: opts.script,
        teamColors: opts.teamColors,
      },
      simRng,
    );
    const style = randomGymStyle(sceneRng);
    this.gym = new Gym(spec, this.hoops, style);
    this.drawer = new SceneDrawer(
      {
        teamColors: opts.teamColors,
        shorts: [darken(opts.teamColors[0], 0.85), darken(opts.teamColors[1], 0.85)],
        clothes: opts.shirts ? ownClothes(this.game.players.map((p) => p.id), root.fork('shirts')) : undefined,
        boardGlass: sceneRng.chance(0.6),
        boardFrame: sceneRng.pick<RGB>([
          [20, 20, 20],
          [200, 40, 30],
          [30, 30, 30],
        ]),
        pad: style.pad,
      },
      this.hoops,
    );
    const pose = presetPose(opts.view, h0.rim.x, spec.width / 2, this.camRng, opts.width / opts.height);
    this.cam = new Camera(pose, opts.width, opts.height);
    this.panning = opts.camera === 'panning';
    this.basePitch = pose.pitch;
    this.yaw = pose.yaw;
    const p = pose.pos;
    const ext = spec.length / 2 - 1;
    const a1 = Math.atan2(0 - p.y, ext - p.x);
    const a2 = Math.atan2(0 - p.y, -ext - p.x);
    const lo = Math.min(a1, a2, pose.yaw);
    const hi = Math.max(a1, a2, pose.yaw);
    this.yawRange = [lo, hi];
    this.shakePhase = [0, 1, 2, 3].map(() => this.camRng.range(0, 6.28));
    if (this.panning) this.yaw = this.targetYaw();
    this.applyCamera();
  }

  private targetYaw(): number {
    const b = this.game.ball.pos;
    const p = this.cam.pose.pos;
    const y = Math.atan2(b.y * 0.3 - p.y, b.x - p.x);
    return Math.max(this.yawRange[0], Math.min(this.yawRange[1], y));
  }

  private applyCamera(): void {
    if (!this.panning) return;
    const t = this.game.t;
    const ph = this.shakePhase;
    const sy = 0.0018 * Math.sin(t * 1.7 + ph[0]) + 0.001 * Math.sin(t * 4.3 + ph[1]);
    this.shakeRows = (1.4 * Math.sin(t * 2.1 + ph[2]) + 0.7 * Math.sin(t * 5.9 + ph[3])) * (this.opts.height / 720);
    this.cam.setAngles(this.yaw + sy, this.basePitch + this.shakeRows / this.cam.focal, 0);
  }

  /** Camera follows the play with a critically damped spring on yaw. */
  updateCamera(): void {
    if (!this.panning) return;
    const dt = 1 / this.opts.fps;
    const w = 2.2;
    const err = this.targetYaw() - this.yaw;
    this.yawVel += (w * w * err - 2 * w * this.yawVel) * dt;
    this.yaw += this.yawVel * dt;
    this.applyCamera();
  }

  /** Bookkeeping that depends on the camera: release/hoop positions, visibility. */
  observe(): void {
    const g = this.game;
    const W = this.opts.width;
    const H = this.opts.height;
    let vis = 0;
    for (const p of g.players) {
      const q = this.cam.project(p.pos.x, p.pos.y, 1);
      if (q.depth > 0.3 && q.u >= 0 && q.u < W && q.v >= 0 && q.v < H) vis++;
    }
    this.playersVisible = Math.max(this.playersVisible, vis);
    g.attempts.forEach((a, i) => {
      let v = this.views[i];
      if (!v) {
        v = { releaseXY: null, hoop: null, visible: null };
        this.views[i] = v;
        const r = this.cam.project(a.release.x, a.release.y, a.release.z);
        v.releaseXY = r.depth > 0 ? { x: round(r.u / W, 4), y: round(r.v / H, 4) } : null;
        const h = this.layoutHoops[a.hoopIndex];
        const c = this.cam.project(h.rim.x, h.rim.y, h.rim.z);
        if (c.depth > 0) {
          const sc = this.cam.scale(c.depth);
          let maxU = 0;
          let maxV = 0;
          for (let k = 0; k < 16; k++) {
            const ang = (k / 16) * Math.PI * 2;
            const q = this.cam.project(h.rim.x + Math.cos(ang) * RIM_RADIUS, h.rim.y + Math.sin(ang) * RIM_RADIUS, RIM_HEIGHT);
            maxU = Math.max(maxU, Math.abs(q.u - c.u));
            maxV = Math.max(maxV, Math.abs(q.v - c.v));
          }
          void sc;
          v.hoop = { x: round(c.u / W, 4), y: round(c.v / H, 4), rim_half_width: round(maxU / W, 4), rim_half_height: round(maxV / H, 4) };
        }
      }
      if (v.visible === null && g.t >= a.rimArrivalT - 1e-9) {
        const h = this.layoutHoops[a.hoopIndex];
        const c = this.cam.project(h.rim.x, h.rim.y, h.rim.z);
        v.visible = this.hoops.length > 0 && c.depth > 0 && c.u >= 0 && c.u < W && c.v >= 0 && c.v < H;
      }
    });
  }

  /** Runs to the end without drawing. */
  dryRun(onFrame?: (game: Game) => void): void {
    while (!this.game.done) {
      this.game.step();
      this.updateCamera();
      this.observe();
      onFrame?.(this.game);
    }
  }
}

function darken(c: RGB, k: number): RGB {
  return [c[0] * k, c[1] * k, c[2] * k];
}

function round(x: number, d = 3): number {
  const k = 10 ** d;
  return Math.round(x * k) / k;
}

const SCHEMA_NOTES: Record<string, string> = {
  times: 'seconds from the start of the file; release_s = frame the ball leaves the hands; rim_arrival_s = first rim/backboard contact or the ball entering the rim area (closest approach for air balls), exact from the simulation',
  made: 'true = ball went down through the hoop (exact, synthetic)',
  points: '0 when missed, 1 free throw, 2 or 3 field goal; is_three_point from the shooter feet vs the 3-point line',
  kind: 'swish | rim_in | bank_in | rim_out | air_ball | bank_out',
  positions: 'release_xy and hoop in normalized image coordinates (0..1 from top-left) at release',
  attempts: 'only attempts whose hoop is in view at rim arrival; others are in synthetic.offscreen_attempts',
};

/** Builds the ground-truth clip from a finished session. */
function buildClip(s: Session, file: string, frames: number, bytes: number | undefined): GroundTruthClip {
  const g = s.game;
  const o = s.opts;
  const all = g.attempts.map((a, i) => {
    const v = s.views[i];
    const h = s.layoutHoops[a.hoopIndex];
    const shotType = a.isFreeThrow ? 'free throw' : a.isThree ? '3PT jump shot' : a.distance < 2.2 ? '2PT close-range shot' : '2PT jump shot';
    const att: GroundTruthAttempt = {
      n: 0,
      release_s: round(a.releaseT),
      rim_arrival_s: round(a.rimArrivalT),
      made: a.made,
      made_confidence: 1,
      shot_type: shotType,
      points: a.points,
      is_three_point: a.isThree,
      is_free_throw: a.isFreeThrow,
      kind: a.kind,
      shooter: { team: a.shooter.team, jersey: a.shooter.jersey, player_id: a.shooter.id },
      assister: a.assister,
      rebounder: a.rebounder,
      release_xy: v?.releaseXY ?? null,
      hoop: v?.hoop ?? null,
      hoop_index: a.hoopIndex,
      distance_m: round(a.distance, 2),
    };
    void h;
    return { att, visible: v?.visible ?? false };
  });
  const visible = all.filter((x) => x.visible).map((x) => x.att);
  const offscreen = all.filter((x) => !x.visible).map((x) => x.att);
  visible.forEach((a, i) => (a.n = i + 1));
  offscreen.forEach((a, i) => (a.n = i + 1));
  const duration = frames / o.fps;
  const pointsByTeam = [0, 0];
  for (const a of g.attempts) pointsByTeam[a.shooter.team] += a.made ? a.points : 0;
  return {
    file,
    camera: o.camera === 'panning' ? `panning (follows play), handheld shake, ${o.view} view` : `stationary tripod, ${o.view} view`,
    players_visible: s.playersVisible,
    time_scale: 'real-time',
    attempts: visible,
    media: { duration_s: round(duration), width: o.width, height: o.height, fps: o.fps, codec: 'h264', frames, ...(bytes !== undefined ? { bytes } : {}) },
    n_attempts: visible.length,
    n_made: visible.filter((a) => a.made).length,
    synthetic: {
      seed: o.seed,
      options: { ...o } as unknown as Record<string, unknown>,
      generator_version: GENERATOR_VERSION,
      teams: [0, 1]
        .filter((t) => g.players.some((p) => p.team === t))
        .map((t) => ({ id: t, color_rgb: o.teamColors[t].map((c) => Math.round(c)) as [number, number, number], score: pointsByTeam[t] })),
      players: g.players.map((p) => ({ id: p.id, team: p.team, jersey: p.jersey })),
      hoops: s.hoops.map((h) => ({
        index: h.index,
        rim_center_m: [h.rim.x, h.rim.y, h.rim.z] as [number, number, number],
        rim_radius_m: RIM_RADIUS,
        attacked_by: s.game.cfg.attack[0] === h.index ? 0 : s.game.cfg.attack[1] === h.index ? 1 : null,
      })),
      offscreen_attempts: offscreen,
      points_by_team: pointsByTeam,
      passes: g.passes,
    },
  };
}

/** Runs the simulation without video and returns the ground truth it would render; `onFrame` sees the game after every frame (its state is then that frame's). */
export function simulateSyntheticGame(options: SynthOptions, file = 'synthetic.mp4', onFrame?: (game: Game) => void): GroundTruthClip {
  const s = new Session(resolveOptions(options));
  s.dryRun(onFrame);
  return buildClip(s, file, s.game.frame, undefined);
}

/** Wraps one clip in the shared `{ schema, clips }` file shape. */
export function groundTruthFile(clips: GroundTruthClip[]): GroundTruthFile {
  return { schema: { ...SCHEMA_NOTES }, clips };
}

/**
 * Sensor simulation done inside ffmpeg (C, SIMD, on the encoder's threads) rather than per
 * pixel in JS: slow auto-exposure drift with a faint light flicker (eq) and temporal sensor
 * noise (noise filter with a fixed seed, so output stays deterministic).
 */
function sensorFilter(opts: ResolvedOptions, rng: Rng): string {
  const phase = rng.range(0, 6.28).toFixed(3);
  const base = rng.range(-0.03, 0.03).toFixed(4);
  const parts = ['format=yuv420p', `eq=brightness='${base}+0.025*sin(0.7*t+${phase})+0.004*sin(13.1*t)':saturation=${rng.range(0.92, 1.08).toFixed(3)}:eval=frame`];
  const strength = Math.round(3 * opts.noise);
  if (strength > 0) parts.push(`noise=c0s=${strength}:c0f=t+u:c1s=${Math.max(1, strength - 1)}:c1f=t+u:c2s=${Math.max(1, strength - 1)}:c2f=t+u:all_seed=${opts.seed & 0xffff}`);
  return parts.join(',');
}

/**
 * Renders a synthetic game to `outPath` (MP4: H.264 yuv420p + AAC, faststart) and writes
 * its ground truth beside it (`<name>.json`, a `{ schema, clips: [clip] }` file). Frames
 * are streamed to ffmpeg one at a time, so memory does not grow with the duration.
 */
export async function renderSyntheticGame(
  options: SynthOptions,
  outPath: string,
  hooks: { onProgress?: (frame: number, t: number) => void; signal?: AbortSignal; timing?: RenderTiming } = {},
): Promise<GroundTruthClip> {
  const opts = resolveOptions(options);
  const s = new Session(opts);
  const W = opts.width;
  const H = opts.height;
  const fps = opts.fps;
  const root = new Rng(opts.seed);
  const frames = [createFrame(W, H), createFrame(W, H)];
  const tm = hooks.timing;
  let c0 = performance.now();
  let staticBg: Frame | null = null;
  let pano: Panorama | null = null;
  if (opts.camera === 'panning') {
    const range = (s as unknown as { yawRange: [number, number] }).yawRange;
    pano = new Panorama(s.gym, s.cam, range[0] - 0.05, range[1] + 0.05, Math.ceil(3 * (H / 720)) + 2);
  } else {
    staticBg = createFrame(W, H);
    renderStaticBackground(s.gym, s.cam, staticBg);
  }
  if (tm) tm.setupMs += performance.now() - c0;
  const audioSeed = opts.seed & 0x7fffffff;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${W}x${H}`,
    '-r',
    String(fps),
    '-i',
    'pipe:0',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=0.03:sample_rate=44100:seed=${audioSeed},lowpass=f=2500,volume=0.6`,
    '-filter_complex',
    `[0:v]${sensorFilter(opts, root.fork('sensor'))}[v]`,
    '-map',
    '[v]',
    '-map',
    '1:a',
    '-c:v',
    'libx264',
    ...x264ReferenceArgs(),
    '-preset',
    opts.preset,
    '-crf',
    String(opts.crf),
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-shortest',
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    outPath,
  ];
  const child = spawn(ffmpegPath(), args, { stdio: ['pipe', 'ignore', 'pipe'], signal: hooks.signal });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
  let pipeError: Error | null = null;
  child.stdin.on('error', (e) => {
    pipeError = e;
  });
  const write = (buf: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const ok = child.stdin.write(buf, (err) => {
        if (err) reject(err);
      });
      if (ok) resolve();
      else child.stdin.once('drain', resolve);
    });
  let prevBall: Vec3 | null = null;
  let k = 0;
  try {
    while (!s.game.done) {
      c0 = performance.now();
      s.game.step();
      s.updateCamera();
      s.observe();
      const c1 = performance.now();
      const f = frames[k & 1];
      if (pano) pano.render(f, s.cam.pose.yaw, s.shakeRows);
      else f.data.set(staticBg!.data);
      const t = s.game.t;
      const exposure = 1;
      s.drawer.draw(f, s.cam, s.game.players, s.game.ball, prevBall, s.game.nets, t, exposure);
      prevBall = { ...s.game.ball.pos };
      const c2 = performance.now();
      const c3 = c2;
      if (pipeError) throw pipeError;
      await write(Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength));
      if (tm) {
        tm.simMs += c1 - c0;
        tm.drawMs += c2 - c1;
        tm.sensorMs += c3 - c2;
        tm.waitMs += performance.now() - c3;
      }
      k++;
      hooks.onProgress?.(k, t);
    }
    child.stdin.end();
  } catch (e) {
    child.stdin.destroy();
    await exited.catch(() => -1);
    throw new Error(`rendering failed: ${(e as Error).message}${stderr ? `\n${stderr}` : ''}`);
  }
  const code = await exited;
  if (code !== 0) throw new Error(`ffmpeg exited with code ${code}: ${stderr}`);
  const bytes = (await stat(outPath)).size;
  const clip = buildClip(s, basename(outPath), k, bytes);
  const jsonPath = outPath.replace(/\.[^./\\]+$/, '') + '.json';
  await writeFile(jsonPath, JSON.stringify(groundTruthFile([clip]), null, 1) + '\n');
  return clip;
}

/**
 * `renderSyntheticGame` for caches shared between processes (test runs, benchmarks): renders
 * under a temporary name in the same folder and renames the ground truth, then the video, into
 * place, so a reader never sees a half-written file and two processes rendering the same clip at
 * once never interleave their writes (seen: two test runs sharing the OS temp folder left a
 * video that was neither render).
 */
export async function renderSyntheticGameAtomic(options: SynthOptions, outPath: string): Promise<GroundTruthClip> {
  const stem = outPath.replace(/\.[^./\\]+$/, '');
  const tmp = `${stem}.part-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const clip = { ...(await renderSyntheticGame(options, `${tmp}.mp4`)), file: basename(outPath) };
    // the truth written beside the temporary video, under the final name
    await writeFile(`${tmp}.json`, JSON.stringify(groundTruthFile([clip]), null, 1) + '\n');
    await rename(`${tmp}.json`, `${stem}.json`);
    await rename(`${tmp}.mp4`, outPath);
    return clip;
  } finally {
    await rm(`${tmp}.mp4`, { force: true });
    await rm(`${tmp}.json`, { force: true });
  }
}
