import { describe, expect, it } from 'vitest';
import { cameraPath } from './ball-track';
import type { FrameFeatures } from './frame-features';
import { checkPathOnSamples, edgeAgreement } from './path-check';

const dims = { width: 320, height: 180 };

/** A textured still scene (blocks of random grey levels, deterministic), moved by (sx, sy) px. */
function scene(sx = 0, sy = 0, seed = 7): Uint8Array {
  const { width: w, height: h } = dims;
  const level: number[] = [];
  let s = seed;
  for (let i = 0; i < 64 * 64; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    level.push(40 + (s % 170));
  }
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const bx = Math.floor((x - sx + 640) / 9) % 64;
      const by = Math.floor((y - sy + 640) / 7) % 64;
      const v = level[by * 64 + bx];
      rgb.set([v, v, v], 3 * (y * w + x));
    }
  }
  return rgb;
}

/** Per-frame features carrying only the frame-to-frame shifts the path is summed from (whole and sub-pixel alike). */
const shifts = (n: number, steps: Record<number, [number, number]>) =>
  Array.from({ length: n }, (_, i) => {
    const [dx, dy] = steps[i] ?? [0, 0];
    return { index: i, dx, dy, sx: dx, sy: dy, ss: 1 };
  }) as unknown as FrameFeatures[];

describe('camera path checked on the sampled frames', () => {
  it('edge agreement is high where the content is, low elsewhere, and does not depend on the level', () => {
    const a = scene();
    const moved = scene(13, 0);
    expect(edgeAgreement(a, a, 0, 0, dims)).toBeGreaterThan(0.95);
    expect(edgeAgreement(a, moved, 13, 0, dims)).toBeGreaterThan(0.95);
    expect(edgeAgreement(a, moved, 0, 0, dims)).toBeLessThan(0.3);
    const brighter = a.map((v) => Math.min(255, v + 30));
    expect(edgeAgreement(a, brighter, 0, 0, dims)).toBeGreaterThan(0.8);
  });

  it('drops a jump of a still camera that the samples do not show (a player walking past the tripod)', () => {
    // 150 frames between the samples; one wrong 13 px step at frame 70, five 6 px steps at 200–204
    const features = shifts(300, { 70: [13, 0], 200: [6, 0], 201: [6, 0], 202: [6, 0], 203: [6, 0], 204: [6, 0] });
    const path = cameraPath(features);
    expect(path.ox[299]).toBe(43);
    const samples = [0, 150, 299].map((index) => ({ index, rgb: scene() }));
    const fixed = checkPathOnSamples(features, path, samples, dims);
    expect(Array.from(fixed.ox).every((v) => v === 0)).toBe(true);
  });

  it('keeps a jump the samples show (the camera was bumped), and a moving camera\'s path', () => {
    const bumped = shifts(300, { 70: [13, 0] });
    const path = cameraPath(bumped);
    const samples = [
      { index: 0, rgb: scene() },
      { index: 150, rgb: scene(13, 0) },
      { index: 299, rgb: scene(13, 0) },
    ];
    expect(checkPathOnSamples(bumped, path, samples, dims)).toBe(path);
    // a panning camera steps on most frames: its path is not second-guessed (samples far apart share little)
    const steps: Record<number, [number, number]> = {};
    for (let i = 1; i < 150; i++) steps[i] = [1, 0];
    const panning = shifts(300, steps);
    const pPath = cameraPath(panning);
    expect(checkPathOnSamples(panning, pPath, [0, 150, 299].map((index) => ({ index, rgb: scene() })), dims)).toBe(pPath);
  });
});
