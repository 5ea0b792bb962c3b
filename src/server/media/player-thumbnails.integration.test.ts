import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo, type VideoProbe } from './ffmpeg';
import { renderPlayerThumbnails } from './player-thumbnails';
import { LocalMediaStorage, mediaKeys } from './storage';
import { makeTestVideo, meanLumaAt, probeStreams } from './test-videos';

let dir: string;
let storage: LocalMediaStorage;
let source: { path: string; probe: VideoProbe };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-player-thumbs-test-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  // brightness grows from left to right: a picture's mean brightness tells where it was cut from
  const path = join(dir, 'game.mp4');
  await makeTestVideo({ path, width: 1280, height: 720, seconds: 3, audio: false });
  source = { path, probe: await probeVideo(path) };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderPlayerThumbnails', () => {
  it('stores a 120×160 JPEG of each player cut where the analysis saw them', async () => {
    const keys = await renderPlayerThumbnails({
      sessionId: 'ses_t',
      input: source.path,
      probe: source.probe,
      storage,
      moments: [
        { playerId: 'plr_left', t: 1, box: [0.1, 0.4, 0.15, 0.8] },
        { playerId: 'plr_right', t: 2, box: [0.85, 0.4, 0.9, 0.8] },
        // a moment past the end (a video cut short) is read at the last frame
        { playerId: 'plr_late', t: 9, box: [0.45, 0.4, 0.55, 0.6] },
      ],
    });
    expect(keys).toEqual({
      plr_left: mediaKeys.playerThumbnail('ses_t', 'plr_left'),
      plr_right: mediaKeys.playerThumbnail('ses_t', 'plr_right'),
      plr_late: mediaKeys.playerThumbnail('ses_t', 'plr_late'),
    });
    const file = (id: string) => storage.localPath(keys[id]);
    for (const id of Object.keys(keys)) {
      expect(await probeStreams(file(id))).toMatchObject([{ codec_type: 'video', codec_name: 'mjpeg', width: 120, height: 160 }]);
    }
    // the gradient's brightness at the boxes' centres: 12.5 % and 87.5 % of the way across, the late one in the middle
    expect(Math.abs((await meanLumaAt(file('plr_left'), 0)) - 0.125 * 255)).toBeLessThan(25);
    expect(Math.abs((await meanLumaAt(file('plr_right'), 0)) - 0.875 * 255)).toBeLessThan(25);
    expect(Math.abs((await meanLumaAt(file('plr_late'), 0)) - 0.5 * 255)).toBeLessThan(25);
  });

  it('leaves out a player whose frame cannot be read, and does not fail', async () => {
    const keys = await renderPlayerThumbnails({
      sessionId: 'ses_gone',
      input: join(dir, 'no-such-file.mp4'),
      probe: source.probe,
      storage,
      moments: [{ playerId: 'plr_a', t: 1, box: [0.1, 0.4, 0.15, 0.8] }],
    });
    expect(keys).toEqual({});
    expect(await storage.exists(mediaKeys.playerThumbnail('ses_gone', 'plr_a'))).toBe(false);
  });

  it('throws when stopped, so the job step is retried rather than finished without pictures', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopping'));
    await expect(
      renderPlayerThumbnails({
        sessionId: 'ses_stop',
        input: source.path,
        probe: source.probe,
        storage,
        signal: stop.signal,
        moments: [{ playerId: 'plr_a', t: 1, box: [0.1, 0.4, 0.15, 0.8] }],
      }),
    ).rejects.toThrow('stopping');
  });
});
