/**
 * Entry point of an analysis run in its own process (used by the processing pipeline):
 * `node --import tsx src/server/analysis/job.ts <video> <out-dir> <options-json>`.
 * Writes the four artifact files and `result.json` (run version, outcome, video, scenes) to
 * `out-dir`, and reports progress on stdout as `progress <0..1>` lines.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyseVideo, writeArtifacts } from './index';
import type { AnalysisOptions } from './types';

/** Exits when the process that started this run is gone (killed server): no orphaned analyses. */
function exitWithParent() {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(3);
  }, 1000).unref();
}

async function main() {
  exitWithParent();
  const [video, outDir, optionsJson] = process.argv.slice(2);
  if (!video || !outDir) {
    process.stderr.write('usage: job.ts <video> <out-dir> [options-json]\n');
    process.exit(2);
  }
  const options = JSON.parse(optionsJson ?? '{}') as AnalysisOptions;
  let last = -1;
  const result = await analyseVideo(video, {
    ...options,
    onProgress: (f) => {
      const pct = Math.floor(f * 100);
      if (pct !== last) {
        last = pct;
        process.stdout.write(`progress ${f.toFixed(3)}\n`);
      }
    },
  });
  await writeArtifacts(result, outDir);
  await writeFile(
    join(outDir, 'result.json'),
    JSON.stringify({ runVersion: result.runVersion, outcome: result.outcome, video: result.video, stats: result.stats, scenes: result.scenes ?? null }),
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
