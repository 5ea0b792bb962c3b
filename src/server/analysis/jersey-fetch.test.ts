import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../media/ffmpeg';
import { chooseGeometry, streamFrames } from './decode';
import { fetchFrames, runsPerProcess } from './jersey';

let dir = '';
let video = '';
/** Every frame of the clip, decoded from the start the way the re-decode decodes (no deblocking). */
let all: Uint8Array[] = [];
const geo = { ...chooseGeometry({ width: 1280, height: 720, fps: 30 }, { format: 'rgb24' }), skipLoopFilter: true };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jersey-fetch-test-'));
  video = join(dir, 'clip.mp4');
  // 8 s of a moving test pattern with a key frame every 2 s, so that seeks decode from a key frame.
  await runFfmpeg([
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=8',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p', video,
  ]);
  await streamFrames(video, geo, (f) => {
    all.push(f);
  });
}, 120_000);

afterAll(async () => {
  all = [];
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('fetchFrames (frames re-decoded at shot moments)', () => {
  // Runs at 1 s joining: [0, 3], [40, 41], [100], [130, 131], [200], [239, 244]; 244 is past the end.
  const want = [0, 3, 40, 41, 100, 130, 131, 200, 239, 244];

  it('returns exactly the frames at the asked indices, several runs per ffmpeg process or one', async () => {
    expect(all.length).toBe(240);
    for (const sourcePixels of [1280 * 720, 3840 * 2160]) {
      const got = await fetchFrames(video, { ...geo, sourcePixels }, want, undefined, 1);
      expect([...got.keys()].sort((a, b) => a - b)).toEqual(want.filter((i) => i < 240));
      for (const [i, f] of got) {
        // Bit-identical to the frame decoded from the start (compared as a whole: a one-frame
        // offset of the moving pattern differs in thousands of bytes).
        expect(Buffer.compare(Buffer.from(f), Buffer.from(all[i])), `frame ${i} at ${sourcePixels} px`).toBe(0);
      }
    }
  }, 120_000);

  it('bounds the decoders one process keeps open by the source size', () => {
    expect(runsPerProcess(640 * 360)).toBe(6);
    expect(runsPerProcess(1280 * 720)).toBe(5);
    expect(runsPerProcess(1920 * 1080)).toBe(2);
    expect(runsPerProcess(3840 * 2160)).toBe(1);
  });
});
