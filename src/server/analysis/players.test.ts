import { describe, expect, it } from 'vitest';
import type { AnalysisOptions } from './types';
import { groupPlayers, SAME_PLAYER_SKIN, teamSizeOf, UNKNOWN_SKIN, type PlayerEvent } from './players';

const ev = (team: 0 | 1 | null, skin: number[] | null, track: number | null = null): PlayerEvent => ({ team, skin, track });
const opts = { sameBelow: SAME_PLAYER_SKIN, unknown: UNKNOWN_SKIN };

describe('groupPlayers', () => {
  it('merges the closest skin colours of a team down to the team size, never across teams', () => {
    const light = [0.3, 0.5, 1.0];
    const mid = [0.45, 0.7, 0.6];
    const dark = [0.6, 0.9, 0.1];
    const events = [ev(0, light), ev(0, dark), ev(0, [0.32, 0.5, 0.98]), ev(0, mid), ev(0, [0.6, 0.88, 0.12]), ev(1, light), ev(1, dark)];
    const g = groupPlayers(events, { ...opts, teamSize: 2 });
    // team 0: the two light events are one player, the two dark ones another; `mid` joins the nearer (light, 0.47 vs dark, 0.56)
    expect(g[0]).toBe(g[2]);
    expect(g[1]).toBe(g[4]);
    expect(g[0]).not.toBe(g[1]);
    expect(g[3]).toBe(g[0]);
    // team 1 keeps its own players even with the same skin as team 0
    expect(new Set([g[5], g[6]]).size).toBe(2);
    expect([g[5], g[6]]).not.toContain(g[0]);
    expect(new Set(g).size).toBe(4);
  });

  it('without a team size merges only near-identical colours; events without a team get no player', () => {
    const events = [ev(0, [0.3, 0.5, 1.0]), ev(0, [0.31, 0.5, 1.0]), ev(0, [0.6, 0.9, 0.1]), ev(null, [0.3, 0.5, 1.0])];
    const g = groupPlayers(events, { ...opts, teamSize: null });
    expect(g).toEqual([0, 0, 1, -1]);
  });

  it('keeps events of one motion track together and a cannot-link pair apart', () => {
    const a = [0.3, 0.5, 1.0];
    const b = [0.6, 0.9, 0.1];
    // events 0 and 1 share a motion track although their skins differ (the track wins); 2 cannot be 3
    const events = [ev(1, a, 7), ev(1, b, 7), ev(1, a), ev(1, a)];
    const g = groupPlayers(events, { ...opts, teamSize: 1, cannotLink: [[2, 3]] });
    expect(g[0]).toBe(g[1]);
    expect(g[2]).not.toBe(g[3]);
    // a team size of 1 cannot be reached with a cannot-link pair: two players remain
    expect(new Set(g).size).toBe(2);
  });

  it('groups events without skin colours only when the team size forces it', () => {
    const events = [ev(0, null), ev(0, null), ev(0, null)];
    expect(new Set(groupPlayers(events, { ...opts, teamSize: null })).size).toBe(3);
    expect(new Set(groupPlayers(events, { ...opts, teamSize: 2 })).size).toBe(2);
  });
});

describe('teamSizeOf', () => {
  it('is half the number of players the session states, never the session type (substitutes)', () => {
    expect(teamSizeOf({ numPlayers: 10 })).toBe(5);
    expect(teamSizeOf({ numPlayers: 5 })).toBe(3);
    const fiveOnFive: AnalysisOptions = { sessionType: '5v5' };
    expect(teamSizeOf(fiveOnFive)).toBeNull();
    expect(teamSizeOf({ numPlayers: 1 })).toBeNull();
    expect(teamSizeOf({})).toBeNull();
  });
});
