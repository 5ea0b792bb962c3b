import { describe, expect, it } from 'vitest';
import { exposureGamma, meanLevel, normaliseExposure } from './exposure';

/** A frame whose levels ramp from 0 to `top` (all three channels). */
const ramp = (top: number) => Uint8Array.from({ length: 3 * 4096 }, (_, k) => Math.round((top * Math.floor(k / 3)) / 4095));

describe('exposure normalisation of the sampled frames', () => {
  it('leaves frames exposed like the footage seen so far untouched (the same objects)', () => {
    const samples = [180, 230, 255].map((top) => ({ index: top, rgb: ramp(top) }));
    expect(samples.map((s) => meanLevel(s.rgb)).every((m) => m >= 85 && m <= 165)).toBe(true);
    expect(exposureGamma(samples.map((s) => s.rgb))).toBe(1);
    expect(normaliseExposure(samples)).toBe(samples);
  });

  it('brings a dark clip and a bright clip to a mean level near 120, keeping black and white', () => {
    // a light grey net and a dark wall, underexposed: 140 and 20 (mean level 80)
    const dark = [0, 1, 2].map((i) => ({ index: i, rgb: Uint8Array.from({ length: 3000 }, (_, k) => (k % 2 ? 20 : 140) + (i % 2)) }));
    const out = normaliseExposure(dark);
    expect(out).not.toBe(dark);
    expect(out[1].index).toBe(1);
    expect(Math.abs(meanLevel(out[1].rgb) - 120)).toBeLessThan(15);
    expect(out[0].rgb[0]).toBeGreaterThanOrEqual(140); // the net is light again
    const bright = [{ index: 0, rgb: Uint8Array.from({ length: 3000 }, (_, k) => (k % 3 === 2 ? 255 : 190)) }];
    expect(exposureGamma(bright.map((s) => s.rgb))).toBeGreaterThan(1);
    const b = normaliseExposure(bright)[0].rgb;
    expect(b[2]).toBe(255);
    // the correction is capped (gamma ≤ 3): towards 120, inside the range
    expect(meanLevel(b)).toBeLessThan(165);
    expect(meanLevel(b)).toBeGreaterThan(100);
  });
});
