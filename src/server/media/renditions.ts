import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { BT709_TAGS, toSdrFilter } from './color';
import { ffprobePath, runFfmpeg, runTool, type VideoProbe } from './ffmpeg';
import { evenFloor, h264Args, runFfmpegWithProgress, scaleToShortSide } from './ffmpeg-progress';
import { getMediaStorage, mediaKeys, type MediaStorage } from './storage';

/** The session renditions of SPEC §2.2; `Np` names the short side. */
export const SESSION_RENDITIONS = [
  { name: '1080p', shortSide: 1080, crf: 23, maxrateKbps: 6000 },
  { name: '720p', shortSide: 720, crf: 23, maxrateKbps: 3500 },
  { name: '360p', shortSide: 360, crf: 26, maxrateKbps: 900 },
] as const;

/**
 * A source already in a rendition's shape is copied into it instead of re-encoded (see
 * `remuxPlan`) when its video bitrate is at most this multiple of the rendition's `maxrate`
 * and its keyframes are at most `REMUX_MAX_KEYFRAME_GAP` seconds apart (seeking).
 */
export const REMUX_MAX_BITRATE_FACTOR = 2;
export const REMUX_MAX_KEYFRAME_GAP = 10.5;

export type SessionRenditionName = (typeof SESSION_RENDITIONS)[number]['name'];

/** Storage keys of a session's media, the shape of `sessions.video`; null where not produced. */
export type SessionMediaKeys = { original: string | null; preview: string | null } & Record<SessionRenditionName, string | null>;

/** Highest frame rate written; faster sources (slow-motion phone clips) are resampled to it. */
export const MAX_OUTPUT_FPS = 60;

/** yadif at the source's rate (one frame per frame, not per field), on the frames flagged interlaced only. */
export const DEINTERLACE = 'yadif=mode=send_frame:parity=auto:deint=interlaced';

/**
 * The filters every encode of a source's frames starts with (a filtergraph prefix, `''` or ending in a comma): an
 * interlaced source deinterlaced (a browser shows a camcorder's 1080i with its fields combed into each other), then a
 * rate above {@link MAX_OUTPUT_FPS} brought down to it.
 */
export function sourceFilters(probe: Pick<VideoProbe, 'fps' | 'interlaced'>): string {
  return `${probe.interlaced ? `${DEINTERLACE},` : ''}${(probe.fps || 0) > MAX_OUTPUT_FPS ? `fps=${MAX_OUTPUT_FPS},` : ''}`;
}

export interface RenderSessionMediaOptions {
  sessionId: string;
  /** Path of the source video as received. */
  input: string;
  /** ffprobe facts of `input` (from `probeVideo`). */
  probe: VideoProbe;
  storage?: MediaStorage;
  signal?: AbortSignal;
  /** 0–1, at most every 1 %. */
  onProgress?: (fraction: number) => void;
  /** Scratch directory (default: a fresh one under the OS temp dir, removed afterwards). */
  workDir?: string;
  /** Time (s) of the poster frame; default a third into the video. */
  previewAt?: number;
  /** `nice` of the encoding process (0–19), for renditions encoded beside another stage (the analysis). */
  niceness?: number;
  /** Called with the encoding ffmpeg's process id when it starts. */
  onEncoderSpawn?: (pid: number) => void;
  /** The key `input` is stored under already (the pipeline stores the source first): not stored again. */
  originalKey?: string;
}

/**
 * Which renditions a source gets: every one whose short side is at most the source's short
 * side (never upscaled), with its output size.
 */
export function plannedSessionRenditions(probe: Pick<VideoProbe, 'width' | 'height'>) {
  const short = Math.min(probe.width, probe.height);
  const fitting = SESSION_RENDITIONS.filter((r) => r.shortSide <= short).map((r) => ({ ...r, ...scaleToShortSide(probe.width, probe.height, r.shortSide) }));
  if (fitting.length) return fitting;
  // a source smaller than every rung still gets one H.264 MP4 a browser plays — the smallest
  // rung's, at the source's own size (an old phone's MPEG-4 or an AVI plays nowhere as it is)
  const smallest = SESSION_RENDITIONS[SESSION_RENDITIONS.length - 1];
  return [{ ...smallest, ...scaleToShortSide(probe.width, probe.height, evenFloor(short)) }];
}

/**
 * Produces a session's media and stores it: the source as received (`original`), a JPEG
 * poster (`preview`) and H.264/AAC MP4 renditions `1080p`/`720p`/`360p` up to the source's
 * short side. All renditions come out of ONE ffmpeg process that decodes the source once and
 * splits the frames to one encoder per rendition — on 2 cores this costs about a sixth less
 * CPU than one process per rendition, because decoding is paid once. A source that already
 * is a fitting H.264 stream at a rendition's size is copied into that rendition instead
 * (`remuxDecision`), in the same process. Keys are fixed per session, so a retried step
 * overwrites the same objects.
 */
export async function renderSessionMedia(opts: RenderSessionMediaOptions): Promise<SessionMediaKeys> {
  const storage = opts.storage ?? getMediaStorage();
  const { probe, sessionId, signal } = opts;
  const ownWorkDir = !opts.workDir;
  const work = opts.workDir ?? (await mkdtemp(join(tmpdir(), 'swish-renditions-')));
  const result: SessionMediaKeys = { original: null, preview: null, '1080p': null, '720p': null, '360p': null };
  try {
    const planned = plannedSessionRenditions(probe);
    const fps = Math.min(probe.fps || 30, MAX_OUTPUT_FPS);
    const encodeShare = planned.length ? 0.9 : 0;
    const remux = planned.length ? await remuxPlan(opts.input, probe, planned, signal) : { rendition: null, audio: false };
    const encoded = planned.filter((r) => r.name !== remux.rendition);
    if (planned.length) {
      const chains = encoded.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1[o${i}]`);
      // an HDR source is mapped to SDR once, at the largest encoded rendition's size (its own scale is then a no-op)
      const largest = encoded.reduce<(typeof encoded)[number] | null>((a, r) => (!a || r.width * r.height > a.width * a.height ? r : a), null);
      const sdr = probe.hdr && largest ? `scale=${largest.width}:${largest.height}:flags=bicubic,${toSdrFilter(probe.hdr, 'bt709', 'yuv420p')},` : '';
      const pre = sourceFilters(probe) + sdr;
      const graph = encoded.length ? `[0:v:0]${pre}split=${encoded.length}${encoded.map((_, i) => `[s${i}]`).join('')};${chains.join(';')}` : null;
      const outputs = encoded.flatMap((r, i) => [
        '-map', `[o${i}]`,
        ...(probe.hasAudio ? ['-map', '0:a:0'] : []),
        ...h264Args({ crf: r.crf, maxrateKbps: r.maxrateKbps, fps, audio: probe.hasAudio }),
        ...(probe.hdr ? BT709_TAGS : []),
        join(work, `${r.name}.mp4`),
      ]);
      // the remuxed rendition is one more output of the same process: the source is read once
      if (remux.rendition) {
        outputs.push(
          '-map', '0:v:0',
          ...(probe.hasAudio ? ['-map', '0:a:0'] : []),
          '-c:v', 'copy',
          ...(probe.hasAudio ? (remux.audio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2']) : ['-an']),
          '-tag:v', 'avc1', '-movflags', '+faststart', '-f', 'mp4',
          join(work, `${remux.rendition}.mp4`),
        );
      }
      await runFfmpegWithProgress(['-i', opts.input, ...(graph ? ['-filter_complex', graph] : []), ...outputs], {
        signal,
        durationSeconds: probe.durationSeconds,
        onProgress: opts.onProgress && ((f) => opts.onProgress!(f * encodeShare)),
        niceness: opts.niceness,
        onSpawn: opts.onEncoderSpawn,
      });
    }

    const posterPath = join(work, 'preview.jpg');
    await renderPoster({ input: opts.input, probe, at: opts.previewAt, output: posterPath, signal });
    result.preview = mediaKeys.sessionPreview(sessionId);
    await storage.putFile(result.preview, posterPath, 'image/jpeg', { move: true });

    for (const r of planned) {
      const key = mediaKeys.sessionRendition(sessionId, r.name);
      await storage.putFile(key, join(work, `${r.name}.mp4`), 'video/mp4', { move: true });
      result[r.name] = key;
    }

    if (opts.originalKey) result.original = opts.originalKey;
    else {
      result.original = mediaKeys.sessionOriginal(sessionId, await originalExtension(opts.input, probe, signal));
      await storage.putFile(result.original, opts.input);
    }
    opts.onProgress?.(1);
    return result;
  } finally {
    if (ownWorkDir) await rm(work, { recursive: true, force: true });
  }
}

/** What `remuxPlan` looks at, from ffprobe. */
export interface RemuxFacts {
  codec: string;
  profile: string;
  pixFmt: string;
  width: number;
  height: number;
  rotation: number;
  fps: number;
  /** Codec of the first audio stream, or null without audio. */
  audioCodec: string | null;
  /** Mean video bitrate over the whole file. */
  videoKbps: number;
  /** Largest distance between keyframes (and from the last one to the end), seconds. */
  maxKeyframeGap: number;
  /** Whether the first video packet is a keyframe. */
  startsWithKeyframe: boolean;
  /** The source is interlaced (`VideoProbe.interlaced`): its stream is never copied into a rendition. */
  interlaced?: boolean;
  /** The source is HDR (`VideoProbe.hdr`): its renditions are mapped to SDR, never copied. */
  hdr?: boolean;
}

/**
 * Which session rendition (if any) can be the source's own video stream copied into an MP4
 * (`-c:v copy`, faststart) instead of an encode: the source is H.264 in 8-bit 4:2:0 (every
 * player decodes it), progressive, SDR, exactly the rendition's size, unrotated, at most 60 fps, at most
 * twice the rendition's `maxrate`, with keyframes at most 10.5 s apart. Its audio is copied
 * when it is AAC, else encoded to AAC. Pure: the facts come from `remuxFacts`.
 */
export function remuxDecision(
  facts: RemuxFacts,
  planned: ReadonlyArray<{ name: SessionRenditionName; width: number; height: number; maxrateKbps: number }>,
): { rendition: SessionRenditionName | null; audio: boolean } {
  const none = { rendition: null, audio: false };
  if (facts.codec !== 'h264' || facts.pixFmt !== 'yuv420p' || facts.rotation !== 0 || facts.interlaced || facts.hdr) return none;
  if (!['Baseline', 'Constrained Baseline', 'Main', 'High'].includes(facts.profile)) return none;
  if (!(facts.fps > 0 && facts.fps <= MAX_OUTPUT_FPS)) return none;
  if (!facts.startsWithKeyframe || !(facts.maxKeyframeGap <= REMUX_MAX_KEYFRAME_GAP)) return none;
  const r = planned.find((p) => p.width === facts.width && p.height === facts.height);
  if (!r || !(facts.videoKbps > 0 && facts.videoKbps <= REMUX_MAX_BITRATE_FACTOR * r.maxrateKbps)) return none;
  return { rendition: r.name, audio: facts.audioCodec === 'aac' };
}

/** Reads what `remuxDecision` needs: stream facts, then the video packets' sizes and keyframe flags (demuxed, not decoded). */
export async function remuxFacts(input: string, probe: VideoProbe, signal?: AbortSignal): Promise<RemuxFacts> {
  const { stdout: streamsOut } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=codec_type,codec_name,profile,pix_fmt,width,height', input],
    { signal },
  );
  const streams = (JSON.parse(streamsOut.toString()) as { streams?: Array<Record<string, string | number>> }).streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const { stdout } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,size,flags', '-of', 'csv=p=0', input],
    { signal },
  );
  let bytes = 0;
  let first = true;
  let startsWithKeyframe = false;
  const keys: number[] = [];
  for (const line of stdout.toString().split('\n')) {
    if (!line) continue;
    const [pts, size, flags] = line.split(',');
    bytes += Number(size) || 0;
    const key = (flags ?? '').includes('K');
    if (first) startsWithKeyframe = key;
    first = false;
    if (key && pts !== 'N/A') keys.push(Number(pts));
  }
  keys.sort((a, b) => a - b);
  let maxGap = keys.length ? Math.max(0, probe.durationSeconds - keys[keys.length - 1]) : Infinity;
  for (let i = 1; i < keys.length; i++) maxGap = Math.max(maxGap, keys[i] - keys[i - 1]);
  return {
    codec: String(video?.codec_name ?? ''),
    profile: String(video?.profile ?? ''),
    pixFmt: String(video?.pix_fmt ?? ''),
    width: probe.width,
    height: probe.height,
    rotation: probe.rotation,
    fps: probe.fps,
    audioCodec: audio ? String(audio.codec_name ?? '') : null,
    videoKbps: probe.durationSeconds > 0 ? (bytes * 8) / 1000 / probe.durationSeconds : 0,
    maxKeyframeGap: maxGap,
    startsWithKeyframe,
    interlaced: probe.interlaced === true,
    hdr: !!probe.hdr,
  };
}

async function remuxPlan(input: string, probe: VideoProbe, planned: ReturnType<typeof plannedSessionRenditions>, signal?: AbortSignal) {
  if (probe.codec !== 'h264' || probe.rotation !== 0 || !planned.some((r) => r.width === probe.width && r.height === probe.height)) {
    return { rendition: null, audio: false };
  }
  return remuxDecision(await remuxFacts(input, probe, signal), planned);
}

/**
 * Writes a JPEG poster: the most representative frame (ffmpeg `thumbnail`, which avoids
 * blurred or transitional frames) of the two seconds from `at` (default a third in), with
 * the short side at most 720.
 */
export async function renderPoster(opts: { input: string; probe: VideoProbe; at?: number; output: string; signal?: AbortSignal }) {
  const { probe } = opts;
  const duration = probe.durationSeconds || 0;
  const at = Math.max(0, Math.min(opts.at ?? duration / 3, Math.max(0, duration - 2.5)));
  const size = scaleToShortSide(probe.width, probe.height, Math.min(720, evenFloor(Math.min(probe.width, probe.height))));
  const frames = Math.max(1, Math.min(60, Math.round((probe.fps || 30) * 2)));
  const grab = (from: number) =>
    runFfmpeg(
      ['-ss', from.toFixed(3), '-i', opts.input, '-an', '-vf', `${probe.interlaced ? `${DEINTERLACE},` : ''}thumbnail=${frames},scale=${size.width}:${size.height},${probe.hdr ? `${toSdrFilter(probe.hdr, 'bt470bg')},` : ''}setsar=1`, '-frames:v', '1', '-q:v', '3', '-f', 'image2', opts.output],
      { signal: opts.signal },
    );
  await grab(at);
  // a file whose frames end before its stated length (cut short) gives no frame there: the
  // poster comes from its start instead of failing the session
  if (at > 0 && !(await stat(opts.output).catch(() => null))?.size) await grab(0);
}

const MP4_FAMILY = new Set(['mp4', 'mov', 'm4v']);

/** A file extension matching the source's container, so `original` is served with a fitting Content-Type. */
export async function originalExtension(input: string, probe: VideoProbe, signal?: AbortSignal): Promise<string> {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'default=nw=1:nk=1', input], { signal });
  const format = stdout.toString().trim();
  const ext = extname(input).slice(1).toLowerCase();
  if (format.includes('mp4') || format.includes('mov')) return MP4_FAMILY.has(ext) ? ext : 'mp4';
  if (format.includes('matroska') || format.includes('webm')) return ['vp8', 'vp9', 'av1'].includes(probe.codec) ? 'webm' : 'mkv';
  if (format.includes('avi')) return 'avi';
  if (format.includes('mpegts')) return 'ts';
  return 'bin';
}
