import { describe, expect, it } from 'vitest';
import { PLAY_GAP_S, PLAY_MIN_READS, REBOUND_NEXT_S, reboundTeamByPlay, teamsByPlay, type PlayShot } from './possession';

const shot = (t: number, team: 0 | 1 | null, made: boolean | null = true, freeThrow = false): PlayShot => ({ t, team, made, freeThrow });

describe('teamsByPlay', () => {
  it('gives the ball to the other team after a make: a read at odds with the alternating play is overruled', () => {
    const shots = [shot(0, 0), shot(12, 1), shot(25, 1), shot(40, 1), shot(52, 0), shot(64, 1)];
    expect(teamsByPlay(shots)).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it('keeps the reads where the play agrees: an offensive rebound after a miss, the other team after a make', () => {
    const shots = [shot(0, 0, false), shot(8, 0), shot(20, 1, false), shot(27, 1), shot(40, 0), shot(52, 1)];
    expect(teamsByPlay(shots)).toEqual([0, 0, 1, 1, 0, 1]);
  });

  it('says nothing across a long break: shots further apart than PLAY_GAP_S keep their reads', () => {
    const reads = [0, 0, 0, 1, 1, 1] as const;
    const apart = reads.map((team, i) => shot(i * (PLAY_GAP_S + 1), team));
    expect(teamsByPlay(apart)).toEqual([...reads]);
    // the same reads 10 s apart after makes: the play changes them
    expect(teamsByPlay(reads.map((team, i) => shot(i * 10, team)))).not.toEqual([...reads]);
  });

  it("gives a pair of free throws one shooter's team, read at one of them", () => {
    const shots = [shot(0, 0, false), shot(30, null, true, true), shot(36, 1, false, true), shot(50, 0), shot(62, 1), shot(75, 0), shot(88, 1)];
    expect(teamsByPlay(shots)).toEqual([0, 1, 1, 0, 1, 0, 1]);
  });

  it('gives nothing without enough reads, or when nearly every read is one team (one shooter practising)', () => {
    expect(teamsByPlay([shot(0, null), shot(10, null)])).toEqual([null, null]);
    expect(teamsByPlay([])).toEqual([]);
    const few = [shot(0, 0), shot(10, 0), shot(20, 1), shot(30, 0), shot(40, 1)];
    expect(PLAY_MIN_READS).toBeGreaterThan(few.length);
    expect(teamsByPlay(few)).toEqual(few.map(() => null));
    // 16 makes by one shooter, read as team 1 but twice
    const practice = Array.from({ length: 16 }, (_, i) => shot(8 * i, i === 5 || i === 11 ? 0 : 1));
    expect(teamsByPlay(practice)).toEqual(practice.map(() => null));
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
