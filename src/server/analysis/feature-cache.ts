import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v8 from 'node:v8';
import type { ExtractedVideo } from './index';

/**
 * A cache of extracted videos (per-frame features, rim reads and jersey samples) for the
 * benchmark: extraction is nearly all of an analysis' cost, and a change to the rules after it
 * (hoop choice, shots, makes, players) does not change it. With the cache, `bench:analysis`
 * re-scores every set in minutes after such a change.
 *
 * An entry is keyed by what decides the features: the video file (real path, size, mtime),
 * the source text of the extraction modules and everything they import (so any change to the
 * decode or the per-frame work misses the cache), the decode settings of the environment and
 * the worker pool's size (it decides where a long video's decode is split).
 */

const here = dirname(fileURLToPath(import.meta.url));

/** The modules extraction runs: the decode and its pool split, the per-frame work, the rim reads of sampled frames. */
const EXTRACTION_ROOTS = ['extract.ts', 'decode.ts', 'frame-features.ts', 'hoop-appearance.ts'];

/**
 * Version of an entry's layout (`ExtractedVideo` and the finishing task in it, built in index.ts, which is not among
 * the hashed modules: it names the run version, which every rule change bumps). Bump it when that layout changes.
 */
const ENTRY_FORMAT = 2;

/** Environment variables that change the decode (decode.ts, extract.ts). */
const DECODE_ENV = ['SWISH_DECODE_CHAIN', 'SWISH_RGB_CHAIN', 'SWISH_SKIP_LOOP_FILTER', 'SWISH_DECODE_PARTS', 'FFMPEG_PATH'];

/**
 * The relative modules that `file` imports for their values (not `import type`), found from its
 * source text: `import … from './x'` and `export … from './x'`, `.ts` added.
 */
export function valueImports(file: string, source: string): string[] {
  const out: string[] = [];
  const re = /^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms;
  for (const m of source.matchAll(re)) {
    if (m[1]) continue;
    out.push(resolve(dirname(file), m[2].endsWith('.ts') ? m[2] : `${m[2]}.ts`));
  }
  return out;
}

/** Every module reachable from `roots` by value imports, sorted (absolute paths). */
export function importClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f) || !existsSync(f)) continue;
    seen.add(f);
    todo.push(...valueImports(f, readFileSync(f, 'utf8')));
  }
  return [...seen].sort();
}

let sourcesHash: string | null = null;

/** Hash of the extraction modules' source text (computed once per process). */
export function extractionSourcesHash(): string {
  if (sourcesHash) return sourcesHash;
  const h = createHash('sha256');
  for (const f of importClosure(EXTRACTION_ROOTS.map((r) => join(here, r)))) {
    h.update(`${basename(f)}\0`);
    h.update(readFileSync(f));
  }
  sourcesHash = h.digest('hex');
  return sourcesHash;
}

/** The cache key of one video: its identity, the extraction sources, the decode settings and the pool size. */
export function featureCacheKey(videoPath: string, poolSize: number): string {
  // the real path: a set reached through a linked folder (a copy of the repository sharing its data) is the same video
  const abs = realpathSync(resolve(videoPath));
  const st = statSync(abs);
  const h = createHash('sha256');
  h.update(JSON.stringify({ format: ENTRY_FORMAT, abs, size: st.size, mtime: Math.round(st.mtimeMs), poolSize, env: DECODE_ENV.map((k) => process.env[k] ?? '') }));
  h.update(extractionSourcesHash());
  return h.digest('hex').slice(0, 32);
}

/** Cached extraction of a video, or null when there is none (or it cannot be read). */
export async function loadExtracted(dir: string, key: string): Promise<ExtractedVideo | null> {
  const file = join(dir, `${key}.bin`);
  if (!existsSync(file)) return null;
  try {
    return v8.deserialize(await readFile(file)) as ExtractedVideo;
  } catch {
    return null;
  }
}

/** Stores an extraction (written to a temporary name, then renamed: a stopped run leaves no half entry). */
export async function storeExtracted(dir: string, key: string, x: ExtractedVideo): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${key}.bin`);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, v8.serialize(x));
  await rename(tmp, file);
}
