import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET, HEAD } from '@/app/media/[...key]/route';
import { renderHighlightClips, type HighlightClipResult } from './clips';
import { ffprobePath, probeVideo, runTool } from './ffmpeg';
import { onDemandStats } from './on-demand';
import { highlightRenditionsMode, LocalMediaStorage, mediaUrl, setMediaStorage } from './storage';
import { highlightKeys720, makeProbedVideos, probeStreams, topLevelBoxes, type ProbedVideo } from './test-videos';

let dir: string;
let storage: LocalMediaStorage;
let sources: Record<'landscape' | 'portrait', ProbedVideo>;
let landscape: HighlightClipResult;
let portrait: HighlightClipResult;
const savedMode = process.env.SWISH_HIGHLIGHT_RENDITIONS;

beforeAll(async () => {
  delete process.env.SWISH_HIGHLIGHT_RENDITIONS; // the default: on demand
  process.env.SWISH_SECRET = 'on-demand-test-secret';
  process.env.SWISH_PUBLIC_URL = 'http://media.test';
  dir = await mkdtemp(join(tmpdir(), 'swish-on-demand-test-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  setMediaStorage(storage);
  sources = await makeProbedVideos(dir, {
    landscape: { width: 1280, height: 720, seconds: 4, audio: true },
    portrait: { width: 720, height: 1280, seconds: 3, audio: false },
  });
  [landscape] = await renderHighlightClips({
    sessionId: 'sess_od',
    input: sources.landscape.path,
    probe: sources.landscape.probe,
    clips: [{ highlightId: 'hl_od', start: 0.5, end: 3, focus: [] }],
  });
  [portrait] = await renderHighlightClips({
    sessionId: 'sess_odp',
    input: sources.portrait.path,
    probe: sources.portrait.probe,
    clips: [{ highlightId: 'hl_odp', start: 0.5, end: 2.5, focus: [] }],
  });
}, 120_000);
afterEach(() => {
  if (savedMode === undefined) delete process.env.SWISH_HIGHLIGHT_RENDITIONS;
  else process.env.SWISH_HIGHLIGHT_RENDITIONS = savedMode;
});
afterAll(async () => {
  setMediaStorage(undefined);
  await rm(dir, { recursive: true, force: true });
});

const get = (key: string, init: RequestInit = {}) => GET(new Request(mediaUrl(key)!, init));

async function probeBody(res: Response, name: string) {
  const file = join(dir, name);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  const streams = await probeStreams(file);
  const video = streams.find((s) => s.codec_type === 'video')!;
  return { file, width: video.width, height: video.height, audio: streams.some((s) => s.codec_type === 'audio'), duration: (await probeVideo(file)).durationSeconds };
}

describe('highlight renditions on demand', () => {
  it('processing stores the default and horizontal clips and only the keys of the smaller renditions', async () => {
    const k = (n: string) => `sessions/sess_od/highlights/hl_od/${n}`;
    expect(landscape.video).toEqual(highlightKeys720('sess_od', 'hl_od'));
    expect(await storage.exists(k('default.mp4'))).toBe(true);
    expect(await storage.exists(k('horizontal.mp4'))).toBe(true);
    for (const n of ['480p', '360p', '240p', '144p']) expect(await storage.exists(k(`${n}.mp4`)), n).toBe(false);
  });

  it('makes a rendition on its first request, once for concurrent requests, then serves it from storage', async () => {
    const key = landscape.video['360p']!;
    const before = onDemandStats.attempts;
    const [a, b] = await Promise.all([get(key), get(key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers.get('content-type')).toBe('video/mp4');
    const bytesA = Buffer.from(await a.clone().arrayBuffer());
    expect(bytesA.equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    expect(onDemandStats.attempts - before).toBe(1);
    expect(await storage.exists(key)).toBe(true);

    // the same size, quality row, audio and length as an eager rendition
    const v = await probeBody(a, 'r360.mp4');
    const horizontal = await probeVideo(storage.localPath(landscape.video.horizontal!));
    expect([v.width, v.height, v.audio]).toEqual([640, 360, true]);
    expect(Math.abs(v.duration - horizontal.durationSeconds)).toBeLessThan(0.06);
    const boxes = topLevelBoxes(await readFile(v.file));
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=profile,pix_fmt', '-of', 'csv=p=0', v.file]);
    expect(stdout.toString().trim()).toBe('High,yuv420p');

    // later requests: from storage, with ranges, no new encode
    const range = await get(key, { headers: { Range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytesA.subarray(0, 100))).toBe(true);
    expect(onDemandStats.attempts - before).toBe(1);
  });

  it('answers HEAD on a rendition not made yet with its real length', async () => {
    const key = landscape.video['144p']!;
    const res = await HEAD(new Request(mediaUrl(key)!, { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe((await storage.stat(key))!.size);
    expect((await probeVideo(storage.localPath(key))).height).toBe(144);
  });

  it('makes the renditions of a portrait source from its 16:9 window, never above it', async () => {
    expect(portrait.video['480p']).toBeNull(); // the horizontal window is 720×404
    const res = await get(portrait.video['360p']!);
    expect(res.status).toBe(200);
    const v = await probeBody(res, 'p360.mp4');
    expect([v.width, v.height, v.audio]).toEqual([640, 360, false]);
  });

  it('answers 404 for a rendition that is not below the horizontal clip or whose highlight is gone, and stores nothing', async () => {
    for (const key of ['sessions/sess_od/highlights/hl_od/720p.mp4', 'sessions/sess_od/highlights/hl_od/1080p.mp4', 'sessions/sess_od/highlights/hl_gone/360p.mp4', 'sessions/sess_od/highlights/hl_od/300p.mp4']) {
      const res = await get(key);
      expect(res.status, key).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('resource_missing');
      expect(await storage.exists(key), key).toBe(false);
    }
  });

  it('answers 500 rendition_failed when the encode fails, stores nothing, and retries on the next request', async () => {
    const k = (n: string) => `sessions/sess_bad/highlights/hl_bad/${n}`;
    await storage.put(k('horizontal.mp4'), Buffer.from('not a video'));
    const before = onDemandStats.attempts;
    // a bad file fails the attempt: the request gets the error, nothing is stored
    const res = await get(k('360p.mp4'));
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toMatchObject({ error: { type: 'api_error', code: 'rendition_failed' } });
    expect(await storage.exists(k('360p.mp4'))).toBe(false);
    // the clip is replaced by a good one: the next request makes the rendition
    await storage.putFile(k('horizontal.mp4'), storage.localPath(landscape.video.horizontal!));
    const again = await get(k('360p.mp4'));
    expect(again.status).toBe(200);
    expect(onDemandStats.attempts - before).toBe(2);
  });

  it('makes nothing on a request when renditions are eager, and refuses an unknown mode', async () => {
    process.env.SWISH_HIGHLIGHT_RENDITIONS = 'eager';
    const res = await get(landscape.video['240p']!);
    expect(res.status).toBe(404);
    expect(await storage.exists(landscape.video['240p']!)).toBe(false);
    expect(() => highlightRenditionsMode({ SWISH_HIGHLIGHT_RENDITIONS: 'lazy' })).toThrow(/on-demand" or "eager/);
    expect(highlightRenditionsMode({})).toBe('on-demand');
  });
});
