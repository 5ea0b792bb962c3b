/**
 * The benchmark's per-shot records (`bench:analysis --evidence=FILE`) and their comparison with an
 * earlier run's (`--against=FILE`): which clips changed, shot by shot, and how the totals moved.
 */

/** One line of an evidence file: a detected shot (with its match) or a true shot nothing matched (`lost`). */
export interface EvidenceRecord {
  set: string;
  clip: string;
  rim_t?: number;
  /** The call: made, missed, or null (undecided). */
  made?: boolean | null;
  free_throw?: boolean;
  /** The 3-point call: true, false, or null (undecidable). */
  three_point?: boolean | null;
  truth: {
    rim_t: number;
    made: boolean;
    kind: string | null;
    three_point?: boolean | null;
    free_throw?: boolean | null;
    /** The shooter's team (synthetic truth), and whether a teammate's pass set the make up (null: the truth does not say). */
    team?: 0 | 1 | null;
    assisted?: boolean | null;
  } | null;
  /** The team of the shooter's player record (labels as the analysis gave them: the truth's up to a swap), and whether an assister was named. */
  team?: 0 | 1 | null;
  assisted?: boolean;
  result: 'right' | 'wrong' | 'false' | 'lost';
  evidence?: unknown;
  /** How the shot was placed on the court (see court-lines.ts#ShotPlacement). */
  placement?: unknown;
  /** What the team step read of the shooter (see jersey.ts#ShooterTeam): the body's box and dominant colour, the read's team and what overruled it. */
  team_read?: unknown;
}

/** Parses an evidence file (JSON Lines). */
export function parseEvidence(text: string): EvidenceRecord[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as EvidenceRecord);
}

/** A record in a few characters: `12.3M` (called made, right; `x` missed, `u` undecided), `!` called wrong, `?` no true shot, `-12.3` a true shot lost. */
function token(r: EvidenceRecord): string {
  if (r.result === 'lost') return `-${r.truth!.rim_t.toFixed(1)}`;
  const mark = r.result === 'wrong' ? '!' : r.result === 'false' ? '?' : '';
  return `${r.rim_t!.toFixed(1)}${r.made === null ? 'u' : r.made ? 'M' : 'x'}${r.free_throw ? 'F' : r.three_point ? '3' : ''}${mark}`;
}

function tally(rs: EvidenceRecord[]): Record<EvidenceRecord['result'], number> {
  const t = { right: 0, wrong: 0, false: 0, lost: 0 };
  for (const r of rs) t[r.result]++;
  return t;
}

/**
 * The clips whose shots differ between two runs (each clip's records in order, as tokens), and the totals of both
 * over the clips present in both: right and wrong calls, false shots, true shots lost. Clips in only one run are
 * named, not counted.
 */
export function compareEvidence(before: EvidenceRecord[], after: EvidenceRecord[]): string[] {
  const group = (rs: EvidenceRecord[]) => {
    const m = new Map<string, EvidenceRecord[]>();
    for (const r of rs) {
      const k = `${r.set}/${r.clip}`;
      m.set(k, [...(m.get(k) ?? []), r]);
    }
    return m;
  };
  const a = group(before);
  const b = group(after);
  const out: string[] = [];
  const common: string[] = [];
  for (const k of b.keys()) {
    if (!a.has(k)) {
      out.push(`  new      ${k}`);
      continue;
    }
    common.push(k);
    const x = a.get(k)!.map(token).join(' ');
    const y = b.get(k)!.map(token).join(' ');
    if (x !== y) out.push(`  changed  ${k}`, `    before ${x}`, `    after  ${y}`);
  }
  for (const k of a.keys()) if (!b.has(k)) out.push(`  gone     ${k}`);
  const t0 = tally(common.flatMap((k) => a.get(k)!));
  const t1 = tally(common.flatMap((k) => b.get(k)!));
  const cell = (f: keyof typeof t0) => `${f} ${t0[f]} → ${t1[f]}`;
  out.push(`  ${common.length} clips in both runs: ${cell('right')}, ${cell('wrong')}, ${cell('false')}, ${cell('lost')}`);
  const p0 = threePointCalls(common.flatMap((k) => a.get(k)!));
  const p1 = threePointCalls(common.flatMap((k) => b.get(k)!));
  if (p0.right + p0.wrong + p0.unknown + p1.right + p1.wrong + p1.unknown > 0) {
    const c = (f: keyof typeof p0) => `${f} ${p0[f]} → ${p1[f]}`;
    out.push(`  3-point calls on matched field goals: ${c('right')}, ${c('wrong')}, ${c('unknown')}`);
  }
  return out;
}

/**
 * The 3-point call over the detections matched to a true field goal whose truth says 2 or 3
 * (free throws and unlabelled truth left out): right, wrong, or unknown (`is_three_point` null).
 */
export function threePointCalls(rs: EvidenceRecord[]): { right: number; wrong: number; unknown: number } {
  const t = { right: 0, wrong: 0, unknown: 0 };
  for (const r of rs) {
    const truth = r.truth;
    if (r.result === 'lost' || r.result === 'false' || !truth || truth.free_throw || typeof truth.three_point !== 'boolean') continue;
    if (r.three_point === null || r.three_point === undefined) t.unknown++;
    else if (r.three_point === truth.three_point) t.right++;
    else t.wrong++;
  }
  return t;
}
