/**
 * `npm run bench:processing [--minutes M] [folder…]`: the whole pipeline end to end through
 * the API on a production build — a synthetic 720p30 game (10 minutes by default, rendered
 * once and cached under .data/bench/) and every video of the given footage folders (default
 * ../shared/footage) — with wall time per stage, the pipeline as a multiple of real time,
 * and a bare `ffmpeg -i X -f null -` decode of the same file as the floor. CPU seconds of
 * the server's process tree (the app, the analyser, ffmpeg; not PostgreSQL) are read from
 * /proc at each poll and added to the dashboard stage the session was in (`analysing` also
 * holds the session renditions, which run beside the analysis).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { renderSyntheticGame } from '../server/analysis/synth/render';
import { closeDb, getDb } from '../server/db/client';
import { sessions } from '../server/db/schema';
import { ffmpegPath } from '../server/media/ffmpeg';
import { benchOrganization, startBenchServer, stopBenchServer } from './server';

const run = promisify(execFile);
const PORT = Number(process.env.BENCH_PORT ?? 3310);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? '.data/bench-processing';
const DB_PORT = process.env.BENCH_DB_PORT ?? '54379';
const STAGES = ['source', 'analyse', 'renditions', 'clips', 'pictures', 'settle'];

/**
 * CPU seconds used so far by `root` and its descendants, except PostgreSQL (Linux /proc, 100
 * ticks a second): each live process's own time plus that of its ended children.
 */
function treeCpuSeconds(root: number): number {
  const procs = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // ended meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, n = 0; p > 1 && n < 64; n++) {
      if (p === root) return true;
      p = procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (p.comm !== 'postgres' && inTree(pid)) ticks += p.ticks;
  return ticks / 100;
}

async function bareDecodeSeconds(file: string): Promise<number> {
  const t0 = performance.now();
  await run(ffmpegPath(), ['-loglevel', 'error', '-i', file, '-f', 'null', '-']);
  return (performance.now() - t0) / 1000;
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { minutes: { type: 'string' } } });
  const minutes = Number(values.minutes ?? 10);
  const cache = resolve('.data/bench');
  mkdirSync(cache, { recursive: true });
  const game = join(cache, `processing-game-${minutes}m-720p.mp4`);
  if (!existsSync(game)) {
    console.log(`rendering a ${minutes}-minute 720p30 synthetic game (cached for later runs)…`);
    await renderSyntheticGame({ seed: 11, minutes, width: 1280, height: 720, fps: 30 }, game);
  }
  const videos: string[] = [game];
  const folders = positionals.length ? positionals : [resolve('..', 'shared', 'footage')];
  for (const folder of folders) {
    if (!existsSync(folder)) {
      console.log(`(skipping ${folder}: not found)`);
      continue;
    }
    for (const f of readdirSync(folder).sort()) if (/\.(mp4|mov)$/i.test(f)) videos.push(join(folder, f));
  }

  const files = new Map(videos.map((v, i) => [`/v${i}.mp4`, v]));
  const http = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(statSync(file).size) });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
  const srcPort = (http.address() as { port: number }).port;

  console.log(`bench:processing — production build on :${PORT}, ${videos.length} videos`);
  const server = await startBenchServer({ port: PORT, dataDir: DATA_DIR, dbPort: DB_PORT, env: { SWISH_ALLOW_PRIVATE_SOURCES: '1' } });
  try {
    const { key } = await benchOrganization({ dataDir: DATA_DIR, dbPort: DB_PORT, grantCents: 10_000_000 });
    const db = getDb();
    const rows: string[] = [];
    const cpuRows: string[] = [];
    let totalVideo = 0;
    let totalWall = 0;
    for (const [i, video] of videos.entries()) {
      const decode = await bareDecodeSeconds(video);
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORT}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ source: { url: `http://127.0.0.1:${srcPort}/v${i}.mp4` } }),
      });
      const { id } = (await res.json()) as { id: string };
      let row;
      const cpuByStage: Record<string, number> = {};
      let cpuBefore = treeCpuSeconds(server.pid!);
      const cpuStart = cpuBefore;
      for (;;) {
        [row] = await db.select().from(sessions).where(eq(sessions.id, id));
        const cpuNow = treeCpuSeconds(server.pid!);
        cpuByStage[row.stage ?? '-'] = (cpuByStage[row.stage ?? '-'] ?? 0) + cpuNow - cpuBefore;
        cpuBefore = cpuNow;
        if (row.status === 'processed' || row.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const cpuTotal = treeCpuSeconds(server.pid!) - cpuStart;
      const wall = (performance.now() - t0) / 1000;
      const seconds = row.durationSeconds ?? 0;
      totalVideo += seconds;
      totalWall += wall;
      const t = row.timings;
      const name = video.split('/').pop()!.slice(0, 48);
      rows.push(
        `| ${name} | ${row.width}×${row.height} | ${seconds} s | ${row.status}${row.errorCode ? ` (${row.errorCode})` : ''} | ${STAGES.map((s) => ((t[s] ?? 0) / 1000).toFixed(1)).join(' | ')} | ${wall.toFixed(1)} s | ${(seconds / wall).toFixed(2)}× | ${decode.toFixed(1)} s | ${(wall / decode).toFixed(1)} |`,
      );
      console.log(rows.at(-1));
      cpuRows.push(
        `| ${name} | ${Object.entries(cpuByStage)
          .filter(([, v]) => v >= 0.05)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')} | ${cpuTotal.toFixed(1)} | ${(cpuTotal / wall).toFixed(2)} |`,
      );
      console.log(cpuRows.at(-1));
    }
    console.log(`\n| video | size | length | result | ${STAGES.map((s) => `${s} s`).join(' | ')} | wall | × real time | bare decode | wall ÷ decode |`);
    console.log(`|---|---|---|---|${STAGES.map(() => '---|').join('')}---|---|---|---|`);
    for (const r of rows) console.log(r);
    console.log(`\n| video | CPU s by dashboard stage | CPU s | cores busy (CPU ÷ wall) |`);
    console.log(`|---|---|---|---|`);
    for (const r of cpuRows) console.log(r);
    console.log(`\nall videos: ${totalVideo} s of video in ${totalWall.toFixed(1)} s → ${(totalVideo / totalWall).toFixed(2)}× real time`);
    await closeDb();
  } finally {
    await stopBenchServer(server);
    http.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
