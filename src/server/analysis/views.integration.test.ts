import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../media/ffmpeg';
import { placeOnNet } from './finish';
import { netTop, persistentRims } from './hoop-appearance';
import { RIM_OVER_BALL } from './hoop-locate';
import { renderSyntheticGameAtomic, simulateSyntheticGame } from './synth/render';

const W = 640;
const H = 360;

/** First frames of a rendered clip at the analysis geometry (640×360 RGB), decoded by ffmpeg. */
async function frames(file: string, n: number): Promise<Uint8Array[]> {
  const { stdout } = await promisify(execFile)(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-vf', `scale=${W}:${H}`, '-frames:v', String(n), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return Array.from({ length: n }, (_, i) => new Uint8Array(stdout.buffer, stdout.byteOffset + i * W * H * 3, W * H * 3));
}

/**
 * A baseline view from behind the board (seed 334, dark red lower board edge): the rim is hidden
 * behind the board's lower edge but for its left tip, so the rim finder sees only fragments of it
 * (the board edge running away to the right is as red); the net under it is in full view.
 */
describe('baseline view from behind the board', () => {
  let rgb: Uint8Array[] = [];
  let truth = { x: 0, y: 0, w: 0 };
  beforeAll(async () => {
    const dir = join(tmpdir(), 'swish-views-test');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'baseline-334.mp4');
    const options = { seed: 334, width: 1280, height: 720, view: 'baseline', camera: 'stationary' } as const;
    await renderSyntheticGameAtomic({ ...options, durationSeconds: 1 }, file);
    rgb = await frames(file, 3);
    // The rim in the image: the generator's truth for the first attempt of a longer game from the same seed (same camera).
    const hoop = simulateSyntheticGame({ ...options, durationSeconds: 20 }).attempts[0].hoop!;
    truth = { x: hoop.x * W, y: hoop.y * H, w: 2 * hoop.rim_half_width! * W };
  }, 240_000);

  it('finds no whole rim by its colour runs: only fragments narrower than 0.7 rim widths near it', () => {
    const rims = persistentRims(rgb.map((f) => ({ frame: { rgb: f, width: W, height: H }, ox: 0, oy: 0 })));
    const near = rims.filter((r) => Math.abs(r.x - truth.x) < 1.5 * truth.w && Math.abs(r.y - truth.y) < truth.w);
    expect(near.length).toBeGreaterThan(0);
    expect(near.every((r) => r.w < 0.7 * truth.w)).toBe(true);
  });

  it('finds the net under it as wide as the rim, its top edge just under the rim centre', () => {
    // searched from a rim fragment displaced the way the board edge displaces it (right of and below the rim)
    const from = { x: truth.x + 0.5 * truth.w, y: truth.y + 0.3 * truth.w, w: 0.8 * truth.w };
    for (const f of rgb) {
      const n = netTop({ rgb: f, width: W, height: H }, from);
      expect(n).not.toBeNull();
      expect(n!.score).toBeGreaterThanOrEqual(0.6);
      expect(Math.abs(n!.x - truth.x)).toBeLessThan(0.1 * truth.w);
      expect(Math.abs(n!.w / truth.w - 1)).toBeLessThan(0.15);
      expect(Math.abs(n!.y - 0.17 * n!.w - truth.y)).toBeLessThan(0.15 * truth.w);
    }
  });

  it('moves a rim found beside its net onto the net (no court needed); a rim centred over its net keeps its own say', () => {
    const frames3 = rgb.map((f, i) => ({ index: i, rgb: f }));
    const path = { ox: new Float64Array(rgb.length), oy: new Float64Array(rgb.length) };
    const hoop = { x: truth.x + 0.5 * truth.w, y: truth.y + 0.3 * truth.w, w: 0.8 * truth.w, ballR: truth.w / (2 * RIM_OVER_BALL), support: 1, quality: 1, confidence: 1 };
    const placed = placeOnNet(hoop, frames3, path, { width: W, height: H });
    expect(placed.besideNet).toBe(true);
    expect(Math.abs(placed.x - truth.x)).toBeLessThan(0.15 * truth.w);
    expect(Math.abs(placed.y - truth.y)).toBeLessThan(0.2 * truth.w);
    // a narrow fragment centred over the net: moved, but not "beside" (the court read decides)
    const above = placeOnNet({ ...hoop, x: placed.x, y: placed.y - 0.1 * truth.w, w: 0.6 * truth.w }, frames3, path, { width: W, height: H });
    expect(above.besideNet).toBe(false);
  });
});
