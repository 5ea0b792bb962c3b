/**
 * Appearance check for hoops on a few sampled frames: an orange/red, thin, horizontal rim with a
 * light net hanging below it and a light backboard (or its frame) above it, staying put over
 * time. Used to confirm hoops found from ball flights, and to find a hoop when nobody shoots.
 */
import { stablePoint } from './ball-track';

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

/**
 * Summed-area tables of light pixels and of light/dark edges (a pixel whose lightness differs
 * from its left neighbour's), so any box's light fraction or texture costs four lookups.
 */
interface LightTable {
  sum: Int32Array;
  edges: Int32Array;
  width: number;
  height: number;
}

function lightTable(f: RgbFrame, isOn: (r: number, g: number, b: number) => boolean = isLight): LightTable {
  const { rgb, width, height } = f;
  const sum = new Int32Array((width + 1) * (height + 1));
  const edges = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    let rowE = 0;
    let prev = false;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      const light = isOn(rgb[p], rgb[p + 1], rgb[p + 2]);
      if (light) row++;
      if (x > 0 && light !== prev) rowE++;
      prev = light;
      const k = (y + 1) * (width + 1) + x + 1;
      sum[k] = sum[k - width - 1] + row;
      edges[k] = edges[k - width - 1] + rowE;
    }
  }
  return { sum, edges, width, height };
}

/** Fraction of light pixels (or of edge pixels) in a box (clipped to the frame). */
function lightFraction(t: LightTable, x0: number, y0: number, x1: number, y1: number, table: 'sum' | 'edges' = 'sum'): number {
  const xa = Math.max(0, Math.round(x0));
  const xb = Math.min(t.width, Math.round(x1));
  const ya = Math.max(0, Math.round(y0));
  const yb = Math.min(t.height, Math.round(y1));
  if (xb <= xa || yb <= ya) return 0;
  const W = t.width + 1;
  const a = t[table];
  const k = a[yb * W + xb] - a[ya * W + xb] - a[yb * W + xa] + a[ya * W + xa];
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
 * short runs on nearby rows (a close baseline view sees a wide ellipse in pieces between the
 * net loops); joins runs whose spans overlap or nearly touch on rows up to half the wider run
 * apart (≤ 12 px), and returns the single runs plus every joined span.
 */
export function joinRuns(runs: Array<{ x0: number; x1: number; y: number }>): Array<{ x0: number; x1: number; y: number }> {
  const parent = runs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  let start = 0;
  for (let i = 0; i < runs.length; i++) {
    while (runs[start].y < runs[i].y - 12) start++;
    for (let j = start; j < i; j++) {
      const a = runs[i];
      const b = runs[j];
      const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const dy = a.y - b.y;
      if (dy > Math.max(3, 0.5 * Math.max(a.x1 - a.x0, b.x1 - b.x0))) continue;
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
  // The net is a mesh: lighter than beside it, or at least more textured (against a light wall);
  // a close net looks nearly solid, which is accepted when it stands out against a dark background.
  const netTexture = lightFraction(f, cx - 0.35 * w, cy + 0.15 * w, cx + 0.35 * w, cy + 0.7 * w, 'edges');
  const besideTexture = Math.max(
    lightFraction(f, cx - 1.3 * w, cy + 0.15 * w, cx - 0.6 * w, cy + 0.7 * w, 'edges'),
    lightFraction(f, cx + 0.6 * w, cy + 0.15 * w, cx + 1.3 * w, cy + 0.7 * w, 'edges'),
  );
  const netOk =
    net >= 0.15 && ((net <= 0.9 && (net > beside + 0.05 || netTexture > besideTexture + 0.08)) || net > beside + 0.5);
  const score = netOk ? Math.min(1, 0.6 * Math.min(1, net / 0.35) + 0.5 * Math.min(1, board / 0.4)) : 0.25 * Math.min(1, board / 0.4);
  return { x: cx, y: cy, w, score };
}

/** The top of a net found under a rim candidate (see {@link netTop}), in the same pixels. */
export interface NetTop {
  /** Centre of the net's top edge. */
  x: number;
  y: number;
  /** Width of the net's top edge (the rim's width: the net hangs from the whole rim). */
  w: number;
  /** Box-edge contrast of the net's top band against the bands beside and above it. */
  score: number;
}

/**
 * Finds the net hanging under a rim candidate: the light, textured band whose top edge and sides
 * stand out best against the bands beside and above it (a box-edge detector on the light-pixel
 * table), searched within 1.5 candidate widths sideways and a candidate width up and down, for
 * widths of 0.6–1.7 of the candidate's. The net's top edge is the rim's width: a rim seen through
 * or behind a board (a baseline view from behind the board, where the board's coloured lower edge
 * hides the rim or merges with it) is placed from its net. Null when nothing net-like is there.
 */
export function netTop(f: RgbFrame, c: { x: number; y: number; w: number }): NetTop | null {
  const w = c.w;
  // The net is the whitest thing around: light pixels at least 40 levels above the window's median (walls, beige
  // or grey, are light by the rim finder's measure too).
  const lv: number[] = [];
  const xa0 = Math.max(0, Math.round(c.x - 2.5 * w));
  const xb0 = Math.min(f.width - 1, Math.round(c.x + 2.5 * w));
  const ya0 = Math.max(0, Math.round(c.y - 1.5 * w));
  const yb0 = Math.min(f.height - 1, Math.round(c.y + 2 * w));
  for (let y = ya0; y <= yb0; y += 2) {
    for (let x = xa0; x <= xb0; x += 2) {
      const p = (y * f.width + x) * 3;
      lv.push(Math.min(f.rgb[p], f.rgb[p + 1], f.rgb[p + 2]));
    }
  }
  if (!lv.length) return null;
  lv.sort((a, b) => a - b);
  const level = Math.max(150, lv[lv.length >> 1] + 40);
  const table = lightTable(f, (r, g, b) => {
    const mn = Math.min(r, g, b);
    return mn >= level && Math.max(r, g, b) - mn <= 60;
  });
  let best: NetTop | null = null;
  const stepW = Math.max(1, 0.04 * w);
  for (let ww = 0.6 * w; ww <= 1.7 * w; ww += stepW) {
    const h = Math.max(3, 0.4 * ww);
    const side = Math.max(2, 0.25 * ww);
    const above = Math.max(2, 0.2 * ww);
    for (let yt = Math.round(c.y - w); yt <= c.y + w; yt++) {
      for (let xc = Math.round(c.x - 1.5 * w); xc <= c.x + 1.5 * w; xc++) {
        const xa = xc - ww / 2;
        const xb = xc + ww / 2;
        const inL = lightFraction(table, xa, yt, xb, yt + h);
        if (inL < 0.35 || inL > 0.95) continue;
        const inE = lightFraction(table, xa, yt, xb, yt + h, 'edges');
        if (inE < 0.12) continue;
        const l = lightFraction(table, xa - side, yt, xa, yt + h);
        const r = lightFraction(table, xb, yt, xb + side, yt + h);
        const a = lightFraction(table, xa, yt - above, xb, yt);
        const score = inL + 0.5 * inE - 0.5 * (l + r) - 0.6 * a;
        if (!best || score > best.score) best = { x: xc, y: yt, w: ww, score };
      }
    }
  }
  return best;
}

/**
 * Hoops that persist across sampled frames: candidates are compared in stabilised coordinates
 * (`offset(frameIndex)` gives the camera offset of a sample) and kept when seen in at least
 * `minFraction` of the samples. Returns stabilised positions with the mean score.
 */
export function persistentRims(
  samples: Array<{ frame: RgbFrame; ox: number; oy: number; zoom?: { s: number; cx: number; cy: number } }>,
  minFraction = 0.4,
): RimCandidate[] {
  const all: Array<RimCandidate & { s: number }> = [];
  samples.forEach((smp, s) => {
    const z = smp.zoom;
    for (const c of rimCandidates(smp.frame)) all.push({ ...c, ...stablePoint(c.x, c.y, smp.ox, smp.oy, z), w: z ? c.w / z.s : c.w, s });
  });
  const used = new Uint8Array(all.length);
  const out: RimCandidate[] = [];
  for (let i = 0; i < all.length; i++) {
    if (used[i]) continue;
    const group = all.filter(
      (c, j) =>
        !used[j] &&
        Math.abs(c.x - all[i].x) < 0.6 * all[i].w &&
        Math.abs(c.y - all[i].y) < 0.4 * all[i].w &&
        Math.abs(Math.log(c.w / all[i].w)) < Math.log(1.5),
    );
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
