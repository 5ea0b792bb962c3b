import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { ffmpegPath, ffprobePath, probeVideo, runTool, type VideoProbe } from './ffmpeg';
import { originalExtension, plannedSessionRenditions, remuxDecision, remuxFacts, renderSessionMedia, type RemuxFacts } from './renditions';
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
    // smaller than every rung: still one rendition a browser plays, at the source's size
    expect(plannedSessionRenditions({ width: 320, height: 240 }).map((r) => [r.name, r.width, r.height])).toEqual([['360p', 320, 240]]);
    expect(plannedSessionRenditions({ width: 480, height: 358 }).map((r) => [r.name, r.width, r.height])).toEqual([['360p', 480, 358]]);
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

  it('names an original by its container and, once stored, does not store it again', async () => {
    const src = sources.landscape;
    const mkv = join(dir, 'game.mkv');
    await runTool(ffmpegPath(), ['-y', '-v', 'error', '-i', src.path, '-c', 'copy', mkv]);
    expect(await originalExtension(mkv, await probeVideo(mkv))).toBe('mkv');
    expect(await originalExtension(src.path, src.probe)).toBe('mp4');
    // the pipeline stored the source as original.mkv before the renditions ran
    const key = 'sessions/sess_stored/original.mkv';
    await storage.putFile(key, mkv);
    const keys = await renderSessionMedia({ sessionId: 'sess_stored', input: mkv, probe: await probeVideo(mkv), storage, originalKey: key });
    expect(keys.original).toBe(key);
    expect(await storage.stat('sessions/sess_stored/original.mp4')).toBeNull();
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

/** Hash of a file's first video stream as coded (packets copied, not decoded). */
async function videoBitstreamHash(path: string): Promise<string> {
  const { stdout } = await runTool(ffmpegPath(), ['-v', 'error', '-i', path, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  return stdout.toString().trim();
}

/** Hash of the decoded frame shown at `t` (seeking in the file). */
async function frameHashAt(path: string, t: number): Promise<string> {
  const { stdout } = await runTool(ffmpegPath(), ['-v', 'error', '-ss', t.toFixed(3), '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
  expect(stdout.length).toBeGreaterThan(0);
  return createHash('sha256').update(stdout).digest('hex');
}

/** Seconds of the video keyframes. */
async function keyframeTimes(path: string): Promise<number[]> {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', path]);
  return stdout.toString().split('\n').filter((l) => l.includes('K')).map((l) => Number(l.split(',')[0])).sort((a, b) => a - b);
}

describe('remuxDecision', () => {
  const planned = plannedSessionRenditions({ width: 1280, height: 720 });
  const facts: RemuxFacts = {
    codec: 'h264', profile: 'High', pixFmt: 'yuv420p', width: 1280, height: 720, rotation: 0, fps: 30,
    audioCodec: 'aac', videoKbps: 2500, maxKeyframeGap: 2, startsWithKeyframe: true,
  };
  it('copies a source that is a rendition already, and its audio when AAC', () => {
    expect(remuxDecision(facts, planned)).toEqual({ rendition: '720p', audio: true });
    expect(remuxDecision({ ...facts, audioCodec: 'mp3' }, planned)).toEqual({ rendition: '720p', audio: false });
    expect(remuxDecision({ ...facts, audioCodec: null, maxKeyframeGap: 10 }, planned)).toEqual({ rendition: '720p', audio: false });
    expect(remuxDecision({ ...facts, width: 640, height: 360, videoKbps: 1800 }, plannedSessionRenditions({ width: 640, height: 360 }))).toEqual({ rendition: '360p', audio: true });
  });
  it('encodes anything else', () => {
    const none = { rendition: null, audio: false };
    expect(remuxDecision({ ...facts, codec: 'hevc' }, planned)).toEqual(none);
    expect(remuxDecision({ ...facts, pixFmt: 'yuv420p10le', profile: 'High 10' }, planned)).toEqual(none);
    expect(remuxDecision({ ...facts, profile: 'High 4:2:2' }, planned)).toEqual(none);
    expect(remuxDecision({ ...facts, width: 1282 }, planned)).toEqual(none); // not a rendition size
    expect(remuxDecision({ ...facts, rotation: 90 }, planned)).toEqual(none);
    expect(remuxDecision({ ...facts, fps: 120 }, planned)).toEqual(none);
    expect(remuxDecision({ ...facts, videoKbps: 7001 }, planned)).toEqual(none); // more than twice the 720p maxrate
    expect(remuxDecision({ ...facts, maxKeyframeGap: 12 }, planned)).toEqual(none); // seeking would decode too far
    expect(remuxDecision({ ...facts, startsWithKeyframe: false }, planned)).toEqual(none);
  });
});

describe('remuxed renditions', () => {
  it('copy a fitting source stream bit for bit: same frames when seeking, H.264/AAC faststart MP4; the other renditions are encoded', async () => {
    const src = sources.landscape;
    const facts = await remuxFacts(src.path, src.probe);
    expect(facts).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', audioCodec: 'aac', startsWithKeyframe: true });
    expect(facts.maxKeyframeGap).toBeLessThanOrEqual(1.01);
    const keys = await renderSessionMedia({ sessionId: 'sess_remux', input: src.path, probe: src.probe, storage });
    const r720 = storage.localPath(keys['720p']!);
    const r360 = storage.localPath(keys['360p']!);
    expect(await videoBitstreamHash(r720)).toBe(await videoBitstreamHash(src.path));
    expect(await videoBitstreamHash(r360)).not.toBe(await videoBitstreamHash(src.path));
    const streams = await probeStreams(r720);
    expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['video', 'h264'], ['audio', 'aac']]);
    const boxes = topLevelBoxes(await readFile(r720));
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(Math.abs((await probeVideo(r720)).durationSeconds - 3)).toBeLessThan(0.15);
    for (const t of [0.5, 1.7, 2.5]) expect(await frameHashAt(r720, t)).toBe(await frameHashAt(src.path, t));
    // the encoded rendition keeps 2 s keyframes
    expect(await keyframeTimes(r360)).toEqual([0, 2]);
  });

  it('encodes a source whose keyframes are too far apart for seeking', async () => {
    const path = join(dir, 'sparse-keys.mp4');
    await makeTestVideo({ path, width: 640, height: 360, seconds: 12, audio: false, gop: 330 });
    const probe = await probeVideo(path);
    const facts = await remuxFacts(path, probe);
    expect(facts.maxKeyframeGap).toBeGreaterThan(10.5);
    const keys = await renderSessionMedia({ sessionId: 'sess_sparse', input: path, probe, storage });
    const r360 = storage.localPath(keys['360p']!);
    expect(await videoBitstreamHash(r360)).not.toBe(await videoBitstreamHash(path));
    expect(await keyframeTimes(r360)).toEqual([0, 2, 4, 6, 8, 10]);
  });
});
