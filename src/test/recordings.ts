import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GroundTruthClip } from '../server/analysis/ground-truth';
import type { ViewPreset } from '../server/analysis/synth/camera';
import type { ScriptEvent } from '../server/analysis/synth/game';
import { x264RenderLevel } from '../server/analysis/synth/x264-cpu';

/** A short synthetic recording for the tests that join several into one video: its seed, camera view and attempts in order. */
export interface Recording {
  seed: number;
  view: ViewPreset;
  script: ReadonlyArray<ScriptEvent['kind']>;
}

/**
 * Each recording rendered once (640×360) into the OS temp folder `name` (per generator version and x264 level), with
 * its truth beside it (`piece-<seed>.json`). Returns the folder, the videos and their truths, in the order given.
 */
export async function renderRecordings(name: string, recordings: readonly Recording[]): Promise<{ dir: string; files: string[]; truths: GroundTruthClip[] }> {
  const { renderSyntheticGameAtomic, GENERATOR_VERSION } = await import('../server/analysis/synth/render');
  const dir = join(tmpdir(), name, `gen-${GENERATOR_VERSION}-${x264RenderLevel()}`);
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const truths: GroundTruthClip[] = [];
  for (const r of recordings) {
    const file = join(dir, `piece-${r.seed}.mp4`);
    const truth = join(dir, `piece-${r.seed}.json`);
    if (!existsSync(file) || !existsSync(truth)) {
      await renderSyntheticGameAtomic({ seed: r.seed, width: 640, height: 360, view: r.view, script: r.script.map((kind) => ({ kind })) }, file);
    }
    files.push(file);
    truths.push((JSON.parse(await readFile(truth, 'utf8')) as { clips: GroundTruthClip[] }).clips[0]);
  }
  return { dir, files, truths };
}
