import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { ffprobePath, runFfmpeg, runTool, type VideoProbe } from './ffmpeg';
import { evenFloor, h264Args, runFfmpegWithProgress, scaleToShortSide } from './ffmpeg-progress';
import { getMediaStorage, mediaKeys, type MediaStorage } from './storage';

/** The session renditions of SPEC §2.2; `Np` names the short side. */
export const SESSION_RENDITIONS = [
  { name: '1080p', shortSide: 1080, crf: 23, maxrateKbps: 6000 },
  { name: '720p', shortSide: 720, crf: 23, maxrateKbps: 3500 },
  { name: '360p', shortSide: 360, crf: 26, maxrateKbps: 900 },
] as const;

export type SessionRenditionName = (typeof SESSION_RENDITIONS)[number]['name'];

/** Storage keys of a session's media, the shape of `sessions.video`; null where not produced. */
export type SessionMediaKeys = { original: string | null; preview: string | null } & Record<SessionRenditionName, string | null>;

/** Highest frame rate written; faster sources (slow-motion phone clips) are resampled to it. */
export const MAX_OUTPUT_FPS = 60;

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
}

/**
 * Which renditions a source gets: every one whose short side is at most the source's short
 * side (never upscaled), with its output size.
 */
export function plannedSessionRenditions(probe: Pick<VideoProbe, 'width' | 'height'>) {
  const short = Math.min(probe.width, probe.height);
  return SESSION_RENDITIONS.filter((r) => r.shortSide <= short).map((r) => ({ ...r, ...scaleToShortSide(probe.width, probe.height, r.shortSide) }));
}

/**
 * Produces a session's media and stores it: the source as received (`original`), a JPEG
 * poster (`preview`) and H.264/AAC MP4 renditions `1080p`/`720p`/`360p` up to the source's
 * short side. All renditions come out of ONE ffmpeg process that decodes the source once and
 * splits the frames to one encoder per rendition — on 2 cores this costs about a sixth less
 * CPU than one process per rendition, because decoding is paid once. Keys are fixed per
 * session, so a retried step overwrites the same objects.
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
    if (planned.length) {
      const chains = planned.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1[o${i}]`);
      const pre = (probe.fps || 0) > MAX_OUTPUT_FPS ? `fps=${MAX_OUTPUT_FPS},` : '';
      const graph = `[0:v:0]${pre}split=${planned.length}${planned.map((_, i) => `[s${i}]`).join('')};${chains.join(';')}`;
      const outputs = planned.flatMap((r, i) => [
        '-map', `[o${i}]`,
        ...(probe.hasAudio ? ['-map', '0:a:0'] : []),
        ...h264Args({ crf: r.crf, maxrateKbps: r.maxrateKbps, fps, audio: probe.hasAudio }),
        join(work, `${r.name}.mp4`),
      ]);
      await runFfmpegWithProgress(['-i', opts.input, '-filter_complex', graph, ...outputs], {
        signal,
        durationSeconds: probe.durationSeconds,
        onProgress: opts.onProgress && ((f) => opts.onProgress!(f * encodeShare)),
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

    const ext = await originalExtension(opts.input, probe, signal);
    result.original = mediaKeys.sessionOriginal(sessionId, ext);
    await storage.putFile(result.original, opts.input);
    opts.onProgress?.(1);
    return result;
  } finally {
    if (ownWorkDir) await rm(work, { recursive: true, force: true });
  }
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
  await runFfmpeg(
    ['-ss', at.toFixed(3), '-i', opts.input, '-an', '-vf', `thumbnail=${frames},scale=${size.width}:${size.height},setsar=1`, '-frames:v', '1', '-q:v', '3', '-f', 'image2', opts.output],
    { signal: opts.signal },
  );
}

const MP4_FAMILY = new Set(['mp4', 'mov', 'm4v']);

/** A file extension matching the source's container, so `original` is served with a fitting Content-Type. */
async function originalExtension(input: string, probe: VideoProbe, signal?: AbortSignal): Promise<string> {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'default=nw=1:nk=1', input], { signal });
  const format = stdout.toString().trim();
  const ext = extname(input).slice(1).toLowerCase();
  if (format.includes('mp4') || format.includes('mov')) return MP4_FAMILY.has(ext) ? ext : 'mp4';
  if (format.includes('matroska') || format.includes('webm')) return ['vp8', 'vp9', 'av1'].includes(probe.codec) ? 'webm' : 'mkv';
  if (format.includes('avi')) return 'avi';
  if (format.includes('mpegts')) return 'ts';
  return 'bin';
}
