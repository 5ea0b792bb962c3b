import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, runFfmpeg } from './ffmpeg';
import { renderPoster } from './renditions';

/** A 3 s video whose audio track runs 12 s (a phone clip with the microphone left on, say). */
describe('a video with a longer audio track', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'swish-probe-'));
    file = join(dir, 'long-audio.mp4');
    await runFfmpeg([
      '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=3',
      '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono',
      '-t', '12', '-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', file,
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // what is analysed and billed is the video, not the container's 12 s
  it('is as long as its video stream', async () => {
    const probe = await probeVideo(file);
    expect(probe.durationSeconds).toBeGreaterThan(2.9);
    expect(probe.durationSeconds).toBeLessThan(3.2);
  });

  it('gets a poster even when told the container length (no frame at a third of it)', async () => {
    const probe = { ...(await probeVideo(file)), durationSeconds: 12 };
    const output = join(dir, 'poster.jpg');
    await renderPoster({ input: file, probe, output });
    expect((await stat(output)).size).toBeGreaterThan(0);
  });
});
