import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x264RenderLevel } from '../server/analysis/synth/x264-cpu';

/** The attempts of the robustness tests' synthetic clip, at one hoop, in order. */
export const AUGMENT_SCRIPT = (['swish', 'rim_out', 'air_ball', 'rim_in', 'bank_out', 'swish'] as const).map((kind) => ({ kind }));

/**
 * The synthetic clip the robustness tests transform (seed 121, 640×360, {@link AUGMENT_SCRIPT}), rendered once into the
 * OS temp folder (per generator version and x264 level) with its truth beside it (`original.json`). Returns the folder
 * (where the tests keep their copies too) and the video.
 */
export async function augmentOriginal(): Promise<{ dir: string; video: string; truthFile: string }> {
  const { renderSyntheticGameAtomic, GENERATOR_VERSION } = await import('../server/analysis/synth/render');
  const dir = join(tmpdir(), 'swish-augment-it', `gen-${GENERATOR_VERSION}-${x264RenderLevel()}`);
  await mkdir(dir, { recursive: true });
  const video = join(dir, 'original.mp4');
  const truthFile = join(dir, 'original.json');
  if (!existsSync(video) || !existsSync(truthFile)) await renderSyntheticGameAtomic({ seed: 121, width: 640, height: 360, script: AUGMENT_SCRIPT }, video);
  return { dir, video, truthFile };
}
