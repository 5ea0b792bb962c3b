import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, type VideoProbe } from './ffmpeg';
import { plannedSessionRenditions, renderSessionMedia } from './renditions';
import { LocalMediaStorage } from './storage';
import { makeTestVideo, probeStreams, topLevelBoxes } from './test-videos';

let dir: string;
let storage: LocalMediaStorage;
const sources: Record<'landscape' | 'portrait', { path: string; probe: VideoProbe }> = {} as never;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-renditions-test-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  await Promise.all([
    makeTestVideo({ path: join(dir, 'landscape.mp4'), width: 1280, height: 720, seconds: 3, audio: true }),
    makeTestVideo({ path: join(dir, 'portrait.mp4'), width: 720, height: 1280, seconds: 3, audio: false }),
  ]);
  for (const name of ['landscape', 'portrait'] as const) {
    const path = join(dir, `${name}.mp4`);
    sources[name] = { path, probe: await probeVideo(path) };
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('plannedSessionRenditions', () => {
  it('never upscales and names the short side', () => {
    expect(plannedSessionRenditions({ width: 1920, height: 1080 }).map((r) => [r.name, r.width, r.height])).toEqual([
      ['1080p', 1920, 1080],
      ['720p', 1280, 720],
      ['360p', 640, 360],
    ]);
    expect(plannedSessionRenditions({ width: 1080, height: 1920 }).map((r) => [r.name, r.width, r.height])).toEqual([
      ['1080p', 1080, 1920],
      ['720p', 720, 1280],
      ['360p', 360, 640],
    ]);
    expect(plannedSessionRenditions({ width: 640, height: 480 }).map((r) => r.name)).toEqual(['360p']);
    expect(plannedSessionRenditions({ width: 320, height: 240 })).toEqual([]);
  });
});

describe('renderSessionMedia', () => {
  it.each([
    ['landscape', { '720p': [1280, 720], '360p': [640, 360] }, [1280, 720], true],
    ['portrait', { '720p': [720, 1280], '360p': [360, 640] }, [720, 1280], false],
  ] as const)('renders a %s source: renditions by short side, no upscale, audio iff the source has it, faststart, poster', async (name, sizes, poster, audio) => {
    const src = sources[name];
    const progress: number[] = [];
    const keys = await renderSessionMedia({ sessionId: `sess_${name}`, input: src.path, probe: src.probe, storage, onProgress: (f) => progress.push(f) });

    expect(keys).toEqual({
      original: `sessions/sess_${name}/original.mp4`,
      preview: `sessions/sess_${name}/preview.jpg`,
      '1080p': null,
      '720p': `sessions/sess_${name}/720p.mp4`,
      '360p': `sessions/sess_${name}/360p.mp4`,
    });
    for (const [rendition, [w, h]] of Object.entries(sizes)) {
      const path = storage.localPath(keys[rendition as '720p']!);
      const streams = await probeStreams(path);
      const video = streams.find((s) => s.codec_type === 'video')!;
      expect([video.codec_name, video.width, video.height]).toEqual(['h264', w, h]);
      expect(streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(audio);
      const probe = await probeVideo(path);
      expect(Math.abs(probe.durationSeconds - 3)).toBeLessThan(0.15);
      const boxes = topLevelBoxes(await readFile(path));
      expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    }
    const original = await readFile(storage.localPath(keys.original!));
    expect(original.equals(await readFile(src.path))).toBe(true);

    const jpeg = storage.localPath(keys.preview!);
    expect((await readFile(jpeg)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const [image] = await probeStreams(jpeg);
    expect([image.codec_name, image.width, image.height]).toEqual(['mjpeg', ...poster]);

    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('stops ffmpeg when aborted', async () => {
    const src = sources.landscape;
    const controller = new AbortController();
    const run = renderSessionMedia({ sessionId: 'sess_abort', input: src.path, probe: src.probe, storage, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toThrow();
    expect(await storage.exists('sessions/sess_abort/720p.mp4')).toBe(false);
  });
});
