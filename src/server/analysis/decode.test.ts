import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, runFfmpeg } from '../media/ffmpeg';
import { hdrEncoderArgs, HLG_FROM_SDR } from '../media/test-videos';
import { chooseGeometry, decodeThreads, FrameBuffers, frameBytes, streamFrames, usesSidePipe, type FrameFormat } from './decode';
import { WorkerPool } from './pool';
import { computeRun, makeScratch, packFeatures, toRgb, type PackedFeatures } from './frame-features';

let dir = '';
let video = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'decode-test-'));
  video = join(dir, 'clip.mp4');
  // A moving colour test pattern, 1280×720 4:2:0 H.264 like the synthetic games, 1 s at 30 fps.
  await runFfmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=1',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', video,
  ]);
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function decodeAll(format: FrameFormat) {
  const geo = chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format });
  const frames: Uint8Array[] = [];
  const n = await streamFrames(video, geo, (f) => {
    frames.push(f);
  });
  return { geo, frames, n };
}

/** Mean absolute difference per byte of two frames of one size. */
const meanDiff = (a: Uint8Array, b: Uint8Array) => {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += Math.abs(a[k] - b[k]);
  return sum / a.length;
};

describe('decode chains', () => {
  it('picks one decoding thread up to 720p and two above', () => {
    expect(decodeThreads({ width: 1280, height: 720 })).toBe(1);
    expect(decodeThreads({ width: 640, height: 360 })).toBe(1);
    expect(decodeThreads({ width: 1920, height: 1080 })).toBe(2);
    expect(decodeThreads({ width: 2160, height: 3840 })).toBe(2);
    expect(chooseGeometry({ width: 1920, height: 1080, fps: 60 }, { format: 'yuv420p' })).toEqual({
      width: 640, height: 360, fps: 30, format: 'yuv420p', threads: 2, sourcePixels: 1920 * 1080,
    });
  });

  it('delivers every frame in each layout, and the YUV frames convert to the RGB chain within a few levels', async () => {
    const rgb = await decodeAll('rgb24');
    expect(rgb.n).toBe(30);
    expect(rgb.frames[0].length).toBe(640 * 360 * 3);
    for (const format of ['yuv444p', 'yuv420p'] as const) {
      const yuv = await decodeAll(format);
      expect(yuv.n).toBe(30);
      expect(yuv.frames[0].length).toBe(frameBytes(yuv.geo));
      expect(frameBytes(yuv.geo)).toBe(format === 'yuv444p' ? 640 * 360 * 3 : 640 * 360 * 1.5);
      for (const i of [0, 15, 29]) {
        // ffmpeg's scale-and-convert path rounds differently and filters chroma differently at
        // edges (the test pattern is all sharp colour edges): a few levels on average.
        expect(meanDiff(rgb.frames[i], toRgb(yuv.frames[i], 640, 360, format))).toBeLessThan(format === 'yuv444p' ? 4 : 6);
      }
      // The features run on the frames as delivered (the pattern's moving parts are blobs).
      const feats = computeRun(yuv.frames.slice(0, 10), 640, 360, 0, makeScratch(640, 360), format);
      expect(feats).toHaveLength(8);
      expect(feats.reduce((s, f) => s + f.blobs.length, 0)).toBeGreaterThan(0);
    }
  }, 60_000);

  it('delivers the selected frames of a YUV chain also as RGB, identical to the rgb24 chain', async () => {
    const rgb = await decodeAll('rgb24');
    const geo = chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'yuv444p' });
    const side: Array<[number, Uint8Array]> = [];
    let main = 0;
    const n = await streamFrames(video, geo, () => void main++, undefined, {
      every: [7, 10],
      onRgb: (f, i) => side.push([i, f]),
    });
    expect(n).toBe(30);
    expect(main).toBe(30);
    expect(side.map(([i]) => i)).toEqual([0, 7, 10, 14, 20, 21, 28]);
    for (const [i, f] of side) expect(Buffer.from(f).equals(Buffer.from(rgb.frames[i]))).toBe(true);
  }, 60_000);

  it('makes rgb24 frames through a two-stage chain close to the direct chain, its side frames identical to the direct ones', async () => {
    const rgb = await decodeAll('rgb24');
    for (const rgbChain of ['yuv422p', 'yuv420p'] as const) {
      const geo = { ...chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' }), rgbChain };
      expect(usesSidePipe(geo)).toBe(true);
      const frames: Uint8Array[] = [];
      const side: Array<[number, Uint8Array]> = [];
      let ended = 0;
      const n = await streamFrames(video, geo, (f) => void frames.push(f), undefined, {
        every: [7, 10],
        onRgb: (f, i) => side.push([i, f]),
        onEnd: () => void ended++,
      });
      expect(n).toBe(30);
      expect(ended).toBe(1);
      expect(side.map(([i]) => i)).toEqual([0, 7, 10, 14, 20, 21, 28]);
      for (const [i, f] of side) expect(Buffer.from(f).equals(Buffer.from(rgb.frames[i]))).toBe(true);
      let max = 0;
      let differ = 0;
      for (const i of [0, 15, 29]) {
        const a = rgb.frames[i];
        const b = frames[i];
        expect(b.length).toBe(a.length);
        for (let k = 0; k < a.length; k++) {
          const d = Math.abs(a[k] - b[k]);
          if (d > max) max = d;
          if (d) differ++;
        }
      }
      // not the same frames (a different chain), but 4:2:2 keeps the direct chain's chroma grid:
      // within rounding; 4:2:0 halves the chroma rows, so colour edges move by tens of levels
      expect(differ).toBeGreaterThan(0);
      if (rgbChain === 'yuv422p') expect(max).toBeLessThanOrEqual(6);
      else expect(max).toBeGreaterThan(6);
    }
    expect(usesSidePipe({ format: 'rgb24' })).toBe(false);
    expect(usesSidePipe({ format: 'rgb24', rgbChain: 'direct' })).toBe(false);
    expect(usesSidePipe({ format: 'yuv420p' })).toBe(true);
  }, 60_000);

  it('reuses frame buffers handed back by the workers, with the same frames and features', async () => {
    const rgb = await decodeAll('rgb24');
    const geo = chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' });
    const buffers = new FrameBuffers(frameBytes(geo));
    const pool = new WorkerPool(1);
    try {
      // Buffers handed out from the free list (a transferred buffer comes back as a new object).
      let reused = 0;
      const take = buffers.take.bind(buffers);
      buffers.take = () => {
        if (buffers.available) reused++;
        return take();
      };
      let window: Uint8Array[] = [];
      const packed: Array<Promise<PackedFeatures>> = [];
      const n = await streamFrames(
        video,
        geo,
        async (f, i) => {
          expect(Buffer.from(f).equals(Buffer.from(rgb.frames[i]))).toBe(true);
          window.push(f);
          if (window.length === 6) {
            // Consecutive runs of 4 + 2 context frames; the last 2 are kept (sent as copies).
            const keep = window.slice(-2);
            const copies = keep.map((k) => {
              const c = buffers.take();
              c.set(k);
              return c;
            });
            const sent = [...window.slice(0, 4), ...copies];
            packed.push(
              pool.run<PackedFeatures>(
                { kind: 'frames', frames: sent, width: geo.width, height: geo.height, firstIndex: i - 4, recycle: true },
                sent.map((s) => s.buffer as ArrayBuffer),
                (bufs) => buffers.give(bufs),
              ),
            );
            await packed[packed.length - 1];
            window = keep;
          }
        },
        undefined,
        undefined,
        buffers,
      );
      expect(n).toBe(30);
      // Every run's 6 buffers came back, so later frames were decoded into returned buffers.
      expect(reused).toBeGreaterThan(10);
      const got = await Promise.all(packed);
      const want: PackedFeatures[] = [];
      for (let s = 0; s + 6 <= 30; s += 4) want.push(packFeatures(computeRun(rgb.frames.slice(s, s + 6), 640, 360, s + 1, makeScratch(640, 360))));
      expect(got.length).toBe(want.length);
      got.forEach((g, k) => {
        expect(Array.from(g.frames)).toEqual(Array.from(want[k].frames));
        expect(Array.from(g.blobs)).toEqual(Array.from(want[k].blobs));
        expect(Array.from(g.motion)).toEqual(Array.from(want[k].motion));
      });
      // Buffers of another size are not taken back.
      const before = buffers.available;
      buffers.give([new ArrayBuffer(10)]);
      expect(buffers.available).toBe(before);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('decodes without deblocking when asked, to frames close to the deblocked ones', async () => {
    // The ultrafast preset encodes without deblocking: this clip is encoded with it, at a low rate.
    const deblocked = join(dir, 'deblocked.mp4');
    await runFfmpeg([
      '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=1',
      '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '300k', '-pix_fmt', 'yuv420p', deblocked,
    ]);
    const geo = chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' });
    const rgb: Uint8Array[] = [];
    expect(await streamFrames(deblocked, geo, (f) => void rgb.push(f))).toBe(30);
    const frames: Uint8Array[] = [];
    expect(await streamFrames(deblocked, { ...geo, skipLoopFilter: true }, (f) => void frames.push(f))).toBe(30);
    let diff = 0;
    let changed = 0;
    for (const i of [5, 15, 29]) {
      for (let k = 0; k < frames[i].length; k++) {
        const d = Math.abs(frames[i][k] - rgb[i][k]);
        diff += d;
        if (d) changed++;
      }
    }
    // The frames differ by the missing deblocking, a little.
    expect(changed).toBeGreaterThan(0);
    expect(diff / (3 * frames[0].length)).toBeLessThan(3);
  }, 60_000);
});

describe('HDR sources', () => {
  // The test pattern as a phone's HDR video: HLG (ARIB STD-B67), BT.2020, 10-bit HEVC, flagged as such.
  let hlg = '';
  beforeAll(async () => {
    hlg = join(dir, 'hlg.mp4');
    await runFfmpeg([
      '-i', video,
      // the source's YUV read as the analysis reads untagged video (the BT.601 matrix)
      '-vf', HLG_FROM_SDR,
      ...hdrEncoderArgs('hlg'),
      hlg,
    ]);
  }, 60_000);

  it('are probed as HDR and decoded mapped to SDR: their colours read as the SDR source\'s', async () => {
    const probe = await probeVideo(hlg);
    expect(probe.hdr).toBe('hlg');
    expect((await probeVideo(video)).hdr).toBeUndefined();
    const decode = async (path: string, geo: ReturnType<typeof chooseGeometry>) => {
      const frames: Uint8Array[] = [];
      await streamFrames(path, geo, (f) => {
        frames.push(f);
      });
      return frames;
    };
    const sdr = await decode(video, chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' }));
    const mapped = await decode(hlg, chooseGeometry(probe, { format: 'rgb24' }));
    const unmapped = await decode(hlg, chooseGeometry({ ...probe, hdr: undefined }, { format: 'rgb24' }));
    expect(mapped).toHaveLength(30);
    for (const i of [0, 15, 29]) {
      // within a few levels of the SDR frames (the pattern's sharp colour edges through two 4:2:0 encodes: ~7), where
      // unmapped they are ~80 levels off
      expect(meanDiff(mapped[i], sdr[i])).toBeLessThan(10);
      expect(meanDiff(unmapped[i], sdr[i])).toBeGreaterThan(5 * meanDiff(mapped[i], sdr[i]));
    }
  });
});

describe('a phone video stored sideways', () => {
  // A phone held upright stores its frames sideways and a display rotation beside them: the test pattern turned a
  // quarter to the left, with a rotation that turns it back for display. The analysis must see it upright (gravity
  // down): the probe swaps the sides and ffmpeg turns every frame.
  it('is probed and decoded upright, as the same picture stored upright', async () => {
    const sideways = join(dir, 'sideways.mp4');
    const tagged = join(dir, 'tagged.mp4');
    await runFfmpeg(['-i', video, '-vf', 'transpose=cclock', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', sideways]);
    await runFfmpeg(['-i', sideways, '-c', 'copy', '-metadata:s:v:0', 'rotate=270', tagged]);
    const stored = await probeVideo(sideways);
    expect([stored.width, stored.height, stored.rotation]).toEqual([720, 1280, 0]);
    const probe = await probeVideo(tagged);
    expect([probe.width, probe.height]).toEqual([1280, 720]);
    expect(probe.rotation).not.toBe(0);
    const first = async (path: string, geo: ReturnType<typeof chooseGeometry>) => {
      let frame: Uint8Array | null = null;
      await streamFrames(path, geo, (f) => {
        frame ??= Uint8Array.from(f);
      });
      return frame!;
    };
    const geo = chooseGeometry(probe, { format: 'rgb24' });
    expect([geo.width, geo.height]).toEqual([640, 360]);
    const upright = await first(video, geo);
    const turned = await first(tagged, geo);
    // the same picture through a second 4:2:0 encode (a few levels), where the frames as stored are another picture
    const asStored = await first(sideways, { ...geo, width: 360, height: 640 });
    expect(asStored.length).toBe(upright.length);
    expect(meanDiff(turned, upright)).toBeLessThan(10);
    expect(meanDiff(asStored, upright)).toBeGreaterThan(5 * meanDiff(turned, upright));
  }, 60_000);
});
