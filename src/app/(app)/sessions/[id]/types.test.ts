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

  it('is true for six players or more with fewer than two attempts each on average, false for a game', () => {
    // the real one-shooter clip with the API's defaults: 9 players for 14 attributed attempts
    expect(looksSplit([2, 2, 1, 1, 1, 1, 2, 2, 2].map((n) => player(n)))).toBe(true);
    // a game: 12 players for 60 attempts, some with one
    expect(looksSplit([1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4].map((n) => player(n)))).toBe(false);
    // exactly two each is not split
    expect(looksSplit([2, 2, 2, 2, 2, 2].map((n) => player(n)))).toBe(false);
  });
});
