import type { HdrTransfer } from '../media/color';
import type { FrameFeatures, FrameFormat, PackedFeatures } from './frame-features';
import { finishAnalysis, unpackForFinish, type FinishInput, type FinishOutput } from './finish';
import { rimCandidates, type RimCandidate } from './hoop-appearance';
import { attributeTeamsFromVideo } from './jersey';

/**
 * Input of the finish task: the features as objects, or packed (as the frame tasks return them).
 * With `videoPath`, the shooters' teams are then read from the frames at release (`jersey.ts`);
 * `sourcePixels` (the source frame's width × height) bounds that re-decode's memory; `hdr` maps an HDR source's frames
 * to SDR as the extraction did (`decode.ts#scaleFilter`).
 */
export type FinishTaskInput = Omit<FinishInput, 'features'> &
  ({ features: FrameFeatures[] } | { packed: PackedFeatures[] }) & { videoPath?: string; sourcePixels?: number; hdr?: HdrTransfer };

/** Messages understood by the analysis worker. */
export type WorkerTask =
  /**
   * `format`: layout of the frames (`rgb24` when absent; see decode.ts). `recycle`: the frames'
   * buffers were transferred and are sent back with the result (see {@link WorkerPool.run}).
   */
  | { kind: 'frames'; frames: Uint8Array[]; width: number; height: number; firstIndex: number; format?: FrameFormat; recycle?: boolean }
  | { kind: 'finish'; input: FinishTaskInput }
  | { kind: 'rims'; rgb: Uint8Array; width: number; height: number };

/** Result type of each task kind (`frames`: packed features; `rims`: rim candidates of one frame). */
export type WorkerResult = PackedFeatures | FinishOutput | RimCandidate[];

/** Runs a non-frame task inside the worker. */
export function runTask(task: WorkerTask): WorkerResult | Promise<WorkerResult> {
  if (task.kind === 'finish') {
    const { videoPath, sourcePixels, hdr, ...input } = task.input;
    const out = 'packed' in input ? finishAnalysis({ ...input, features: unpackForFinish(input.packed) }) : finishAnalysis(input);
    if (!videoPath) return out;
    const geo = { width: input.width, height: input.height, fps: input.fps, sourcePixels, ...(hdr ? { hdr } : {}) };
    return attributeTeamsFromVideo(out, { path: videoPath, samples: input.samples, options: input.options }, geo).then(() => out);
  }
  if (task.kind === 'rims') return rimCandidates({ rgb: task.rgb, width: task.width, height: task.height });
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}
