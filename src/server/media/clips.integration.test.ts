import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planHighlightClip, renderHighlightClips, type HighlightClipResult } from './clips';
import { ffprobePath, probeVideo, runTool } from './ffmpeg';
import { LocalMediaStorage } from './storage';
import { highlightKeys720, makeProbedVideos, type ProbedVideo, makeTestVideo, meanLumaAt, probeStreams, topLevelBoxes } from './test-videos';

let dir: string;
let storage: LocalMediaStorage;
let sources: Record<'landscape' | 'portrait', ProbedVideo>;
let landscape: HighlightClipResult[];
let portrait: HighlightClipResult[];
const progress: number[] = [];

/** Brightness grows along the long side of the test videos, so a frame's mean luma tells where its crop window sits. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-clips-test-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  sources = await makeProbedVideos(dir, {
    landscape: { width: 1280, height: 720, seconds: 6, audio: true },
    portrait: { width: 720, height: 1280, seconds: 4, audio: false },
  });
  landscape = await renderHighlightClips({
    sessionId: 'sess_l',
    input: sources.landscape.path,
    probe: sources.landscape.probe,
    storage,
    // every rendition encoded with the clip (the on-demand path is tested in on-demand.integration.test.ts)
    renditions: 'eager',
    onProgress: (f) => progress.push(f),
    clips: [
      // The action moves from the far left to the far right.
      { highlightId: 'hl_move', start: 1, end: 3.5, previewAt: 1.2, focus: [{ t: 1, x: 0.02, y: 0.5 }, { t: 1.4, x: 0.02, y: 0.5 }, { t: 3.1, x: 0.98, y: 0.5 }, { t: 3.5, x: 0.98, y: 0.5 }] },
      { highlightId: 'hl_centre', start: 4, end: 9, focus: [] },
    ],
  });
  portrait = await renderHighlightClips({
    sessionId: 'sess_p',
    input: sources.portrait.path,
    probe: sources.portrait.probe,
    storage,
    renditions: 'eager',
    clips: [{ highlightId: 'hl_up', start: 0.5, end: 3, focus: [{ t: 0.5, x: 0.5, y: 0.95 }, { t: 1, x: 0.5, y: 0.95 }, { t: 2.5, x: 0.5, y: 0.05 }, { t: 3, x: 0.5, y: 0.05 }] }],
  });
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function videoOf(key: string) {
  const path = storage.localPath(key);
  const streams = await probeStreams(path);
  const video = streams.find((s) => s.codec_type === 'video')!;
  return { path, width: video.width, height: video.height, codec: video.codec_name, audio: streams.some((s) => s.codec_type === 'audio'), duration: (await probeVideo(path)).durationSeconds };
}

describe('planHighlightClip', () => {
  it('caps the clips at 1080 on the short side and plans renditions up to the horizontal clip', () => {
    const uhd = planHighlightClip({ width: 3840, height: 2160 });
    expect(uhd.verticalOut).toEqual({ width: 1080, height: 1920 });
    expect(uhd.horizontalOut).toEqual({ width: 1920, height: 1080 });
    expect(uhd.renditions.map((r) => r.name)).toEqual(['1080p', '720p', '480p', '360p', '240p', '144p']);
    expect(uhd.renditions[0].sameAsHorizontal).toBe(true);
    const small = planHighlightClip({ width: 640, height: 360 });
    expect(small.renditions.map((r) => r.name)).toEqual(['360p', '240p', '144p']);
  });
});

describe('renderHighlightClips on a landscape source with audio', () => {
  it('returns every key, never above the source, 720p sharing the horizontal file', () => {
    expect(landscape.map((r) => r.highlightId)).toEqual(['hl_move', 'hl_centre']);
    const [move] = landscape;
    const k = (n: string) => `sessions/sess_l/highlights/hl_move/${n}`;
    expect(move.video).toEqual(highlightKeys720('sess_l', 'hl_move'));
    expect(move.preview).toEqual({ default: k('preview-default.jpg'), horizontal: k('preview-horizontal.jpg') });
    expect(progress.at(-1)).toBe(1);
  });

  it('cuts accurately, keeps audio, sizes by short side, faststart', async () => {
    const [move, centre] = landscape;
    expect(Math.abs(move.lengthSeconds - 2.5)).toBeLessThan(0.1);
    // The second clip asked past the end of the 6 s source: it is cut at the end.
    expect(Math.abs(centre.lengthSeconds - 2)).toBeLessThan(0.1);
    const expected: Record<string, [number, number]> = {
      default: [404, 720],
      horizontal: [1280, 720],
      '480p': [852, 480],
      '360p': [640, 360],
      '240p': [426, 240],
      '144p': [256, 144],
    };
    for (const [name, [w, h]] of Object.entries(expected)) {
      const v = await videoOf(move.video[name as 'default']!);
      expect([name, v.codec, v.width, v.height, v.audio]).toEqual([name, 'h264', w, h, true]);
      expect(Math.abs(v.duration - 2.5)).toBeLessThan(0.1);
      // the audio (encoded once per clip, copied into every variant) is AAC stereo and as long as the video, starting with it
      const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=codec_type,codec_name,channels,start_time,duration', v.path]);
      const streams = (JSON.parse(stdout.toString()) as { streams: Array<Record<string, string | number>> }).streams;
      const a = streams.find((x) => x.codec_type === 'audio')!;
      const vs = streams.find((x) => x.codec_type === 'video')!;
      expect([a.codec_name, a.channels]).toEqual(['aac', 2]);
      expect(Math.abs(Number(a.duration) - Number(vs.duration))).toBeLessThan(0.06);
      expect(Math.abs(Number(a.start_time) - Number(vs.start_time))).toBeLessThan(0.03);
      const boxes = topLevelBoxes(await readFile(v.path));
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    }
  });

  it('moves the vertical crop with the action, and centres it without focus', async () => {
    const [move, centre] = landscape;
    const path = storage.localPath(move.video.default!);
    const first = await meanLumaAt(path, 0.05);
    const last = await meanLumaAt(path, 2.4);
    expect(first).toBeLessThan(70);
    expect(last).toBeGreaterThan(180);
    const centred = storage.localPath(centre.video.default!);
    for (const t of [0.1, 1.5]) expect(Math.abs((await meanLumaAt(centred, t)) - 128)).toBeLessThan(25);
  });

  it('writes JPEG previews of both aspect ratios at the key moment', async () => {
    const [move] = landscape;
    for (const [name, w, h] of [['default', 404, 720], ['horizontal', 1280, 720]] as const) {
      const path = storage.localPath(move.preview[name]!);
      expect((await readFile(path)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      const [image] = await probeStreams(path);
      expect([image.codec_name, image.width, image.height]).toEqual(['mjpeg', w, h]);
    }
    // previewAt 1.2 s is near the start, when the crop is still on the dark left side.
    expect(await meanLumaAt(storage.localPath(move.preview.default!), 0)).toBeLessThan(70);
  });
});

describe('renderHighlightClips on a portrait source without audio', () => {
  it('keeps the full frame as the vertical clip and follows the action with a 16:9 window', async () => {
    const [up] = portrait;
    const vertical = await videoOf(up.video.default!);
    expect([vertical.width, vertical.height, vertical.audio]).toEqual([720, 1280, false]);
    const horizontal = await videoOf(up.video.horizontal!);
    expect([horizontal.width, horizontal.height, horizontal.audio]).toEqual([720, 404, false]);
    expect(up.video['1080p']).toBeNull();
    expect(up.video['720p']).toBeNull();
    expect(up.video['480p']).toBeNull();
    const r360 = await videoOf(up.video['360p']!);
    expect([r360.width, r360.height]).toEqual([640, 360]);
    expect(up.video['144p']).not.toBeNull();
    // Brightness grows downwards: the window starts low (bright) and ends high (dark).
    expect(await meanLumaAt(horizontal.path, 0.05)).toBeGreaterThan(180);
    expect(await meanLumaAt(horizontal.path, 2.4)).toBeLessThan(70);
  });
});

describe('renderHighlightClips errors', () => {
  it('rejects an empty window and leaves nothing half-written', async () => {
    await expect(
      renderHighlightClips({
        sessionId: 'sess_e',
        input: sources.portrait.path,
        probe: sources.portrait.probe,
        storage,
        clips: [{ highlightId: 'hl_empty', start: 10, end: 12, focus: [] }],
      }),
    ).rejects.toThrow(/empty clip window/);
    expect(await storage.exists('sessions/sess_e/highlights/hl_empty/default.mp4')).toBe(false);
  });
});
