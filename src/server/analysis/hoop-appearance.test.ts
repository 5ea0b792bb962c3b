import { describe, expect, it } from 'vitest';
import { joinRuns, rimCandidates } from './hoop-appearance';
import { RIM_BLUR_WIDER, RIM_FOLLOW_SCORE, RIM_START_SCORE, anchorPath, firmRuns, trackRims, type RimSample, type RimTrack } from './rim-tracks';

const W = 320;
const H = 180;

/** A frame with a dark background, a light backboard, an orange rim and a light net mesh below it. */
function hoopFrame(cx: number, cy: number, w: number): Uint8Array {
  const rgb = new Uint8Array(W * H * 3).fill(40);
  const put = (x: number, y: number, c: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    rgb.set(c, (y * W + x) * 3);
  };
  for (let y = cy - 2 * w; y < cy - 1; y++) for (let x = cx - w; x <= cx + w; x++) put(x, y, [225, 225, 225]);
  for (let y = cy + 1; y < cy + 0.8 * w; y++)
    for (let x = Math.round(cx - 0.45 * w); x <= cx + 0.45 * w; x++) if ((x + y) % 3 !== 0) put(x, y, [235, 235, 235]);
  for (let x = Math.round(cx - w / 2); x <= cx + w / 2; x++) {
    put(x, cy, [220, 80, 30]);
    put(x, cy + 1, [220, 80, 30]);
  }
  return rgb;
}

describe('rim appearance', () => {
  it('finds a rim with its net and board, at the right place and width', () => {
    const c = rimCandidates({ rgb: hoopFrame(200, 60, 24), width: W, height: H });
    expect(c.length).toBeGreaterThan(0);
    expect(Math.abs(c[0].x - 200)).toBeLessThan(2);
    expect(Math.abs(c[0].y - 60.5)).toBeLessThan(2);
    expect(Math.abs(c[0].w - 24)).toBeLessThan(4);
    expect(c[0].score).toBeGreaterThan(0.8);
  });

  it('joins the pieces of a wide rim ellipse seen from close below (rows several pixels apart)', () => {
    const runs = [
      { x0: 104, x1: 120, y: 71 },
      { x0: 84, x1: 92, y: 77 },
      { x0: 94, x1: 116, y: 81 },
    ];
    const joined = joinRuns(runs).filter((r) => r.x1 - r.x0 > 30);
    expect(joined).toHaveLength(1);
    expect(joined[0].x0).toBe(84);
    expect(joined[0].x1).toBe(120);
  });

  it('does not join runs far apart vertically', () => {
    const joined = joinRuns([
      { x0: 100, x1: 110, y: 20 },
      { x0: 100, x1: 110, y: 40 },
    ]);
    expect(joined).toHaveLength(2);
  });
});

describe('hoop tracking on a panning camera', () => {
  /** The camera pans right by 6 px per frame; the integrated path under-reads by 1 px per frame (drift). */
  const n = 300;
  const trueOx = Float64Array.from({ length: n }, (_, f) => -6 * f);
  const driftOx = Float64Array.from({ length: n }, (_, f) => -5 * f);
  const oy = new Float64Array(n);
  const hoopX = 1200; // stabilised position of the hoop in the true frame
  const samples: RimSample[] = [];
  for (let f = 0; f < n; f += 30) {
    const x = hoopX + trueOx[f];
    samples.push({ index: f, rims: x > 0 && x < 640 ? [{ x, y: 80, w: 16, score: 1 }] : [] });
  }

  it('follows a hoop across the frame even when the integrated path drifts', () => {
    const tracks = trackRims(samples, driftOx, oy, { width: 640, height: 360 }, 0.8, 3);
    expect(tracks).toHaveLength(1);
    expect(tracks[0].obs.length).toBe(samples.filter((s) => s.rims.length).length);
  });

  it('re-anchors the path so the tracked hoop stays put in stabilised coordinates', () => {
    const tracks = trackRims(samples, driftOx, oy, { width: 640, height: 360 }, 0.8, 3);
    const fixed = anchorPath(tracks, driftOx, oy);
    const stab = tracks[0].obs.map((o) => o.x - fixed.ox[o.index]);
    const raw = tracks[0].obs.map((o) => o.x - driftOx[o.index]);
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    expect(spread(raw)).toBeGreaterThan(40);
    expect(spread(stab)).toBeLessThan(1);
    // Between samples the correction is interpolated: the hoop stays within a few pixels.
    for (let f = tracks[0].obs[0].index; f <= tracks[0].obs[tracks[0].obs.length - 1].index; f++) {
      expect(Math.abs(hoopX + trueOx[f] - fixed.ox[f] - stab[0])).toBeLessThan(3);
    }
  });

  it('drops candidates seen only once or twice', () => {
    const once: RimSample[] = [{ index: 0, rims: [{ x: 300, y: 300, w: 16, score: 1 }] }, { index: 30, rims: [] }, { index: 60, rims: [] }];
    expect(trackRims(once, driftOx, oy, { width: 640, height: 360 })).toHaveLength(0);
  });
});

describe('hoop tracking through a swing', () => {
  /** The camera pans 1 px per frame (the path knows it); rim samples every 30 frames; the hoop stays at x = 620. */
  const n = 900;
  const ox = Float64Array.from({ length: n }, (_, f) => -f);
  const oy = new Float64Array(n);
  const dims = { width: 640, height: 360 };
  /** One sample per 30 frames while the hoop is in view, its rim read at `score(k)` and `width(k)` in sample k. */
  const hoop = (score: (k: number) => number, width: (k: number) => number = () => 16): RimSample[] =>
    Array.from({ length: 20 }, (_, k) => ({ index: 30 * k, rims: [{ x: 620 - 30 * k, y: 90, w: width(k), score: score(k) }] }));
  const swing = (k: number) => k >= 6 && k <= 11;

  it('a track started on firm reads goes on through the blurred reads of a swing: one track, not two', () => {
    const samples = hoop((k) => (swing(k) ? 0.62 : 1));
    const tracks = trackRims(samples, ox, oy, dims);
    expect(tracks).toHaveLength(1);
    expect(tracks[0].obs).toHaveLength(20);
    // needing firm reads throughout, the swing splits it in two and leaves its six samples out
    const strict = trackRims(samples, ox, oy, dims, RIM_START_SCORE, 3, RIM_START_SCORE);
    expect(strict).toHaveLength(2);
    expect(strict.flatMap((t) => t.obs)).toHaveLength(14);
  });

  it('follows a track back from its first firm read through the blurred reads before it', () => {
    const tracks = trackRims(hoop((k) => (k < 8 ? 0.62 : 1)), ox, oy, dims);
    expect(tracks).toHaveLength(1);
    expect(tracks[0].obs[0].index).toBe(0);
    expect(tracks[0].obs).toHaveLength(20);
  });

  it('blurred reads alone start nothing, and a track needs three firm reads', () => {
    // a line on the floor read as a rim at 0.6 in every sample
    expect(trackRims(hoop(() => 0.6), ox, oy, dims)).toHaveLength(0);
    // two firm reads carried on by blurred ones
    expect(trackRims(hoop((k) => (k === 4 || k === 5 ? 1 : 0.6)), ox, oy, dims)).toHaveLength(0);
    expect(trackRims(hoop((k) => (k >= 4 && k <= 6 ? 1 : 0.6)), ox, oy, dims)).toHaveLength(1);
    // below the follow score, a read does not carry a track
    expect(RIM_FOLLOW_SCORE).toBeLessThan(RIM_START_SCORE);
    expect(trackRims(hoop((k) => (swing(k) ? RIM_FOLLOW_SCORE - 0.05 : 1)), ox, oy, dims)).toHaveLength(2);
  });

  it('a blurred read may be wider than the rim (the swing smears it); a firm one that wide is another rim', () => {
    const wide = 2 * 16;
    expect(wide).toBeLessThan(RIM_BLUR_WIDER * 16);
    const blurred = trackRims(hoop((k) => (swing(k) ? 0.62 : 1), (k) => (swing(k) ? wide : 16)), ox, oy, dims);
    expect(blurred).toHaveLength(1);
    expect(blurred[0].obs).toHaveLength(20);
    // a firm read twice as wide in mid-track: the track breaks there (two misses and out) and that read starts its own
    const firmWide = trackRims(hoop(() => 1, (k) => (swing(k) ? wide : 16)), ox, oy, dims);
    expect(firmWide.length).toBeGreaterThan(1);
  });

  it('holds a read against the median of the nearest three firm reads, not a last firm read that was blurred wide', () => {
    // firm reads 18 px wide, then one blurred to 28 px still scoring firm, then the swing's reads at 17 px
    const tracks = trackRims(hoop((k) => (swing(k) ? 0.62 : 1), (k) => (k < 5 ? 18 : k === 5 ? 28 : 17)), ox, oy, dims);
    expect(tracks).toHaveLength(1);
    expect(tracks[0].obs).toHaveLength(20);
  });

  it('anchors the path on runs of firm reads with at most one sample between them', () => {
    const obs = (ks: number[], score: (k: number) => number): RimTrack => ({ obs: ks.map((k) => ({ index: 30 * k, x: 0, y: 0, w: 16, score: score(k) })) });
    const runs = firmRuns(obs([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], (k) => (k === 3 || (k >= 5 && k <= 6) ? 0.6 : 1)), 30);
    // firm at 0,1,2 | 4 | 7,8,9: the single blurred sample 3 keeps 0–4 one run; 5 and 6 split it
    expect(runs.map((r) => r.obs.map((o) => o.index / 30))).toEqual([
      [0, 1, 2, 4],
      [7, 8, 9],
    ]);
  });
});
