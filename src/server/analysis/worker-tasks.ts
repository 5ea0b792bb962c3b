import type { FrameFeatures } from './frame-features';
import { finishAnalysis, type FinishInput, type FinishOutput } from './finish';

/** Messages understood by the analysis worker. */
export type WorkerTask =
  | { kind: 'frames'; frames: Uint8Array[]; width: number; height: number; firstIndex: number }
  | { kind: 'finish'; input: FinishInput };

/** Result type of each task kind. */
export type WorkerResult = FrameFeatures[] | FinishOutput;

/** Runs a non-frame task inside the worker. */
export function runTask(task: WorkerTask): WorkerResult | Promise<WorkerResult> {
  if (task.kind === 'finish') return finishAnalysis(task.input);
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}
