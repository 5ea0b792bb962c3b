/**
 * Robustness benchmark material: transformed copies of clips with ground truth.
 *
 * Each variant is one ffmpeg filter chain applied to a clip (mirror, exposure, contrast,
 * compression, resolution, crop, frame rate, speed, rotation, a hand-held shake, a zoom). The truth of a clip is shot
 * times plus made/missed, so it stays valid under every spatial, colour or compression
 * transform; a speed change scales its times (`timeScale`). Image positions in the truth
 * (synthetic clips) are not transformed: the benchmark matches shots on rim-arrival time only.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeVideo, runFfmpeg } from '../media/ffmpeg';
import { groundTruthFileSchema, loadGroundTruth, type GroundTruthClip } from './ground-truth';
import { x264ReferenceArgs } from './synth/x264-cpu';

/** The source facts a variant's filter may depend on. */
export interface AugmentSource {
  width: number;
  height: number;
  fps: number;
}

/** One transform of the robustness benchmark. */
export interface AugmentVariant {
  /** Short name, used as the file-name prefix (`mirror__clip.mp4`). */
  name: string;
  /** The family it belongs to (totals are printed per family). */
  transform: 'reencode' | 'mirror' | 'exposure' | 'compression' | 'resolution' | 'crop' | 'frame rate' | 'speed' | 'rotation' | 'shake' | 'zoom';
  /** ffmpeg `-vf` chain for a source. */
  filter: (src: AugmentSource) => string;
  /** x264 CRF of the output (18 = visually lossless unless the variant is about compression). */
  crf?: number;
  /** Truth times are multiplied by this (2 = slowed to half speed). */
  timeScale?: number;
}

const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));

/** Scales so that the shorter side is `short` px (aspect kept, even sizes). */
function scaleShort(src: AugmentSource, short: number): string {
  const k = short / Math.min(src.width, src.height);
  return `scale=${even(src.width * k)}:${even(src.height * k)}:flags=bicubic`;
}

/** Rotation by `deg` degrees, same frame size, corners filled black (as a tilted camera's frame is cut). */
const rotate = (deg: number) => `rotate=${deg}*PI/180:fillcolor=black`;

/** The hand-held sway of {@link shake}: (share of the peak, frequency in Hz) per wave; the y wave is 2.5 rad later. */
const SHAKE_WAVES: Array<[number, number]> = [
  [0.6, 0.7],
  [0.3, 1.9],
  [0.1, 3.7],
];
const SHAKE_Y_PHASE = 2.5;

/** The sway at `t` seconds, −1…1 (`phase` 0 for x, {@link SHAKE_Y_PHASE} for y); the wave's k-th term is offset k rad. */
export function shakeWave(t: number, phase: number): number {
  return SHAKE_WAVES.reduce((sum, [a, f], k) => sum + a * Math.sin(2 * Math.PI * f * t + phase + k), 0);
}

/**
 * Where {@link shake}'s crop of a `src` frame starts at `t` seconds (whole source pixels; the crop is the centre 90 %,
 * scaled back up by its `scale`): content at p in the source is at (p − crop) · scale in the copy.
 */
export function shakeCrop(src: AugmentSource, amount: number, t: number): { x: number; y: number; scale: number } {
  const [w, h] = [even(src.width * 0.9), even(src.height * 0.9)];
  const [mx, my] = [(src.width - w) / 2, (src.height - h) / 2];
  // ffmpeg's crop truncates its expressions to whole pixels
  return { x: Math.floor(mx + mx * amount * shakeWave(t, 0)), y: Math.floor(my + my * amount * shakeWave(t, SHAKE_Y_PHASE)), scale: src.width / w };
}

/**
 * A hand-held camera: the centre 90 % of the frame, moved by a sway of 0.7 Hz, a slower hand correction of 1.9 Hz and
 * a tremor of 3.7 Hz ({@link shakeWave}), scaled back to the source size. `amount` is the share of the 5 % margin the
 * sway reaches at its peak (1: the frame moves up to 5 % of its width). The offset is whole pixels per frame.
 */
function shake(amount: number): (src: AugmentSource) => string {
  return (s) => {
    const [w, h] = [even(s.width * 0.9), even(s.height * 0.9)];
    const [mx, my] = [(s.width - w) / 2, (s.height - h) / 2];
    const wave = (phase: number) => `(${SHAKE_WAVES.map(([a, f], k) => `${a}*sin(2*PI*${f}*t+${phase + k})`).join('+')})`;
    const x = `${mx}+${(mx * amount).toFixed(2)}*${wave(0)}`;
    const y = `${my}+${(my * amount).toFixed(2)}*${wave(SHAKE_Y_PHASE)}`;
    return `crop=${w}:${h}:${x}:${y}:exact=1,scale=${s.width}:${s.height}:flags=bicubic`;
  };
}

/** Longest side (px) {@link zoom} scales a source up to before its crop: the crop then starts on a quarter of a 640-px pixel. */
const ZOOM_WORK_SIDE = 2560;

/**
 * A camera zoomed in and out while it films (a phone's pinch zoom, a camcorder's rocker): the frame's centre shown
 * `peak` times larger and back, over and over, `period` seconds a cycle (1 at 0 s), scaled back to the source size by
 * `zoompan`. Its crop starts on whole pixels, which on the source itself jerks the picture by up to 2 px a frame as the
 * zoom changes (a shake no zooming lens makes); so the source is first scaled up by a whole factor, to at most
 * {@link ZOOM_WORK_SIDE} px on its longer side, and the crop starts on a fraction of a source pixel (a quarter of one
 * for a 640-px clip). The scene's scale changes, which a camera path of translations alone does not follow.
 */
function zoom(peak: number, period: number): (src: AugmentSource) => string {
  return (s) => {
    const fps = Math.round(s.fps) || 30;
    const z = `(1+${((peak - 1) / 2).toFixed(3)}*(1-cos(2*PI*in/${fps * period})))`;
    const k = Math.max(1, Math.floor(ZOOM_WORK_SIDE / Math.max(s.width, s.height)));
    const up = k > 1 ? `scale=${s.width * k}:${s.height * k}:flags=bicubic,` : '';
    return `${up}zoompan=z='${z}':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=${s.width}x${s.height}:fps=${fps}`;
  };
}

/**
 * The variants. `reencode` is the re-encoding alone (CRF 18, what every other variant also
 * goes through) so that its effect can be told from the transform's.
 */
export const AUGMENT_VARIANTS: AugmentVariant[] = [
  { name: 'reencode', transform: 'reencode', filter: () => 'null' },
  { name: 'mirror', transform: 'mirror', filter: () => 'hflip' },
  // Gamma < 1 darkens the mid-tones (an underexposed indoor gym), > 1 brightens them (sun, overexposure).
  { name: 'dark', transform: 'exposure', filter: () => 'eq=gamma=0.6:brightness=-0.05' },
  { name: 'bright', transform: 'exposure', filter: () => 'eq=gamma=1.6:brightness=0.05' },
  { name: 'lowcontrast', transform: 'exposure', filter: () => 'eq=contrast=0.6' },
  { name: 'crf35', transform: 'compression', filter: () => 'null', crf: 35 },
  // 360p short side; a clip already at 360p or less goes to two thirds of its size (~240p).
  {
    name: 'lowres',
    transform: 'resolution',
    filter: (s) => scaleShort(s, Math.min(s.width, s.height) > 400 ? 360 : Math.min(s.width, s.height) * (2 / 3)),
  },
  { name: '1080p', transform: 'resolution', filter: (s) => scaleShort(s, 1080) },
  // Centre 80 %, scaled back to the source size (a tighter framing, the hoop stays in view on every clip).
  { name: 'crop80', transform: 'crop', filter: (s) => `crop=${even(s.width * 0.8)}:${even(s.height * 0.8)},scale=${s.width}:${s.height}:flags=bicubic` },
  { name: 'fps25', transform: 'frame rate', filter: () => 'fps=25' },
  // 60 fps by frame duplication (what a 60 fps export of 30 fps footage holds).
  { name: 'fps60', transform: 'frame rate', filter: () => 'fps=60' },
  // Slow motion by frame duplication: every frame shown twice as long, 30 fps kept.
  { name: 'slow0.5', transform: 'speed', filter: (s) => `setpts=2*PTS,fps=${Math.round(s.fps) || 30}`, timeScale: 2 },
  // Sped up 1.5× by dropping frames: the output keeps the source's rate, so the encoder drops a third of the frames. No
  // `fps` filter after the `setpts`: this ffmpeg's pads the stream at its end to the source's length with the last
  // picture repeated (a third of every copy was a still frame until that was seen).
  { name: 'fast1.5', transform: 'speed', filter: () => 'setpts=PTS/1.5', timeScale: 1 / 1.5 },
  { name: 'rot+3', transform: 'rotation', filter: () => rotate(3) },
  { name: 'rot-3', transform: 'rotation', filter: () => rotate(-3) },
  { name: 'shake', transform: 'shake', filter: shake(0.5) },
  { name: 'shake-strong', transform: 'shake', filter: shake(1) },
  { name: 'zoom', transform: 'zoom', filter: zoom(1.25, 8) },
];

/**
 * A source larger than 1080 px on its short side (a 4K phone clip) is scaled to 1080 before
 * the transform: the analysis reads at most 640 px, and a 4K encode per copy costs minutes.
 */
function capSource(src: AugmentSource): { src: AugmentSource; pre: string | null } {
  const short = Math.min(src.width, src.height);
  if (short <= 1080) return { src, pre: null };
  const k = 1080 / short;
  const w = even(src.width * k);
  const h = even(src.height * k);
  return { src: { ...src, width: w, height: h }, pre: `scale=${w}:${h}:flags=bicubic` };
}

/** ffmpeg arguments that render `variant` of `input` into `output`. */
export function augmentArgs(variant: AugmentVariant, source: AugmentSource, input: string, output: string): string[] {
  const { src, pre } = capSource(source);
  const vf = pre ? `${pre},${variant.filter(src)}` : variant.filter(src);
  return [
    '-nostdin',
    '-i',
    input,
    '-map',
    '0:v:0',
    '-an',
    '-vf',
    vf,
    '-c:v',
    'libx264',
    ...x264ReferenceArgs(),
    '-preset',
    'veryfast',
    '-crf',
    String(variant.crf ?? 18),
    '-pix_fmt',
    'yuv420p',
    '-f',
    'mp4',
    output,
  ];
}

/** The truth of `clip` for the transformed copy `file` (times scaled by the variant's speed change). */
export function augmentTruth(clip: GroundTruthClip, variant: AugmentVariant, file: string, media: GroundTruthClip['media']): GroundTruthClip {
  const k = variant.timeScale ?? 1;
  const t = (v: number) => Math.round(v * k * 1000) / 1000;
  return {
    ...clip,
    file,
    augment: { variant: variant.name, transform: variant.transform, source: clip.file, time_scale: k },
    attempts: clip.attempts.map((a) => ({
      ...a,
      release_s: a.release_s === null ? null : t(a.release_s),
      rim_arrival_s: t(a.rim_arrival_s),
    })),
    media,
  };
}

/** Variant and source clip of an augmented clip's truth (set by {@link augmentTruth}). */
export function augmentInfo(clip: GroundTruthClip): { variant: string; transform: string; source: string } | null {
  const a = (clip as { augment?: { variant: string; transform: string; source: string } }).augment;
  return a ?? null;
}

/**
 * Renders the transformed copies of every clip of `srcFolder` (a folder with a
 * `ground_truth.json`) into `outDir` — cached: a copy is rendered again only when its ffmpeg
 * arguments changed — and writes `outDir/ground_truth.json` with the transformed truth.
 * `keep` filters the copies (by file name) before rendering. Returns `outDir`.
 */
export async function ensureAugmentedSet(
  srcFolder: string,
  outDir: string,
  log: (line: string) => void = () => {},
  variants: AugmentVariant[] = AUGMENT_VARIANTS,
  keep: (file: string) => boolean = () => true,
): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const gt = await loadGroundTruth(join(srcFolder, 'ground_truth.json'));
  const clips: GroundTruthClip[] = [];
  for (const clip of gt.clips) {
    const input = join(srcFolder, clip.file);
    if (!existsSync(input)) continue;
    const probe = await probeVideo(input);
    const src = { width: probe.width, height: probe.height, fps: probe.fps };
    const stem = clip.file.replace(/\.[^.]+$/, '');
    for (const v of variants) {
      const file = `${v.name}__${stem}.mp4`;
      if (!keep(file)) continue;
      const output = join(outDir, file);
      const recipe = join(outDir, `${file}.args`);
      const args = augmentArgs(v, src, clip.file, file);
      const key = JSON.stringify(args);
      const cached = existsSync(output) && existsSync(recipe) && (await readFile(recipe, 'utf8')) === key;
      if (!cached) {
        log(`  rendering ${file} …`);
        const tmp = `${output}.part.mp4`;
        await runFfmpeg(augmentArgs(v, src, input, tmp));
        await rename(tmp, output);
        await writeFile(recipe, key);
      }
      const p = await probeVideo(output);
      const media = { duration_s: p.durationSeconds, width: p.width, height: p.height, fps: p.fps, codec: p.codec };
      clips.push(augmentTruth(clip, v, file, media));
    }
  }
  const file = groundTruthFileSchema.parse({
    schema: {
      ...gt.schema,
      augment:
        'transformed copies of the clips of another folder: variant name, transform family, source file, time scale (truth times multiplied by it). Spatial, colour and compression transforms leave times and made/missed valid.',
    },
    clips,
  });
  await writeFile(join(outDir, 'ground_truth.json'), JSON.stringify(file, null, 1));
  return outDir;
}
