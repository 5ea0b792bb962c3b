import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toSdrFilter } from './color';
import { runFfmpeg, type VideoProbe } from './ffmpeg';
import { DEINTERLACE } from './renditions';
import { getMediaStorage, mediaKeys, type MediaStorage } from './storage';

/** Size of a player's picture (portrait 3:4): shown at half of it, sharp on a high-density screen. */
export const PLAYER_THUMBNAIL = { width: 120, height: 160 } as const;

/**
 * ffmpeg processes at a time, each decoding on one thread: a picture is a seek and the decode of one frame from the key
 * frame before it, which frame threads do not shorten. Measured on the 10-minute 720p game of `bench:processing` (59
 * players): one process, default threads 14 s; two, default threads 10–12 s; two, one thread each 7.7 s.
 */
export const PICTURE_PROCESSES = 2;

/** Where and when a player was seen: a time (s) and the analysis's box [x0, y0, x1, y1], normalised 0–1. */
export interface PlayerMoment {
  playerId: string;
  t: number;
  box: [number, number, number, number];
}

/**
 * The part of the frame (pixels, 3:4) around the analysis's box, and where the box falls in it.
 * The box is either a person track's body or the clothes read at the ball (the region of
 * non-skin pixels joined to it), which may be the shirt, the shorts and shoes, or the ball hand:
 * not a reliable frame for the whole person. So the crop is twice the box's height (at least a
 * fifth of the frame's, for a player far away), centred on it but a tenth higher (the box most
 * often reaches the shoes and misses the head), and the picture outlines the box,
 * which tells the player apart from anyone standing next to them. The crop is moved, never cut,
 * to stay in the frame, and shrinks only when the frame is smaller.
 */
export function thumbnailCrop(box: [number, number, number, number], frame: { width: number; height: number }) {
  const [x0, y0, x1, y1] = [box[0] * frame.width, box[1] * frame.height, box[2] * frame.width, box[3] * frame.height].map(Math.round);
  const w = Math.max(1, x1 - x0);
  const h = Math.max(1, y1 - y0);
  const aspect = PLAYER_THUMBNAIL.width / PLAYER_THUMBNAIL.height;
  let ch = Math.max(h * 2, (w * 1.5) / aspect, frame.height / 5, 16);
  let cw = ch * aspect;
  const fit = Math.min(1, frame.width / cw, frame.height / ch);
  cw = Math.floor(cw * fit);
  ch = Math.floor(ch * fit);
  const clamp = (v: number, size: number, limit: number) => Math.round(Math.min(Math.max(0, v), limit - size));
  const x = clamp((x0 + x1) / 2 - cw / 2, cw, frame.width);
  const y = clamp((y0 + y1) / 2 - 0.1 * ch - ch / 2, ch, frame.height);
  const outline = {
    x: Math.max(0, Math.round(x0 - x)),
    y: Math.max(0, Math.round(y0 - y)),
    width: Math.min(cw, Math.round(w)),
    height: Math.min(ch, Math.round(h)),
    // two pixels of the picture, whatever the crop's scale
    thickness: Math.max(1, Math.ceil((2 * ch) / PLAYER_THUMBNAIL.height)),
  };
  return { width: cw, height: ch, x, y, outline };
}

/**
 * A JPEG of each player at the moment the analysis chose for them (`thumb_t`/`thumb_box` of
 * `clusters`, outlined: {@link thumbnailCrop}), stored under the session's prefix. Best effort: a player whose frame cannot be
 * read is left out (the dashboard shows their colour instead); an abort still throws, so a
 * stopped job step is retried. Returns the stored key of each player pictured.
 */
export async function renderPlayerThumbnails(opts: {
  sessionId: string;
  input: string;
  probe: VideoProbe;
  moments: PlayerMoment[];
  storage?: MediaStorage;
  signal?: AbortSignal;
}): Promise<Record<string, string>> {
  const storage = opts.storage ?? getMediaStorage();
  const { probe } = opts;
  const work = await mkdtemp(join(tmpdir(), 'swish-players-'));
  const keys: Record<string, string> = {};
  const picture = async (m: PlayerMoment) => {
    const crop = thumbnailCrop(m.box, probe);
    const o = crop.outline;
    const out = join(work, `${m.playerId}.jpg`);
    const filters = [
      ...(probe.interlaced ? [DEINTERLACE] : []),
      `crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`,
      // white on a dark edge: it shows on a white wall as on a dark floor
      `drawbox=x=${o.x - o.thickness}:y=${o.y - o.thickness}:w=${o.width + 2 * o.thickness}:h=${o.height + 2 * o.thickness}:color=black@0.6:t=${o.thickness}`,
      `drawbox=x=${o.x}:y=${o.y}:w=${o.width}:h=${o.height}:color=white@0.9:t=${o.thickness}`,
      `scale=${PLAYER_THUMBNAIL.width}:${PLAYER_THUMBNAIL.height}`,
      ...(probe.hdr ? [toSdrFilter(probe.hdr, 'bt470bg')] : []),
      'setsar=1',
    ];
    const at = Math.max(0, Math.min(m.t, (probe.durationSeconds || m.t) - 0.05));
    try {
      await runFfmpeg(['-threads', '1', '-ss', at.toFixed(3), '-i', opts.input, '-an', '-vf', filters.join(','), '-frames:v', '1', '-q:v', '4', '-f', 'image2', out], {
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      return;
    }
    if (!(await stat(out).catch(() => null))?.size) return;
    const key = mediaKeys.playerThumbnail(opts.sessionId, m.playerId);
    await storage.putFile(key, out, 'image/jpeg', { move: true });
    keys[m.playerId] = key;
  };
  try {
    let next = 0;
    const worker = async () => {
      while (next < opts.moments.length) {
        opts.signal?.throwIfAborted();
        await picture(opts.moments[next++]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PICTURE_PROCESSES, opts.moments.length) }, worker));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return keys;
}
