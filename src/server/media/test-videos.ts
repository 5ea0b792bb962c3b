import { join } from 'node:path';
import { ffmpegPath, ffprobePath, probeVideo, runFfmpeg, runTool, type VideoProbe } from './ffmpeg';
import { PQ_REFERENCE_WHITE_NITS, zscaleOnce } from './color';

/**
 * Test sources for the media tests: a brightness gradient along the long side (so the
 * position of a crop can be read back from a frame's mean brightness), a moving test
 * pattern in one corner (so frames differ over time), and optionally a sine tone.
 */
export async function makeTestVideo(opts: {
  path: string;
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  audio: boolean;
  /** Keyframe interval in frames (default one a second). */
  gop?: number;
  /** x264 preset (default `ultrafast`: Constrained Baseline, no B-frames; `veryfast` gives High with B-frames). */
  preset?: string;
  /** Interlaced, top field first (a camcorder's 1080i): each frame weaves two fields drawn 1 / (2 · fps) s apart. */
  interlaced?: boolean;
  /** An HDR video: the same pictures in HLG (a phone's) or PQ (HDR10, SDR white at 203 cd/m²) and BT.2020, 10-bit HEVC, flagged as such. */
  hdr?: 'hlg' | 'pq';
}): Promise<void> {
  const fps = opts.fps ?? 30;
  // an interlaced frame weaves two pictures of a source at twice its rate
  const rate = opts.interlaced ? 2 * fps : fps;
  const along = opts.width >= opts.height ? 'X/W' : 'Y/H';
  // interlaced: a pattern as high as the frame, so that most of the picture moves and its fields comb
  const pattern = opts.interlaced ? Math.min(opts.width, opts.height) : Math.round(Math.min(opts.width, opts.height) / 8);
  const args = [
    // The gradient is computed for one frame and looped: geq over every frame would dominate the test time.
    '-f', 'lavfi', '-i', `color=c=gray:s=${opts.width}x${opts.height}:r=${rate}:d=${(1 / rate).toFixed(4)},format=yuv420p,geq=lum='255*${along}':cb=128:cr=128,loop=loop=-1:size=1:start=0`,
    '-f', 'lavfi', '-i', `testsrc2=s=${pattern}x${pattern}:r=${rate}:d=${opts.seconds}`,
    ...(opts.audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${opts.seconds}`] : []),
    '-filter_complex',
    `[0:v][1:v]overlay=0:0:shortest=1${opts.interlaced ? ',tinterlace=mode=interleave_top,setfield=tff' : ''}${opts.hdr ? `,${HDR_FROM_SDR[opts.hdr]}` : ''}[v]`,
    '-map', '[v]',
    ...(opts.audio ? ['-map', '2:a', '-c:a', 'aac', '-b:a', '96k'] : []),
    ...(opts.hdr
      ? hdrEncoderArgs(opts.hdr)
      : ['-c:v', 'libx264', '-preset', opts.preset ?? 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p']),
    ...(opts.interlaced ? ['-flags', '+ilme+ildct', '-x264opts', 'tff=1'] : []), '-g', String(opts.gop ?? fps), ...(opts.gop ? ['-keyint_min', String(opts.gop), '-sc_threshold', '0'] : []),
    '-t', String(opts.seconds),
    opts.path,
  ];
  await runFfmpeg(args);
}

/** SDR pictures (YUV read with the BT.601 matrix, as untagged video is) as HLG BT.2020, 10-bit. */
export const HLG_FROM_SDR = `${zscaleOnce('tin=bt709:min=bt470bg:pin=bt709:rin=tv:npl=100', { trc: 'arib-std-b67', primaries: 'bt2020', matrix: 'bt2020nc' })},format=yuv420p10le`;

/** The same as PQ BT.2020, 10-bit, SDR's white at the reference white of HDR10 production ({@link PQ_REFERENCE_WHITE_NITS}). */
export const PQ_FROM_SDR = `${zscaleOnce(`tin=bt709:min=bt470bg:pin=bt709:rin=tv:npl=${PQ_REFERENCE_WHITE_NITS}`, { trc: 'smpte2084', primaries: 'bt2020', matrix: 'bt2020nc' })},format=yuv420p10le`;

/** The conversion of SDR pictures to each HDR transfer. */
const HDR_FROM_SDR = { hlg: HLG_FROM_SDR, pq: PQ_FROM_SDR } as const;

/** Encoder options for HDR pictures (after {@link HLG_FROM_SDR} or {@link PQ_FROM_SDR}): 10-bit HEVC, flagged BT.2020 and its transfer. */
export function hdrEncoderArgs(hdr: 'hlg' | 'pq'): string[] {
  const transfer = hdr === 'hlg' ? 'arib-std-b67' : 'smpte2084';
  return ['-c:v', 'libx265', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p10le', '-x265-params', `colorprim=bt2020:transfer=${transfer}:colormatrix=bt2020nc:log-level=error`];
}

type TestVideoSpec = Omit<Parameters<typeof makeTestVideo>[0], 'path'>;

/** A test video and its probe. */
export interface ProbedVideo {
  path: string;
  probe: VideoProbe;
}

/**
 * Makes several test videos in `dir` at once (`<name>.mp4`, specs as for {@link makeTestVideo})
 * and probes each: the set-up of the clip tests, keyed by name.
 */
export async function makeProbedVideos<K extends string>(
  dir: string,
  specs: Record<K, TestVideoSpec>,
): Promise<Record<K, ProbedVideo>> {
  const names = Object.keys(specs) as K[];
  const made = await Promise.all(
    names.map(async (name): Promise<ProbedVideo> => {
      const path = join(dir, `${name}.mp4`);
      await makeTestVideo({ ...specs[name], path });
      return { path, probe: await probeVideo(path) };
    }),
  );
  return Object.fromEntries(names.map((name, i) => [name, made[i]])) as Record<K, ProbedVideo>;
}

/** Mean luma (0–255) of the frame at `t` seconds (t = 0 for a still image), read by scaling the frame to one grey pixel. */
export async function meanLumaAt(path: string, t: number): Promise<number> {
  const { stdout } = await runTool(
    ffmpegPath(),
    ['-v', 'error', ...(t > 0 ? ['-ss', t.toFixed(3)] : []), '-i', path, '-frames:v', '1', '-vf', 'scale=1:1:flags=area,format=gray', '-f', 'rawvideo', 'pipe:1'],
  );
  return stdout[0];
}

/** The streams of a media file as ffprobe reports them. */
export async function probeStreams(path: string): Promise<Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>> {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_streams', path]);
  return (JSON.parse(stdout.toString()) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }> }).streams;
}

/** Top-level MP4 box types in file order (a faststart file has `moov` before `mdat`). */
export function topLevelBoxes(buf: Buffer): string[] {
  const types: string[] = [];
  let offset = 0;
  while (offset + 8 <= buf.length) {
    let size = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(buf.readBigUInt64BE(offset + 8));
    else if (size === 0) size = buf.length - offset;
    types.push(type);
    if (size < 8) break;
    offset += size;
  }
  return types;
}

/** The `video` keys of a highlight cut from a 1280×720 source: no `1080p`, the `720p` is the horizontal file, `480p`…`144p` their own. */
export function highlightKeys720(sessionId: string, highlightId: string): Record<string, string | null> {
  const k = (n: string) => `sessions/${sessionId}/highlights/${highlightId}/${n}.mp4`;
  return { default: k('default'), horizontal: k('horizontal'), '1080p': null, '720p': k('horizontal'), '480p': k('480p'), '360p': k('360p'), '240p': k('240p'), '144p': k('144p') };
}

/**
 * How ffmpeg's `idet` filter classifies a video's frames from their pictures (not their flags): interlaced (either
 * field first) or progressive.
 */
export async function detectInterlace(path: string): Promise<{ interlaced: number; progressive: number }> {
  const { stderr } = await runTool(ffmpegPath(), ['-hide_banner', '-nostdin', '-nostats', '-i', path, '-an', '-vf', 'idet', '-f', 'null', '-'], {});
  const m = /Multi frame detection: TFF:\s*(\d+) BFF:\s*(\d+) Progressive:\s*(\d+)/.exec(stderr);
  if (!m) throw new Error(`idet gave no frame counts for ${path}`);
  return { interlaced: Number(m[1]) + Number(m[2]), progressive: Number(m[3]) };
}
