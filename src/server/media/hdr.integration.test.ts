import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalSmartCutSource, renderHighlightClips } from './clips';
import { toSdrFilter } from './color';
import { ffmpegPath, ffprobePath, runTool } from './ffmpeg';
import { remuxFacts, renderPoster, renderSessionMedia } from './renditions';
import { LocalMediaStorage } from './storage';
import { makeProbedVideos, meanLumaAt, type ProbedVideo } from './test-videos';

/**
 * A phone's HDR video (HLG, BT.2020, 10-bit HEVC: an iPhone's default) against the same pictures in SDR: its renditions,
 * clips and poster are mapped to SDR BT.709, so they show what the SDR video shows; read as SDR, the HLG signal is dim
 * and washed out.
 */
let dir: string;
let storage: LocalMediaStorage;
let sources: Record<'hdr' | 'pq' | 'sdr', ProbedVideo>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-hdr-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  sources = await makeProbedVideos(dir, {
    hdr: { width: 640, height: 360, seconds: 2, audio: false, hdr: 'hlg' },
    pq: { width: 640, height: 360, seconds: 2, audio: false, hdr: 'pq' },
    sdr: { width: 640, height: 360, seconds: 2, audio: false },
  });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The colour tags of a file's video stream. */
async function colourTags(path: string): Promise<{ color_transfer?: string; color_primaries?: string }> {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=color_transfer,color_primaries', '-of', 'json', path]);
  return (JSON.parse(stdout.toString()) as { streams: Array<{ color_transfer?: string; color_primaries?: string }> }).streams[0];
}

describe('an HDR source', () => {
  it('is probed as HLG', () => {
    expect(sources.hdr.probe.hdr).toBe('hlg');
    expect(sources.sdr.probe.hdr).toBeUndefined();
  });

  it('gets SDR BT.709 renditions that look like the SDR video, never a copy of its stream', async () => {
    expect((await remuxFacts(sources.hdr.path, sources.hdr.probe)).hdr).toBe(true);
    const render = async (id: string, src: ProbedVideo) => storage.localPath((await renderSessionMedia({ sessionId: id, input: src.path, probe: src.probe, storage }))['360p']!);
    const sdr = await render('sess_sdr', sources.sdr);
    const mapped = await render('sess_hdr', sources.hdr);
    // the same HLG frames, read as SDR (no mapping)
    const unmapped = await render('sess_raw', { ...sources.hdr, probe: { ...sources.hdr.probe, hdr: undefined } });
    const luma = { sdr: await meanLumaAt(sdr, 1), mapped: await meanLumaAt(mapped, 1), unmapped: await meanLumaAt(unmapped, 1) };
    expect(Math.abs(luma.mapped - luma.sdr), JSON.stringify(luma)).toBeLessThanOrEqual(3);
    expect(Math.abs(luma.unmapped - luma.sdr), JSON.stringify(luma)).toBeGreaterThan(10);
    expect(await colourTags(mapped)).toMatchObject({ color_transfer: 'bt709', color_primaries: 'bt709' });
  });

  it('gets SDR highlight clips, with no smart cut, and an SDR poster', async () => {
    expect(await horizontalSmartCutSource(sources.hdr.path, sources.hdr.probe)).toBeNull();
    const clip = async (id: string, src: ProbedVideo) =>
      (await renderHighlightClips({ sessionId: id, input: src.path, probe: src.probe, storage, renditions: 'on-demand', clips: [{ highlightId: 'hl', start: 0.2, end: 1.8, focus: [] }] }))[0];
    const [sdr, mapped] = [await clip('sess_sdr', sources.sdr), await clip('sess_hdr', sources.hdr)];
    for (const v of ['horizontal', 'default'] as const) {
      const a = await meanLumaAt(storage.localPath(sdr.video[v]!), 0.8);
      const b = await meanLumaAt(storage.localPath(mapped.video[v]!), 0.8);
      expect(Math.abs(a - b), v).toBeLessThanOrEqual(3);
    }
    // `mapped: false`: the same HLG frames read as SDR
    const poster = async (name: string, src: ProbedVideo, mapped = true) => {
      const output = join(dir, `poster-${name}.jpg`);
      await renderPoster({ input: src.path, probe: mapped ? src.probe : { ...src.probe, hdr: undefined }, output, at: 1 });
      return meanLumaAt(output, 0);
    };
    const sdrPoster = await poster('sdr', sources.sdr);
    expect(Math.abs((await poster('hdr', sources.hdr)) - sdrPoster)).toBeLessThanOrEqual(3);
    expect(Math.abs((await poster('raw', sources.hdr, false)) - sdrPoster)).toBeGreaterThan(10);
  });
});

/**
 * How many times each zscale step of a filtergraph set its conversion up over the first `frames` frames of a video: its
 * verbose log line for each set-up (ffmpeg folds repeats of a line into "Last message repeated N times").
 */
function zscaleSetups(path: string, vf: string, frames: number): number[] {
  // the whole log (runTool keeps only its tail, and a log of set-ups on every frame outgrows it)
  const { stderr, status } = spawnSync(ffmpegPath(), ['-nostats', '-v', 'verbose', '-i', path, '-frames:v', String(frames), '-vf', vf, '-f', 'null', '-'], { encoding: 'utf8' });
  expect(status, stderr.slice(-2000)).toBe(0);
  const counts: number[] = [];
  let last = -1;
  for (const line of stderr.split('\n')) {
    const setup = /^\[Parsed_zscale_(\d+) @ [^\]]+\] w:\d+ h:\d+ fmt:/.exec(line);
    const repeated = /^\s*Last message repeated (\d+) times/.exec(line);
    if (setup) {
      last = Number(setup[1]);
      counts[last] = (counts[last] ?? 0) + 1;
    } else if (repeated && last >= 0) counts[last] += Number(repeated[1]);
    else last = -1;
  }
  return counts.filter((n) => n !== undefined);
}

describe('a PQ source (HDR10)', () => {
  it('is probed as PQ, and its renditions look like the SDR video: its reference white is SDR white', async () => {
    expect(sources.pq.probe.hdr).toBe('pq');
    const render = async (id: string, src: ProbedVideo) => storage.localPath((await renderSessionMedia({ sessionId: id, input: src.path, probe: src.probe, storage }))['360p']!);
    const luma = {
      sdr: await meanLumaAt(await render('sess_pq_sdr', sources.sdr), 1),
      mapped: await meanLumaAt(await render('sess_pq', sources.pq), 1),
      unmapped: await meanLumaAt(await render('sess_pq_raw', { ...sources.pq, probe: { ...sources.pq.probe, hdr: undefined } }), 1),
    };
    // the Möbius curve compresses the light over its knee (0.3 of white): the picture comes out a few levels darker
    // (measured 8); at SDR's own peak (100 cd/m²) with Hable's curve it came out 26 darker, unmapped 38
    expect(Math.abs(luma.mapped - luma.sdr), JSON.stringify(luma)).toBeLessThanOrEqual(10);
    expect(Math.abs(luma.unmapped - luma.sdr), JSON.stringify(luma)).toBeGreaterThan(20);
  });
});

describe('the mapping to SDR', () => {
  const mappings = [
    ['hlg', 'bt709', 'yuv420p'],
    ['hlg', 'bt470bg', 'yuv444p'],
    ['pq', 'bt709', 'yuv420p'],
  ] as const;

  it('sets each zscale step up once, not on every frame', () => {
    for (const [hdr, matrix, format] of mappings) {
      const setups = zscaleSetups(sources[hdr === 'hlg' ? 'hdr' : 'pq'].path, toSdrFilter(hdr, matrix, format), 30);
      expect(setups.length, hdr).toBe(hdr === 'hlg' ? 1 : 2);
      for (const n of setups) expect(n, `${hdr} ${matrix}`).toBeLessThanOrEqual(2);
    }
    // the same steps without the tags set before them: set up again on every frame (the cost this avoids)
    const untagged = (hdr: 'hlg' | 'pq') => toSdrFilter(hdr, 'bt709', 'yuv420p').replace(/setparams=[^,]*,/g, '');
    expect(zscaleSetups(sources.hdr.path, untagged('hlg'), 30)[0]).toBeGreaterThanOrEqual(30);
    expect(Math.min(...zscaleSetups(sources.pq.path, untagged('pq'), 30))).toBeGreaterThanOrEqual(30);
  });

  it('gives the pixels of its zscale steps without the tags set before them, byte for byte', async () => {
    const md5 = async (path: string, vf: string) => (await runTool(ffmpegPath(), ['-v', 'error', '-i', path, '-frames:v', '20', '-vf', vf, '-f', 'md5', '-'])).stdout.toString().trim();
    for (const [hdr, matrix, format] of mappings) {
      const vf = toSdrFilter(hdr, matrix, format);
      const path = sources[hdr === 'hlg' ? 'hdr' : 'pq'].path;
      expect(vf).toContain('setparams=');
      expect(await md5(path, vf), hdr).toBe(await md5(path, vf.replace(/setparams=[^,]*,/g, '')));
    }
  });
});
