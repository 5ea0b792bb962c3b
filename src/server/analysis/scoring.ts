import { RIM_ARRIVAL_MATCH_TOLERANCE_S, type GroundTruthClip } from './ground-truth';
import { shotsOf, type AnalysisResult, type ClusterRecord } from './types';

/** Per-clip benchmark counts. */
export interface ClipScore {
  truth: number;
  detected: number;
  matched: number;
  madeCorrect: number;
  pointsLabelled: number;
  pointsCorrect: number;
  teamLabelled: number;
  teamCorrect: number;
  /** Matched missed shots whose truth names a rebounder, and those whose rebounder track is on the rebounder's team (same label orientation as the scorer team). */
  rebLabelled: number;
  rebCorrect: number;
  /** Matched made field goals whose truth names an assister, and those with an assister track. */
  astLabelled: number;
  astFound: number;
  /**
   * Player identity (synthetic): matched shots whose truth names the shooter and that have a
   * shooter track; the distinct shooter tracks and true shooters among them; the shots on each
   * track's majority true shooter (summed over tracks: purity numerator) and the shots on each
   * true shooter's majority track (summed over true shooters: cohesion numerator).
   */
  idShots: number;
  /** Matched shots whose truth names the shooter (synthetic), with a shooter track or not: `idShots` over it is how often a shooter is named. */
  idLabelled: number;
  idTracks: number;
  idPlayers: number;
  idPure: number;
  idCohesive: number;
  /** Pairs (truth index, detection index). */
  pairs: Array<[number, number]>;
}

/**
 * One-to-one matching of detected shots to true shots on rim-arrival time (≤ 1.0 s apart),
 * closest pairs first, as the footage README prescribes.
 */
export function matchShots(truthRimT: number[], detRimT: number[], tol = RIM_ARRIVAL_MATCH_TOLERANCE_S): Array<[number, number]> {
  const cand: Array<[number, number, number]> = [];
  truthRimT.forEach((t, i) =>
    detRimT.forEach((d, j) => {
      const dt = Math.abs(t - d);
      if (dt <= tol) cand.push([dt, i, j]);
    }),
  );
  cand.sort((a, b) => a[0] - b[0]);
  const ti = new Set<number>();
  const dj = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const [, i, j] of cand) {
    if (ti.has(i) || dj.has(j)) continue;
    ti.add(i);
    dj.add(j);
    pairs.push([i, j]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

/**
 * Scores one analysis result against a ground-truth clip: detection counts, made/missed on
 * matched shots, points where the truth has them, and the shooter's team where the truth names
 * it (the shooter track's team must equal the true team, up to a global swap of team labels).
 */
export function scoreClip(clip: GroundTruthClip, res: AnalysisResult): ClipScore {
  const shots = shotsOf(res.actions);
  const pairs = matchShots(
    clip.attempts.map((a) => a.rim_arrival_s),
    shots.map((s) => s.rim_t),
  );
  const teamOf = new Map<number, ClusterRecord['team']>(res.clusters.map((c) => [c.track_id, c.team]));
  let madeCorrect = 0;
  let pointsLabelled = 0;
  let pointsCorrect = 0;
  let teamLabelled = 0;
  let teamSame = 0;
  let teamSwapped = 0;
  let rebLabelled = 0;
  let rebSame = 0;
  let rebSwapped = 0;
  let astLabelled = 0;
  let astFound = 0;
  const playerTeam = new Map((clip.synthetic?.players ?? []).map((p) => [p.id, p.team]));
  for (const [i, j] of pairs) {
    const t = clip.attempts[i];
    const d = shots[j];
    if (d.made === t.made) madeCorrect++;
    if (t.points !== undefined) {
      pointsLabelled++;
      if (d.points === t.points) pointsCorrect++;
    }
    if (t.shooter) {
      teamLabelled++;
      const team = d.shooter_track === null ? null : (teamOf.get(d.shooter_track) ?? null);
      if (team !== null && team === t.shooter.team) teamSame++;
      if (team !== null && team === 1 - t.shooter.team) teamSwapped++;
    }
    const rebTeam = t.rebounder ? playerTeam.get(t.rebounder) : undefined;
    if (!t.made && rebTeam !== undefined) {
      rebLabelled++;
      const team = d.rebounder_track === null ? null : (teamOf.get(d.rebounder_track) ?? null);
      if (team !== null && team === rebTeam) rebSame++;
      if (team !== null && team === 1 - rebTeam) rebSwapped++;
    }
    if (t.made && t.assister) {
      astLabelled++;
      if (d.assister_track !== null) astFound++;
    }
  }
  const ident = identityCounts(
    pairs.flatMap(([i, j]) => {
      const who = clip.attempts[i].shooter?.player_id;
      const track = shots[j].shooter_track;
      return who !== undefined && track !== null ? [{ track, who }] : [];
    }),
  );
  return {
    ...ident,
    idLabelled: pairs.filter(([i]) => clip.attempts[i].shooter?.player_id !== undefined).length,
    truth: clip.attempts.length,
    detected: shots.length,
    matched: pairs.length,
    madeCorrect,
    pointsLabelled,
    pointsCorrect,
    teamLabelled,
    teamCorrect: Math.max(teamSame, teamSwapped),
    rebLabelled,
    rebCorrect: teamSwapped > teamSame ? rebSwapped : rebSame,
    astLabelled,
    astFound,
    pairs,
  };
}

/**
 * Identity counts over (detected shooter track, true shooter) pairs, one per shot: purity —
 * for each track, its shots on its most frequent true shooter — and cohesion — for each true
 * shooter, their shots on their most frequent track. Purity alone rewards a track per shot,
 * cohesion alone one track for everybody; with the player count both say whether tracks are people.
 */
export function identityCounts(
  shots: Array<{ track: number; who: string }>,
): Pick<ClipScore, 'idShots' | 'idTracks' | 'idPlayers' | 'idPure' | 'idCohesive'> {
  const byTrack = new Map<number, Map<string, number>>();
  const byWho = new Map<string, Map<number, number>>();
  for (const { track, who } of shots) {
    const a = byTrack.get(track) ?? new Map<string, number>();
    a.set(who, (a.get(who) ?? 0) + 1);
    byTrack.set(track, a);
    const b = byWho.get(who) ?? new Map<number, number>();
    b.set(track, (b.get(track) ?? 0) + 1);
    byWho.set(who, b);
  }
  const maxOf = (m: Map<unknown, number>) => Math.max(0, ...m.values());
  return {
    idShots: shots.length,
    idTracks: byTrack.size,
    idPlayers: byWho.size,
    idPure: [...byTrack.values()].reduce((s, m) => s + maxOf(m), 0),
    idCohesive: [...byWho.values()].reduce((s, m) => s + maxOf(m), 0),
  };
}
