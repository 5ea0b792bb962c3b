import { spawn } from 'node:child_process';
import { ffmpegPath } from '../media/ffmpeg';

export interface DecodeGeometry {
  /** Analysis frame width in pixels (even). */
  width: number;
  /** Analysis frame height in pixels (even). */
  height: number;
  /** Analysis frame rate (frames per second of file time). */
  fps: number;
}

/**
 * Picks the analysis resolution and rate. The longer side is capped (the rim must stay several
 * pixels wide, the ball a few pixels across) and the rate is capped at 30 fps: sped-up clips
 * have ball flights of ~15 frames at 30 fps, which the make model needs.
 */
export function chooseGeometry(
  src: { width: number; height: number; fps: number },
  opts: { maxSide?: number; maxFps?: number } = {},
): DecodeGeometry {
  const maxSide = opts.maxSide ?? 640;
  const maxFps = opts.maxFps ?? 30;
  const scale = Math.min(1, maxSide / Math.max(src.width, src.height));
  const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);
  const fps = src.fps > 0 ? Math.min(src.fps, maxFps) : maxFps;
  return { width: even(src.width * scale), height: even(src.height * scale), fps };
}

/**
 * Streams decoded RGB24 frames of a video at the analysis geometry, one frame at a time, so the
 * whole video is never held in memory. `onFrame` may return a promise: reading pauses until it
 * resolves, which gives natural back-pressure against the worker pool.
 */
export async function streamFrames(
  path: string,
  geo: DecodeGeometry,
  onFrame: (rgb: Uint8Array, index: number) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const frameBytes = geo.width * geo.height * 3;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-i',
    path,
    '-an',
    '-sn',
    '-vf',
    `fps=${geo.fps},scale=${geo.width}:${geo.height}:flags=area`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ];
  const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const onAbort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4096);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  let index = 0;
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let off = 0;
      while (off < chunk.length) {
        const n = Math.min(frameBytes - filled, chunk.length - off);
        frame.set(chunk.subarray(off, off + n), filled);
        filled += n;
        off += n;
        if (filled === frameBytes) {
          const full = frame;
          frame = new Uint8Array(frameBytes);
          filled = 0;
          await onFrame(full, index++);
          if (signal?.aborted) throw new Error('analysis aborted');
        }
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  const code = await exited;
  if (signal?.aborted) throw new Error('analysis aborted');
  if (code !== 0 && index === 0) throw new Error(`ffmpeg decode failed: ${stderr.trim()}`);
  return index;
}
