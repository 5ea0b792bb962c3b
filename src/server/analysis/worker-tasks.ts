import { unpackFeatures, type FrameFeatures, type PackedFeatures } from './frame-features';
import { finishAnalysis, type FinishInput, type FinishOutput } from './finish';

/** Input of the finish task: the features as objects, or packed (as the frame tasks return them). */
export type FinishTaskInput = Omit<FinishInput, 'features'> & ({ features: FrameFeatures[] } | { packed: PackedFeatures[] });

/** Messages understood by the analysis worker. */
export type WorkerTask =
  | { kind: 'frames'; frames: Uint8Array[]; width: number; height: number; firstIndex: number }
  | { kind: 'finish'; input: FinishTaskInput };

/** Result type of each task kind (`frames`: packed features). */
export type WorkerResult = PackedFeatures | FinishOutput;

/** Runs a non-frame task inside the worker. */
export function runTask(task: WorkerTask): WorkerResult | Promise<WorkerResult> {
  if (task.kind === 'finish') {
    const input = task.input;
    if (!('packed' in input)) return finishAnalysis(input);
    const { packed, ...rest } = input;
    return finishAnalysis({ ...rest, features: unpackFeatures(packed) });
  }
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}
