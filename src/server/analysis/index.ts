import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeVideo } from '../media/ffmpeg';
import { chooseGeometry, type DecodeGeometry } from './decode';
import { extractFeatures, type ExtractResult } from './extract';
import type { FinishOutput } from './finish';
import { acquireSharedPool, releaseSharedPool } from './pool';
import type { FinishTaskInput } from './worker-tasks';
import type { AnalysisOptions, AnalysisResult } from './types';

export type * from './types';

import { ANALYSER_RUN_VERSION } from './run-version';

export { ANALYSER_RUN_VERSION };

/**
 * Analyses one basketball video: decodes it as a stream with ffmpeg, extracts motion and ball
 * candidates in worker threads (the caller's thread only shuffles buffers), then finds the
 * hoop, the ball flights, the shot attempts and their outcomes. The web server calls this
 * in-process, so nothing CPU-heavy runs on the calling thread.
 */
export async function analyseVideo(
  path: string,
  options: AnalysisOptions & { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<AnalysisResult> {
  const t0 = performance.now();
  const { onProgress, signal, ...opts } = options;
  const probe = await probeVideo(path, { signal });
  const geo = chooseGeometry(probe);
  const pool = acquireSharedPool();
  try {
    const extracted = await extractFeatures(path, geo, pool, {
      durationSeconds: probe.durationSeconds,
      signal,
      onProgress: onProgress ? (f) => onProgress(0.95 * f) : undefined,
    });
    const t1 = performance.now();
    const fin = await pool.run<FinishOutput>({ kind: 'finish', input: finishTaskInput(path, probe, geo, extracted, opts) });
    onProgress?.(1);
    const t2 = performance.now();
    return {
      runVersion: ANALYSER_RUN_VERSION,
      outcome: fin.outcome,
      video: { width: probe.width, height: probe.height, fps: probe.fps, durationSeconds: probe.durationSeconds },
      actions: fin.actions,
      balls: fin.balls,
      hoops: fin.hoops,
      clusters: fin.clusters,
      stats: {
        analysisWidth: geo.width,
        analysisHeight: geo.height,
        analysisFps: geo.fps,
        frames: extracted.frameCount,
        timeScale: fin.timeScale,
        wallMs: t2 - t0,
        extractMs: t1 - t0,
        finishMs: t2 - t1,
        detector: false,
      },
    };
  } finally {
    releaseSharedPool();
  }
}

/** The finishing task for an extracted video: the post-decode stages and the jersey reads run on it in a worker. */
export function finishTaskInput(
  path: string,
  probe: { width: number; height: number; durationSeconds: number },
  geo: DecodeGeometry,
  extracted: ExtractResult,
  options: AnalysisOptions,
): FinishTaskInput {
  return {
    packed: extracted.packed,
    samples: extracted.samples.map((smp) => ({ index: smp.index, rgb: smp.rgb })),
    rimSamples: extracted.rimSamples,
    width: geo.width,
    height: geo.height,
    fps: geo.fps,
    durationSeconds: probe.durationSeconds,
    options,
    videoPath: path,
    sourcePixels: probe.width * probe.height,
  };
}

/** Serialises records as JSON Lines (one record per line, trailing newline). */
export function toJsonl(records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

/** Writes the four artifact streams (actions, balls, hoops, clusters .jsonl) into a directory. */
export async function writeArtifacts(result: AnalysisResult, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Array<[string, readonly object[]]> = [
    ['actions.jsonl', result.actions],
    ['balls.jsonl', result.balls],
    ['hoops.jsonl', result.hoops],
    ['clusters.jsonl', result.clusters],
  ];
  const out: string[] = [];
  for (const [name, recs] of files) {
    const p = join(dir, name);
    await writeFile(p, toJsonl(recs));
    out.push(p);
  }
  return out;
}
