import { describe, expect, it } from 'vitest';
import { compareEvidence, parseEvidence, threePointCalls, type EvidenceRecord } from './bench-evidence';

const shot = (clip: string, rim_t: number, made: boolean, truthMade: boolean | null): EvidenceRecord => ({
  set: 'real',
  clip,
  rim_t,
  made,
  free_throw: false,
  truth: truthMade === null ? null : { rim_t, made: truthMade, kind: null },
  result: truthMade === null ? 'false' : truthMade === made ? 'right' : 'wrong',
});
const lost = (clip: string, rim_t: number): EvidenceRecord => ({ set: 'real', clip, truth: { rim_t, made: true, kind: 'swish' }, result: 'lost' });

describe('compareEvidence', () => {
  it('names the clips whose shots changed, shot by shot, and moves the totals', () => {
    const before = [shot('a.mp4', 4.1, true, true), lost('a.mp4', 9.8), shot('b.mp4', 3, false, true), shot('c.mp4', 1, true, true)];
    const after = [shot('a.mp4', 4.1, true, true), shot('a.mp4', 9.7, true, true), shot('b.mp4', 3, false, true), shot('b.mp4', 7, true, null), shot('c.mp4', 1, true, true)];
    const out = compareEvidence(before, after);
    expect(out).toEqual([
      '  changed  real/a.mp4',
      '    before 4.1M -9.8',
      '    after  4.1M 9.7M',
      '  changed  real/b.mp4',
      '    before 3.0x!',
      '    after  3.0x! 7.0M?',
      '  3 clips in both runs: right 2 → 3, wrong 1 → 1, false 0 → 1, lost 1 → 0',
    ]);
  });

  it('names clips of one run only without counting them, and reads back what the bench writes', () => {
    const text = [shot('a.mp4', 2, true, false), shot('gone.mp4', 1, true, true)].map((r) => JSON.stringify(r)).join('\n') + '\n';
    const before = parseEvidence(text);
    expect(before).toHaveLength(2);
    const out = compareEvidence(before, [shot('a.mp4', 2, false, false), shot('new.mp4', 5, true, true)]);
    expect(out).toContain('  new      real/new.mp4');
    expect(out).toContain('  gone     real/gone.mp4');
    expect(out.at(-1)).toBe('  1 clips in both runs: right 0 → 1, wrong 1 → 0, false 0 → 0, lost 0 → 0');
  });
});

describe('threePointCalls', () => {
  const fg = (three: boolean | null, truth: boolean | null, over: Partial<EvidenceRecord> = {}): EvidenceRecord => ({
    ...shot('a.mp4', 1, true, true),
    three_point: three,
    truth: { rim_t: 1, made: true, kind: null, three_point: truth, free_throw: false },
    ...over,
  });

  it('counts the 3-point call on matched field goals: right, wrong, unknown; not free throws, false shots or unlabelled truth', () => {
    const rs = [
      fg(true, true),
      fg(false, false),
      fg(false, true),
      fg(null, true),
      fg(false, false, { truth: { rim_t: 1, made: true, kind: null, three_point: false, free_throw: true } }),
      fg(true, null),
      { ...fg(true, true), truth: null, result: 'false' as const },
    ];
    expect(threePointCalls(rs)).toEqual({ right: 2, wrong: 1, unknown: 1 });
  });

  it('marks a three in the shot tokens and moves the 3-point totals', () => {
    const out = compareEvidence([fg(null, true)], [fg(true, true)]);
    expect(out).toEqual([
      '  changed  real/a.mp4',
      '    before 1.0M',
      '    after  1.0M3',
      '  1 clips in both runs: right 1 → 1, wrong 0 → 0, false 0 → 0, lost 0 → 0',
      '  3-point calls on matched field goals: right 0 → 1, wrong 0 → 0, unknown 1 → 0',
    ]);
  });
});
