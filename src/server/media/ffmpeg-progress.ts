import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import { ffmpegPath, MediaToolError } from './ffmpeg';

/**
 * Runs ffmpeg with `-progress` and reports the fraction of `durationSeconds` encoded so far,
 * so long encodes can keep the pipeline's heartbeat and progress bar moving. Aborting
 * `signal` kills ffmpeg.
 */
export function runFfmpegWithProgress(
  args: string[],
  opts: {
    signal?: AbortSignal;
    durationSeconds?: number;
    onProgress?: (fraction: number) => void;
    /** How much lower than ours ffmpeg's scheduling priority is (`nice` steps, 1–19): background work yields the CPU to the stage it runs beside. */
    niceness?: number;
    /** Called with the process id once ffmpeg started (e.g. to change its priority later with `shiftProcessNiceness`). */
    onSpawn?: (pid: number) => void;
  } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const ffmpegArgs = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1', ...args];
    // lowered from its start through `nice` (which then becomes ffmpeg: same pid), or, on a
    // host without it, shifted right after the start
    const launcher = opts.niceness ? findNiceLauncher() : null;
    const child = launcher
      ? spawn(launcher, ['-n', String(opts.niceness), ffmpegPath(), ...ffmpegArgs], { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal })
      : spawn(ffmpegPath(), ffmpegArgs, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal });
    if (opts.niceness && !launcher && child.pid) shiftProcessNiceness(child.pid, opts.niceness);
    if (child.pid) opts.onSpawn?.(child.pid);
    let err = '';
    let pending = '';
    let last = -1;
    child.stdout.on('data', (b: Buffer) => {
      pending += b.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_(?:ms|us)=(\d+)/.exec(line);
        if (!m || !opts.onProgress || !opts.durationSeconds) continue;
        const fraction = Math.min(1, Number(m[1]) / 1e6 / opts.durationSeconds);
        if (fraction - last >= 0.01) {
          last = fraction;
          opts.onProgress(fraction);
        }
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString()).slice(-8192);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new MediaToolError(`ffmpeg exited with code ${code}: ${err.trim().split('\n').pop() ?? ''}`, err));
    });
  });
}

/**
 * The coreutils `nice` launcher, when the host has one: a process started through it is
 * lowered before it runs its first instruction, so every thread it starts is born lowered.
 */
let niceLauncher: string | null | undefined;
function findNiceLauncher(): string | null {
  if (niceLauncher === undefined) {
    const dirs = (process.env.PATH ?? '/usr/bin:/bin').split(':').filter(Boolean);
    niceLauncher = dirs.map((d) => join(d, 'nice')).find((f) => existsSync(f)) ?? null;
  }
  return niceLauncher;
}

/**
 * Shifts the `nice` of every thread of a running process by `delta` (positive: lower
 * priority), keeping the threads' differences: x264 lowers its lookahead and worker threads
 * by 10 below the thread that starts them, and that stays so (capped at 19). Linux
 * priorities are per thread. The main thread goes first, so threads it starts from then on
 * inherit the new value; when it cannot be changed — raising a priority needs the right to
 * (root or `RLIMIT_NICE`), or the process ended — nothing is and the result is false.
 */
export function shiftProcessNiceness(pid: number, delta: number): boolean {
  const shift = (tid: number) => {
    try {
      setPriority(tid, Math.max(-20, Math.min(19, getPriority(tid) + delta)));
      return true;
    } catch {
      return false;
    }
  };
  if (!shift(pid)) return false;
  let tids: number[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    // ended, or no /proc: the main thread is all there is
  }
  for (const tid of tids) if (tid !== pid) shift(tid);
  return true;
}

/** Even number at or below `n` (H.264 with yuv420p needs even dimensions). */
export const evenFloor = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

/** Dimensions of a frame scaled so that its short side is `shortSide`, both even, aspect kept. */
export function scaleToShortSide(width: number, height: number, shortSide: number): { width: number; height: number } {
  if (width >= height) return { width: evenFloor(Math.round((width * shortSide) / height)), height: evenFloor(shortSide) };
  return { width: evenFloor(shortSide), height: evenFloor(Math.round((height * shortSide) / width)) };
}

/** x264 + AAC settings shared by every MP4 Swish writes: streamable (faststart), 2 s GOPs for seeking, yuv420p for every player. */
export function h264Args(opts: {
  crf: number;
  maxrateKbps: number;
  fps: number;
  /** true: encode AAC 128 kb/s stereo; `'copy'`: the mapped audio is AAC already (copied); false: no audio. */
  audio: boolean | 'copy';
  /** `-movflags +faststart` (default true); off for a file that is only an intermediate. */
  faststart?: boolean;
  /** x264 profile (default `high`); null: left to the caller's own `-profile:v`. */
  profile?: string | null;
}): string[] {
  const gop = Math.max(1, Math.round((opts.fps || 30) * 2));
  return [
    '-c:v', 'libx264',
    '-preset', 'veryfast',
    '-crf', String(opts.crf),
    '-maxrate', `${opts.maxrateKbps}k`,
    '-bufsize', `${opts.maxrateKbps * 2}k`,
    '-pix_fmt', 'yuv420p',
    '-g', String(gop),
    ...(opts.profile === null ? [] : ['-profile:v', opts.profile ?? 'high']),
    ...(opts.audio === 'copy' ? ['-c:a', 'copy'] : opts.audio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : ['-an']),
    ...(opts.faststart === false ? [] : ['-movflags', '+faststart']),
    '-f', 'mp4',
  ];
}
