import { open, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ffprobePath, runFfmpeg, runTool, type VideoProbe } from './ffmpeg';
import { readAvcConfig, replaceAvcConfig, setVideoPresentationLength, type AvcConfig } from './mp4-boxes';
import { MAX_OUTPUT_FPS, REMUX_MAX_BITRATE_FACTOR } from './renditions';

/**
 * Smart cut of a clip whose every frame would be the source's own (same size, no crop): the
 * frames from the clip's start to the source's next keyframe are encoded (the "head"), the
 * rest is the source's H.264 stream copied. Only the head costs an encode.
 *
 * The head and the copied part have different parameter sets (SPS/PPS). The head is encoded
 * with x264's `sps-id` set to an id the source does not use, and the clip's `avcC` lists both
 * parts' parameter sets (ISO/IEC 14496-15 allows several): every slice names its own PPS, so
 * one `avc1` sample entry describes the whole track and every player gets all parameter sets
 * before the first frame, as with any MP4.
 */

/** The source facts a smart cut needs, read once per source. */
export interface SmartCutSource {
  input: string;
  /** Ticks per second of the video stream. */
  timescale: number;
  /** Video packets in decoding order. */
  packets: Array<{ pts: number; dts: number; duration: number; key: boolean; pos: number; size: number }>;
  /** Presentation times (ticks), ascending. */
  frameTimes: number[];
  avc: AvcConfig;
  /** x264 `--profile` and `--level` that reproduce the source's (so one avcC header fits both parts). */
  x264Profile: 'baseline' | 'main' | 'high';
  level: string;
  /** SPS and PPS id of the head: one the source does not use. */
  headParameterSetId: number;
  /** Reordering delay of the source (ticks between a keyframe's decoding and presentation). */
  maxReorderTicks: number;
  /** One frame, in ticks (from the frame rate). */
  frameTicks: number;
}

/** What a clip's smart cut does: times in seconds of source time. */
export interface SmartCutPlan {
  /** The clip's first frame (at or after the requested start): every variant starts here. */
  start: number;
  /** Length of the encoded head (0: the clip starts on a keyframe and is all copied). */
  headSeconds: number;
  /** The keyframe the copy starts at, in microseconds (rounded up, so a seek to it lands on it). */
  inpointUs: number;
  /** Exclusive decoding-time bound of the copied packets, microseconds; null: to the end of the source. */
  outpointUs: number | null;
  /** Packets copied from the source. */
  copiedPackets: number;
  /** Presented length: the frames from `start` up to the clip's end. */
  lengthSeconds: number;
}

/** A copied part shorter than this is not worth the extra steps: the clip is encoded whole. */
export const SMART_CUT_MIN_COPY_SECONDS = 1;

const X264_PROFILES: Record<string, SmartCutSource['x264Profile']> = {
  Baseline: 'baseline',
  'Constrained Baseline': 'baseline',
  Main: 'main',
  High: 'high',
};

/** Removes emulation-prevention bytes (00 00 03) from a NAL unit. */
function rbsp(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0 && out.length >= 2 && out[out.length - 1] === 0 && out[out.length - 2] === 0) continue;
    out.push(nal[i]);
  }
  return Buffer.from(out);
}

/** Exp-Golomb reader over an RBSP. */
class Bits {
  private bit = 0;
  constructor(private readonly buf: Buffer, byteOffset: number) {
    this.bit = byteOffset * 8;
  }
  u1(): number {
    const byte = this.buf[this.bit >> 3];
    if (byte === undefined) throw new RangeError('read past the end of a NAL unit');
    return (byte >> (7 - (this.bit++ & 7))) & 1;
  }
  ue(): number {
    let zeros = 0;
    while (this.u1() === 0) if (++zeros > 31) throw new RangeError('bad exp-Golomb code');
    let v = 0;
    for (let i = 0; i < zeros; i++) v = v * 2 + this.u1();
    return 2 ** zeros - 1 + v;
  }
}

/** `seq_parameter_set_id` of an SPS NAL unit. */
export function spsId(sps: Buffer): number {
  return new Bits(rbsp(sps), 4).ue();
}

/** `pic_parameter_set_id` and `seq_parameter_set_id` of a PPS NAL unit. */
export function ppsIds(pps: Buffer): { pps: number; sps: number } {
  const b = new Bits(rbsp(pps), 1);
  const ppsId = b.ue();
  return { pps: ppsId, sps: b.ue() };
}

/** NAL unit types of a length-prefixed sample. */
export function nalTypes(sample: Buffer, lengthSize: number): number[] {
  const types: number[] = [];
  let offset = 0;
  while (offset + lengthSize <= sample.length) {
    const len = sample.readUIntBE(offset, lengthSize);
    offset += lengthSize;
    if (len === 0 || offset + len > sample.length) break;
    types.push(sample[offset] & 0x1f);
    offset += len;
  }
  return types;
}

const levelName = (idc: number) => (idc % 10 === 0 ? String(idc / 10) : (idc / 10).toFixed(1));

/**
 * Reads what a smart cut needs, or returns null when the source cannot have its clips
 * copied: not an H.264 8-bit 4:2:0 stream in an MP4 `avc1` track as the first stream, rotated,
 * above 60 fps, more than twice the clip's `maxrate` on average (the same rule as a copied
 * session rendition), 4-byte NAL lengths only, or a reordering delay above x264's (two frames).
 */
export async function smartCutSource(input: string, probe: VideoProbe, clipMaxrateKbps: number, signal?: AbortSignal): Promise<SmartCutSource | null> {
  if (probe.codec !== 'h264' || probe.rotation !== 0 || !(probe.fps > 0 && probe.fps <= MAX_OUTPUT_FPS)) return null;
  const { stdout: streamsOut } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=index,codec_type,codec_name,profile,pix_fmt,time_base,level', input],
    { signal },
  );
  const streams = (JSON.parse(streamsOut.toString()) as { streams?: Array<Record<string, string | number>> }).streams ?? [];
  const video = streams[0];
  if (!video || video.codec_type !== 'video' || video.codec_name !== 'h264' || video.pix_fmt !== 'yuv420p') return null;
  const x264Profile = X264_PROFILES[String(video.profile)];
  if (!x264Profile) return null;
  const [num, den] = String(video.time_base).split('/').map(Number);
  if (num !== 1 || !(den > 0)) return null;
  const avc = await readAvcConfig(input).catch(() => null);
  if (!avc || avc.lengthSize !== 4 || !avc.sps.length || !avc.pps.length) return null;
  const used = new Set<number>();
  try {
    for (const s of avc.sps) used.add(spsId(s));
    for (const p of avc.pps) {
      const ids = ppsIds(p);
      used.add(ids.pps);
      used.add(ids.sps);
    }
  } catch {
    return null;
  }
  let headParameterSetId = 0;
  while (used.has(headParameterSetId)) headParameterSetId++;
  if (headParameterSetId > 31) return null;

  const { stdout } = await runTool(
    ffprobePath(),
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts,dts,duration,flags,pos,size', '-of', 'csv=p=0', input],
    { signal },
  );
  const packets: SmartCutSource['packets'] = [];
  let bytes = 0;
  for (const line of stdout.toString().split('\n')) {
    if (!line) continue;
    const [pts, dts, duration, size, pos, flags] = line.split(',');
    const p = { pts: Number(pts), dts: Number(dts), duration: Number(duration), key: (flags ?? '').includes('K'), pos: Number(pos), size: Number(size) };
    if (![p.pts, p.dts, p.pos, p.size].every(Number.isFinite)) return null;
    bytes += p.size;
    packets.push(p);
  }
  if (!packets.length) return null;
  const kbps = probe.durationSeconds > 0 ? (bytes * 8) / 1000 / probe.durationSeconds : Infinity;
  if (!(kbps <= REMUX_MAX_BITRATE_FACTOR * clipMaxrateKbps)) return null;
  const frameTicks = Math.round(den / probe.fps);
  let maxReorderTicks = 0;
  for (const p of packets) if (p.key) maxReorderTicks = Math.max(maxReorderTicks, p.pts - p.dts);
  // the head is encoded with x264's B-frame pyramid: two frames of delay; a source that
  // reorders more would need its copied packets decoded before the head's last ones
  if (maxReorderTicks > 2 * frameTicks + 1) return null;
  return {
    input,
    timescale: den,
    packets,
    frameTimes: packets.map((p) => p.pts).sort((a, b) => a - b),
    avc,
    x264Profile,
    level: levelName(Number(video.level) || avc.level),
    headParameterSetId,
    maxReorderTicks,
    frameTicks,
  };
}

/** First index of a sorted array whose value is at least `v`. */
function lowerBound(sorted: number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Plans the smart cut of `[start, end)` (seconds), or null when it does not pay: no keyframe
 * inside the clip with at least `SMART_CUT_MIN_COPY_SECONDS` after it, a keyframe that is
 * not an IDR picture (an open GOP would refer to frames before it), or packets around it
 * out of order. Reads the keyframe's NAL unit types from the source.
 */
export async function planSmartCut(src: SmartCutSource, start: number, end: number): Promise<SmartCutPlan | null> {
  const ts = src.timescale;
  // the clip's first frame: the first presented at or after `start` (half a tick of slack for rounding)
  const first = src.frameTimes[lowerBound(src.frameTimes, start * ts - 0.5)];
  const endTicks = end * ts - 0.5;
  if (first === undefined || first >= endTicks) return null;
  // the keyframe the copy starts at: the first at or after the clip's first frame
  const keyIndex = src.packets.findIndex((p) => p.key && p.pts >= first);
  if (keyIndex < 0) return null;
  const key = src.packets[keyIndex];
  if ((endTicks - key.pts) / ts < SMART_CUT_MIN_COPY_SECONDS) return null;
  // closed GOP: nothing decoded before the keyframe is shown after it, nothing decoded after
  // it is shown before it (reordering reaches a few frames; 256 packets either side is ample)
  for (let i = Math.max(0, keyIndex - 256); i < Math.min(src.packets.length, keyIndex + 256); i++) {
    if (i < keyIndex ? src.packets[i].pts >= key.pts : src.packets[i].pts < key.pts) return null;
  }
  const fh = await open(src.input, 'r');
  try {
    const sample = Buffer.alloc(key.size);
    await fh.read(sample, 0, key.size, key.pos);
    if (!nalTypes(sample, src.avc.lengthSize).includes(5)) return null;
  } finally {
    await fh.close();
  }
  // the copied packets: from the keyframe to the last (in decoding order) shown before the end
  let last = keyIndex;
  for (let i = keyIndex; i < src.packets.length; i++) if (src.packets[i].pts < endTicks) last = i;
  const next = src.packets[last + 1];
  const firstAfter = src.frameTimes[lowerBound(src.frameTimes, endTicks)];
  const lastShown = src.frameTimes[lowerBound(src.frameTimes, endTicks) - 1];
  const endOfClip = firstAfter ?? lastShown + (src.packets.find((p) => p.pts === lastShown)?.duration || src.frameTicks);
  const us = (ticks: number) => (ticks * 1e6) / ts;
  return {
    start: first / ts,
    headSeconds: (key.pts - first) / ts,
    inpointUs: Math.ceil(us(key.pts)),
    outpointUs: next ? Math.round(us((src.packets[last].dts + next.dts) / 2)) : null,
    copiedPackets: last + 1 - keyIndex,
    lengthSeconds: (endOfClip - first) / ts,
  };
}

/** Output options of the head's encoder (after `h264Args`): the source's profile and level, its own parameter-set id, the source's time scale. */
export function headEncoderArgs(src: SmartCutSource): string[] {
  return [
    '-profile:v', src.x264Profile,
    '-level', src.level,
    '-x264-params', `sps-id=${src.headParameterSetId}`,
    '-video_track_timescale', String(src.timescale),
  ];
}

const concatPath = (p: string) => `'${p.replace(/'/g, "'\\''")}'`;
const seconds6 = (us: number) => (us / 1e6).toFixed(6);

/**
 * Writes the smart-cut clip: the encoded head (`headFile`, null when the clip starts on a
 * keyframe) then the source's packets from the keyframe, with `audioFile` (AAC, copied) when
 * given, as a faststart MP4 whose `avcC` carries both parts' parameter sets and whose video
 * is presented for exactly the clip's length. Checks the packet count it expects.
 */
export async function writeSmartCut(opts: {
  src: SmartCutSource;
  plan: SmartCutPlan;
  headFile: string | null;
  audioFile: string | null;
  output: string;
  work: string;
  signal?: AbortSignal;
}): Promise<void> {
  const { src, plan, work, signal } = opts;
  const lines = ['ffconcat version 1.0'];
  let headPackets = 0;
  if (opts.headFile) {
    const headAvc = await readAvcConfig(opts.headFile);
    if (!headAvc || headAvc.lengthSize !== src.avc.lengthSize) throw new Error('smart cut: the head has no usable avcC');
    const merged: AvcConfig = {
      ...src.avc,
      profile: Math.max(src.avc.profile, headAvc.profile),
      compatibility: src.avc.compatibility & headAvc.compatibility,
      level: Math.max(src.avc.level, headAvc.level),
      sps: [...src.avc.sps, ...headAvc.sps],
      pps: [...src.avc.pps, ...headAvc.pps],
    };
    const patched = join(work, 'head-merged.mp4');
    await writeFile(patched, replaceAvcConfig(await readFile(opts.headFile), merged));
    const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=dts', '-of', 'csv=p=0', patched], { signal });
    const headDts = stdout.toString().split('\n').filter(Boolean).map(Number);
    headPackets = headDts.length;
    // decoding times must keep increasing across the join (the head's reordering delay covers the source's)
    const keyPacket = src.packets.find((p) => Math.ceil((p.pts * 1e6) / src.timescale) === plan.inpointUs);
    if (!keyPacket) throw new Error('smart cut: keyframe not found');
    const headTimescale = src.timescale;
    const joinDts = Math.round(plan.headSeconds * headTimescale) - (keyPacket.pts - keyPacket.dts);
    if (!(headDts[headDts.length - 1] < joinDts)) throw new Error('smart cut: decoding times would go back at the join');
    lines.push(`file ${concatPath(resolve(patched))}`, `duration ${plan.headSeconds.toFixed(6)}`);
  }
  lines.push(`file ${concatPath(resolve(src.input))}`, `inpoint ${seconds6(plan.inpointUs)}`);
  if (plan.outpointUs !== null) lines.push(`outpoint ${seconds6(plan.outpointUs)}`);
  const list = join(work, 'smart-cut.ffconcat');
  await writeFile(list, lines.join('\n') + '\n');
  const joined = join(work, 'smart-cut.mp4');
  await runFfmpeg(
    [
      // the copied part's own timestamps (from 0 at the clip's first frame): without -copyts
      // ffmpeg would shift them by the source's audio packets read around the keyframe
      '-copyts',
      '-f', 'concat', '-safe', '0', '-i', list,
      ...(opts.audioFile ? ['-i', opts.audioFile] : []),
      '-map', '0:v:0', ...(opts.audioFile ? ['-map', '1:a:0'] : []),
      '-c', 'copy', '-tag:v', 'avc1', '-movflags', '+faststart', '-f', 'mp4', joined,
    ],
    { signal },
  );
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', joined], { signal });
  const count = Number(stdout.toString().trim());
  if (count !== headPackets + plan.copiedPackets) throw new Error(`smart cut: ${count} video packets written, ${headPackets + plan.copiedPackets} expected`);
  const file = await readFile(joined);
  setVideoPresentationLength(file, plan.lengthSeconds);
  await writeFile(opts.output, file);
}
