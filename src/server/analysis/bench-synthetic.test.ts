import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSyntheticSet, type SyntheticBenchClip } from './bench-synthetic';

const dir = mkdtempSync(join(tmpdir(), 'swish-bench-set-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureSyntheticSet', () => {
  it('reuses a cached clip rendered as asked and renders again one from other options or another generator version', async () => {
    const clip = (offBallMotion: boolean): SyntheticBenchClip[] => [
      { name: 'tiny.mp4', options: { seed: 5, durationSeconds: 1, width: 160, height: 96, offBallMotion } },
    ];
    const renders = async (set: SyntheticBenchClip[]) => {
      const lines: string[] = [];
      await ensureSyntheticSet(dir, (l) => lines.push(l), set);
      return lines.filter((l) => l.includes('rendering')).length;
    };
    expect(await renders(clip(false))).toBe(1);
    expect(await renders(clip(false))).toBe(0);
    expect(await renders(clip(true))).toBe(1);
    const gtPath = join(dir, 'tiny.json');
    const gt = JSON.parse(await readFile(gtPath, 'utf8'));
    expect(gt.clips[0].synthetic.options.offBallMotion).toBe(true);
    // a clip written by another generator version is rendered again
    gt.clips[0].synthetic.generator_version = 'older';
    await writeFile(gtPath, JSON.stringify(gt));
    expect(await renders(clip(true))).toBe(1);
    expect(await renders(clip(true))).toBe(0);
    const set = JSON.parse(await readFile(join(dir, 'ground_truth.json'), 'utf8'));
    expect(set.clips.map((c: { file: string }) => c.file)).toEqual(['tiny.mp4']);
  });
});
