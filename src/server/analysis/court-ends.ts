/**
 * The two ends of a full court, and the team that attacks each. In a game on a full court each
 * team attacks one basket for a whole half: every shot at that basket, free throws included, is
 * that team's. The jersey read at release (`jersey.ts`) names the shooter's team on its own,
 * but a defender between the camera and the shooter, a release seen late or a crowded broadcast
 * view give the other team; the end a shot was taken at does not depend on any of that. So where
 * a clip's shots are taken at both ends and the jerseys, end by end, clearly side with one team
 * each, the end names the team of every shot taken there.
 */

/** The ends name teams unless `SWISH_COURT_ENDS=0` (for comparisons). */
export function courtEndsEnabled(): boolean {
  return process.env.SWISH_COURT_ENDS !== '0';
}

/** Which end of the court (0 = the basket further left in the stabilised frame, 1 = the other), or null: not known. */
export type CourtEnd = 0 | 1 | null;

/**
 * How far apart (rim widths, in the stabilised frame) two goals must sit to be the two ends of a
 * court. The baskets of a full court are 28 m apart: on the panning games measured, the widest
 * gap between goals, the one between the baskets, was 44–80 rim widths, while one basket's goals
 * (tracked at different times; the integrated path drifts between re-anchorings, see
 * `rim-tracks.ts#anchorPath`) spread over up to ~14 in smaller steps. Goals closer than this are
 * taken for one basket read more than once. A rim read wide (joined with the board's edge: 28–38 px
 * on pan-970) shrinks the gap in rim widths: at 25, that game's ends were not found.
 */
export const END_GAP_RIMS = 12;

/**
 * The end of each goal (a hoop record) from where it sits: the goals that scored shots are split
 * at the widest gap along x (the stabilised frame: a panning camera's goals are the same basket
 * tracked at different times, and the two baskets lie at either side of the court), when that
 * gap is at least {@link END_GAP_RIMS} rim widths. Otherwise all shots are at one end, and every
 * goal gets null; so does a goal without shots. `goals`: the stabilised rim centre x and width
 * per goal; `scored`: the goals shots were taken at.
 */
export function goalEnds(goals: Array<{ x: number; w: number }>, scored: Iterable<number>): CourtEnd[] {
  const none = goals.map((): CourtEnd => null);
  const used = [...new Set(scored)].sort((a, b) => goals[a].x - goals[b].x);
  if (used.length < 2) return none;
  let cut = -1;
  let widest = 0;
  for (let i = 1; i < used.length; i++) {
    const gap = goals[used[i]].x - goals[used[i - 1]].x;
    if (gap > widest) {
      widest = gap;
      cut = i;
    }
  }
  const w = Math.max(...used.map((g) => goals[g].w));
  if (widest < END_GAP_RIMS * w) return none;
  used.forEach((g, i) => (none[g] = i < cut ? 0 : 1));
  return none;
}

/** A shot as the end rule sees it: the team its jersey says (null: not read), its end, its release (s). */
export interface EndVote {
  team: 0 | 1 | null;
  end: CourtEnd;
  t: number;
}

/** Share of the jersey reads at both ends that must agree with the ends' teams for the ends to name them. */
export const END_AGREEMENT = 0.65;
/** Jersey reads each end needs before it names a team. */
export const END_MIN_READS = 2;
/**
 * A stretch without any shot (s) where the teams may have changed ends: half-time. Teams switch
 * baskets once, at half-time; a clip cut from a whole game keeps the break, a game without it
 * (edited) has its ends read as one period, and the jerseys then disagree and decide alone.
 */
export const HALF_TIME_GAP_S = 120;
/** Jersey reads a change of ends at half-time must explain better than none (at least this many, and a fifth of the reads). */
export const SWITCH_GAIN = 3;

/**
 * The team of each shot from its end (see the module comment), or null where the ends say
 * nothing: shots at no known end, or a clip whose jerseys do not side clearly with one team per
 * end ({@link END_AGREEMENT} of the reads, {@link END_MIN_READS} at each end). Teams change ends
 * at most once, at a break of {@link HALF_TIME_GAP_S} without shots, when that explains
 * {@link SWITCH_GAIN} more reads. `votes` in any order; the result follows it.
 */
export function teamsByEnd(votes: EndVote[]): Array<0 | 1 | null> {
  const none = votes.map(() => null);
  const reads = votes.filter((v): v is EndVote & { team: 0 | 1; end: 0 | 1 } => v.team !== null && v.end !== null);
  if ([0, 1].some((e) => reads.filter((v) => v.end === e).length < END_MIN_READS)) return none;
  // the team attacking an end at a time: end 0 is `first`'s before the switch time `at`, the other's after it
  const attacking = (end: 0 | 1, t: number, first: 0 | 1, at: number): 0 | 1 => ((end === 0) === (t < at) ? first : ((1 - first) as 0 | 1));
  const agree = (first: 0 | 1, at: number) => reads.filter((v) => v.team === attacking(v.end, v.t, first, at)).length;
  const times = votes.filter((v) => v.end !== null).map((v) => v.t).sort((a, b) => a - b);
  const breaks = times.slice(1).flatMap((t, i) => (t - times[i] >= HALF_TIME_GAP_S ? [(t + times[i]) / 2] : []));
  let best = { first: 0 as 0 | 1, at: Infinity, n: -1 };
  for (const first of [0, 1] as const) {
    const n = agree(first, Infinity);
    if (n > best.n) best = { first, at: Infinity, n };
  }
  const kept = best.n;
  for (const at of breaks) {
    for (const first of [0, 1] as const) {
      const n = agree(first, at);
      if (n >= Math.max(kept + SWITCH_GAIN, kept + 0.2 * reads.length) && n > best.n) best = { first, at, n };
    }
  }
  if (best.n < END_AGREEMENT * reads.length) return none;
  return votes.map((v) => (v.end === null ? null : attacking(v.end, v.t, best.first, best.at)));
}
