import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalSmartCutSource, renderHighlightClips } from './clips';
import { plannedSessionRenditions, remuxDecision, remuxFacts, renderPoster, renderSessionMedia, sourceFilters } from './renditions';
import { ffmpegPath, probeVideo, runTool } from './ffmpeg';
import { LocalMediaStorage } from './storage';
import { detectInterlace, makeProbedVideos, type ProbedVideo } from './test-videos';

/**
 * An interlaced source (a camcorder's 1080i, a broadcast recording): every frame weaves two fields taken 1/60 s apart,
 * which a browser shows combed into each other wherever something moves. Its renditions, clips and poster are
 * deinterlaced, and its stream is never copied (no remuxed rendition, no smart cut).
 */
let dir: string;
let storage: LocalMediaStorage;
let sources: Record<'interlaced' | 'progressive', ProbedVideo>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-interlaced-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  // 640×360 H.264 with keyframes every second: the 360p rendition's own size, so a progressive copy would be remuxed
  sources = await makeProbedVideos(dir, {
    interlaced: { width: 640, height: 360, seconds: 3, audio: true, interlaced: true },
    progressive: { width: 640, height: 360, seconds: 3, audio: true },
  });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('an interlaced source', () => {
  it('is probed as interlaced, from its field order; a progressive one is not', async () => {
    expect(sources.interlaced.probe.interlaced).toBe(true);
    expect(sources.progressive.probe.interlaced).toBe(false);
    // the pictures themselves: the moving pattern's fields are combed in every frame
    const seen = await detectInterlace(sources.interlaced.path);
    expect(seen.interlaced).toBeGreaterThan(0.8 * (seen.interlaced + seen.progressive));
    expect(sourceFilters(sources.interlaced.probe)).toMatch(/^yadif=/);
    expect(sourceFilters(sources.progressive.probe)).toBe('');
  });

  it('gets its renditions encoded and deinterlaced, never copied', async () => {
    const facts = await remuxFacts(sources.interlaced.path, sources.interlaced.probe);
    const planned = plannedSessionRenditions(sources.interlaced.probe);
    expect(remuxDecision(facts, planned).rendition).toBeNull();
    // the same stream, were it progressive (and of a rendition's bitrate: the whole picture moves here), would be copied
    expect(remuxDecision({ ...facts, interlaced: false, videoKbps: 500 }, planned).rendition).toBe('360p');
    const keys = await renderSessionMedia({ sessionId: 'sess_i', input: sources.interlaced.path, probe: sources.interlaced.probe, storage });
    const r360 = storage.localPath(keys['360p']!);
    const seen = await detectInterlace(r360);
    expect(seen.progressive).toBeGreaterThan(0.8 * (seen.interlaced + seen.progressive));
    expect((await stat(storage.localPath(keys.preview!))).size).toBeGreaterThan(0);
  });

  it('gets its highlight clips deinterlaced, with no smart cut', async () => {
    expect(await horizontalSmartCutSource(sources.interlaced.path, sources.interlaced.probe)).toBeNull();
    const [clip] = await renderHighlightClips({
      sessionId: 'sess_i',
      input: sources.interlaced.path,
      probe: sources.interlaced.probe,
      storage,
      renditions: 'eager',
      clips: [{ highlightId: 'hl_i', start: 0.5, end: 2.5, focus: [] }],
    });
    for (const key of [clip.video.horizontal!, clip.video.default!]) {
      const seen = await detectInterlace(storage.localPath(key));
      expect(seen.progressive, key).toBeGreaterThan(0.8 * (seen.interlaced + seen.progressive));
    }
  });

  it('gets a poster from a deinterlaced frame', async () => {
    const poster = async (interlaced: boolean) => {
      const output = join(dir, `poster-${interlaced}.jpg`);
      await renderPoster({ input: sources.interlaced.path, probe: { ...sources.interlaced.probe, interlaced }, output });
      return combing(output);
    };
    // the same frame taken as it is woven keeps its fields' combs
    expect(await poster(true)).toBeLessThan(0.8 * (await poster(false)));
  });
});

/** Mean |2·p(y) − p(y−1) − p(y+1)| over an image's grey pixels: a woven frame's fields make every other row jump. */
async function combing(image: string): Promise<number> {
  const { stdout } = await runTool(ffmpegPath(), ['-v', 'error', '-i', image, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {});
  const probe = await probeVideo(image);
  const w = probe.width;
  const h = probe.height;
  let sum = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 0; x < w; x++) sum += Math.abs(2 * stdout[y * w + x] - stdout[(y - 1) * w + x] - stdout[(y + 1) * w + x]);
  }
  return sum / (w * (h - 2));
}
