import type { HdrTransfer } from '../media/color';
import type { FrameFeatures, FrameFormat, PackedFeatures } from './frame-features';
import { unpackForFinish, type FinishInput, type FinishOutput } from './finish';
import { rimCandidates, type RimCandidate } from './hoop-appearance';
import { attributeTeamsFromVideo, fetchFrames } from './jersey';
import { findScenes, finishScenes, sceneSampleFrames } from './scenes';

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
  if (task.kind === 'finish') return finishTask(task.input);
  if (task.kind === 'rims') return rimCandidates({ rgb: task.rgb, width: task.width, height: task.height });
  throw new Error(`unknown worker task ${(task as { kind: string }).kind}`);
}

/**
 * The finishing stage and the team step. A clip cut together from several recordings is finished scene by scene
 * (`scenes.ts`); a scene the clip's samples leave too few gets more, decoded again from the video (`sceneSampleFrames`).
 */
async function finishTask(task: FinishTaskInput): Promise<FinishOutput> {
  const { videoPath, sourcePixels, hdr, ...input } = task;
  const geo = { width: input.width, height: input.height, fps: input.fps, sourcePixels, ...(hdr ? { hdr } : {}) };
  const features = 'packed' in input ? unpackForFinish(input.packed) : input.features;
  const scenes = findScenes(features, input.fps);
  let samples = input.samples;
  const more = videoPath ? sceneSampleFrames(samples, scenes, input.fps) : [];
  if (more.length) {
    const got = await fetchFrames(videoPath!, geo, more);
    samples = [...samples, ...[...got].map(([index, rgb]) => ({ index, rgb }))].sort((a, b) => a.index - b.index);
  }
  const out = finishScenes({ ...input, features, samples }, scenes);
  if (!videoPath) return out;
  const reads = await attributeTeamsFromVideo(out, { path: videoPath, samples, options: input.options, scenes }, geo);
  return reads.length ? { ...out, teamReads: reads } : out;
}
