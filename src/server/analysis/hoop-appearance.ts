/**
 * Appearance check for hoops on a few sampled frames: an orange/red, thin, horizontal rim with a
 * light net hanging below it and a light backboard (or its frame) above it, staying put over
 * time. Used to confirm hoops found from ball flights, and to find a hoop when nobody shoots.
 */

/** A hoop seen in still frames, in analysis pixels of the frame it was seen in. */
export interface RimCandidate {
  x: number;
  y: number;
  w: number;
  /** 0-1 appearance score. */
  score: number;
}

export interface RgbFrame {
  rgb: Uint8Array;
  width: number;
  height: number;
}

function isRimColour(r: number, g: number, b: number): boolean {
  return r >= 90 && r - g >= 35 && r - b >= 45;
}

function isLight(r: number, g: number, b: number): boolean {
  const mx = Math.max(r, g, b);
  const mn = Math.min(r, g, b);
  return mn >= 140 && mx - mn <= 70;
}

/** Summed-area table of light pixels, so any box's light fraction costs four lookups. */
interface LightTable {
  sum: Int32Array;
  width: number;
  height: number;
}

function lightTable(f: RgbFrame): LightTable {
  const { rgb, width, height } = f;
  const sum = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      if (isLight(rgb[p], rgb[p + 1], rgb[p + 2])) row++;
      sum[(y + 1) * (width + 1) + x + 1] = sum[y * (width + 1) + x + 1] + row;
    }
  }
  return { sum, width, height };
}

/** Fraction of light pixels in a box (clipped to the frame). */
function lightFraction(t: LightTable, x0: number, y0: number, x1: number, y1: number): number {
  const xa = Math.max(0, Math.round(x0));
  const xb = Math.min(t.width, Math.round(x1));
  const ya = Math.max(0, Math.round(y0));
  const yb = Math.min(t.height, Math.round(y1));
  if (xb <= xa || yb <= ya) return 0;
  const W = t.width + 1;
  const k = t.sum[yb * W + xb] - t.sum[ya * W + xb] - t.sum[yb * W + xa] + t.sum[ya * W + xa];
  return k / ((xb - xa) * (yb - ya));
}

/**
 * Finds rim-like horizontal runs of orange/red pixels in one frame and scores each with the net
 * below it (a light, textured mesh — not a uniform light surface) and a light backboard or
 * frame above it. Runs rather than connected components, because the rim often touches the red
 * square on the backboard.
 */
export function rimCandidates(f: RgbFrame): RimCandidate[] {
  const { rgb, width, height } = f;
  const maxW = 0.2 * width;
  const minW = Math.max(8, 0.012 * Math.max(width, height));
  const table = lightTable(f);
  const raw: RimCandidate[] = [];
  const runs: Array<{ x0: number; x1: number; y: number }> = [];
  for (let y = 1; y < height - 2; y++) {
    let runStart = -1;
    let gaps = 0;
    for (let x = 0; x <= width; x++) {
      const p = (y * width + x) * 3;
      const on = x < width && (isRimColour(rgb[p], rgb[p + 1], rgb[p + 2]) || isRimColour(rgb[p + 3 * width], rgb[p + 3 * width + 1], rgb[p + 3 * width + 2]));
      if (on) {
        if (runStart < 0) runStart = x;
        gaps = 0;
        continue;
      }
      if (runStart >= 0 && gaps < 1 && x < width) {
        gaps++;
        continue;
      }
      if (runStart >= 0) {
        const w = x - gaps - runStart;
        if (w >= 3 && w <= maxW && runStart > 1 && runStart + w < width - 2) runs.push({ x0: runStart, x1: runStart + w, y });
        runStart = -1;
        gaps = 0;
      }
    }
  }
  for (const r of joinRuns(runs)) {
    const w = r.x1 - r.x0;
    if (w >= minW && w <= maxW) raw.push(scoreRim(table, (r.x0 + r.x1) / 2, r.y + 0.5, w));
  }
  const whole = raw.filter((r) => r.score >= 0.35);
  const kept: RimCandidate[] = [];
  for (const c of whole.sort((a, b) => b.score - a.score)) {
    if (kept.some((k) => Math.abs(k.x - c.x) < 0.7 * k.w && Math.abs(k.y - c.y) < 0.5 * k.w)) continue;
    kept.push(c);
    if (kept.length >= 12) break;
  }
  return kept;
}

/**
 * The rim seen from below or at an angle is an ellipse whose front and back arcs give separate
 * short runs on nearby rows; joins runs on rows ≤ 3 apart whose spans overlap or nearly touch,
 * and returns the single runs plus every joined span.
 */
export function joinRuns(runs: Array<{ x0: number; x1: number; y: number }>): Array<{ x0: number; x1: number; y: number }> {
  const parent = runs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  let start = 0;
  for (let i = 0; i < runs.length; i++) {
    while (runs[start].y < runs[i].y - 3) start++;
    for (let j = start; j < i; j++) {
      const a = runs[i];
      const b = runs[j];
      const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      if (gap <= Math.max(3, 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0))) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, { x0: number; x1: number; ys: number; n: number }>();
  runs.forEach((r, i) => {
    const k = find(i);
    const g = groups.get(k);
    if (!g) groups.set(k, { x0: r.x0, x1: r.x1, ys: r.y, n: 1 });
    else {
      g.x0 = Math.min(g.x0, r.x0);
      g.x1 = Math.max(g.x1, r.x1);
      g.ys += r.y;
      g.n++;
    }
  });
  const joined = [...groups.values()].filter((g) => g.n > 1).map((g) => ({ x0: g.x0, x1: g.x1, y: g.ys / g.n }));
  return [...runs, ...joined];
}

function scoreRim(f: LightTable, cx: number, cy: number, w: number): RimCandidate {
  const net = lightFraction(f, cx - 0.35 * w, cy + 0.15 * w, cx + 0.35 * w, cy + 0.7 * w);
  const beside = Math.max(
    lightFraction(f, cx - 1.3 * w, cy + 0.15 * w, cx - 0.6 * w, cy + 0.7 * w),
    lightFraction(f, cx + 0.6 * w, cy + 0.15 * w, cx + 1.3 * w, cy + 0.7 * w),
  );
  const board = Math.max(
    lightFraction(f, cx - 0.9 * w, cy - 1.6 * w, cx + 0.9 * w, cy - 0.3 * w),
    0.7 * lightFraction(f, cx - 1.4 * w, cy - 2.2 * w, cx + 1.4 * w, cy - 0.2 * w),
  );
  const netOk = net >= 0.15 && net <= 0.9 && net > beside + 0.05;
  const score = netOk ? Math.min(1, 0.6 * Math.min(1, net / 0.35) + 0.5 * Math.min(1, board / 0.4)) : 0.25 * Math.min(1, board / 0.4);
  return { x: cx, y: cy, w, score };
}

/**
 * Hoops that persist across sampled frames: candidates are compared in stabilised coordinates
 * (`offset(frameIndex)` gives the camera offset of a sample) and kept when seen in at least
 * `minFraction` of the samples. Returns stabilised positions with the mean score.
 */
export function persistentRims(
  samples: Array<{ frame: RgbFrame; ox: number; oy: number }>,
  minFraction = 0.4,
): RimCandidate[] {
  const all: Array<RimCandidate & { s: number }> = [];
  samples.forEach((smp, s) => {
    for (const c of rimCandidates(smp.frame)) all.push({ ...c, x: c.x - smp.ox, y: c.y - smp.oy, s });
  });
  const used = new Uint8Array(all.length);
  const out: RimCandidate[] = [];
  for (let i = 0; i < all.length; i++) {
    if (used[i]) continue;
    const group = all.filter((c, j) => !used[j] && Math.abs(c.x - all[i].x) < 0.6 * all[i].w && Math.abs(c.y - all[i].y) < 0.4 * all[i].w);
    all.forEach((c, j) => {
      if (group.includes(c)) used[j] = 1;
    });
    const frames = new Set(group.map((c) => c.s)).size;
    if (frames < Math.max(1, minFraction * samples.length)) continue;
    const mean = (k: 'x' | 'y' | 'w' | 'score') => group.reduce((a, c) => a + c[k], 0) / group.length;
    out.push({ x: mean('x'), y: mean('y'), w: mean('w'), score: (mean('score') * frames) / samples.length });
  }
  return out.sort((a, b) => b.score - a.score);
}
