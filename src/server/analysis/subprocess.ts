import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ActionRecord, AnalysisOptions, AnalysisOutcome, ClusterRecord } from './types';

export interface SubprocessResult {
  runVersion: number;
  outcome: AnalysisOutcome;
  video: { width: number; height: number; fps: number; durationSeconds: number };
  /**
   * Seconds of video the analyser decoded (its frames at its rate): less than the container
   * says for a file cut short, which is what a session is charged for. Null when not reported.
   */
  decodedSeconds: number | null;
  /** The stretches of one recording (`[start, end]`, seconds) of a video cut together from several; null for a video of one. */
  scenes: Array<[number, number]> | null;
  /** Paths of the four JSONL artifacts. */
  files: Record<'actions' | 'balls' | 'hoops' | 'clusters', string>;
}

function readJsonl<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/**
 * Runs the analyser in a child process. The web server and the job functions live in one
 * Node process; a separate process keeps analysis CPU off the server's event loop and its
 * memory out of the server's heap, and lets the run be killed on timeout or cancellation.
 */
export function analyseInSubprocess(
  video: string,
  outDir: string,
  options: AnalysisOptions,
  opts: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<SubprocessResult> {
  const script = resolve(/*turbopackIgnore: true*/ process.cwd(), 'src', 'server', 'analysis', 'job.ts');
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, video, outDir, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (b: Buffer) => {
      buffered += b.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^progress ([\d.]+)$/.exec(line.trim());
        if (m) opts.onProgress?.(Number(m[1]));
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4000);
    });
    child.on('error', fail);
    child.on('close', async (code) => {
      if (code !== 0) return fail(new Error(`analysis failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
      try {
        const summary = JSON.parse(await readFile(join(outDir, 'result.json'), 'utf8'));
        const stats = summary.stats as { frames?: number; analysisFps?: number } | undefined;
        ok({
          ...summary,
          decodedSeconds: stats?.frames && stats.analysisFps ? stats.frames / stats.analysisFps : null,
          scenes: summary.scenes ?? null,
          files: {
            actions: join(outDir, 'actions.jsonl'),
            balls: join(outDir, 'balls.jsonl'),
            hoops: join(outDir, 'hoops.jsonl'),
            clusters: join(outDir, 'clusters.jsonl'),
          },
        });
      } catch (err) {
        fail(err as Error);
      }
    });
  });
}

/** Reads the artifacts the derivation and the clip cutter need. */
export async function readArtifacts(files: SubprocessResult['files']) {
  const [actions, clusters, balls] = await Promise.all([
    readFile(files.actions, 'utf8').then((t) => readJsonl<ActionRecord>(t)),
    readFile(files.clusters, 'utf8').then((t) => readJsonl<ClusterRecord>(t)),
    readFile(files.balls, 'utf8').then((t) => readJsonl<{ t: number; x: number; y: number }>(t)),
  ]);
  return { actions, clusters, balls };
}
