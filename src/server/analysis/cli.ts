import { parseArgs } from 'node:util';
import { analyseVideo, writeArtifacts } from './index';
import { shotsOf, type AnalysisOptions, type ShotAction } from './types';

const USAGE = 'usage: npm run analyze -- video.mp4 [--out dir] [--session-type 5v5] [--camera stationary|panning] [--players N] [--no-jerseys] [--json]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      'session-type': { type: 'string' },
      camera: { type: 'string' },
      players: { type: 'string' },
      'no-jerseys': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const opts: AnalysisOptions = {
    sessionType: values['session-type'] as AnalysisOptions['sessionType'],
    cameraSetup: values.camera as AnalysisOptions['cameraSetup'],
    numPlayers: values.players ? Number(values.players) : undefined,
    // the session option `has_jerseys: false`: no teams, the players told apart by their clothes
    ...(values['no-jerseys'] ? { hasJerseys: false } : {}),
  };
  let last = -1;
  const res = await analyseVideo(positionals[0], {
    ...opts,
    onProgress: (f) => {
      const pct = Math.floor(f * 10) * 10;
      if (pct !== last && process.stderr.isTTY) process.stderr.write(`\ranalysing… ${pct}%`);
      last = pct;
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  if (values.out) {
    const files = await writeArtifacts(res, values.out);
    console.log(`wrote ${files.join(', ')}`);
  }
  const shots = shotsOf(res.actions);
  if (values.json) {
    console.log(JSON.stringify({ outcome: res.outcome, shots, stats: res.stats, ...(res.scenes ? { scenes: res.scenes } : {}) }, null, 2));
    return;
  }
  const s = res.stats;
  console.log(`outcome: ${res.outcome}   video ${res.video.width}x${res.video.height} ${res.video.fps.toFixed(2)} fps ${res.video.durationSeconds.toFixed(1)} s`);
  if (s) {
    console.log(
      `analysed at ${s.analysisWidth}x${s.analysisHeight} ${s.analysisFps.toFixed(1)} fps in ${(s.wallMs / 1000).toFixed(1)} s (${(res.video.durationSeconds / (s.wallMs / 1000)).toFixed(1)}x real time); estimated speed-up ${s.timeScale.toFixed(2)}; peak memory ${(process.resourceUsage().maxRSS / 1024 ** 2).toFixed(2)} GiB`,
    );
  }
  // a video cut together from several recordings is analysed scene by scene (scenes.ts)
  if (res.scenes) console.log(`scenes: ${res.scenes.length} (${res.scenes.map(([a, b]) => `${a.toFixed(1)}–${b.toFixed(1)} s`).join(', ')})`);
  const teamOf = new Map(res.clusters.map((c) => [c.track_id, c.team]));
  const team = (x: ShotAction) => (x.shooter_track === null ? null : (teamOf.get(x.shooter_track) ?? null));
  const made = shots.filter((x) => x.made).length;
  console.log(`shots: ${shots.length}   made: ${made}   hoops: ${res.hoops.length}   player tracks: ${res.clusters.length}`);
  for (const x of shots) {
    console.log(
      `  ${x.id.padEnd(4)} release ${x.release_t.toFixed(2).padStart(6)} s  rim ${x.rim_t.toFixed(2).padStart(6)} s  ${x.made === null ? '  ?   ' : x.made ? 'MADE  ' : 'missed'} ${x.kind.padEnd(8)} ${x.is_free_throw ? 'FT ' : x.is_three_point ? '3PT' : x.is_three_point === false ? '2PT' : '   '} pts ${x.points}  shooter ${x.shooter_track ?? '-'} team ${team(x) ?? '-'}  excitement ${x.excitement.toFixed(2)}`,
    );
  }
  const pointsBy = (key: (x: ShotAction) => string) => {
    const sums = new Map<string, number>();
    for (const x of shots) sums.set(key(x), (sums.get(key(x)) ?? 0) + x.points);
    return [...sums];
  };
  const perPlayer = pointsBy((x) => (x.shooter_track === null ? 'unknown' : `track ${x.shooter_track}`));
  if (perPlayer.length) console.log(`points: ${perPlayer.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  const perTeam = pointsBy((x) => (team(x) === null ? 'no team' : `team ${team(x)}`));
  if (perTeam.some(([k]) => k !== 'no team')) console.log(`team points: ${perTeam.sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
