import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cropBoxFor, cropExpression, smoothCropPath, type CropBox, type FocusPoint } from './crop-path';
import { probeVideo, runFfmpeg, type VideoProbe } from './ffmpeg';
import { evenFloor, h264Args, runFfmpegWithProgress } from './ffmpeg-progress';
import { logger } from '../logger';
import { MAX_OUTPUT_FPS, sourceFilters } from './renditions';
import { BT709_TAGS, toSdrFilter } from './color';
import { headEncoderArgs, planSmartCut, smartCutSource, writeSmartCut, type SmartCutPlan, type SmartCutSource } from './smart-cut';
import { getMediaStorage, highlightRenditionsMode, mediaKeys, type MediaStorage } from './storage';

export { shotFocus, type FocusPoint, type ShotFocusInput } from './crop-path';

/** The horizontal renditions of SPEC §2.3; `Np` names the short side. */
export const HIGHLIGHT_RENDITIONS = [
  { name: '1080p', shortSide: 1080, crf: 23, maxrateKbps: 6000 },
  { name: '720p', shortSide: 720, crf: 23, maxrateKbps: 3500 },
  { name: '480p', shortSide: 480, crf: 24, maxrateKbps: 1800 },
  { name: '360p', shortSide: 360, crf: 26, maxrateKbps: 900 },
  { name: '240p', shortSide: 240, crf: 27, maxrateKbps: 500 },
  { name: '144p', shortSide: 144, crf: 28, maxrateKbps: 250 },
] as const;

export type HighlightVideoName = 'default' | 'horizontal' | (typeof HIGHLIGHT_RENDITIONS)[number]['name'];

/** Short side of the `default` (vertical) and `horizontal` clips at most; larger sources are scaled down. */
export const CLIP_MAX_SHORT_SIDE = 1080;

const VERTICAL = 9 / 16;
const HORIZONTAL = 16 / 9;

/** One highlight to cut. Times in seconds of source time. */
export interface HighlightClipRequest {
  highlightId: string;
  start: number;
  end: number;
  /** Action points over time (e.g. ball positions of the shot), normalised; empty → centred crop. */
  focus: FocusPoint[];
  /** The key moment for the previews (e.g. the shot's rim time); default the middle of the clip. */
  previewAt?: number;
}

/** Storage keys of one highlight, the shapes of `highlights.video` / `highlights.preview`. */
export interface HighlightClipResult {
  highlightId: string;
  video: Record<HighlightVideoName, string | null>;
  preview: { default: string | null; horizontal: string | null };
  /** Measured length of the produced clip. */
  lengthSeconds: number;
}

export interface RenderHighlightClipsOptions {
  sessionId: string;
  input: string;
  probe: VideoProbe;
  clips: HighlightClipRequest[];
  storage?: MediaStorage;
  signal?: AbortSignal;
  /** 0–1 over all clips. */
  onProgress?: (fraction: number) => void;
  /** Clips encoded at the same time (default 2: one per core; x264 threads within each). */
  concurrency?: number;
  /** Scratch directory (default: a fresh one under the OS temp dir, removed afterwards). */
  workDir?: string;
  /** When the renditions below the horizontal clip are encoded (default `highlightRenditionsMode()`). */
  renditions?: 'on-demand' | 'eager';
}

/** Output geometry of a source's clips: crop windows, their output sizes and which horizontal renditions exist. */
export function planHighlightClip(probe: Pick<VideoProbe, 'width' | 'height'>) {
  const vertical = cropBoxFor(probe.width, probe.height, VERTICAL);
  const horizontal = cropBoxFor(probe.width, probe.height, HORIZONTAL);
  // Scaled sizes come from the nominal aspect, not from the even-rounded crop (720×404 is not quite 16:9), so a 360p rendition is 640×360.
  const fit = (box: CropBox, aspect: number) =>
    Math.min(box.width, box.height) > CLIP_MAX_SHORT_SIDE ? sizeForAspect(CLIP_MAX_SHORT_SIDE, aspect) : { width: box.width, height: box.height };
  const verticalOut = fit(vertical, VERTICAL);
  const horizontalOut = fit(horizontal, HORIZONTAL);
  const horizontalShort = Math.min(horizontalOut.width, horizontalOut.height);
  const renditions = HIGHLIGHT_RENDITIONS.filter((r) => r.shortSide <= horizontalShort).map((r) => ({
    ...r,
    ...sizeForAspect(r.shortSide, HORIZONTAL),
    /** Same short side as `horizontal`: the rendition reuses that file instead of encoding it twice. */
    sameAsHorizontal: r.shortSide === horizontalShort,
  }));
  return { vertical, verticalOut, horizontal, horizontalOut, renditions };
}

/**
 * The facts for smart-cutting the `horizontal` clips of a source (see `smart-cut.ts`), or
 * null when its horizontal clip is not its own frames: cropped (not 16:9), scaled (short
 * side above 1080), resampled (above 60 fps), deinterlaced or mapped from HDR to SDR, or when the stream cannot be copied — and
 * null for every source when `SWISH_SMART_CUT=0` (every clip encoded whole).
 */
export async function horizontalSmartCutSource(input: string, probe: VideoProbe, signal?: AbortSignal): Promise<SmartCutSource | null> {
  if (process.env.SWISH_SMART_CUT === '0') return null;
  const plan = planHighlightClip(probe);
  const own = !plan.horizontal.axis && plan.horizontalOut.width === probe.width && plan.horizontalOut.height === probe.height && !probe.interlaced && !probe.hdr;
  // rotation, frame rate and codec: smartCutSource's own checks
  if (!own) return null;
  return smartCutSource(input, probe, qualityFor(plan.horizontalOut).maxrateKbps, signal);
}

/** Encoder quality of a clip of this size: the rendition row of its short side (or the next below). */
function qualityFor(s: { width: number; height: number }) {
  const short = Math.min(s.width, s.height);
  return HIGHLIGHT_RENDITIONS.find((r) => r.shortSide <= short) ?? HIGHLIGHT_RENDITIONS[HIGHLIGHT_RENDITIONS.length - 1];
}

/** Even dimensions of a frame of `aspect` (width / height) whose short side is `shortSide`. */
function sizeForAspect(shortSide: number, aspect: number): { width: number; height: number } {
  return aspect >= 1
    ? { width: evenFloor(Math.round(shortSide * aspect)), height: evenFloor(shortSide) }
    : { width: evenFloor(shortSide), height: evenFloor(Math.round(shortSide / aspect)) };
}

/** An input seek to `t` seconds, rounded down to the microsecond so that a frame exactly at `t` is kept. */
const seekArg = (t: number) => (Math.floor(t * 1e6 + 1e-3) / 1e6).toFixed(6);

/** `crop=` for a moving window following `focus` (or a centred one), as a filtergraph fragment. */
function cropFilter(box: CropBox, probe: VideoProbe, req: HighlightClipRequest, start: number, end: number): string {
  if (!box.axis) return '';
  const frameSize = box.axis === 'x' ? probe.width : probe.height;
  const cropSize = box.axis === 'x' ? box.width : box.height;
  const path = smoothCropPath(req.focus, { start, end, frameSize, cropSize, axis: box.axis });
  const expr = cropExpression(path);
  const x = box.axis === 'x' ? `'${expr}'` : '0';
  const y = box.axis === 'y' ? `'${expr}'` : '0';
  return `crop=w=${box.width}:h=${box.height}:x=${x}:y=${y},`;
}

/**
 * Cuts one highlight and stores its variants: `default` (vertical 9:16 following the
 * action), `horizontal` (16:9; for a portrait source a 16:9 window following the action),
 * the `1080p`…`144p` renditions of the horizontal clip up to its own size, and JPEG previews
 * of both aspect ratios at the key moment.
 *
 * One ffmpeg process decodes the clip's window once (input seek, then an exact cut by
 * decoding from the previous keyframe) and splits it to every encoder, which is cheaper
 * than cutting to an intermediate file and re-reading it. The window's audio is encoded
 * once beforehand and copied into every variant.
 */
export async function renderHighlightClip(opts: {
  sessionId: string;
  input: string;
  probe: VideoProbe;
  clip: HighlightClipRequest;
  storage?: MediaStorage;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  workDir?: string;
  /**
   * Smart-cut facts of the source (`horizontalSmartCutSource`; `renderHighlightClips` reads
   * them once for all clips). Undefined: read here; null: the horizontal clip is encoded.
   */
  smartCut?: SmartCutSource | null;
  /**
   * `eager`: the renditions below the horizontal clip are encoded now, beside the other
   * variants; `on-demand`: only their keys are returned, and each is made from the stored
   * horizontal clip on its first request (`on-demand.ts`). Default `highlightRenditionsMode()`.
   */
  renditions?: 'on-demand' | 'eager';
}): Promise<HighlightClipResult> {
  const storage = opts.storage ?? getMediaStorage();
  const { probe, clip, sessionId, signal } = opts;
  const ownWorkDir = !opts.workDir;
  const work = opts.workDir ?? (await mkdtemp(join(tmpdir(), 'swish-clip-')));
  await mkdir(work, { recursive: true });
  try {
    const duration = probe.durationSeconds || Infinity;
    let start = Math.max(0, clip.start);
    const end = Math.min(duration, clip.end);
    if (!(end - start >= 0.1)) throw new RangeError(`highlight ${clip.highlightId}: empty clip window ${clip.start}–${clip.end}`);
    const smartSource = opts.smartCut === undefined ? await horizontalSmartCutSource(opts.input, probe, signal) : opts.smartCut;
    const smart: SmartCutPlan | null = smartSource ? await planSmartCut(smartSource, start, end) : null;
    // a smart cut starts every variant on the clip's first frame, so they all show the same frames
    if (smart) start = smart.start;
    const plan = planHighlightClip(probe);
    const fps = Math.min(probe.fps || 30, MAX_OUTPUT_FPS);
    const pre = sourceFilters(probe);
    // an HDR source is mapped to SDR on each variant's frames once cropped and scaled (a clip's frames are few)
    const sdr = probe.hdr ? `${toSdrFilter(probe.hdr, 'bt709', 'yuv420p')},` : '';

    const smaller = plan.renditions.filter((r) => !r.sameAsHorizontal);
    const encoded = (opts.renditions ?? highlightRenditionsMode()) === 'eager' ? smaller : [];
    const hOut = plan.horizontalOut;
    const vOut = plan.verticalOut;
    // what the horizontal frames feed: the horizontal encoder (or only the smart cut's head) and the smaller renditions
    const head = smart && smart.headSeconds > 0;
    const hzTargets = [...(smart ? (head ? ['hhead'] : []) : ['hz']), ...encoded.map((_, i) => `h${i}`)];
    const hzLabels = hzTargets.map((l) => `[${l}]`).join('');
    const graph = [
      `[0:v:0]${pre}${hzTargets.length ? 'split=2[cv][ch]' : 'null[cv]'}`,
      `[cv]${cropFilter(plan.vertical, probe, clip, start, end)}scale=${vOut.width}:${vOut.height}:flags=bicubic,${sdr}setsar=1[vert]`,
      ...(hzTargets.length
        ? [`[ch]${cropFilter(plan.horizontal, probe, clip, start, end)}scale=${hOut.width}:${hOut.height}:flags=bicubic,${sdr}setsar=1${hzTargets.length > 1 ? `,split=${hzTargets.length}${hzLabels}` : hzLabels}`]
        : []),
      // the head: the frames before the source's keyframe (half a frame of slack for timestamp rounding)
      ...(head ? [`[hhead]trim=end=${(smart.headSeconds - 0.5 / fps).toFixed(6)}[head]`] : []),
      ...encoded.map((r, i) => `[h${i}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1[r${i}]`),
    ].join(';');
    const ss = seekArg(start);
    // The clip's audio is encoded once, then copied into every variant (instead of six AAC encodes of the same sound).
    const audioFile = join(work, 'audio.m4a');
    if (probe.hasAudio) {
      await runFfmpeg(
        ['-ss', ss, '-t', (end - start).toFixed(6), '-i', opts.input, '-map', '0:a:0', '-vn', '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-f', 'mp4', audioFile],
        { signal },
      );
    }
    const audio = probe.hasAudio ? ['-map', '1:a:0'] : [];
    const out = (label: string, size: { width: number; height: number }, file: string) => {
      const q = qualityFor(size);
      return ['-map', `[${label}]`, ...audio, ...h264Args({ crf: q.crf, maxrateKbps: q.maxrateKbps, fps, audio: probe.hasAudio && 'copy' }), ...(probe.hdr ? BT709_TAGS : []), join(work, file)];
    };
    const decode = ['-ss', ss, '-t', (end - start).toFixed(6), '-i', opts.input, ...(probe.hasAudio ? ['-i', audioFile] : [])];
    await runFfmpegWithProgress(
      [
        ...decode,
        '-filter_complex', graph,
        ...out('vert', vOut, 'default.mp4'),
        ...(smart ? [] : out('hz', hOut, 'horizontal.mp4')),
        ...(head && smartSource
          ? ['-map', '[head]', ...h264Args({ crf: qualityFor(hOut).crf, maxrateKbps: qualityFor(hOut).maxrateKbps, fps, audio: false, faststart: false, profile: null }), ...headEncoderArgs(smartSource), join(work, 'head.mp4')]
          : []),
        ...encoded.flatMap((r, i) => out(`r${i}`, r, `${r.name}.mp4`)),
      ],
      { signal, durationSeconds: end - start, onProgress: opts.onProgress && ((f) => opts.onProgress!(f * 0.95)) },
    );
    if (smart && smartSource) {
      try {
        await writeSmartCut({
          src: smartSource,
          plan: smart,
          headFile: head ? join(work, 'head.mp4') : null,
          audioFile: probe.hasAudio ? audioFile : null,
          output: join(work, 'horizontal.mp4'),
          work,
          signal,
        });
      } catch (err) {
        if (signal?.aborted) throw err;
        // a stream the checks let through but the join did not fit: encode the clip instead
        logger.warn({ err, highlightId: clip.highlightId }, 'smart cut failed; encoding the horizontal clip');
        await runFfmpeg(
          [...decode, '-filter_complex', `[0:v:0]${pre}scale=${hOut.width}:${hOut.height}:flags=bicubic,${sdr}setsar=1[hz]`, ...out('hz', hOut, 'horizontal.mp4')],
          { signal },
        );
      }
    }

    const previewAt = Math.min(end - start - 0.05, Math.max(0, (clip.previewAt ?? (start + end) / 2) - start));
    await runFfmpeg(
      [
        '-ss', previewAt.toFixed(3), '-i', join(work, 'default.mp4'),
        '-ss', previewAt.toFixed(3), '-i', join(work, 'horizontal.mp4'),
        '-map', '0:v:0', '-frames:v', '1', '-q:v', '3', '-f', 'image2', join(work, 'preview-default.jpg'),
        '-map', '1:v:0', '-frames:v', '1', '-q:v', '3', '-f', 'image2', join(work, 'preview-horizontal.jpg'),
      ],
      { signal },
    );
    const lengthSeconds = Number((await probeVideo(join(work, 'horizontal.mp4'), { signal })).durationSeconds.toFixed(3));

    const video = Object.fromEntries(
      (['default', 'horizontal', ...HIGHLIGHT_RENDITIONS.map((r) => r.name)] as HighlightVideoName[]).map((n) => [n, null]),
    ) as Record<HighlightVideoName, string | null>;
    const key = (name: string) => mediaKeys.highlightVideo(sessionId, clip.highlightId, name);
    for (const name of ['default', 'horizontal', ...encoded.map((r) => r.name)]) {
      await storage.putFile(key(name), join(work, `${name}.mp4`), 'video/mp4', { move: true });
      video[name as HighlightVideoName] = key(name);
    }
    for (const r of plan.renditions) if (r.sameAsHorizontal) video[r.name] = video.horizontal;
    // made on their first request, at these keys
    for (const r of smaller) video[r.name] ??= key(r.name);
    const preview = {
      default: mediaKeys.highlightPreview(sessionId, clip.highlightId, 'default'),
      horizontal: mediaKeys.highlightPreview(sessionId, clip.highlightId, 'horizontal'),
    };
    await storage.putFile(preview.default, join(work, 'preview-default.jpg'), 'image/jpeg', { move: true });
    await storage.putFile(preview.horizontal, join(work, 'preview-horizontal.jpg'), 'image/jpeg', { move: true });
    opts.onProgress?.(1);
    return { highlightId: clip.highlightId, video, preview, lengthSeconds };
  } finally {
    if (ownWorkDir) await rm(work, { recursive: true, force: true });
  }
}

/**
 * Encodes one rendition of a highlight from its `horizontal` clip: scaled to the rendition's
 * size with the same quality settings as an eager rendition (CRF and `maxrate` of its row,
 * 2 s GOPs, faststart), the clip's AAC audio copied. Returns false, writing nothing, when the
 * rendition is not below the horizontal clip's short side (never upscaled; the one of equal
 * size is the horizontal file itself).
 */
export async function encodeHighlightRendition(opts: { horizontalFile: string; shortSide: number; output: string; signal?: AbortSignal }): Promise<boolean> {
  const rendition = HIGHLIGHT_RENDITIONS.find((r) => r.shortSide === opts.shortSide);
  const probe = await probeVideo(opts.horizontalFile, { signal: opts.signal });
  if (!rendition || rendition.shortSide >= Math.min(probe.width, probe.height)) return false;
  const size = sizeForAspect(rendition.shortSide, HORIZONTAL);
  await runFfmpeg(
    [
      '-i', opts.horizontalFile,
      '-map', '0:v:0', ...(probe.hasAudio ? ['-map', '0:a:0'] : []),
      '-vf', `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`,
      ...h264Args({ crf: rendition.crf, maxrateKbps: rendition.maxrateKbps, fps: Math.min(probe.fps || 30, MAX_OUTPUT_FPS), audio: probe.hasAudio && 'copy' }),
      opts.output,
    ],
    { signal: opts.signal },
  );
  return true;
}

/**
 * Cuts every highlight of a session (see `renderHighlightClip`), `concurrency` at a time,
 * and returns their keys in the order of `clips`. Keys are fixed per highlight, so a retried
 * step overwrites the same objects. The first failure aborts the clips still running.
 */
export async function renderHighlightClips(opts: RenderHighlightClipsOptions): Promise<HighlightClipResult[]> {
  const ownWorkDir = !opts.workDir;
  const work = opts.workDir ?? (await mkdtemp(join(tmpdir(), 'swish-clips-')));
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const weights = opts.clips.map((c) => Math.max(0.1, c.end - c.start));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const done = new Array<number>(opts.clips.length).fill(0);
  let lastReported = -1;
  const report = () => {
    const f = done.reduce((a, d, i) => a + d * weights[i], 0) / total;
    if (f - lastReported >= 0.01 || f === 1) {
      lastReported = f;
      opts.onProgress?.(f);
    }
  };
  const results = new Array<HighlightClipResult>(opts.clips.length);
  // read once for every clip: the source's packets and parameter sets (null: horizontal clips are encoded)
  let smartCut: SmartCutSource | null = null;
  let next = 0;
  const worker = async () => {
    while (next < opts.clips.length && !abort.signal.aborted) {
      const i = next++;
      results[i] = await renderHighlightClip({
        sessionId: opts.sessionId,
        input: opts.input,
        probe: opts.probe,
        clip: opts.clips[i],
        storage: opts.storage,
        signal: abort.signal,
        workDir: join(work, String(i)),
        smartCut,
        renditions: opts.renditions,
        onProgress: (f) => {
          done[i] = f;
          report();
        },
      });
    }
  };
  try {
    if (opts.clips.length) smartCut = await horizontalSmartCutSource(opts.input, opts.probe, abort.signal);
    let firstError: unknown;
    const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 2, opts.clips.length)) }, () =>
      worker().catch((err) => {
        firstError ??= err;
        abort.abort(err);
      }),
    );
    await Promise.all(workers);
    if (firstError !== undefined) throw opts.signal?.aborted ? (opts.signal.reason ?? firstError) : firstError;
    if (abort.signal.aborted) throw abort.signal.reason;
    return results;
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    if (ownWorkDir) await rm(work, { recursive: true, force: true });
  }
}
