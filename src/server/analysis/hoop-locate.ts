import { riseBefore, type Arc } from './arcs';

/** A hoop in camera-stabilised analysis pixels. */
export interface HoopEstimate {
  /** Rim centre. */
  x: number;
  y: number;
  /** Projected rim width in pixels. */
  w: number;
  /** Ball radius near the hoop (pixels). */
  ballR: number;
  /** Number of shot-like arcs ending there. */
  support: number;
  /** Summed quality of those arcs (length, appearance, rise): about 1 per clean shot. */
  quality: number;
  /** 0-1. */
  confidence: number;
}

/** Regulation rim inner diameter over ball diameter (0.45 m / 0.24 m). */
export const RIM_OVER_BALL = 0.45 / 0.24;

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
}

interface EndPoint {
  x: number;
  y: number;
  r: number;
  w: number;
  q: number;
}

/**
 * Locates hoops from where shot-like flights end: an arc that rises clearly and ends while
 * falling stopped at something — the rim, the backboard or the net. Those end points cluster
 * at the target hoop whatever the colours, lighting and resolution, which colour rules alone
 * did not achieve on real footage. The rim width comes from the ball size (rim ≈ 1.9 balls).
 */
export function locateHoopsFromArcs(
  arcs: Arc[],
  dims: { width: number; height: number },
  lookback: number,
  imageY: (frame: number, y: number) => number,
): HoopEstimate[] {
  const ends: EndPoint[] = [];
  for (const a of arcs) {
    const p = a.points;
    const first = p[0];
    const last = p[p.length - 1];
    const t = last.frame - a.fit.t0;
    const vyEnd = a.fit.b + 2 * a.fit.c * t;
    const rise = riseBefore(a, a.trackPoints, lookback);
    const fromTop = imageY(first.frame, first.y) < 0.2 * dims.height && a.fit.b > 0;
    const fall = last.y - a.apexY;
    if (vyEnd <= 0 || (rise < 2.5 * a.r && !fromTop) || fall < 0.5 * a.r) continue;
    const w = Math.min(4 * a.r, 0.5 * p.length);
    const q = Math.min(1, a.trackPoints.length / 14) * Math.min(1, a.score / 0.7) * (fromTop ? 1 : Math.min(1, rise / (5 * a.r)));
    ends.push({ x: last.x, y: last.y, r: a.r, w: Math.max(1, w * a.score), q });
  }
  const hoops: HoopEstimate[] = [];
  const used = new Uint8Array(ends.length);
  for (;;) {
    let best = -1;
    let bestW = 0;
    for (let i = 0; i < ends.length; i++) {
      if (used[i]) continue;
      let s = 0;
      for (let j = 0; j < ends.length; j++) {
        if (used[j]) continue;
        const rad = 4 * Math.max(ends[i].r, ends[j].r);
        if (Math.hypot(ends[i].x - ends[j].x, ends[i].y - ends[j].y) < rad) s += ends[j].w;
      }
      if (s > bestW) {
        bestW = s;
        best = i;
      }
    }
    if (best < 0) break;
    const members: EndPoint[] = [];
    for (let j = 0; j < ends.length; j++) {
      if (used[j]) continue;
      const rad = 4 * Math.max(ends[best].r, ends[j].r);
      if (Math.hypot(ends[best].x - ends[j].x, ends[best].y - ends[j].y) < rad) {
        members.push(ends[j]);
        used[j] = 1;
      }
    }
    if (members.length < 1) break;
    const ballR = median(members.map((m) => m.r));
    const x = median(members.map((m) => m.x));
    const y = median(members.map((m) => m.y));
    const support = members.length;
    hoops.push({
      x,
      y: y + 0.3 * ballR,
      w: 2 * ballR * RIM_OVER_BALL,
      ballR,
      support,
      quality: members.reduce((acc, m) => acc + m.q, 0),
      confidence: Math.min(1, support / 3),
    });
    if (hoops.length >= 4) break;
  }
  return mergeBackboardClusters(hoops).sort((a, b) => b.support - a.support);
}

/**
 * Flights that hit the backboard end above and beside the rim, so one hoop can leave two
 * clusters of end points. The rim is the lower one: fold an upper cluster into a comparable
 * cluster just below it.
 */
export function mergeBackboardClusters(hoops: HoopEstimate[]): HoopEstimate[] {
  const out = [...hoops];
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < out.length; j++) {
      if (i === j) continue;
      const up = out[i];
      const low = out[j];
      if (!up || !low) continue;
      const dy = low.y - up.y;
      if (dy <= 0 || dy > 2.5 * up.w || Math.abs(low.x - up.x) > 2.5 * up.w) continue;
      if (low.support < 0.5 * up.support) continue;
      out[j] = {
        ...low,
        support: low.support + up.support,
        quality: low.quality + up.quality,
        confidence: Math.min(1, (low.support + up.support) / 3),
      };
      out.splice(i, 1);
      i = -1;
      break;
    }
  }
  return out;
}
