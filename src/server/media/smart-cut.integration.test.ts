import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalSmartCutSource, renderHighlightClips, type HighlightClipResult } from './clips';
import { ffmpegPath, ffprobePath, probeVideo, runFfmpeg, runTool } from './ffmpeg';
import { parseAvcC, readAvcConfig, replaceAvcConfig, serializeAvcC, setVideoPresentationLength } from './mp4-boxes';
import { planSmartCut, ppsIds, spsId } from './smart-cut';
import { LocalMediaStorage } from './storage';
import { makeProbedVideos, type ProbedVideo, makeTestVideo } from './test-videos';

/**
 * Smart-cut horizontal clips: the frames before the source's first keyframe in the clip are
 * encoded, the rest is the source's stream copied. Two sources: High profile with B-frames
 * (x264 `veryfast`, keyframes every 2 s, audio) and Constrained Baseline (`ultrafast`,
 * keyframes every second, no audio).
 */
const FPS = 30;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let dir: string;
let storage: LocalMediaStorage;
let src: Record<'high' | 'baseline', ProbedVideo>;
let high: HighlightClipResult[];
let baseline: HighlightClipResult[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-smart-cut-test-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  src = await makeProbedVideos(dir, {
    high: { width: 1280, height: 720, seconds: 9, audio: true, gop: 2 * FPS, preset: 'veryfast' },
    baseline: { width: 1280, height: 720, seconds: 5, audio: false },
  });
  high = await renderHighlightClips({
    sessionId: 'sess_h',
    input: src.high.path,
    probe: src.high.probe,
    storage,
    clips: [
      // head 1.3–2.0 encoded, 2.0–6.1 copied (across the keyframes at 4 and 6, ending inside a B-frame group)
      { highlightId: 'hl_head', start: 1.3, end: 6.1, focus: [] },
      // starts on the keyframe at 4 s: all copied
      { highlightId: 'hl_key', start: 4, end: 7.5, focus: [] },
      // no keyframe after 6.2 before the end: encoded whole
      { highlightId: 'hl_none', start: 6.2, end: 7.9, focus: [] },
    ],
  });
  baseline = await renderHighlightClips({
    sessionId: 'sess_b',
    input: src.baseline.path,
    probe: src.baseline.probe,
    storage,
    clips: [{ highlightId: 'hl_base', start: 1.5, end: 4.2, focus: [] }],
  });
}, 240_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = (r: HighlightClipResult, name: 'horizontal' | 'default' | '720p' = 'horizontal') => storage.localPath(r.video[name]!);

/** MD5 of every decoded frame, in presentation order. */
async function frameHashes(path: string, seek?: number, frames?: number): Promise<string[]> {
  const { stdout } = await runTool(ffmpegPath(), [
    '-v', 'error', ...(seek !== undefined ? ['-ss', seek.toFixed(6)] : []), '-i', path, '-map', '0:v:0',
    ...(frames ? ['-frames:v', String(frames)] : []), '-f', 'framemd5', '-',
  ]);
  return stdout.toString().split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(',').pop()!.trim());
}

async function videoPackets(path: string) {
  const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', path]);
  return stdout.toString().split('\n').filter(Boolean).map((l) => ({ t: Number(l.split(',')[0]), key: l.includes('K') }));
}

/** Decodes the whole file; the stderr of a decode that stops at the first error (old ffmpeg) and of ffprobe counting frames (new ffprobe). */
async function decodeCheck(path: string) {
  const strict = await runTool(ffmpegPath(), ['-v', 'error', '-xerror', '-i', path, '-f', 'null', '-']);
  const { stdout, stderr } = await runTool(ffprobePath(), ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames,duration', '-of', 'json', path]);
  const s = (JSON.parse(stdout.toString()) as { streams: Array<{ nb_read_frames: string; duration: string }> }).streams[0];
  return { errors: (strict.stderr + stderr).trim(), frames: Number(s.nb_read_frames), videoDuration: Number(s.duration) };
}

describe('smart-cut horizontal clip (High profile, B-frames, audio)', () => {
  it('carries both parts’ parameter sets, with distinct ids, in one avcC', async () => {
    const avc = (await readAvcConfig(file(high[0])))!;
    expect(avc.sps).toHaveLength(2);
    expect(avc.pps).toHaveLength(2);
    expect(new Set(avc.sps.map(spsId)).size).toBe(2);
    expect(new Set(avc.pps.map((p) => ppsIds(p).pps)).size).toBe(2);
    // the source's own parameter sets, byte for byte
    const source = (await readAvcConfig(src.high.path))!;
    expect(avc.sps[0]).toEqual(source.sps[0]);
    expect(avc.pps[0]).toEqual(source.pps[0]);
    // the clip that starts on a keyframe is the source's stream alone; the one without a keyframe is an encode
    expect((await readAvcConfig(file(high[1])))!.sps).toEqual(source.sps);
    expect((await readAvcConfig(file(high[2])))!.sps).toHaveLength(1);
    expect(await frameHashes(file(high[2]), undefined, 3)).not.toEqual(await frameHashes(src.high.path, 6.2, 3));
  });

  it('decodes without an error, with exactly the frames of the window', async () => {
    for (const [clip, frames] of [[high[0], 144], [high[1], 105], [high[2], 51]] as const) {
      const check = await decodeCheck(file(clip));
      expect(check.errors).toBe('');
      // 1.3–6.1 s at 30 fps: frames 39…182
      expect(check.frames).toBe(frames);
      expect(Math.abs(check.videoDuration - frames / FPS)).toBeLessThan(0.5 / FPS);
      expect(Math.abs(clip.lengthSeconds - frames / FPS)).toBeLessThan(1 / FPS);
    }
  });

  it('starts on a keyframe, and copies the source’s frames from its keyframe on, bit for bit', async () => {
    const packets = await videoPackets(file(high[0]));
    expect(packets[0]).toEqual({ t: 0, key: true });
    // the source keyframe at 2.0 s is the clip's 0.7 s
    expect(packets.some((p) => p.key && Math.abs(p.t - 0.7) < 1e-3)).toBe(true);
    const clip = await frameHashes(file(high[0]));
    const source = await frameHashes(src.high.path, 1.3, 144);
    expect(clip).toHaveLength(144);
    const head = 21; // 1.3–2.0 s
    expect(clip.slice(head)).toEqual(source.slice(head));
    // the head is an encode: not the source's frames
    expect(clip.slice(0, head)).not.toEqual(source.slice(0, head));
    const all = await frameHashes(file(high[1]));
    expect(all).toEqual(await frameHashes(src.high.path, 4, 105));
  });

  it('seeks: a frame after the join is the source’s frame at the same time', async () => {
    for (const t of [0.8, 2.95, 4.75]) {
      const [clipFrame] = await frameHashes(file(high[0]), t, 1);
      const [sourceFrame] = await frameHashes(src.high.path, 1.3 + t, 1);
      expect(clipFrame).toBe(sourceFrame);
    }
  });

  it('keeps the audio as long as the video and starting with it; the 720p rendition is the same file', async () => {
    const { stdout } = await runTool(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_entries', 'stream=codec_type,codec_name,start_time,duration', file(high[0])]);
    const streams = (JSON.parse(stdout.toString()) as { streams: Array<Record<string, string>> }).streams;
    const a = streams.find((s) => s.codec_type === 'audio')!;
    const v = streams.find((s) => s.codec_type === 'video')!;
    expect(a.codec_name).toBe('aac');
    expect(Math.abs(Number(a.duration) - Number(v.duration))).toBeLessThan(0.05);
    expect(Number(a.start_time)).toBe(Number(v.start_time));
    expect(high[0].video['720p']).toBe(high[0].video.horizontal);
    // faststart: moov before mdat
    const buf = await readFile(file(high[0]));
    expect(buf.indexOf('moov')).toBeLessThan(buf.indexOf('mdat'));
  });

  it.skipIf(!existsSync(CHROMIUM))('plays and seeks in Chromium', async () => {
    const clipPath = file(high[0]);
    const server: Server = createServer((req, res) => {
      if (req.url === '/') {
        res.setHeader('content-type', 'text/html');
        res.end('<video src="/clip.mp4" preload="auto" muted></video>');
        return;
      }
      void readFile(clipPath).then((buf) => {
        res.setHeader('accept-ranges', 'bytes');
        res.setHeader('content-type', 'video/mp4');
        const m = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
        if (!m) return res.end(buf);
        const a = Number(m[1]);
        const b = m[2] ? Number(m[2]) : buf.length - 1;
        res.statusCode = 206;
        res.setHeader('content-range', `bytes ${a}-${b}/${buf.length}`);
        res.end(buf.subarray(a, b + 1));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const result = await page.evaluate(async () => {
        const v = document.querySelector('video')!;
        const once = (ev: string) =>
          new Promise<void>((resolve, reject) => {
            v.addEventListener(ev, () => resolve(), { once: true });
            v.addEventListener('error', () => reject(new Error(`media error ${v.error?.code} ${v.error?.message}`)), { once: true });
          });
        if (v.readyState < 1) await once('loadedmetadata');
        const canvas = document.createElement('canvas');
        canvas.width = 32;
        canvas.height = 18;
        const g = canvas.getContext('2d', { willReadFrequently: true })!;
        const seeks: Array<{ asked: number; at: number; pixels: number[] }> = [];
        for (const t of [0.3, 0.8, 2.95, 4.7]) {
          v.currentTime = t;
          await once('seeked');
          g.drawImage(v, 0, 0, 32, 18);
          seeks.push({ asked: t, at: v.currentTime, pixels: Array.from(g.getImageData(0, 0, 32, 18).data).filter((_, i) => i % 4 === 0) });
        }
        // play across the join (0.7 s)
        v.currentTime = 0.4;
        await once('seeked');
        await v.play();
        const t0 = performance.now();
        while (v.currentTime < 1.2 && performance.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 50));
        v.pause();
        return { duration: v.duration, width: v.videoWidth, seeks, playedTo: v.currentTime, error: v.error?.code ?? null, decoded: (v as unknown as { webkitDecodedFrameCount: number }).webkitDecodedFrameCount };
      });
      expect(result.error).toBeNull();
      expect(Math.abs(result.duration - 144 / FPS)).toBeLessThan(1 / FPS);
      expect(result.width).toBe(1280);
      expect(result.playedTo).toBeGreaterThanOrEqual(1.2);
      expect(result.decoded).toBeGreaterThan(10);
      for (const s of result.seeks) {
        expect(s.at).toBeCloseTo(s.asked, 2);
        // the frame shown is the picture ffmpeg decodes there (red channel at 32×18; the grey gradient runs left to right)
        const { stdout } = await runTool(ffmpegPath(), ['-v', 'error', '-ss', s.asked.toFixed(3), '-i', clipPath, '-frames:v', '1', '-vf', 'scale=32:18:flags=area', '-pix_fmt', 'rgb24', '-f', 'rawvideo', '-']);
        const expected = Array.from(stdout).filter((_, i) => i % 3 === 0);
        const meanDiff = expected.reduce((a, e, i) => a + Math.abs(e - s.pixels[i]), 0) / expected.length;
        expect(meanDiff).toBeLessThan(12);
        expect(s.pixels[9 * 32 + 31] - s.pixels[9 * 32]).toBeGreaterThan(150);
      }
    } finally {
      await browser.close();
      server.close();
    }
  }, 120_000);
});

describe('smart-cut horizontal clip (Constrained Baseline, no audio)', () => {
  it('encodes the head in the source’s profile and copies the rest', async () => {
    const avc = (await readAvcConfig(file(baseline[0])))!;
    expect(avc.sps).toHaveLength(2);
    // profile_idc of both SPS: Baseline (66)
    expect(avc.sps.map((s) => s[1])).toEqual([66, 66]);
    const check = await decodeCheck(file(baseline[0]));
    expect(check.errors).toBe('');
    expect(check.frames).toBe(81); // 1.5–4.2 s
    const clip = await frameHashes(file(baseline[0]));
    const source = await frameHashes(src.baseline.path, 1.5, 81);
    expect(clip.slice(15)).toEqual(source.slice(15)); // keyframe at 2.0 s
    expect(baseline[0].video.default).not.toBeNull();
  });
});

describe('planSmartCut', () => {
  it('plans the head to the next keyframe, a copy-only cut on a keyframe, and nothing without a keyframe worth copying', async () => {
    const facts = (await horizontalSmartCutSource(src.high.path, src.high.probe))!;
    expect(facts).not.toBeNull();
    const p = (await planSmartCut(facts, 1.31, 6.1))!;
    expect(p.start).toBeCloseTo(40 / FPS, 6); // the first frame at or after 1.31 s
    expect(p.headSeconds).toBeCloseTo(2 - 40 / FPS, 6);
    expect(p.lengthSeconds).toBeCloseTo(6.1 - 40 / FPS, 6);
    expect((await planSmartCut(facts, 4, 7))!.headSeconds).toBe(0);
    expect(await planSmartCut(facts, 6.2, 7.9)).toBeNull(); // no keyframe inside
    expect(await planSmartCut(facts, 5.5, 6.5)).toBeNull(); // 0.5 s after the keyframe: not worth it
  });

  it('is not offered for a source whose horizontal clip is not its own frames', async () => {
    const portrait = join(dir, 'portrait.mp4');
    await makeTestVideo({ path: portrait, width: 720, height: 1280, seconds: 2, audio: false });
    expect(await horizontalSmartCutSource(portrait, await probeVideo(portrait))).toBeNull();
  });
});

describe('mp4-boxes', () => {
  it('round-trips an avcC record', async () => {
    const avc = (await readAvcConfig(src.high.path))!;
    expect(parseAvcC(serializeAvcC(avc))).toEqual(avc);
  });

  it('replaces the avcC of a faststart file, moving the chunk offsets, and sets the presented length', async () => {
    const fast = join(dir, 'fast.mp4');
    await runFfmpeg(['-i', src.baseline.path, '-c', 'copy', '-movflags', '+faststart', fast]);
    const buf = await readFile(fast);
    expect(buf.indexOf('moov')).toBeLessThan(buf.indexOf('mdat'));
    const avc = (await readAvcConfig(fast))!;
    // a second copy of the SPS: the file grows, the frames do not change
    const extra = Buffer.from(avc.sps[0]);
    const patched = replaceAvcConfig(buf, { ...avc, sps: [...avc.sps, extra] });
    expect(patched.length).toBe(buf.length + 2 + extra.length);
    const out = join(dir, 'fast-patched.mp4');
    await writeFile(out, patched);
    expect((await readAvcConfig(out))!.sps).toHaveLength(2);
    expect(await frameHashes(out)).toEqual(await frameHashes(fast));
    // no edit list in a file without reordering: nothing to set
    const withEdits = await readFile(file(high[0]));
    expect(setVideoPresentationLength(withEdits, 2)).toBe(true);
    const short = join(dir, 'short.mp4');
    await writeFile(short, withEdits);
    expect((await decodeCheck(short)).frames).toBe(60);
  });
});
