/**
 * The shooters' teams read through the flow of play. A made basket gives the ball to the other
 * team, and a miss is mostly rebounded by the defence, so the next shot is usually the other
 * team's: on the synthetic games' truth (240 pairs of consecutive shots) the next shot was the
 * same team's after 12 % of the makes and 36 % of the misses, close to the rates of real games
 * (a possession ends in a turnover about one time in eight; the offence rebounds about a quarter
 * of its misses). The jersey read at release (`jersey.ts`) is right about 7 times in 10, so a
 * read at odds with both its neighbours' is more often a defender's jersey than the play turning
 * twice. Each shot's team is the likelier one given every read of the clip and these
 * transitions (a two-state hidden Markov model, forward–backward).
 */

/** A shot as the play rule sees it: the team its jersey says (null: not read), whether it went in (null: undecided), whether it was a free throw, its release (s). */
export interface PlayShot {
  team: 0 | 1 | null;
  made: boolean | null;
  freeThrow: boolean;
  t: number;
}

/** How often a jersey read names the shooter's team (measured: 0.70–0.73 on the synthetic sets). */
export const READ_RIGHT = 0.7;
/** How often the shot after a made field goal is the same team's (synthetic truth 0.12; real games: turnovers, ~1 possession in 8). */
export const SAME_AFTER_MAKE = 0.12;
/** How often the shot after a miss is the same team's (synthetic truth 0.36; real games: offensive rebounds, ~1 in 4, and turnovers). */
export const SAME_AFTER_MISS = 0.36;
/** The same after a free throw that is followed by another within {@link FREE_THROW_PAIR_S}: the shooter's second attempt. */
export const SAME_IN_FREE_THROWS = 0.95;
/** Free throws this close (s, release to release) are one shooter's attempts. */
export const FREE_THROW_PAIR_S = 20;
/**
 * Shots further apart than this (s) say nothing of each other: several possessions went by
 * (a timeout, shots not seen). A possession lasts at most 24 s.
 */
export const PLAY_GAP_S = 45;

/** The chance that shot b is the same team's as shot a, the shot before it. */
function sameTeam(a: PlayShot, b: PlayShot): number {
  if (b.t - a.t > PLAY_GAP_S) return 0.5;
  if (b.freeThrow) return a.freeThrow && b.t - a.t <= FREE_THROW_PAIR_S ? SAME_IN_FREE_THROWS : 0.5;
  if (a.made === null) return (SAME_AFTER_MAKE + SAME_AFTER_MISS) / 2;
  return a.made ? SAME_AFTER_MAKE : SAME_AFTER_MISS;
}

/** Jersey reads a clip needs before the play names teams. */
export const PLAY_MIN_READS = 6;
/**
 * Share of the reads the less-read team needs before the play names teams. Both teams shoot in a
 * game; a clip of one shooter practising is mostly read as one team, and the play would turn it
 * into two alternating ones (a real 51 s clip of one shooter, 16 attempts, 12 of its 13 reads one
 * team; and a real clip of one shooter's 4 attempts, 3 of 4).
 */
export const PLAY_MIN_MINORITY = 0.25;

/**
 * The likelier team of each shot (see the module comment), or null for every shot when the clip
 * has fewer than {@link PLAY_MIN_READS} reads or its reads are nearly all one team's
 * ({@link PLAY_MIN_MINORITY}). `shots` in time order.
 */
export function teamsByPlay(shots: PlayShot[]): Array<0 | 1 | null> {
  const n = shots.length;
  const reads = shots.filter((s) => s.team !== null);
  const ones = reads.filter((s) => s.team === 1).length;
  // too few reads, or nearly all of one team (one shooter practising, mostly read right): the play says nothing
  if (reads.length < PLAY_MIN_READS || Math.min(ones, reads.length - ones) < PLAY_MIN_MINORITY * reads.length) return shots.map(() => null);
  const emit = (i: number, team: 0 | 1) => (shots[i].team === null ? 1 : shots[i].team === team ? READ_RIGHT : 1 - READ_RIGHT);
  const fwd: Array<[number, number]> = [];
  const bwd: Array<[number, number]> = new Array(n);
  for (let i = 0; i < n; i++) {
    let p0 = 0.5;
    let p1 = 0.5;
    if (i > 0) {
      const s = sameTeam(shots[i - 1], shots[i]);
      const [a0, a1] = fwd[i - 1];
      p0 = a0 * s + a1 * (1 - s);
      p1 = a1 * s + a0 * (1 - s);
    }
    p0 *= emit(i, 0);
    p1 *= emit(i, 1);
    fwd.push([p0 / (p0 + p1), p1 / (p0 + p1)]);
  }

  bwd[n - 1] = [1, 1];
  for (let i = n - 2; i >= 0; i--) {
    const s = sameTeam(shots[i], shots[i + 1]);
    const [b0, b1] = bwd[i + 1];
    const e0 = emit(i + 1, 0) * b0;
    const e1 = emit(i + 1, 1) * b1;
    const q0 = s * e0 + (1 - s) * e1;
    const q1 = s * e1 + (1 - s) * e0;
    bwd[i] = [q0 / (q0 + q1), q1 / (q0 + q1)];
  }
  return fwd.map(([f0, f1], i) => {
    const p0 = f0 * bwd[i][0];
    const p1 = f1 * bwd[i][1];
    return p1 > p0 ? 1 : p0 > p1 ? 0 : shots[i].team;
  });
}

/**
 * How long (s, from the missed shot's end to the next release) the next shot is the rebounding
 * team's: one possession (a 24 s shot clock).
 */
export const REBOUND_NEXT_S = 24;

/**
 * The rebounder's team from the play: the team of the next shot, when it is taken within
 * {@link REBOUND_NEXT_S} of the miss (the rebounding team has the ball; a turnover before its shot
 * is the exception, about one possession in eight). Null after a make, without a next shot in
 * time, or when the next shot's team is not known. The body holding the ball after a miss is
 * read for its team too, but more often a wrong one (the rebounder's team from it: 0.53–0.63 on
 * the synthetic sets) than the next shooter's team is wrong.
 */
export function reboundTeamByPlay(
  miss: { made: boolean | null; end_t: number },
  next: { release_t: number },
  nextTeam: 0 | 1 | null,
): 0 | 1 | null {
  if (miss.made !== false || next.release_t - miss.end_t > REBOUND_NEXT_S) return null;
  return nextTeam;
}

/** The flow of play names the shooters' teams unless `SWISH_PLAY_TEAMS=0` (for comparisons). */
export function playTeamsEnabled(): boolean {
  return process.env.SWISH_PLAY_TEAMS !== '0';
}
