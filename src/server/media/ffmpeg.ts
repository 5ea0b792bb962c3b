import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import type { HdrTransfer } from './color';

const require = createRequire(import.meta.url);

/**
 * Path of the ffmpeg binary. The npm package ships a static build so that `npm install`
 * is the whole set-up; `FFMPEG_PATH` overrides it (e.g. a newer system ffmpeg).
 */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** Path of the ffprobe binary; `FFPROBE_PATH` overrides the npm one. */
export function ffprobePath(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  return (require('@ffprobe-installer/ffprobe') as { path: string }).path;
}

export interface VideoProbe {
  /** Container duration in seconds (fractional). */
  durationSeconds: number;
  sizeBytes: number;
  width: number;
  height: number;
  /** Average frame rate of the first video stream. */
  fps: number;
  hasAudio: boolean;
  /** Clockwise rotation from the display matrix (0, 90, 180, 270); width/height are already swapped for 90/270. */
  rotation: number;
  codec: string;
  /**
   * The video is interlaced (ffprobe's `field_order` names a field order: a camcorder's 1080i, a broadcast recording):
   * renditions, clips and posters are deinterlaced, never copied. Absent in probes taken before it was read.
   */
  interlaced?: boolean;
  /**
   * High dynamic range, from ffprobe's `color_transfer`: `hlg` (ARIB STD-B67: a phone's HDR video, an iPhone's
   * default) or `pq` (SMPTE ST 2084: HDR10, Dolby Vision's base layer). Its pictures are BT.2020 and must be mapped to
   * SDR BT.709 before their colours are read (analysis) or shown as SDR. Absent for SDR video.
   */
  hdr?: HdrTransfer;
}

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

/** Runs a binary, collecting stdout and the tail of stderr; rejects on a non-zero exit. */
export function runTool(
  bin: string,
  args: string[],
  opts: { signal?: AbortSignal; maxStdout?: number } = {},
): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal });
    const out: Buffer[] = [];
    let outLen = 0;
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      outLen += b.length;
      if (opts.maxStdout === undefined || outLen <= opts.maxStdout) out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString()).slice(-8192);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new MediaToolError(`${bin.split('/').pop()} exited with code ${code}`, err));
    });
  });
}

export function runFfmpeg(args: string[], opts: { signal?: AbortSignal } = {}) {
  return runTool(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], opts);
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [n, d] = rate.split('/').map(Number);
  if (!d) return n || 0;
  return n / d;
}

/** ffprobe's `field_order` values of interlaced video: top or bottom field first, coded and displayed. */
const INTERLACED_FIELD_ORDERS = new Set(['tt', 'bb', 'tb', 'bt']);

/** ffprobe's `color_transfer` values of HDR video. */
const HDR_TRANSFERS: Record<string, HdrTransfer> = { 'arib-std-b67': 'hlg', smpte2084: 'pq' };

/** Reads duration, size, dimensions, frame rate, interlacing and dynamic range with ffprobe. Throws MediaToolError when the file is not a video. */
export async function probeVideo(path: string, opts: { signal?: AbortSignal } = {}): Promise<VideoProbe> {
  const { stdout } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
    opts,
  );
  const info = JSON.parse(stdout.toString()) as {
    streams?: Array<Record<string, any>>;
    format?: Record<string, any>;
  };
  const video = info.streams?.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video) throw new MediaToolError('no video stream', '');
  let rotation = 0;
  const sideRot = video.side_data_list?.find((s: any) => s.rotation !== undefined)?.rotation;
  if (sideRot !== undefined) rotation = ((-Number(sideRot) % 360) + 360) % 360;
  else if (video.tags?.rotate) rotation = ((Number(video.tags.rotate) % 360) + 360) % 360;
  let width = Number(video.width) || 0;
  let height = Number(video.height) || 0;
  if (rotation === 90 || rotation === 270) [width, height] = [height, width];
  // the video stream's own length where the container names it: a longer audio track (or
  // subtitles) makes the container's longer than the video that is analysed and billed
  const streamSeconds = Number(video.duration);
  const durationSeconds = streamSeconds > 0 ? streamSeconds : Number(info.format?.duration ?? 0);
  const size = Number(info.format?.size ?? 0) || (await stat(path)).size;
  return {
    durationSeconds,
    sizeBytes: size,
    width,
    height,
    fps: parseRate(video.avg_frame_rate) || parseRate(video.r_frame_rate),
    hasAudio: Boolean(info.streams?.some((s) => s.codec_type === 'audio')),
    rotation,
    codec: String(video.codec_name ?? ''),
    interlaced: INTERLACED_FIELD_ORDERS.has(String(video.field_order ?? '')),
    ...(HDR_TRANSFERS[String(video.color_transfer ?? '')] ? { hdr: HDR_TRANSFERS[String(video.color_transfer)] } : {}),
  };
}
