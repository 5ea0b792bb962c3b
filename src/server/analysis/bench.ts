import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { procCpuSeconds } from '../../bench/cpu';
import { ffmpegPath, runTool } from '../media/ffmpeg';
import { AUGMENT_VARIANTS, ensureAugmentedSet } from './bench-augment';
import { loadGroundTruth, type GroundTruthClip } from './ground-truth';
import { defaultFrameFormat, defaultRgbChain, defaultSkipLoopFilter } from './decode';
import { compareEvidence, parseEvidence, threePointCalls, type EvidenceRecord } from './bench-evidence';
import { featureCacheKey, loadExtracted, storeExtracted } from './feature-cache';
import { analyseVideo, extractVideo, finishExtracted } from './index';
import { defaultPoolSize } from './pool';
import { scoreClip, type ClipScore } from './scoring';
import type { ShooterTeam } from './jersey';
import { shotsOf, type AnalysisOptions, type AnalysisResult, type ShotAction } from './types';

const verbose = process.argv.includes('--verbose');

/** The value of `--name=value`, `fallback` for a bare `--name`, undefined when absent. */
function option(name: string, fallback?: string): string | undefined {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!arg) return undefined;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : fallback;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Row {
  set: string;
  clip: string;
  score: ClipScore;
  duration: number;
  wallS: number;
  decodeS: number;
  /** CPU seconds of the analysis: this process (all threads) plus its ffmpeg/ffprobe children. */
  cpuS: number;
  /** CPU seconds of the bare decode. */
  decodeCpuS: number;
  /** Of `cpuS`, the CPU seconds of the child processes (ffmpeg's decode chain, ffprobe). */
  childCpuS: number;
  analysisRes: string;
  /** The features came from the cache (`--features`): no speed figures. */
  cached: boolean;
}

/**
 * CPU seconds used so far by this process (all threads) and by its finished children (Linux
 * `/proc/self/stat` cutime + cstime, in USER_HZ = 1/100 s; NaN for the children elsewhere).
 * The machine is shared, so these are steadier than wall-clock figures.
 */
function cpuSeconds(): { self: number; children: number } {
  const u = process.cpuUsage();
  return { self: (u.user + u.system) / 1e6, children: procCpuSeconds()?.children ?? NaN };
}

const cpuSince = (a: { self: number; children: number }) => {
  const b = cpuSeconds();
  return b.self - a.self + (b.children - a.children);
};

const childCpuSince = (a: { self: number; children: number }) => cpuSeconds().children - a.children;

/** Wall and CPU time of a bare `ffmpeg -i X -f null -` decode: the floor any analysis of the file pays. */
async function bareDecode(file: string): Promise<{ wallS: number; cpuS: number }> {
  const t0 = performance.now();
  const c0 = cpuSeconds();
  await runTool(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', file, '-f', 'null', '-']);
  return { wallS: (performance.now() - t0) / 1000, cpuS: cpuSince(c0) };
}

/** `--verbose`: one line per true shot (matched or missed) and per false detection, with kinds and hoop positions. */
function printShots(clip: GroundTruthClip, res: AnalysisResult, score: ClipScore): void {
  const shots = shotsOf(res.actions);
  const byTruth = new Map(score.pairs.map(([i, j]) => [i, j]));
  const matchedDet = new Set(score.pairs.map(([, j]) => j));
  const xy = (p: { x: number; y: number } | [number, number] | null | undefined) =>
    p ? (Array.isArray(p) ? `${p[0].toFixed(2)},${p[1].toFixed(2)}` : `${p.x.toFixed(2)},${p.y.toFixed(2)}`) : '-';
  const teamOf = new Map(res.clusters.map((c) => [c.track_id, c.team]));
  const det = (d: ShotAction) =>
    `det rim ${d.rim_t.toFixed(2)} made=${d.made} ${d.kind} hoop ${xy(d.hoop_image)} conf ${d.confidence.toFixed(2)} team ${d.shooter_track === null ? '-' : (teamOf.get(d.shooter_track) ?? '-')}`;
  clip.attempts.forEach((t, i) => {
    const j = byTruth.get(i);
    const d = j === undefined ? undefined : shots[j];
    const tag = d === undefined ? 'MISSED  ' : d.made === t.made ? 'ok      ' : 'WRONG   ';
    console.log(
      `    ${tag} true rim ${t.rim_arrival_s.toFixed(2)} made=${t.made} ${t.kind ?? ''} hoop ${xy(t.hoop)} team ${t.shooter?.team ?? '-'}${d ? `  | ${det(d)}` : ''}`,
    );
  });
  shots.forEach((d, j) => {
    if (!matchedDet.has(j)) console.log(`    FALSE    ${det(d)}`);
  });
  const hoops = res.hoops.map((h) => `#${h.id}${h.is_target ? '*' : ''} ${h.x.toFixed(2)},${h.y.toFixed(2)} w${h.w.toFixed(3)}`);
  const speed = res.stats ? ` speed ${res.stats.timeScale.toFixed(2)}${clip.time_scale ? ` (truth: ${clip.time_scale})` : ''}` : '';
  console.log(`    hoops: ${hoops.join('; ') || 'none'} outcome ${res.outcome}${speed}`);
}

/** Where `--features` keeps extracted videos (see feature-cache.ts), or null without it. */
let featureDir: string | null = null;
/** Where `--evidence` writes one JSON line per true and per detected shot, or null without it. */
let evidenceFile: string | null = null;

/**
 * Analyses one clip; with `--features`, the extraction comes from (or goes to) the cache.
 * `cached` says it came from it: its CPU and wall figures are then the finish's alone.
 */
async function analyseClip(file: string, options: AnalysisOptions): Promise<{ res: AnalysisResult; cached: boolean }> {
  if (!featureDir) return { res: await analyseVideo(file, options), cached: false };
  const key = featureCacheKey(file, defaultPoolSize());
  const hit = await loadExtracted(featureDir, key);
  // The team step decodes frames again from the video: a cached entry keeps the path it was extracted with, which may
  // have been relative to another working directory (the key is the absolute path, so the file is that one).
  if (hit?.task.videoPath) hit.task.videoPath = resolve(file);
  const x = hit ?? (await extractVideo(file));
  if (!hit) await storeExtracted(featureDir, key, x);
  return { res: await finishExtracted(x, options), cached: hit !== null };
}

/** The team step's read of one shot, compact for an evidence line (null without one). */
function teamRead(d: ShooterTeam | undefined): Record<string, unknown> | null {
  if (!d) return null;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const smp = d.sample;
  return {
    read: d.read ?? null,
    team: d.team,
    overruled: d.overruled ?? null,
    at: d.at ?? null,
    r: d.r === undefined ? null : round(d.r),
    box: smp?.box ?? null,
    rgb: smp?.rgb?.map(Math.round) ?? null,
    share: smp ? round(smp.share) : null,
    spacing: d.spacing ? { distance: d.spacing.distance.map((v) => (v === null ? null : round(v))), n: d.spacing.n } : null,
  };
}

/** Every shot's record of this run (see bench-evidence.ts), for `--evidence` and `--against`. */
const evidence: EvidenceRecord[] = [];

/** Per true shot its detection (or none), per false detection the detection, each with the evidence its made/missed call read. */
function recordEvidence(set: string, clip: GroundTruthClip, res: AnalysisResult, score: ClipScore): void {
  const shots = shotsOf(res.actions);
  const byDet = new Map(score.pairs.map(([i, j]) => [j, i]));
  const matchedTruth = new Set(score.pairs.map(([i]) => i));
  const truthOf = (t: GroundTruthClip['attempts'][number]) => ({
    rim_t: t.rim_arrival_s,
    made: t.made,
    kind: t.kind ?? null,
    three_point: t.is_three_point ?? null,
    free_throw: t.is_free_throw ?? null,
    team: t.shooter?.team ?? null,
    // synthetic truth names the assister or null; hand-made truth says nothing of assists
    assisted: t.assister === undefined ? null : t.assister !== null,
  });
  const teamOf = new Map(res.clusters.map((c) => [c.track_id, c.team]));
  const records: EvidenceRecord[] = shots.map((d, j) => {
    const i = byDet.get(j);
    const t = i === undefined ? null : clip.attempts[i];
    const result = t === null ? 'false' : t.made === d.made ? 'right' : 'wrong';
    return {
      set,
      clip: clip.file,
      rim_t: d.rim_t,
      made: d.made,
      free_throw: d.is_free_throw,
      three_point: d.is_three_point,
      team: d.shooter_track === null ? null : (teamOf.get(d.shooter_track) ?? null),
      assisted: d.assister_track !== null,
      truth: t && truthOf(t),
      result,
      evidence: res.makeEvidence?.[j] ?? null,
      placement: res.placement?.[j] ?? null,
      team_read: teamRead(res.teamReads?.[j]),
    };
  });
  clip.attempts.forEach((t, i) => {
    if (!matchedTruth.has(i)) records.push({ set, clip: clip.file, truth: truthOf(t), result: 'lost' });
  });
  evidence.push(...records);
  if (evidenceFile && records.length) appendFileSync(evidenceFile, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

async function benchFolder(set: string, folder: string, rows: Row[], filter?: (c: GroundTruthClip) => boolean): Promise<void> {
  const gt = await loadGroundTruth(join(folder, 'ground_truth.json'));
  for (const clip of gt.clips) {
    if (filter && !filter(clip)) continue;
    const file = join(folder, clip.file);
    if (!existsSync(file)) {
      console.log(`  (skipping ${clip.file}: file missing)`);
      continue;
    }
    const t0 = performance.now();
    const c0 = cpuSeconds();
    // The session says how many play (num_players); the synthetic clips know it.
    const { res, cached } = await analyseClip(file, clip.synthetic ? { numPlayers: Number(clip.synthetic.options.players), ...(clip.synthetic.options.shirts ? { hasJerseys: false } : {}) } : {});
    const cpuS = cpuSince(c0);
    const childCpuS = childCpuSince(c0);
    const wallS = (performance.now() - t0) / 1000;
    // A cached clip's figures are the finish's alone: no decode to compare them with.
    const bare = cached ? { wallS: NaN, cpuS: NaN } : await bareDecode(file);
    const score = scoreClip(clip, res);
    const row: Row = {
      set,
      clip: clip.file,
      score,
      duration: res.video.durationSeconds,
      wallS,
      decodeS: bare.wallS,
      cpuS,
      decodeCpuS: bare.cpuS,
      childCpuS,
      analysisRes: res.stats ? `${res.stats.analysisWidth}x${res.stats.analysisHeight}@${Math.round(res.stats.analysisFps)}${cached ? ' (cached)' : ''}` : '',
      cached,
    };
    rows.push(row);
    printRow(row);
    // a clip read as several recordings (cuts, dissolves): shown, since in a clip of one recording a split is a false one
    const scenes = res.scenes ?? [];
    if (scenes.length > 1) console.log(`    ${scenes.length} scenes: ${scenes.map(([a, b]) => `${a.toFixed(1)}–${b.toFixed(1)} s`).join(', ')}`);
    if (verbose) printShots(clip, res, score);
    recordEvidence(set, clip, res, score);
  }
}

const pct = (n: number, d: number) => (d ? (n / d).toFixed(2) : ' n/a');

function header(): void {
  console.log(
    [
      'set'.padEnd(6),
      'clip'.padEnd(44),
      'true',
      'det',
      'tp',
      'recall',
      'prec',
      'made',
      'pts ',
      'team',
      'reb ',
      'ast ',
      'plrs',
      'id  ',
      'coh ',
      'xRT ',
      'xDecode',
      'cpu/s',
      'xDecCPU',
      'ffCPU',
      'analysis',
    ].join('  '),
  );
}

/** The clip's name in 44 characters: its end, or for a transformed copy its variant and the end of the source's name. */
function clipLabel(clip: string): string {
  if (clip.length <= 44) return clip;
  const i = clip.indexOf('__');
  if (i > 0 && i < 16) return `${clip.slice(0, i)}…${clip.slice(-(43 - i))}`;
  return clip.slice(-44);
}

function printRow(r: Row): void {
  const s = r.score;
  console.log(
    [
      r.set.padEnd(6),
      clipLabel(r.clip).padEnd(44),
      String(s.truth).padStart(4),
      String(s.detected).padStart(3),
      String(s.matched).padStart(2),
      pct(s.matched, s.truth).padStart(6),
      pct(s.matched, s.detected).padStart(4),
      pct(s.madeCorrect, s.matched).padStart(4),
      pct(s.pointsCorrect, s.pointsLabelled).padStart(4),
      pct(s.teamCorrect, s.teamLabelled).padStart(4),
      pct(s.rebCorrect, s.rebLabelled).padStart(4),
      pct(s.astFound, s.astLabelled).padStart(4),
      pct(s.idTracks, s.idPlayers).padStart(4),
      pct(s.idPure, s.idShots).padStart(4),
      pct(s.idCohesive, s.idShots).padStart(4),
      ...speedCells([r]),
      r.analysisRes,
    ].join('  '),
  );
}

function total(set: string, rows: Row[]): void {
  const rs = rows.filter((r) => set === 'all' || r.set === set);
  if (!rs.length) return;
  const sum = (f: (s: ClipScore) => number) => rs.reduce((a, r) => a + f(r.score), 0);
  const dur = rs.reduce((a, r) => a + r.duration, 0);
  console.log(
    [
      set.padEnd(6),
      `TOTAL (${rs.length} clips, ${dur.toFixed(0)} s of video)`.padEnd(44),
      String(sum((s) => s.truth)).padStart(4),
      String(sum((s) => s.detected)).padStart(3),
      String(sum((s) => s.matched)).padStart(2),
      pct(sum((s) => s.matched), sum((s) => s.truth)).padStart(6),
      pct(sum((s) => s.matched), sum((s) => s.detected)).padStart(4),
      pct(sum((s) => s.madeCorrect), sum((s) => s.matched)).padStart(4),
      pct(sum((s) => s.pointsCorrect), sum((s) => s.pointsLabelled)).padStart(4),
      pct(sum((s) => s.teamCorrect), sum((s) => s.teamLabelled)).padStart(4),
      pct(sum((s) => s.rebCorrect), sum((s) => s.rebLabelled)).padStart(4),
      pct(sum((s) => s.astFound), sum((s) => s.astLabelled)).padStart(4),
      pct(sum((s) => s.idTracks), sum((s) => s.idPlayers)).padStart(4),
      pct(sum((s) => s.idPure), sum((s) => s.idShots)).padStart(4),
      pct(sum((s) => s.idCohesive), sum((s) => s.idShots)).padStart(4),
      ...speedCells(rs),
    ].join('  '),
  );
}

/** The speed columns (xRT, xDecode, cpu/s, xDecCPU, ffCPU) over the rows analysed from the video; dashes when all came from the cache. */
function speedCells(rows: Row[]): string[] {
  const rs = rows.filter((r) => !r.cached);
  const sum = (f: (r: Row) => number) => rs.reduce((a, r) => a + f(r), 0);
  const [dur, wall, dec, cpu, decCpu] = [sum((r) => r.duration), sum((r) => r.wallS), sum((r) => r.decodeS), sum((r) => r.cpuS), sum((r) => r.decodeCpuS)];
  const cells = [
    (dur / wall).toFixed(1),
    (wall / dec).toFixed(2),
    (cpu / dur).toFixed(3),
    (cpu / decCpu).toFixed(2),
    (sum((r) => r.childCpuS) / decCpu).toFixed(2),
  ];
  return (rs.length ? cells : cells.map(() => '-')).map((c, i) => c.padStart([4, 7, 5, 7, 5][i]));
}

/** `--augment`: per variant and per transform family, the totals of the transformed copies (with the untransformed clips as `original`). */
function augmentTotals(rows: Row[]): void {
  const variantOf = (r: Row) => (r.set === 'aug' ? r.clip.split('__')[0] : 'original');
  const familyOf = new Map<string, string>(AUGMENT_VARIANTS.map((v) => [v.name, v.transform]));
  familyOf.set('original', 'original');
  const line = (label: string, rs: Row[]) => {
    const sum = (f: (s: ClipScore) => number) => rs.reduce((a, r) => a + f(r.score), 0);
    const truth = sum((s) => s.truth);
    const tp = sum((s) => s.matched);
    console.log(
      [
        label.padEnd(24),
        String(rs.length).padStart(5),
        String(truth).padStart(5),
        String(sum((s) => s.detected)).padStart(4),
        String(tp).padStart(4),
        pct(tp, truth).padStart(6),
        pct(tp, sum((s) => s.detected)).padStart(5),
        pct(sum((s) => s.madeCorrect), tp).padStart(5),
      ].join('  '),
    );
  };
  const rs = rows.filter((r) => r.set === 'aug' || r.set === 'real');
  if (!rs.some((r) => r.set === 'aug')) return;
  console.log(`\n${'variant / transform'.padEnd(24)}  clips  true   det    tp  recall   prec   made`);
  const variants = ['original', ...AUGMENT_VARIANTS.map((v) => v.name)];
  for (const v of variants) {
    const vr = rs.filter((r) => variantOf(r) === v);
    if (vr.length) line(v, vr);
  }
  console.log('');
  for (const fam of [...new Set(variants.map((v) => familyOf.get(v)!))]) {
    const fr = rs.filter((r) => familyOf.get(variantOf(r)) === fam);
    if (fr.length) line(`[${fam}]`, fr);
  }
  line('TOTAL transformed', rs.filter((r) => r.set === 'aug'));
}

type SyntheticSet = 'tuning' | 'held-out' | 'seen';

/**
 * Renders (cached) and returns the folder of a synthetic set. With `offBallMotion` the same games
 * are rendered with off-ball players shuffling in live play, into a folder of their own.
 */
async function syntheticFolder(which: SyntheticSet, offBallMotion: boolean): Promise<string | null> {
  if (!existsSync(join(repoRoot, 'src/server/analysis/synth/render.ts'))) return null;
  const mod = await import('./bench-synthetic');
  const log = (l: string) => console.log(l);
  const [dir, set] =
    which === 'held-out'
      ? ['synthetic-held-out-7', mod.heldOutBenchSet()]
      : which === 'seen'
        ? ['synthetic-held-out', mod.seenHeldOutBenchSet()]
        : ['synthetic', mod.syntheticBenchSet()];
  if (!offBallMotion) return mod.ensureSyntheticSet(join(repoRoot, '.data/bench', dir), log, set);
  const moving = set.map((c) => ({ ...c, options: { ...c.options, offBallMotion: true } }));
  return mod.ensureSyntheticSet(join(repoRoot, '.data/bench', `${dir}-off-ball-motion`), log, moving);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const augment = args.includes('--augment');
  // The robustness benchmark is about real footage: the tuning set only when asked (--synth).
  const noSynth = args.includes('--no-synth') || (augment && !args.includes('--synth'));
  const heldOut = args.includes('--held-out');
  const seen = args.includes('--seen');
  const offBallMotion = args.includes('--off-ball-motion');
  const only = option('only')?.split(',').filter(Boolean) ?? null;
  const filter = only ? (c: GroundTruthClip) => only.some((o) => c.file.includes(o)) : undefined;
  const folders = args.filter((a) => !a.startsWith('--'));
  if (folders.length === 0) folders.push(join(repoRoot, '../shared/footage'));
  const rows: Row[] = [];
  console.log('bench:analysis — shot recall/precision (rim-arrival match ≤ 1.0 s, one-to-one), made/missed accuracy on matched shots,');
  console.log('points accuracy where labelled, scorer-team accuracy (synthetic), rebounder-team accuracy on missed shots and the share of\nassisted made field goals with an assister (synthetic), speed (video s per wall s) and cost relative to a bare ffmpeg decode');
  console.log('(xDecode: wall time ratio; cpu/s: CPU seconds of the analysis per video second, this process with its threads and ffmpeg;');
  console.log('xDecCPU: analysis CPU seconds / bare-decode CPU seconds — steadier than wall time on a shared machine;');
  console.log('ffCPU: of those, the ffmpeg decode chain alone / bare-decode CPU seconds).');
  console.log(
    `decode chain: ${defaultFrameFormat()} frames (SWISH_DECODE_CHAIN=rgb24|yuv444p|yuv420p), RGB made ${defaultRgbChain()} (SWISH_RGB_CHAIN=direct|yuv422p|yuv420p), deblocking ${defaultSkipLoopFilter() ? 'skipped' : 'on'} (SWISH_SKIP_LOOP_FILTER=1 skips it)\n`,
  );
  if (offBallMotion) console.log('synthetic sets rendered with off-ball players shuffling in live play (--off-ball-motion)\n');
  featureDir = option('features', join(repoRoot, '.data/bench/features')) ?? null;
  if (featureDir) {
    featureDir = resolve(featureDir);
    console.log(`extracted features cached in ${featureDir} (--features): a cached clip is only finished, and has no speed figures\n`);
  }
  evidenceFile = option('evidence') ?? null;
  if (evidenceFile) writeFileSync(evidenceFile, '');
  const against = option('against');
  // read first: --against may name the file --evidence rewrites
  const before = against ? parseEvidence(readFileSync(against, 'utf8')) : null;
  header();
  const sets: Array<['synth' | 'held' | 'seen', SyntheticSet]> = [];
  if (!noSynth) sets.push(['synth', 'tuning']);
  if (seen) sets.push(['seen', 'seen']);
  if (heldOut) sets.push(['held', 'held-out']);
  for (const [set, which] of sets) {
    const synth = await syntheticFolder(which, offBallMotion).catch((err: unknown) => {
      console.log(`  (synthetic ${which} set unavailable: ${err instanceof Error ? err.message : String(err)})`);
      return null;
    });
    if (synth) await benchFolder(set, synth, rows, filter);
    else console.log(`  (synthetic generator not available: no ${which} set)`);
  }
  for (const folder of folders) {
    const gtPath = join(folder, 'ground_truth.json');
    if (!existsSync(gtPath)) {
      console.log(`  (skipping ${folder}: no ground_truth.json${existsSync(folder) ? '' : ' — folder absent'})`);
      continue;
    }
    const videos = readdirSync(folder).filter((f) => /\.(mp4|mov|mkv|webm|avi)$/i.test(f));
    if (!videos.length) continue;
    await benchFolder('real', folder, rows, filter);
    if (augment) {
      const out = join(repoRoot, '.data/bench/augmented', basename(resolve(folder)));
      const keep = only ? (f: string) => only.some((o) => f.includes(o)) : undefined;
      await ensureAugmentedSet(folder, out, (l) => console.log(l), AUGMENT_VARIANTS, keep);
      await benchFolder('aug', out, rows, filter);
    }
  }
  console.log('');
  total('synth', rows);
  total('seen', rows);
  total('held', rows);
  total('real', rows);
  total('aug', rows);
  augmentTotals(rows);
  for (const set of new Set(evidence.map((r) => r.set))) {
    const c = threePointCalls(evidence.filter((r) => r.set === set));
    if (c.right + c.wrong + c.unknown) console.log(`3-point calls on matched field goals (${set}): right ${c.right}, wrong ${c.wrong}, unknown ${c.unknown}`);
  }
  for (const set of new Set(rows.map((r) => r.set))) {
    const rs = rows.filter((r) => r.set === set);
    const [named, labelled] = [rs.reduce((a, r) => a + r.score.idShots, 0), rs.reduce((a, r) => a + r.score.idLabelled, 0)];
    if (labelled) console.log(`shooter named on matched shots (${set}): ${named} of ${labelled}`);
  }
  if (before) {
    console.log(`\nagainst ${against}: clips whose shots changed (12.3M called made, x missed, u undecided, F free throw, ! called wrong, ? no true shot, -12.3 a true shot lost)`);
    for (const l of compareEvidence(before, evidence)) console.log(l);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
