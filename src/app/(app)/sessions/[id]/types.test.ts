import { describe, expect, it } from 'vitest';
import { looksSplit } from './types';

const player = (fg2: number, fg3 = 0, ft = 0) => ({
  stats: { points: 0, fg_2pt_att: fg2, fg_2pt_make: 0, fg_3pt_att: fg3, fg_3pt_make: 0, ft_att: ft, ft_make: 0, assist: 0, rebound: 0 },
});

describe('looksSplit', () => {
  // a real 51 s practice clip of one shooter, submitted without `solo`, listed 18 players with one attempt each
  it('is true for several players with at most one attempt each', () => {
    expect(looksSplit([player(1), player(0, 1), player(0, 0, 1), player(0)])).toBe(true);
  });

  it('is false when someone took two shots, or for three players or fewer', () => {
    expect(looksSplit([player(1), player(1), player(1), player(1, 1)])).toBe(false);
    expect(looksSplit([player(1), player(1), player(1)])).toBe(false);
    expect(looksSplit([])).toBe(false);
  });
});
