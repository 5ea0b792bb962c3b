import { median, type Arc } from './arcs';
import { toStable, type CameraPath } from './ball-track';
import { MIN_PERSON_H, personSized, type FrameFeatures, type MotionBlob } from './frame-features';
import type { ActionRecord, AnalysisOptions, ClusterRecord } from './types';

/** One sighting of a moving person (a large upright motion blob), stabilised pixels. */
export interface PersonObs {
  frame: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Torso colour. */
  rgb: [number, number, number];
}

/** A linked sequence of person sightings. */
export interface PlayerTrack {
  id: number;
  obs: PersonObs[];
  /** Median torso colour. */
  rgb: [number, number, number];
  team: 0 | 1 | null;
}

/**
 * Collects person sightings: moving blobs that are upright and several ball diameters tall.
 * Players who stand still leave no motion blob, but shooters, passers and rebounders move at
 * the moments that matter.
 */
export function personObservations(features: FrameFeatures[], path: CameraPath, ballR: number): PersonObs[][] {
  const minH = Math.max(MIN_PERSON_H, 3.5 * ballR);
  return features.map((f, frame) => {
    const out: PersonObs[] = [];
    for (const b of f.blobs) {
      const h = b.y1 - b.y0;
      const w = b.x1 - b.x0;
      // personSized first: the extraction keeps only such blobs and ball-sized ones (frame-features.ts#usableBlob)
      if (!personSized(b) || h < minH || h < 0.7 * w || b.area < 0.1 * w * h) continue;
      const [p0, p1] = [toStable(path, frame, b.x0, b.y0), toStable(path, frame, b.x1, b.y1)];
      out.push({ frame, x0: p0.x, y0: p0.y, x1: p1.x, y1: p1.y, rgb: [b.tr, b.tg, b.tb] });
    }
    return out;
  });
}

const cx = (o: PersonObs) => (o.x0 + o.x1) / 2;
const cy = (o: PersonObs) => (o.y0 + o.y1) / 2;

/** The feet (bottom centre of the box) of every body seen between two frames, inclusive, for `court-lines.ts#placeShots`. */
export function feetBetween(perFrame: PersonObs[][]): (from: number, to: number) => Array<{ frame: number; x: number; y: number }> {
  return (from, to) =>
    perFrame.slice(Math.max(0, from), Math.max(0, to + 1)).flatMap((obs) => obs.map((o) => ({ frame: o.frame, x: cx(o), y: o.y1 })));
}

const colourDist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * Weighted 2-means over colour points (Euclidean distance), tried from the farthest point of
 * each of the `seeds` heaviest points; the split of lowest cost wins, a point costing its weight
 * times its distance to the nearer centre, capped at `costCap` (strays cannot pull the split).
 * Null when no two distinct seeds exist.
 */
export function twoMeans(
  pts: Array<{ c: readonly number[]; w: number }>,
  opts: { seeds: number; iterations: number; costCap?: number; allPairs?: boolean },
): { c0: number[]; c1: number[] } | null {
  const cap = opts.costCap ?? Infinity;
  const heavy = pts
    .map((_, i) => i)
    .sort((a, b) => pts[b].w - pts[a].w)
    .slice(0, opts.seeds);
  let best: { c0: number[]; c1: number[]; cost: number } | null = null;
  for (const i of heavy) {
    let far = i;
    let fd = -1;
    pts.forEach((p, j) => {
      const d = colourDist(p.c, pts[i].c) * Math.sqrt(p.w);
      if (d > fd) {
        fd = d;
        far = j;
      }
    });
    const partners = opts.allPairs ? [far, ...heavy.filter((j) => j !== i && j !== far)] : [far];
    for (const j of partners) {
      if (j === i) continue;
      const split = lloyd(pts, pts[i].c, pts[j].c, opts.iterations, opts.allPairs ? cap : Infinity);
      const cost = pts.reduce((a, p) => a + p.w * Math.min(cap, colourDist(p.c, split.c0), colourDist(p.c, split.c1)), 0);
      if (!best || cost < best.cost) best = { ...split, cost };
    }
  }
  return best && { c0: best.c0, c1: best.c1 };
}

/** Lloyd iterations of a weighted 2-means from two seeds; points farther than `cap` from both centres do not move them. */
function lloyd(pts: Array<{ c: readonly number[]; w: number }>, seed0: readonly number[], seed1: readonly number[], iterations: number, cap: number): { c0: number[]; c1: number[] } {
  let c0 = [...seed0];
  let c1 = [...seed1];
  for (let it = 0; it < iterations; it++) {
    const s0 = [0, 0, 0, 0];
    const s1 = [0, 0, 0, 0];
    for (const p of pts) {
      const d0 = colourDist(p.c, c0);
      const d1 = colourDist(p.c, c1);
      if (Math.min(d0, d1) > cap) continue;
      const acc = d0 <= d1 ? s0 : s1;
      for (let k = 0; k < 3; k++) acc[k] += p.c[k] * p.w;
      acc[3] += p.w;
    }
    if (s0[3]) c0 = [s0[0] / s0[3], s0[1] / s0[3], s0[2] / s0[3]];
    if (s1[3]) c1 = [s1[0] / s1[3], s1[1] / s1[3], s1[2] / s1[3]];
  }
  return { c0, c1 };
}

/** Links person sightings frame to frame (nearest centre within a fraction of the body height, similar torso colour). */
export function linkPlayers(perFrame: PersonObs[][], maxGap: number): PlayerTrack[] {
  const tracks: PlayerTrack[] = [];
  let live: PlayerTrack[] = [];
  let id = 1;
  for (let f = 0; f < perFrame.length; f++) {
    const obs = perFrame[f];
    const used = new Uint8Array(obs.length);
    const pairs: Array<[number, number, number]> = [];
    live.forEach((t, ti) => {
      const l = t.obs[t.obs.length - 1];
      const h = l.y1 - l.y0;
      obs.forEach((o, oi) => {
        const d = Math.hypot(cx(o) - cx(l), cy(o) - cy(l));
        if (d > 0.6 * h + 0.05 * h * (f - l.frame)) return;
        const cd = colourDist(o.rgb, l.rgb);
        if (cd > 90) return;
        pairs.push([d / h + cd / 200, ti, oi]);
      });
    });
    pairs.sort((a, b) => a[0] - b[0]);
    const tUsed = new Uint8Array(live.length);
    for (const [, ti, oi] of pairs) {
      if (tUsed[ti] || used[oi]) continue;
      tUsed[ti] = 1;
      used[oi] = 1;
      live[ti].obs.push(obs[oi]);
    }
    obs.forEach((o, oi) => {
      if (!used[oi]) live.push({ id: id++, obs: [o], rgb: o.rgb, team: null });
    });
    const next: PlayerTrack[] = [];
    for (const t of live) {
      if (f - t.obs[t.obs.length - 1].frame > maxGap) tracks.push(t);
      else next.push(t);
    }
    live = next;
  }
  tracks.push(...live);
  const kept = tracks.filter((t) => t.obs.length >= 3);
  for (const t of kept) t.rgb = [0, 1, 2].map((c) => median(t.obs.map((o) => o.rgb[c]))) as [number, number, number];
  kept.sort((a, b) => a.obs[0].frame - b.obs[0].frame);
  kept.forEach((t, i) => (t.id = i + 1));
  return kept;
}

/**
 * Splits player tracks into two teams by 2-means clustering of torso colours (weighted by track
 * length). Teams stay null when there is a single player or the two colour groups are not
 * clearly apart (no jerseys, shirts and skins).
 */
export function assignTeams(tracks: PlayerTrack[], opts: { solo: boolean }): void {
  if (opts.solo || tracks.length < 2) return;
  const pts = tracks.map((t) => ({ c: t.rgb, w: t.obs.length }));
  const best = twoMeans(pts, { seeds: 4, iterations: 10 });
  if (!best || colourDist(best.c0, best.c1) < 35) return;
  const bright = (c: number[]) => c[0] + c[1] + c[2];
  const [a, b] = bright(best.c0) >= bright(best.c1) ? [best.c0, best.c1] : [best.c1, best.c0];
  for (const t of tracks) t.team = colourDist(t.rgb, a) <= colourDist(t.rgb, b) ? 0 : 1;
}

/** The player track whose body is closest to a stabilised point around a frame (within `radius` frames), or null. */
export function playerNear(
  tracks: PlayerTrack[],
  frame: number,
  x: number,
  y: number,
  radius: number,
  maxDistInHeights = 1.2,
): PlayerTrack | null {
  let best: PlayerTrack | null = null;
  let bestD = Infinity;
  for (const t of tracks) {
    if (t.obs[0].frame > frame + radius || t.obs[t.obs.length - 1].frame < frame - radius) continue;
    for (const o of t.obs) {
      if (Math.abs(o.frame - frame) > radius) continue;
      const h = o.y1 - o.y0;
      const dx = x < o.x0 ? o.x0 - x : x > o.x1 ? x - o.x1 : 0;
      const dy = y < o.y0 ? o.y0 - y : y > o.y1 ? y - o.y1 : 0;
      const d = Math.hypot(dx, dy) / h + 0.02 * Math.abs(o.frame - frame);
      if (d < bestD && d <= maxDistInHeights) {
        bestD = d;
        best = t;
      }
    }
  }
  return best;
}

/** A pass: a flight that leaves one player and ends at another. */
export interface PassEvent {
  fromTrack: number;
  toTrack: number;
  startFrame: number;
  endFrame: number;
}

/**
 * Finds passes among the non-shot flights: the arc starts at one player and ends at another.
 * Used for assists (the last pass to the shooter within a few seconds before a made field goal).
 */
export function detectPasses(arcs: Arc[], shotArcs: Set<Arc>, tracks: PlayerTrack[], fps: number): PassEvent[] {
  const out: PassEvent[] = [];
  const rad = Math.round(0.3 * fps);
  for (const a of arcs) {
    if (shotArcs.has(a)) continue;
    const p0 = a.points[0];
    const p1 = a.points[a.points.length - 1];
    const from = playerNear(tracks, p0.frame, p0.x, p0.y, rad, 0.6);
    const to = playerNear(tracks, p1.frame, p1.x, p1.y, rad, 0.6);
    if (!from || !to || from === to) continue;
    out.push({ fromTrack: from.id, toTrack: to.id, startFrame: p0.frame, endFrame: p1.frame });
  }
  return out.sort((a, b) => a.startFrame - b.startFrame);
}

/** One moment a player was seen holding the ball (a release, a rebound, a pass), as the player step reads it. */
export interface PlayerEvent {
  /** Team read from the jersey there, or null (undecided: the event gets no player). */
  team: 0 | 1 | null;
  /** Skin colour of the body in the robust space (see `jersey.ts#robustColour`), or null when too little skin was seen. */
  skin: readonly number[] | null;
  /**
   * Without team jerseys: the colour of the body's clothes (the dominant colour read there, robust space), which tells
   * people apart where no team colours do; null when not read. Undefined with teams.
   */
  look?: readonly number[] | null;
  /** Motion track at the ball then, or null: events on one motion track are one body. */
  track: number | null;
}

/** Options of {@link groupPlayers}. */
export interface GroupOptions {
  /** Players per team when the session says so (events of a team are merged down to this many players), else null. */
  teamSize: number | null;
  /** Pairs of events that cannot be one player (a passer and the shooter he passed to). */
  cannotLink?: Array<[number, number]>;
  /** Groups whose mean skin distance is below this are one player even when the team size is reached or unknown. */
  sameBelow: number;
  /** Distance assumed between two groups when no pair of their events has a skin colour. */
  unknown: number;
}

/** Skin-colour distance below which two events are one player whatever the team size (robust-space units). */
export const SAME_PLAYER_SKIN = 0.08;
/** Distance taken for two groups with no skin colours to compare. */
export const UNKNOWN_SKIN = 0.3;
/**
 * Without team jerseys: the distance in clothes and skin colour (see {@link groupPlayers}) below which two events are one
 * person whatever the number of players.
 */
export const SAME_PERSON_LOOK = 0.3;

const skinDist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * Groups ball-holding moments into players, per team: events on one motion track start as one
 * group; then the two closest groups (mean skin-colour distance over their pairs of events with
 * skin seen — without teams, clothes' distance plus skins' ({@link PlayerEvent.look}) —;
 * {@link GroupOptions.unknown} when none) are merged while a team has more groups than
 * its size (a group without any skin colour first: it joins the first group it may), and after
 * that only while they are closer than {@link GroupOptions.sameBelow}.
 * Groups holding a cannot-link pair are never merged. Returns a player index per event (0, 1, …
 * in order of first event), -1 for events without a team.
 */
export function groupPlayers(events: PlayerEvent[], opts: GroupOptions): number[] {
  const cannot = new Set((opts.cannotLink ?? []).flatMap(([a, b]) => [`${a}:${b}`, `${b}:${a}`]));
  const out = new Array<number>(events.length).fill(-1);
  const groupsAll: number[][] = [];
  for (const team of [0, 1] as const) {
    const idx = events.map((e, i) => (e.team === team ? i : -1)).filter((i) => i >= 0);
    const groups: number[][] = [];
    const byTrack = new Map<number, number[]>();
    for (const i of idx) {
      const tr = events[i].track;
      if (tr === null) {
        groups.push([i]);
        continue;
      }
      const g = byTrack.get(tr);
      if (g && !g.some((j) => cannot.has(`${i}:${j}`))) g.push(i);
      else {
        const ng = [i];
        byTrack.set(tr, ng);
        groups.push(ng);
      }
    }
    // Without teams, a pair's distance is its clothes' plus its skins' when both are seen.
    const pair = (i: number, j: number): number | null => {
      const si = events[i].skin;
      const sj = events[j].skin;
      const li = events[i].look;
      const lj = events[j].look;
      if (li && lj) return skinDist(li, lj) + (si && sj ? skinDist(si, sj) : 0);
      return si && sj ? skinDist(si, sj) : null;
    };
    const dist = (a: number[], b: number[]) => {
      let s = 0;
      let n = 0;
      for (const i of a) {
        for (const j of b) {
          if (cannot.has(`${i}:${j}`)) return Infinity;
          const d = pair(i, j);
          if (d !== null) {
            s += d;
            n++;
          }
        }
      }
      return n ? s / n : opts.unknown;
    };
    const skinless = (g: number[]) => g.every((i) => !events[i].skin && !events[i].look);
    for (;;) {
      if (groups.length < 2) break;
      const over = opts.teamSize !== null && groups.length > opts.teamSize;
      let best: [number, number, number] | null = null;
      for (let a = 0; a < groups.length; a++)
        for (let b = a + 1; b < groups.length; b++) {
          let d = dist(groups[a], groups[b]);
          // Over the team size, a group without any skin colour (nothing tells it apart) joins
          // another before two groups whose skins differ are forced together.
          if (over && d < Infinity && (skinless(groups[a]) || skinless(groups[b]))) d = -1;
          if (d < Infinity && (!best || d < best[0])) best = [d, a, b];
        }
      if (!best) break;
      if (!over && best[0] >= opts.sameBelow) break;
      groups[best[1]].push(...groups[best[2]]);
      groups.splice(best[2], 1);
    }
    groupsAll.push(...groups);
  }
  groupsAll.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]).forEach((g, k) => g.forEach((i) => (out[i] = k)));
  return out;
}

/**
 * Players per team when the session says how many people play (`num_players`, both teams:
 * half of it, rounded up), else null (unknown: moments are grouped by motion track and
 * near-identical appearance only). The session type is not a bound: a `5v5` game has
 * substitutes, so five per team would force different people into one player.
 */
export function teamSizeOf(opts: { numPlayers?: number }): number | null {
  if (opts.numPlayers && opts.numPlayers >= 2) return Math.ceil(opts.numPlayers / 2);
  return null;
}

/** True when the session says one person plays (`session_type: solo` or `num_players: 1`). */
export function isOnePlayerSession(o: Pick<AnalysisOptions, 'sessionType' | 'numPlayers'>): boolean {
  return o.sessionType === 'solo' || o.numPlayers === 1;
}

/**
 * The artifacts of a session of one player: every person the analysis attached to a shot or a
 * rebound is that player, so they become one record (`track_id` 1) and every shot is theirs.
 * Without this a solo session came out with a player per shot: motion tracks break whenever
 * the shooter stops moving or leaves the view, and nothing re-identifies them across shots
 * (a real 51 s practice clip of one shooter gave 18 players). The record spans the merged
 * tracks; its colour and thumbnail are those of the most-seen one. A missed shot keeps its
 * rebounder only where one was found; there is no assister and no pass (no teammate).
 * Tracks no action names (people walking past) are left out. Without any track the shots keep
 * no shooter (nobody was seen).
 */
export function asOnePlayer(actions: ActionRecord[], clusters: ClusterRecord[]): { actions: ActionRecord[]; clusters: ClusterRecord[] } {
  const named = new Set<number>();
  for (const a of actions) {
    if (a.type === 'shot') {
      if (a.shooter_track !== null) named.add(a.shooter_track);
      if (a.rebounder_track !== null) named.add(a.rebounder_track);
    } else if (a.type === 'rebound' && a.track !== null) named.add(a.track);
  }
  const merged = clusters.filter((c) => named.has(c.track_id));
  const from = merged.length ? merged : clusters;
  if (!from.length) return { actions: actions.filter((a) => a.type !== 'pass'), clusters: [] };
  const most = from.reduce((best, c) => (c.frames > best.frames ? c : best));
  const player: ClusterRecord = {
    track_id: 1,
    team: null,
    jersey_rgb: most.jersey_rgb,
    jersey_number: null,
    t_start: Math.min(...from.map((c) => c.t_start)),
    t_end: Math.max(...from.map((c) => c.t_end)),
    frames: from.reduce((n, c) => n + c.frames, 0),
    thumb_t: most.thumb_t,
    thumb_box: most.thumb_box,
    confidence: Math.max(...from.map((c) => c.confidence)),
  };
  const out: ActionRecord[] = [];
  for (const a of actions) {
    if (a.type === 'pass') continue;
    if (a.type === 'shot') out.push({ ...a, shooter_track: 1, assister_track: null, rebounder_track: a.rebounder_track === null ? null : 1 });
    else out.push(a.track === null ? a : { ...a, track: 1, offensive: true });
  }
  return { actions: out, clusters: [player] };
}
