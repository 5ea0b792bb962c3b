import { unpackFeatures, type FrameFeatures, type FrameFormat, type PackedFeatures } from './frame-features';
import { finishAnalysis, type FinishInput, type FinishOutput } from './finish';
import { rimCandidates, type RimCandidate } from './hoop-appearance';

/** Input of the finish task: the features as objects, or packed (as the frame tasks return them). */
export type FinishTaskInput = Omit<FinishInput, 'features'> & ({ features: FrameFeatures[] } | { packed: PackedFeatures[] });

/** Messages understood by the analysis worker. */
export type WorkerTask =
  /** `format`: layout of the frames (`rgb24` when absent; see decode.ts). */
  | { kind: 'frames'; frames: Uint8Array[]; width: number; height: number; firstIndex: number; format?: FrameFormat }
  | { kind: 'finish'; input: FinishTaskInput }
  | { kind: 'rims'; rgb: Uint8Array; width: number; height: number };

/** Result type of each task kind (`frames`: packed features; `rims`: rim candidates of one frame). */
export type WorkerResult = PackedFeatures | FinishOutput | RimCandidate[];

/** Runs a non-frame task inside the worker. */
export function runTask(task: WorkerTask): WorkerResult | Promise<WorkerResult> {
  if (task.kind === 'finish') {
    const input = task.input;
    if (!('packed' in input)) return finishAnalysis(input);
    const { packed, ...rest } = input;
    return finishAnalysis({ ...rest, features: unpackFeatures(packed) });
  }
  if (task.kind === 'rims') return rimCandidates({ rgb: task.rgb, width: task.width, height: task.height });
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}
