import { describe, expect, it } from 'vitest';
import { PLAY_GAP_S, REBOUND_NEXT_S, reboundTeamByPlay, teamsByPlay, type PlayShot } from './possession';

const shot = (t: number, team: 0 | 1 | null, made: boolean | null = true, freeThrow = false): PlayShot => ({ t, team, made, freeThrow });

describe('teamsByPlay', () => {
  it('gives the ball to the other team after a make: a read at odds with the alternating play is overruled', () => {
    const shots = [shot(0, 0), shot(12, 1), shot(25, 1), shot(40, 1), shot(52, 0)];
    expect(teamsByPlay(shots)).toEqual([0, 1, 0, 1, 0]);
  });

  it('keeps the reads where the play agrees: an offensive rebound after a miss, the other team after a make', () => {
    const shots = [shot(0, 0, false), shot(8, 0), shot(20, 1, false), shot(27, 1), shot(40, 0)];
    expect(teamsByPlay(shots)).toEqual([0, 0, 1, 1, 0]);
  });

  it('says nothing across a long break: shots further apart than PLAY_GAP_S keep their reads', () => {
    const gap = PLAY_GAP_S + 1;
    const shots = [shot(0, 0), shot(gap, 0), shot(2 * gap, 0)];
    expect(teamsByPlay(shots)).toEqual([0, 0, 0]);
  });

  it("gives a pair of free throws one shooter's team, read at one of them", () => {
    const shots = [shot(0, 0, false), shot(30, null, true, true), shot(36, 1, false, true), shot(50, 0)];
    expect(teamsByPlay(shots)).toEqual([0, 1, 1, 0]);
  });

  it('gives nothing without a read', () => {
    expect(teamsByPlay([shot(0, null), shot(10, null)])).toEqual([null, null]);
    expect(teamsByPlay([])).toEqual([]);
  });
});

describe('reboundTeamByPlay', () => {
  it("names the next shooter's team as the rebounder's after a miss, within one possession", () => {
    expect(reboundTeamByPlay({ made: false, end_t: 10 }, { release_t: 20 }, 1)).toBe(1);
    expect(reboundTeamByPlay({ made: false, end_t: 10 }, { release_t: 10 + REBOUND_NEXT_S + 1 }, 1)).toBeNull();
    expect(reboundTeamByPlay({ made: true, end_t: 10 }, { release_t: 20 }, 1)).toBeNull();
    expect(reboundTeamByPlay({ made: null, end_t: 10 }, { release_t: 20 }, 0)).toBeNull();
    expect(reboundTeamByPlay({ made: false, end_t: 10 }, { release_t: 20 }, null)).toBeNull();
  });
});
