import { cameIntoView, median, riseBefore, vyAt, type Arc } from './arcs';

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
    const fromTop = imageY(first.frame, first.y) < 0.2 * dims.height && a.fit.b > 0 && cameIntoView(a);
    const fall = last.y - a.apexY;
    if (vyEnd <= 0 || (rise < 2.5 * a.r && !fromTop) || fall < 0.5 * a.r) continue;
    const w = Math.min(4 * a.r, 0.5 * p.length);
    const q = Math.min(1, a.trackPoints.length / 14) * Math.min(1, a.score / 0.7) * (fromTop ? 1 : Math.min(1, rise / (5 * a.r)));
    const end = freeFallEnd(a);
    ends.push({ x: end.x, y: end.y, r: a.r, w: Math.max(1, w * a.score), q });
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
 * Where a flight's ball stopped falling freely. The arc ends where one parabola stops fitting its
 * track, which on a sped-up clip (a fall from the apex to the rim in 4–5 frames) or after one
 * blurred detection can be in mid-air, short of the rim: whether that last stretch forms an arc of
 * its own turns on single detections, so re-encoding the same clip moved the hoop found from the
 * flights' ends. The ball's track is followed on past the arc's end while it is still in free
 * flight — each step down at least 0.75 of the one before, its sideways step within 35 % (+ a
 * quarter ball radius) of the flight's, gaps ≤ 2 frames, ≤ 8 sightings; the last such sighting is
 * the end: meeting the rim, the board or the net slows the ball or turns it.
 */
export function freeFallEnd(a: Arc): { x: number; y: number; frame: number } {
  const last = a.points[a.points.length - 1];
  let end = { x: last.x, y: last.y, frame: last.frame };
  let step = vyAt(a, last.frame);
  const vx = a.fit.e;
  if (!(step > 0)) return end;
  let n = 0;
  for (const q of a.trackPoints) {
    if (q.frame <= end.frame) continue;
    const df = q.frame - end.frame;
    if (df > 2 || n >= 8) break;
    const dy = (q.y - end.y) / df;
    const dx = (q.x - end.x) / df;
    // still in free flight: falling no slower than before, moving sideways as the flight did
    if (dy < 0.75 * step || Math.abs(dx - vx) > 0.35 * Math.abs(vx) + 0.25 * a.r) break;
    step = dy;
    end = { x: q.x, y: q.y, frame: q.frame };
    n++;
  }
  return end;
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

/** A person sighting (stabilised pixels), as `players.ts#personObservations` gives them. */
export interface PersonBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Physical plausibility measurements of a hoop candidate (see `hoopPlausibility`). */
export interface HoopPlausibility {
  /** Flights that come down onto the candidate from above it (counted in `rises`). */
  flights: number;
  /** Their apex heights above the rim, in rim widths, sorted ascending. */
  rises: number[];
  /** Person sightings standing under the candidate at about its depth (sized like a person next to a 0.45 m rim). */
  persons: number;
  /** How many of them reach above the rim level (a rim is 3.05 m up: above the heads of players under it). */
  headsAbove: number;
  /** Person sightings of that size whose box covers the candidate (a rim is above the players at its depth, not inside them). */
  covering: number;
}

/**
 * Measures what a rim 3.05 m up implies for a hoop candidate (stabilised pixels, rim width `w`):
 * - shots rise well above the rim before they come down into it, so the flights that end there
 *   peak clearly above it (`rises`, in rim widths; a shot's apex is ≥ 1–2 m over the rim, i.e.
 *   ≥ 2 rim widths, while bounce passes onto a line or a strip on the floor barely rise over
 *   their end point);
 * - players under a rim are shorter than it: a person at the rim's depth is about 4 rim widths
 *   tall (1.9 m / 0.45 m) and stands with the head ~2 rim widths below the rim, so person
 *   sightings of that size, under the candidate (feet below it), whose top reaches above it say
 *   the candidate is at head height or lower — a strip on the floor or a wall at floor level.
 */
export function hoopPlausibility(
  h: { x: number; y: number; w: number },
  arcs: Arc[],
  persons: PersonBox[][] = [],
): HoopPlausibility {
  const rises: number[] = [];
  for (const a of arcs) {
    const p = a.points;
    const last = p[p.length - 1];
    if (last.y < h.y - 1.5 * h.w || Math.abs(last.x - h.x) > 2 * h.w || Math.abs(last.y - h.y) > 2 * h.w) continue;
    if (a.apexFrame >= last.frame) continue;
    rises.push((h.y - a.apexY) / h.w);
  }
  rises.sort((a, b) => a - b);
  let n = 0;
  let above = 0;
  let covering = 0;
  for (const frame of persons) {
    for (const o of frame) {
      const ph = o.y1 - o.y0;
      if (ph < 2.5 * h.w || ph > 7 * h.w) continue;
      if (h.x >= o.x0 && h.x <= o.x1 && h.y >= o.y0 && h.y <= o.y1) covering++;
      if (Math.abs((o.x0 + o.x1) / 2 - h.x) > 1.5 * h.w || o.y1 < h.y + 1.5 * h.w) continue;
      n++;
      if (o.y0 < h.y - 0.25 * h.w) above++;
    }
  }
  return { flights: rises.length, rises, persons: n, headsAbove: above, covering };
}

/** Least person sightings under a candidate for the head-height check to speak. */
export const MIN_PERSONS_UNDER = 12;
/**
 * Share of them reaching above the candidate that marks it as no rim. True rims measured: 0–4 %; false
 * candidates 25–97 % (a cluster of flight ends where rebounds are caught at chest height in a
 * behind-the-shooter view, seed 954: 28 %, which the 30 % asked before let through).
 */
export const HEADS_ABOVE_SHARE = 0.2;

/**
 * A candidate at or below the heads of the players standing under it is no rim (a strip of
 * padding or a line at floor level that bounce passes end on, the chest height where rebounds are
 * caught): ≥ 20 % of ≥ 12 person sightings of a rim-depth size under it reach above it. On the true
 * rims of the benchmark clips the share is 0–5 %; on the false ones measured it was 25–97 %.
 */
export function belowHeadHeight(p: HoopPlausibility): boolean {
  return p.persons >= MIN_PERSONS_UNDER && p.headsAbove >= HEADS_ABOVE_SHARE * p.persons;
}

/** Least person sightings covering a candidate for {@link insidePlayers} to speak. */
export const MIN_COVERING = 5;

/**
 * A candidate that the players at its depth cover more often than they stand under it is inside them, not 3.05 m
 * above them: ≥ {@link MIN_COVERING} sightings of a rim-depth size whose box holds the candidate, at least as many as
 * those under it. Asked of hoops known from flights alone (no rim seen there): with players who keep moving, the
 * flights of their limbs end at their chests and hips. Measured on the cached synthetic, development and scripted
 * clips: the true rims had 0–5 such sightings, at most 3 % of those under them (a player rising for a dunk or a
 * layup covers the rim for a few frames); the false candidates up to 177. The one it decides (the darkened copy of
 * the augment clip with moving players, seed 121): 7 sightings covering a cluster of 5 flight ends at the hips of
 * two far players, 3 under it.
 */
export function insidePlayers(p: HoopPlausibility): boolean {
  return p.covering >= MIN_COVERING && p.covering >= p.persons;
}
