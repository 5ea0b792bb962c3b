/**
 * Where an analysis spends its CPU, per stage, in CPU seconds per video second:
 *
 *   npx tsx src/server/analysis/bench-profile.ts [--runs=2] [--formats=rgb24,yuv444p] [--chains=direct,yuv422p] [--threads=1,2] [--parts=1,2] clip.mp4…
 *
 * Per clip and run: a bare `ffmpeg -i X -f null -` decode (the reference), then one analysis per
 * variant — each frame layout (`SWISH_DECODE_CHAIN` values) with each RGB chain (`SWISH_RGB_CHAIN`
 * values), each decode thread count (`SWISH_DECODE_THREADS` values) and each count of parts
 * decoded at once (`SWISH_DECODE_PARTS` values); a variable not given keeps its default —
 * interleaved, so every variant meets the same load. Stages: ffmpeg's main decode chain
 * (children's rusage during extraction), the calling thread (`/proc/self/task/<pid>/stat`), the
 * feature workers with the garbage collector (the rest of the process during extraction), the
 * finishing worker, and the finishing stage's ffmpeg re-decodes (children's rusage during
 * finishing). CPU seconds are steadier than wall time on a shared machine; wall time is printed
 * as real-time speed (xRT), and per stage (extraction, finishing).
 */
import { basename } from 'node:path';
import { procCpuSeconds } from '../../bench/cpu';
import { ffmpegPath, probeVideo, runTool } from '../media/ffmpeg';
import { chooseGeometry } from './decode';
import { extractFeatures } from './extract';
import type { FinishOutput } from './finish';
import { finishTaskInput } from './index';
import { acquireSharedPool, releaseSharedPool } from './pool';

interface Cpu {
  self: number;
  main: number;
  children: number;
  wall: number;
}

function now(): Cpu {
  const u = process.cpuUsage();
  const p = procCpuSeconds();
  const t = procCpuSeconds(`/proc/self/task/${process.pid}/stat`);
  return { self: (u.user + u.system) / 1e6, main: t?.own ?? NaN, children: p?.children ?? NaN, wall: performance.now() / 1000 };
}

const d = (a: Cpu, b: Cpu) => ({ self: b.self - a.self, main: b.main - a.main, children: b.children - a.children, wall: b.wall - a.wall });

async function analyse(file: string) {
  const c0 = now();
  const probe = await probeVideo(file);
  const geo = chooseGeometry(probe);
  const pool = acquireSharedPool();
  try {
    const c1 = now();
    const ex = await extractFeatures(file, geo, pool, { durationSeconds: probe.durationSeconds });
    const c2 = now();
    await pool.run<FinishOutput>({ kind: 'finish', input: finishTaskInput(file, probe, geo, ex, {}) });
    const c3 = now();
    const probeCpu = d(c0, c1);
    const extract = d(c1, c2);
    const finish = d(c2, c3);
    return {
      duration: probe.durationSeconds,
      ffmpeg: extract.children,
      calling: extract.main,
      workers: extract.self - extract.main,
      finish: finish.self,
      redecode: finish.children,
      other: probeCpu.self + probeCpu.children,
      total: d(c0, c3).self + d(c0, c3).children,
      wall: d(c0, c3).wall,
      extractWall: extract.wall,
      finishWall: finish.wall,
    };
  } finally {
    releaseSharedPool();
  }
}

async function bare(file: string): Promise<number> {
  const c0 = now();
  await runTool(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', file, '-f', 'null', '-']);
  return d(c0, now()).children;
}

async function main() {
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? 2);
  const chains = (args.find((a) => a.startsWith('--chains='))?.slice(9) ?? 'direct').split(',');
  const list = (name: string) => (args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '').split(',').filter(Boolean);
  // every combination of the values asked for; an empty value leaves the variable unset (the default)
  const dims: Array<[string, string, string[]]> = [
    ['SWISH_DECODE_CHAIN', '', list('formats')],
    ['SWISH_RGB_CHAIN', '', chains],
    ['SWISH_DECODE_THREADS', 't', list('threads')],
    ['SWISH_DECODE_PARTS', 'p', list('parts')],
  ];
  let variants: Array<Array<[string, string, string]>> = [[]];
  for (const [env, tag, values] of dims) variants = variants.flatMap((v) => (values.length ? values : ['']).map((x) => [...v, [env, tag, x] as [string, string, string]]));
  const files = args.filter((a) => !a.startsWith('--'));
  const f = (x: number) => x.toFixed(3);
  console.log('clip                      variant           run  bare/s  ffmpeg/s  calling/s  workers/s  finish/s  redec/s  other/s  total/s  xDecCPU  ffCPU  xRT  extract  finish');
  for (const file of files) {
    // A first analysis warms the pool and the file cache; it is not counted.
    await analyse(file);
    for (let r = 0; r < runs; r++) {
      for (const variant of variants) {
        const b = await bare(file);
        for (const [env, , x] of variant) {
          if (x) process.env[env] = x;
          else delete process.env[env];
        }
        const a = await analyse(file);
        const s = a.duration;
        console.log(
          [
            basename(file).slice(-25).padEnd(25),
            variant.filter(([, , x]) => x).map(([, tag, x]) => tag + x).join('/').padEnd(17),
            String(r + 1).padStart(3),
            f(b / s).padStart(7),
            f(a.ffmpeg / s).padStart(9),
            f(a.calling / s).padStart(10),
            f(a.workers / s).padStart(10),
            f(a.finish / s).padStart(9),
            f(a.redecode / s).padStart(8),
            f(a.other / s).padStart(8),
            f(a.total / s).padStart(8),
            (a.total / b).toFixed(2).padStart(8),
            (a.ffmpeg / b).toFixed(2).padStart(6),
            (s / a.wall).toFixed(1).padStart(5),
            `${a.extractWall.toFixed(1)} s`.padStart(8),
            `${a.finishWall.toFixed(1)} s`.padStart(7),
          ].join(' '),
        );
      }
    }
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
