import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notAVideo } from './steps';

describe('why a source is no video', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swish-not-video-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says so of an empty file and of a web page; anything else is not decodable', async () => {
    const file = async (name: string, body: string | Buffer) => {
      const path = join(dir, name);
      await writeFile(path, body);
      return path;
    };
    expect(await notAVideo(await file('empty.mp4', ''))).toBe('The source is empty (0 bytes).');
    expect(await notAVideo(await file('page.mp4', '\n  <!DOCTYPE html><html><head><title>Game</title>'))).toMatch(/web page, not a video file/);
    expect(await notAVideo(await file('noise.mp4', Buffer.from([1, 2, 3, 4, 5])))).toBe('The source is not a video that can be decoded.');
  });
});
