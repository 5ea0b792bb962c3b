/**
 * Exposure normalisation of the sampled frames the appearance searches read (rim, net, board,
 * painted lines). Those searches test absolute levels — a white net or board is "light" from
 * 140 up, a rim is red from 90 —, which an underexposed gym (a mean level of 75 where the
 * footage seen so far sits at 100–160) or an overexposed outdoor court moves out of reach.
 * When the median over the samples of a frame's mean level is outside 85–165, every sample is
 * passed through one gamma curve that brings that mean to 120; inside, nothing changes.
 */

/** Mean levels (R + G + B) / 3 outside this range are corrected. */
export const EXPOSURE_RANGE: [number, number] = [85, 165];
const TARGET = 120;

/** Mean (R + G + B) / 3 of an RGB frame, on every 7th pixel. */
export function meanLevel(rgb: Uint8Array): number {
  let s = 0;
  let n = 0;
  for (let p = 0; p + 2 < rgb.length; p += 21) {
    s += rgb[p] + rgb[p + 1] + rgb[p + 2];
    n++;
  }
  return n ? s / (3 * n) : 0;
}

/** The gamma (output = 255 · (input / 255)^gamma) that corrects these frames, 1 when none is needed. */
export function exposureGamma(frames: Uint8Array[]): number {
  if (!frames.length) return 1;
  const m = frames.map(meanLevel).sort((a, b) => a - b)[frames.length >> 1];
  if (m >= EXPOSURE_RANGE[0] && m <= EXPOSURE_RANGE[1]) return 1;
  const g = Math.log(TARGET / 255) / Math.log(Math.min(250, Math.max(5, m)) / 255);
  return Math.min(3, Math.max(1 / 3, g));
}

/**
 * The samples with their exposure corrected (copies), or the same samples when it is fine. `gamma`:
 * the correction to apply, by default the one the samples' own levels call for.
 */
export function normaliseExposure<T extends { rgb: Uint8Array }>(samples: T[], gamma = exposureGamma(samples.map((s) => s.rgb))): T[] {
  if (gamma === 1) return samples;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.round(255 * (v / 255) ** gamma);
  return samples.map((s) => {
    const rgb = new Uint8Array(s.rgb.length);
    for (let k = 0; k < rgb.length; k++) rgb[k] = lut[s.rgb[k]];
    return { ...s, rgb };
  });
}
