import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GroundTruthClip } from './ground-truth';
import { GENERATOR_VERSION, groundTruthFile, renderSyntheticGameAtomic, resolveOptions, type SynthOptions } from './synth/render';

/** One clip of the synthetic benchmark set: fixed seed and options, so every machine renders the same videos. */
export interface SyntheticBenchClip {
  name: string;
  options: SynthOptions;
}

const CASES = 'swish,rim_in,bank_in,rim_out,air_ball,bank_out,three:made,three:miss,free_throw:made,free_throw:miss';

/**
 * The synthetic benchmark set: eight 2-minute games (six tripod views, two panning broadcast
 * cameras) and seven scripted clips that each play every outcome kind once (swish, rim-in,
 * bank-in, rim-out, air ball, bank-out, threes, free throws) — about 24 minutes and 150 shots.
 */
export function syntheticBenchSet(): SyntheticBenchClip[] {
  const clips: SyntheticBenchClip[] = [];
  for (let i = 0; i < 8; i++) {
    const seed = 11 + i;
    clips.push({ name: `game-${seed}.mp4`, options: { seed, minutes: 2, camera: i % 4 === 3 ? 'panning' : 'stationary' } });
  }
  for (let i = 0; i < 7; i++) {
    const seed = 21 + i;
    const script = CASES.split(',').map((item) => {
      const [kind, mod] = item.split(':');
      return { kind, ...(mod ? { made: mod === 'made' } : {}) } as NonNullable<SynthOptions['script']>[number];
    });
    clips.push({ name: `cases-${seed}.mp4`, options: { seed, script } });
  }
  return clips;
}

/**
 * The held-out set: seven more 2-minute games (six tripod views, one panning broadcast camera)
 * from seeds that are never looked at while the analyser is tuned. The tuning set's figures
 * flatter the rules that were fitted to it; this set shows how they carry over to unseen games.
 * A held-out set stops being one once its clips have been studied: the first six (seeds
 * 101–107, 201–207, 301–307, 1201–1207, 1301–1307, then 1601–1607) were, and are kept in
 * `seenHeldOutBenchSet` for regression checks; this one (seeds 1701–1707) replaced them.
 */
export function heldOutBenchSet(): SyntheticBenchClip[] {
  return heldOutGames([1701, 1702, 1703, 1704, 1705, 1706, 1707], 1704);
}

/** The held-out sets studied since (seeds 101–107, 201–207, 301–307, 1201–1207, 1301–1307, then 1601–1607), now regression material like the tuning set. */
export function seenHeldOutBenchSet(): SyntheticBenchClip[] {
  return [
    ...heldOutGames([101, 102, 103, 104, 105, 106, 107], 104),
    ...heldOutGames([201, 202, 203, 204, 205, 206, 207], 204),
    ...heldOutGames([301, 302, 303, 304, 305, 306, 307], 304),
    ...heldOutGames([1201, 1202, 1203, 1204, 1205, 1206, 1207], 1204),
    ...heldOutGames([1301, 1302, 1303, 1304, 1305, 1306, 1307], 1304),
    ...heldOutGames([1601, 1602, 1603, 1604, 1605, 1606, 1607], 1604),
  ];
}

function heldOutGames(seeds: number[], panningSeed: number): SyntheticBenchClip[] {
  return seeds.map((seed) => ({
    name: `held-${seed}.mp4`,
    options: { seed, minutes: 2, camera: seed === panningSeed ? 'panning' : 'stationary' },
  }));
}

/**
 * A cached clip's ground truth, when it exists and was written by the current generator version
 * from the same options (another version, or an option added since, renders another video); null
 * otherwise.
 */
async function cachedClip(gtPath: string, options: SynthOptions): Promise<GroundTruthClip | null> {
  if (!existsSync(gtPath)) return null;
  const clip = (JSON.parse(await readFile(gtPath, 'utf8')) as { clips: GroundTruthClip[] }).clips[0];
  const syn = clip?.synthetic;
  const asked = syn?.generator_version === GENERATOR_VERSION && JSON.stringify(syn.options) === JSON.stringify(resolveOptions(options));
  return asked ? clip : null;
}

/**
 * Renders the missing clips of a synthetic set (default: the tuning set) into `dir` (cached:
 * existing videos whose ground truth the same generator version wrote from the same options are
 * reused; others are rendered again) and writes `dir/ground_truth.json`.
 * Returns `dir`.
 */
export async function ensureSyntheticSet(
  dir: string,
  log: (line: string) => void = () => {},
  set: SyntheticBenchClip[] = syntheticBenchSet(),
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const clips: GroundTruthClip[] = [];
  for (const c of set) {
    const video = join(dir, c.name);
    const gtPath = video.replace(/\.mp4$/, '.json');
    let clip = existsSync(video) ? await cachedClip(gtPath, c.options) : null;
    if (!clip) {
      const t0 = performance.now();
      log(`  rendering synthetic ${c.name} …`);
      clip = await renderSyntheticGameAtomic(c.options, video);
      log(`  rendered ${c.name} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    clips.push({ ...clip, file: c.name });
  }
  await writeFile(join(dir, 'ground_truth.json'), JSON.stringify(groundTruthFile(clips), null, 1));
  return dir;
}
