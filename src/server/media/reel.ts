import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeVideo, runFfmpeg } from './ffmpeg';
import { evenFloor, h264Args, runFfmpegWithProgress } from './ffmpeg-progress';
import { MAX_OUTPUT_FPS } from './renditions';
import { getMediaStorage, mediaKeys, type MediaStorage } from './storage';

export interface ReelRenderResult {
  key: string;
  posterKey: string;
  durationSeconds: number;
  width: number;
  height: number;
}

/**
 * Concatenates clips (local MP4 files, in order) into one reel MP4 and a JPEG poster, stored
 * under `reels/<reel>/`. Every clip is re-encoded to one frame size (the first clip's, each
 * other scaled to fit and letterboxed), one frame rate and one audio format, so the output
 * has uniform streams whatever the inputs. When some clips have audio and others do not,
 * silence fills the gaps; when none has audio, the reel has none.
 */
export async function renderReel(opts: {
  reelId: string;
  clips: string[];
  storage?: MediaStorage;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}): Promise<ReelRenderResult> {
  if (opts.clips.length === 0) throw new RangeError('a reel needs at least one clip');
  const storage = opts.storage ?? getMediaStorage();
  const work = await mkdtemp(join(tmpdir(), 'swish-reel-'));
  try {
    const probes = await Promise.all(opts.clips.map((c) => probeVideo(c, { signal: opts.signal })));
    const width = evenFloor(probes[0].width);
    const height = evenFloor(probes[0].height);
    const fps = Math.min(Math.round(probes[0].fps || 30), MAX_OUTPUT_FPS);
    const audio = probes.some((p) => p.hasAudio);
    const inputs: string[] = opts.clips.flatMap((c) => ['-i', c]);
    const graph: string[] = [];
    let extra = opts.clips.length;
    const labels: string[] = [];
    probes.forEach((p, i) => {
      graph.push(
        `[${i}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease:flags=bicubic,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p[v${i}]`,
      );
      labels.push(`[v${i}]`);
      if (!audio) return;
      let source = `${i}:a:0`;
      if (!p.hasAudio) {
        inputs.push('-f', 'lavfi', '-t', p.durationSeconds.toFixed(3), '-i', 'anullsrc=r=44100:cl=stereo');
        source = `${extra++}:a:0`;
      }
      graph.push(`[${source}]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=stereo[a${i}]`);
      labels.push(`[a${i}]`);
    });
    graph.push(`${labels.join('')}concat=n=${opts.clips.length}:v=1:a=${audio ? 1 : 0}[v]${audio ? '[a]' : ''}`);
    const total = probes.reduce((a, p) => a + p.durationSeconds, 0);
    const out = join(work, 'reel.mp4');
    const short = Math.min(width, height);
    await runFfmpegWithProgress(
      [
        ...inputs,
        '-filter_complex', graph.join(';'),
        '-map', '[v]',
        ...(audio ? ['-map', '[a]'] : []),
        ...h264Args({ crf: 23, maxrateKbps: short >= 1080 ? 6000 : short >= 720 ? 3500 : 1800, fps, audio }),
        out,
      ],
      { signal: opts.signal, durationSeconds: total, onProgress: opts.onProgress && ((f) => opts.onProgress!(f * 0.95)) },
    );
    const measured = await probeVideo(out, { signal: opts.signal });
    const poster = join(work, 'poster.jpg');
    const at = Math.min(1, measured.durationSeconds / 2);
    await runFfmpeg(['-ss', at.toFixed(3), '-i', out, '-frames:v', '1', '-q:v', '3', '-f', 'image2', poster], { signal: opts.signal });
    const key = mediaKeys.reelVideo(opts.reelId);
    const posterKey = mediaKeys.reelPoster(opts.reelId);
    await storage.putFile(key, out, 'video/mp4', { move: true });
    await storage.putFile(posterKey, poster, 'image/jpeg', { move: true });
    opts.onProgress?.(1);
    return { key, posterKey, durationSeconds: Number(measured.durationSeconds.toFixed(3)), width, height };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
