import { emptyBoxScore, type BoxScore } from './box-score';
import { shotsOf, type ActionRecord, type ClusterRecord, type PassAction, type ReboundAction } from './types';

/**
 * From the analyser's artifacts to what the API shows (SPEC §2.4–2.6): shots in time
 * order with points under the session's scoring system, players with box scores, and the
 * totals. A pure function: the processing pipeline stores its result, and coach
 * corrections re-run the box-score part on edited shots.
 */

/**
 * Scoring systems (`options.point_system`): 2 (default) — 2 inside the arc, 3 beyond, 1 per
 * free throw; 1 — 1 inside, 2 beyond, 1 per free throw (FIBA 3x3, streetball).
 */
export type PointSystem = 1 | 2;

/** The session's scoring system from its stored `options` (anything but 1 is the default, 2). */
export function pointSystemOf(options: Record<string, unknown> | null | undefined): PointSystem {
  return options?.point_system === 1 ? 1 : 2;
}

export function shotValue(shot: { isFreeThrow: boolean; isThreePoint: boolean | null }, system: PointSystem): number {
  if (shot.isFreeThrow) return 1;
  return system + (shot.isThreePoint ? 1 : 0);
}

export interface DerivedShot {
  /** Id of the shot action in actions.jsonl ("s1"…). */
  actionId: string;
  index: number;
  startSeconds: number;
  endSeconds: number;
  rimSeconds: number;
  made: boolean | null;
  points: number | null;
  type: 'fieldgoal' | 'freethrow';
  isThreePoint: boolean | null;
  isFreeThrow: boolean;
  isFouled: boolean;
  shotImageNormed: [number, number] | null;
  shotWorldNormed: [number, number] | null;
  hoopImageNormed: [number, number] | null;
  excitementScore: number;
  scorerTrack: number | null;
  assisterTrack: number | null;
  rebounderTrack: number | null;
}

export interface DerivedPlayer {
  track: number;
  teamId: number | null;
  jersey: string | null;
  /** The clothes' colour the analysis read (`#rrggbb`), null when it read none. */
  colour: string | null;
  /** A moment the player was seen, for their picture: time (s) and box normalised 0–1. */
  seen: { t: number; box: [number, number, number, number] } | null;
  stats: BoxScore;
}

export interface DerivedSession {
  shots: DerivedShot[];
  players: DerivedPlayer[];
  totals: BoxScore;
}

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;
const point = (p: [number, number] | null | undefined): [number, number] | null => (p ? [round(p[0], 4), round(p[1], 4)] : null);

/** Adds one shot (and its assist) to a box score. */
export function addShot(box: BoxScore, shot: Pick<DerivedShot, 'isFreeThrow' | 'isThreePoint' | 'made' | 'points'>): void {
  const made = shot.made === true;
  if (shot.isFreeThrow) {
    box.ft_att++;
    if (made) box.ft_make++;
  } else if (shot.isThreePoint) {
    box.fg_3pt_att++;
    if (made) box.fg_3pt_make++;
  } else {
    box.fg_2pt_att++;
    if (made) box.fg_2pt_make++;
  }
  box.points += made ? (shot.points ?? 0) : 0;
}

/** What a box score needs of a shot; `K` identifies a player (a track here, a player id for corrections). */
export type BoxShot<K> = Pick<DerivedShot, 'isFreeThrow' | 'isThreePoint' | 'made' | 'points'> & {
  scorerTrack: K | null;
  assisterTrack: K | null;
  rebounderTrack: K | null;
};

/**
 * Box scores per player (track or stored player id) and totals from a list of shots (each
 * shot's scorer, assister and rebounder). Used by derivation and again after every coach
 * correction (domain/sessions/corrections.ts), so both follow the same rules.
 */
export function boxScores<K = number>(shots: Array<BoxShot<K>>): { byTrack: Map<K, BoxScore>; totals: BoxScore } {
  const byTrack = new Map<K, BoxScore>();
  const of = (track: K) => {
    if (!byTrack.has(track)) byTrack.set(track, emptyBoxScore());
    return byTrack.get(track)!;
  };
  const totals = emptyBoxScore();
  for (const shot of shots) {
    addShot(totals, shot);
    if (shot.scorerTrack !== null) addShot(of(shot.scorerTrack), shot);
    if (shot.made && shot.assisterTrack !== null) {
      of(shot.assisterTrack).assist++;
      totals.assist++;
    }
    if (shot.made === false && shot.rebounderTrack !== null) {
      of(shot.rebounderTrack).rebound++;
      totals.rebound++;
    }
  }
  return { byTrack, totals };
}

export function deriveSession(
  artifacts: { actions: ActionRecord[]; clusters: ClusterRecord[] },
  opts: { pointSystem?: PointSystem } = {},
): DerivedSession {
  const system: PointSystem = opts.pointSystem ?? 2;
  const shotActions = shotsOf(artifacts.actions).sort((a, b) => a.release_t - b.release_t || a.rim_t - b.rim_t);
  const rebounds = new Map(
    artifacts.actions.filter((a): a is ReboundAction => a.type === 'rebound').map((r) => [r.shot_id, r.track] as const),
  );
  const passes = artifacts.actions.filter((a): a is PassAction => a.type === 'pass');

  const shots: DerivedShot[] = shotActions.map((a, index) => {
    const isThreePoint = a.is_free_throw ? false : a.is_three_point;
    const base = { isFreeThrow: a.is_free_throw, isThreePoint };
    // a teammate's pass that ended shortly before the release, when the analyser gave none
    let assister = a.assister_track;
    if (assister === null && a.made && !a.is_free_throw && a.shooter_track !== null) {
      const pass = passes
        .filter((p) => p.to_track === a.shooter_track && p.end_t <= a.release_t && a.release_t - p.end_t <= 3)
        .sort((x, y) => y.end_t - x.end_t)[0];
      const team = (track: number) => artifacts.clusters.find((c) => c.track_id === track)?.team ?? null;
      if (pass && pass.from_track !== a.shooter_track && team(pass.from_track) !== null && team(pass.from_track) === team(a.shooter_track)) {
        assister = pass.from_track;
      }
    }
    return {
      actionId: a.id,
      index,
      startSeconds: round(a.release_t),
      endSeconds: round(Math.max(a.end_t, a.rim_t)),
      rimSeconds: round(a.rim_t),
      made: a.made,
      points: a.made === null ? null : a.made ? shotValue(base, system) : 0,
      type: a.is_free_throw ? 'freethrow' : 'fieldgoal',
      isThreePoint,
      isFreeThrow: a.is_free_throw,
      isFouled: false,
      shotImageNormed: point(a.shot_image),
      shotWorldNormed: point(a.shot_world),
      hoopImageNormed: point(a.hoop_image),
      excitementScore: round(a.excitement),
      scorerTrack: a.shooter_track,
      assisterTrack: a.made ? assister : null,
      rebounderTrack: a.made === false ? (a.rebounder_track ?? rebounds.get(a.id) ?? null) : null,
    };
  });

  const { byTrack, totals } = boxScores(shots);
  const clusterOf = new Map(artifacts.clusters.map((c) => [c.track_id, c]));
  const players: DerivedPlayer[] = [...byTrack.keys()]
    .sort((a, b) => a - b)
    .map((track) => {
      const c = clusterOf.get(track);
      return {
        track,
        teamId: c?.team ?? null,
        jersey: c?.jersey_number ?? null,
        colour: c ? hexColour(c.jersey_rgb) : null,
        seen: c && c.thumb_box[2] > c.thumb_box[0] && c.thumb_box[3] > c.thumb_box[1] ? { t: c.thumb_t, box: c.thumb_box } : null,
        stats: byTrack.get(track)!,
      };
    });
  return { shots, players, totals };
}

/** `#rrggbb` of an RGB triple (0–255), null for a malformed one. */
export function hexColour(rgb: readonly number[] | null | undefined): string | null {
  if (!rgb || rgb.length !== 3 || !rgb.every((v) => Number.isFinite(v))) return null;
  return `#${rgb.map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0')).join('')}`;
}
