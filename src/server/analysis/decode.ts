import { spawn } from 'node:child_process';
import { toSdrFilter, type HdrTransfer } from '../media/color';
import { ffmpegPath } from '../media/ffmpeg';

export interface DecodeGeometry {
  /** Analysis frame width in pixels (even). */
  width: number;
  /** Analysis frame height in pixels (even). */
  height: number;
  /** Analysis frame rate (frames per second of file time). */
  fps: number;
  /** Pixel layout of the frames ffmpeg delivers (see {@link FrameFormat}); `rgb24` when absent. */
  format?: FrameFormat;
  /** ffmpeg decoding threads (0 = ffmpeg's default); see {@link decodeThreads}. */
  threads?: number;
  /** Decode without H.264/HEVC deblocking (see {@link defaultSkipLoopFilter}); off when absent. */
  skipLoopFilter?: boolean;
  /** Pixels of one source frame (width × height before scaling), when known: bounds the decoders one re-decode process keeps open. */
  sourcePixels?: number;
  /** How RGB frames are made (see {@link RgbChain}); `direct` when absent. */
  rgbChain?: RgbChain;
  /** The source is HDR (`VideoProbe.hdr`): its frames are mapped to SDR once scaled ({@link scaleFilter}). */
  hdr?: HdrTransfer;
}

/**
 * The analysis-size scale of a geometry's frames, with an HDR source's mapping to SDR after it (`media/color.ts`): the
 * frames go on as untagged video does, YUV with the BT.601 matrix (what swscale's RGB conversion and the features' own
 * assume). Unmapped, a phone's HLG video decodes dim and washed out: HLG copies of the real clips lost 5 of their 27
 * shots (two clips found no hoop); mapped, 1. The mapping costs those clips' analysis about two thirds more CPU (0.35
 * CPU-s per video second against 0.21 unmapped; see "zscale set up once" in MEASUREMENTS.md).
 */
export function scaleFilter(geo: Pick<DecodeGeometry, 'width' | 'height' | 'hdr'>): string {
  const scale = `scale=${geo.width}:${geo.height}:flags=area`;
  return geo.hdr ? `${scale},${toSdrFilter(geo.hdr, 'bt470bg')}` : scale;
}

/**
 * How ffmpeg makes the RGB frames (the `rgb24` layout, the side output of the YUV layouts and the
 * re-decoded release frames):
 * - `direct`: one swscale step scales the source to the analysis size and converts it to RGB.
 *   swscale computes an `rgb24` output's chroma at half its width (4:2:2) and full height.
 * - `yuv422p`: the source is scaled to the analysis size in 4:2:2 (the same chroma grid as
 *   `direct`), then the small frame is converted to RGB by swscale's unscaled converter. ffmpeg's
 *   chain costs ~20 % less; the pixels are within a few levels of `direct` everywhere (~1 level
 *   lighter on average: the scaled frame is rounded to 8 bits before the conversion).
 * - `yuv420p`: the same through 4:2:0 (chroma at half the height too): as cheap, but colours
 *   differ by up to ~30 levels at horizontal edges, and that moves made/missed calls.
 * `SWISH_RGB_CHAIN` overrides the default.
 */
export type RgbChain = 'direct' | 'yuv422p' | 'yuv420p';

export const DEFAULT_RGB_CHAIN: RgbChain = 'direct';

export function defaultRgbChain(): RgbChain {
  return envChoice('SWISH_RGB_CHAIN', ['direct', 'yuv422p', 'yuv420p'], DEFAULT_RGB_CHAIN);
}

/** The value of an environment variable when it is one of `values`, else `fallback`. */
function envChoice<T extends string>(name: string, values: readonly T[], fallback: T): T {
  const env = process.env[name];
  return values.includes(env as T) ? (env as T) : fallback;
}

/** The ffmpeg filter that brings a decoded frame to the analysis size, ready for an `rgb24` output. */
export function rgbScaleFilter(geo: Pick<DecodeGeometry, 'width' | 'height' | 'rgbChain' | 'hdr'>): string {
  const scale = scaleFilter(geo);
  return geo.rgbChain && geo.rgbChain !== 'direct' ? `${scale},format=${geo.rgbChain}` : scale;
}

/**
 * Whether the main decode skips the in-loop deblocking filter (`-skip_loop_filter all`):
 * `SWISH_SKIP_LOOP_FILTER=1` turns it on. It saves ~20 % of the decode chain's CPU on the
 * synthetic 720p games (0.024 CPU-s per video second), but the blocking edges of real,
 * compressed footage then pass the motion and colour thresholds (one real clip went from 3 to 7
 * detections), so it is off by default. (The release-frame reader in jersey.ts, which only
 * samples colours, decodes this way.)
 */
export function defaultSkipLoopFilter(): boolean {
  return process.env.SWISH_SKIP_LOOP_FILTER === '1';
}

/**
 * Pixel layout of the analysis frames:
 * - `rgb24`: interleaved RGB; ffmpeg scales and converts to RGB (the original chain).
 * - `yuv444p`: planar Y, U, V at the analysis size. ffmpeg only scales (no colour conversion),
 *   and the chroma keeps the resolution the `rgb24` chain had (a 4:2:0 source scaled 2× down has
 *   its chroma at the analysis size); the features convert to RGB where they need colour.
 * - `yuv420p`: planar Y plus U and V at half the analysis size each way: the cheapest chain (half
 *   the pipe), but the chroma of a small ball is then 2×2 coarser.
 */
export type FrameFormat = 'rgb24' | 'yuv444p' | 'yuv420p';

/**
 * The decode chain used when the caller does not choose one: `SWISH_DECODE_CHAIN` (one of the
 * {@link FrameFormat} values) overrides it, so that the old and the new chain can be compared on
 * the same code (`SWISH_DECODE_CHAIN=rgb24 npm run bench:analysis`).
 */
export const DEFAULT_FRAME_FORMAT: FrameFormat = 'rgb24';

export function defaultFrameFormat(): FrameFormat {
  return envChoice('SWISH_DECODE_CHAIN', ['rgb24', 'yuv444p', 'yuv420p'], DEFAULT_FRAME_FORMAT);
}

/** Bytes of one analysis frame. */
export function frameBytes(geo: Pick<DecodeGeometry, 'width' | 'height' | 'format'>): number {
  const n = geo.width * geo.height;
  return geo.format === 'yuv420p' ? n + 2 * ((geo.width >> 1) * (geo.height >> 1)) : n * 3;
}

/**
 * ffmpeg decoding threads for a source: one up to 720p. Frame-threaded decoding gives the same
 * (bit-exact) frames for more CPU, and on two cores the worker threads use the other core: two
 * threads at 720p measured 10–20 % more ffmpeg CPU and no shorter extraction (MEASUREMENTS.md, "Speed
 * work, seventh round"). Larger sources get two threads so that the decode does not become the
 * wall-clock bottleneck. `SWISH_DECODE_THREADS` (1–16) sets the count for every source, for a
 * machine with more cores than the two measured here.
 */
export function decodeThreads(src: { width: number; height: number }): number {
  const env = Number(process.env.SWISH_DECODE_THREADS);
  if (Number.isInteger(env) && env >= 1 && env <= 16) return env;
  return src.width * src.height <= 1280 * 720 * 1.05 ? 1 : 2;
}

/**
 * Picks the analysis resolution and rate. The longer side is capped (the rim must stay several
 * pixels wide, the ball a few pixels across) and the rate is capped at 30 fps: sped-up clips
 * have ball flights of ~15 frames at 30 fps, which the make model needs.
 */
export function chooseGeometry(
  src: { width: number; height: number; fps: number; hdr?: HdrTransfer },
  opts: { maxSide?: number; maxFps?: number; format?: FrameFormat } = {},
): DecodeGeometry {
  const maxSide = opts.maxSide ?? 640;
  const maxFps = opts.maxFps ?? 30;
  const scale = Math.min(1, maxSide / Math.max(src.width, src.height));
  const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);
  const fps = src.fps > 0 ? Math.min(src.fps, maxFps) : maxFps;
  return {
    width: even(src.width * scale),
    height: even(src.height * scale),
    fps,
    format: opts.format ?? defaultFrameFormat(),
    threads: decodeThreads(src),
    sourcePixels: src.width * src.height,
    ...(defaultRgbChain() !== 'direct' ? { rgbChain: defaultRgbChain() } : {}),
    ...(defaultSkipLoopFilter() ? { skipLoopFilter: true } : {}),
    ...(src.hdr ? { hdr: src.hdr } : {}),
  };
}

/**
 * Extra RGB copies of some frames, exactly as the `rgb24` chain delivers them (ffmpeg scales
 * and converts those frames alone): every frame whose index is a multiple of one of `every`.
 * The hoop, rim and court searches read these, so with a YUV chain they see the same pixels as
 * before; only the per-frame features change layout.
 */
export interface RgbSideFrames {
  every: number[];
  onRgb: (rgb: Uint8Array, index: number) => void;
  /** Called once the side pipe has delivered its last frame (or failed). */
  onEnd?: () => void;
}

/**
 * Whether a decode of this geometry delivers the hoop, rim and court search frames through the
 * side pipe: the YUV layouts, and `rgb24` made through a two-stage chain (see {@link RgbChain}):
 * the side pipe then carries the `direct` chain's frames.
 */
export function usesSidePipe(geo: Pick<DecodeGeometry, 'format' | 'rgbChain'>): boolean {
  return (geo.format ?? 'rgb24') !== 'rgb24' || (geo.rgbChain ?? 'direct') !== 'direct';
}

/** A part of a video to decode, in analysis frame indices (see {@link streamFrames}). */
export interface FrameRange {
  /** Index of the first frame delivered. */
  first: number;
  /**
   * Reach `first` by an input seek (ffmpeg decodes from the key frame before it and drops the
   * frames before it), rather than by decoding from the start and not delivering the frames
   * before it. The caller checks that a seek landed on the frame it asked for (see extract.ts).
   */
  seek: boolean;
  /** Index after the last frame delivered: ffmpeg stops there. The rest of the video when absent. */
  end?: number;
}

/**
 * Streams decoded frames (layout `geo.format`) of a video at the analysis geometry, one frame at
 * a time, so the whole video is never held in memory. `onFrame` may return a promise: reading
 * pauses until it resolves, which gives natural back-pressure against the worker pool. With
 * `side` (YUV layouts only), the selected frames also arrive as RGB through a second pipe.
 * With `range` (not with `side`), only that part of the video is delivered, with its own indices;
 * the result is then the index after the last frame delivered.
 */
export async function streamFrames(
  path: string,
  geo: DecodeGeometry,
  onFrame: (frame: Uint8Array, index: number) => void | Promise<void>,
  signal?: AbortSignal,
  side?: RgbSideFrames,
  buffers?: FrameBuffers,
  range?: FrameRange,
): Promise<number> {
  const bytes = frameBytes(geo);
  const format = geo.format ?? 'rgb24';
  const withSide = !!side && usesSidePipe(geo) && side.every.length > 0;
  if (withSide && range) throw new Error('streamFrames: a frame range cannot be decoded with a side pipe');
  const seekTo = range?.seek && range.first > 0 ? range.first : 0;
  const skip = range?.first ?? 0;
  // The side pipe always carries the direct chain's RGB frames; an rgb24 main output is made as
  // `geo.rgbChain` says.
  const scale = scaleFilter(geo);
  const mainScale = format === 'rgb24' ? rgbScaleFilter(geo) : scale;
  const every = withSide ? side!.every.map((k) => Math.max(1, Math.round(k))) : [];
  const isSide = (i: number) => every.some((k) => i % k === 0);
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...(geo.threads ? ['-threads', String(geo.threads)] : []),
    ...(geo.skipLoopFilter ? ['-skip_loop_filter', 'all'] : []),
    // Frame i starts at i / fps: seeking a quarter of a frame before it makes it the first frame
    // out. The timestamps stay those of a decode from the start (`-copyts -start_at_zero`), so
    // the fps filter keeps and repeats the same frames of a variable-rate source as that decode.
    ...(seekTo ? ['-ss', ((seekTo - 0.25) / geo.fps).toFixed(6)] : []),
    '-i',
    path,
    ...(seekTo ? ['-copyts', '-start_at_zero'] : []),
    '-an',
    '-sn',
    ...(withSide
      ? [
          // One decode, two outputs: all frames in `format`, and the selected frames scaled
          // and converted to RGB exactly as the rgb24 chain does. Passthrough sync keeps the
          // selected frames from being duplicated to fill the gaps.
          '-filter_complex',
          `[0:v]fps=${geo.fps},split=2[a][b];[a]${mainScale}[main];` +
            `[b]select='${every.map((k) => `not(mod(n\,${k}))`).join('+')}',${scale}[side]`,
          '-vsync',
          '0',
          '-map',
          '[main]',
          '-f',
          'rawvideo',
          '-pix_fmt',
          format,
          'pipe:1',
          '-map',
          '[side]',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          'pipe:3',
        ]
      : [
          '-vf',
          `fps=${geo.fps},${mainScale}`,
          ...(range?.end !== undefined ? ['-frames:v', String(Math.max(0, range.end - seekTo))] : []),
          '-f',
          'rawvideo',
          '-pix_fmt',
          format,
          'pipe:1',
        ]),
  ];
  const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe', withSide ? 'pipe' : 'ignore'] });
  // The side pipe is drained as it comes (a frame every second or so), so ffmpeg never blocks on it.
  const sideDone = withSide
    ? readSide(child.stdio[3] as NodeJS.ReadableStream, geo.width * geo.height * 3, isSide, side!.onRgb).finally(() => side!.onEnd?.())
    : null;
  const onAbort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4096);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  let index = seekTo;
  try {
    for await (const frame of rawFrames(child.stdout!, bytes, buffers)) {
      if (index < skip) {
        // decoded from the start up to the range: not delivered
        index++;
        buffers?.give([frame.buffer]);
        continue;
      }
      await onFrame(frame, index++);
      if (signal?.aborted) throw new Error('analysis aborted');
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  const code = await exited;
  if (sideDone) await sideDone;
  if (signal?.aborted) throw new Error('analysis aborted');
  if (code !== 0 && index === seekTo) throw new Error(`ffmpeg decode failed: ${stderr.trim()}`);
  return index;
}

/** Reads the side pipe's RGB frames; the k-th frame is the k-th index for which `isSide` holds. */
async function readSide(
  stream: NodeJS.ReadableStream,
  bytes: number,
  isSide: (i: number) => boolean,
  onRgb: (rgb: Uint8Array, index: number) => void,
): Promise<void> {
  let next = 0;
  try {
    for await (const frame of rawFrames(stream, bytes)) {
      while (!isSide(next)) next++;
      onRgb(frame, next++);
    }
  } catch {
    // the process was killed (abort or early stop): the main pipe reports
  }
}

/**
 * A free list of frame buffers of one size. Frames travel to the workers as transferred buffers
 * and come back with the results; handing them out again spares a 0.7 MB allocation, its zeroing,
 * its page faults and its garbage collection per frame (640×360 RGB at 30 fps is 20 MB/s).
 * A buffer handed out is owned by the taker until it is given back.
 */
export class FrameBuffers {
  private readonly free: Uint8Array[] = [];

  /** `max`: buffers kept at most (more given back are left to the garbage collector). */
  constructor(
    readonly bytes: number,
    private readonly max = 256,
  ) {}

  /** A buffer of `bytes` bytes (contents undefined: the caller overwrites all of it). */
  take(): Uint8Array {
    return this.free.pop() ?? new Uint8Array(this.bytes);
  }

  /** Returns buffers for reuse; buffers of another size (or detached ones) are ignored. */
  give(buffers: Iterable<ArrayBufferLike>): void {
    for (const b of buffers) {
      if (b.byteLength === this.bytes && this.free.length < this.max) this.free.push(new Uint8Array(b));
    }
  }

  /** Buffers waiting to be reused. */
  get available(): number {
    return this.free.length;
  }
}

/**
 * Cuts a raw video byte stream into frames of `bytes` bytes. Each frame is a buffer of its own
 * (it may be transferred to a worker): a fresh one, or one taken from `buffers` (every byte is
 * overwritten). The stream is not read further while the consumer works.
 */
export async function* rawFrames(stream: NodeJS.ReadableStream, bytes: number, buffers?: FrameBuffers): AsyncGenerator<Uint8Array> {
  const next = buffers && buffers.bytes === bytes ? () => buffers.take() : () => new Uint8Array(bytes);
  let frame = next();
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(bytes - filled, chunk.length - off);
      frame.set(chunk.subarray(off, off + n), filled);
      filled += n;
      off += n;
      if (filled === bytes) {
        yield frame;
        frame = next();
        filled = 0;
      }
    }
  }
}
