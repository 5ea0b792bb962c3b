import { mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractionSourcesHash, featureCacheKey, importClosure, valueImports } from './feature-cache';

describe('valueImports', () => {
  it('follows value imports and re-exports, skips type-only ones', () => {
    const src = [
      "import { a, type B } from './alpha';",
      "import type { C } from './beta';",
      'import {',
      '  d,',
      '  e,',
      "} from '../gamma';",
      "export type * from './delta';",
      "export { f } from './eps.ts';",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(valueImports('/x/y/file.ts', src)).toEqual(['/x/y/alpha.ts', '/x/gamma.ts', '/x/y/eps.ts']);
  });
});

describe('the extraction sources', () => {
  const here = import.meta.dirname;
  const closure = importClosure(['extract.ts', 'decode.ts', 'frame-features.ts', 'hoop-appearance.ts'].map((f) => join(here, f)));
  const names = closure.map((f) => basename(f));

  it('are the decode, the per-frame work and the rim reads with what they import', () => {
    expect(names).toEqual(expect.arrayContaining(['extract.ts', 'decode.ts', 'frame-features.ts', 'hoop-appearance.ts', 'ffmpeg.ts']));
  });

  it('leave out the finishing stages, so a rule change after extraction keeps the cache', () => {
    for (const later of ['finish.ts', 'shots.ts', 'hoop-locate.ts', 'rim-tracks.ts', 'players.ts', 'jersey.ts']) expect(names).not.toContain(later);
  });

  it('hash to a stable value', () => {
    expect(extractionSourcesHash()).toMatch(/^[0-9a-f]{64}$/);
    expect(extractionSourcesHash()).toBe(extractionSourcesHash());
  });
});

describe('featureCacheKey', () => {
  let dir: string;
  let video: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swish-fc-'));
    video = join(dir, 'clip.mp4');
    await writeFile(video, 'not really a video');
    await utimes(video, 1_700_000_000, 1_700_000_000);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    delete process.env.SWISH_DECODE_CHAIN;
  });

  it('is the same for the same file and settings', () => {
    expect(featureCacheKey(video, 2)).toBe(featureCacheKey(video, 2));
  });

  it('is the same for the file reached through a linked folder', async () => {
    const link = `${dir}-link`;
    await symlink(dir, link);
    try {
      expect(featureCacheKey(join(link, 'clip.mp4'), 2)).toBe(featureCacheKey(video, 2));
    } finally {
      await rm(link, { force: true });
    }
  });

  it('changes with the pool size, the decode settings and the file', async () => {
    const base = featureCacheKey(video, 2);
    expect(featureCacheKey(video, 1)).not.toBe(base);
    process.env.SWISH_DECODE_CHAIN = 'yuv420p';
    expect(featureCacheKey(video, 2)).not.toBe(base);
    delete process.env.SWISH_DECODE_CHAIN;
    expect(featureCacheKey(video, 2)).toBe(base);
    await utimes(video, 1_700_000_100, 1_700_000_100);
    expect(featureCacheKey(video, 2)).not.toBe(base);
    await utimes(video, 1_700_000_000, 1_700_000_000);
    await writeFile(video, 'another video, longer');
    await utimes(video, 1_700_000_000, 1_700_000_000);
    expect(featureCacheKey(video, 2)).not.toBe(base);
  });
});
