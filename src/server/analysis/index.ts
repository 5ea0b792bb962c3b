import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeVideo, type VideoProbe } from '../media/ffmpeg';
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
  const { onProgress, signal, ...opts } = options;
  const extracted = await extractVideo(path, { signal, onProgress: onProgress ? (f) => onProgress(0.95 * f) : undefined });
  const res = await finishExtracted(extracted, opts, { handOver: true });
  onProgress?.(1);
  return res;
}

/** A video after extraction, the costly part of an analysis: what the finishing stages read (see `feature-cache.ts`). */
export interface ExtractedVideo {
  probe: VideoProbe;
  geo: DecodeGeometry;
  frames: number;
  extractMs: number;
  task: FinishTaskInput;
}

/** Extraction alone: the decode and the per-frame work, in the shared worker pool. */
export async function extractVideo(
  path: string,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<ExtractedVideo> {
  const t0 = performance.now();
  const probe = await probeVideo(path, { signal: options.signal });
  const geo = chooseGeometry(probe);
  const pool = acquireSharedPool();
  try {
    const extracted = await extractFeatures(path, geo, pool, { durationSeconds: probe.durationSeconds, signal: options.signal, onProgress: options.onProgress });
    return { probe, geo, frames: extracted.frameCount, extractMs: performance.now() - t0, task: finishTaskInput(path, probe, geo, extracted, {}) };
  } finally {
    releaseSharedPool();
  }
}

/**
 * The finishing stages of an extracted video (hoop, flights, shots, makes, players, the jersey
 * reads) in a worker of the shared pool. `wallMs` counts the extraction too. With `handOver`, the
 * packed features' buffers are transferred to the worker instead of copied: `x` cannot be finished
 * again (its features are gone), and a long game's features are held once, not twice.
 */
export async function finishExtracted(x: ExtractedVideo, options: AnalysisOptions = {}, how: { handOver?: boolean } = {}): Promise<AnalysisResult> {
  const { probe, geo } = x;
  const pool = acquireSharedPool();
  try {
    const t1 = performance.now();
    const task = x.task;
    const transfer = how.handOver && 'packed' in task ? [...new Set(task.packed.flatMap((p) => [p.frames.buffer, p.blobs.buffer, p.motion.buffer, p.thumbs.buffer]))] : [];
    const fin = await pool.run<FinishOutput>({ kind: 'finish', input: { ...task, options } }, transfer as ArrayBuffer[]);
    const finishMs = performance.now() - t1;
    return {
      runVersion: ANALYSER_RUN_VERSION,
      outcome: fin.outcome,
      video: { width: probe.width, height: probe.height, fps: probe.fps, durationSeconds: probe.durationSeconds },
      actions: fin.actions,
      balls: fin.balls,
      hoops: fin.hoops,
      clusters: fin.clusters,
      makeEvidence: fin.evidence,
      placement: fin.placement,
      ...(fin.teamReads ? { teamReads: fin.teamReads } : {}),
      ...(fin.scenes ? { scenes: fin.scenes } : {}),
      stats: {
        analysisWidth: geo.width,
        analysisHeight: geo.height,
        analysisFps: geo.fps,
        frames: x.frames,
        timeScale: fin.timeScale,
        wallMs: x.extractMs + finishMs,
        extractMs: x.extractMs,
        finishMs,
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
    viewSamples: extracted.viewSamples.map((smp) => ({ index: smp.index, rgb: smp.rgb })),
    width: geo.width,
    height: geo.height,
    fps: geo.fps,
    durationSeconds: probe.durationSeconds,
    options,
    videoPath: path,
    sourcePixels: probe.width * probe.height,
    ...(geo.hdr ? { hdr: geo.hdr } : {}),
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
