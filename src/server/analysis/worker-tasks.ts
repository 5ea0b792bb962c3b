import type { FrameFeatures } from './frame-features';
import { finishAnalysis, type FinishInput, type FinishOutput } from './finish';
import { rimCandidates, type RimCandidate } from './hoop-appearance';

/** Messages understood by the analysis worker. */
export type WorkerTask =
  | { kind: 'frames'; frames: Uint8Array[]; width: number; height: number; firstIndex: number }
  | { kind: 'finish'; input: FinishInput }
  | { kind: 'rims'; rgb: Uint8Array; width: number; height: number };

/** Result type of each task kind. */
export type WorkerResult = FrameFeatures[] | FinishOutput | RimCandidate[];

/** Runs a non-frame task inside the worker. */
export function runTask(task: WorkerTask): WorkerResult | Promise<WorkerResult> {
  if (task.kind === 'finish') return finishAnalysis(task.input);
  if (task.kind === 'rims') return rimCandidates({ rgb: task.rgb, width: task.width, height: task.height });
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}
