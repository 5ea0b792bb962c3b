import { describe, expect, it } from 'vitest';
import { shotsOf, type ActionRecord, type AnalysisOptions, type ClusterRecord, type ShotAction } from './types';
import { asOnePlayer, groupPlayers, isOnePlayerSession, SAME_PERSON_LOOK, SAME_PLAYER_SKIN, teamSizeOf, UNKNOWN_SKIN, type PlayerEvent } from './players';

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

  describe('without team jerseys (events carry the colour of the clothes)', () => {
    const skin = [0.4, 0.6, 0.8];
    const red = [1.2, 0.4, -0.2];
    const blue = [-0.3, -1.1, -0.4];
    const redder = [1.25, 0.42, -0.22];
    const dressed = (look: number[] | null, track: number | null = null, s: number[] | null = skin): PlayerEvent => ({ team: 0, skin: s, look, track });
    const people = { sameBelow: SAME_PERSON_LOOK, unknown: UNKNOWN_SKIN };

    it('takes events in the same clothes for one person and different clothes for two, whatever the skin', () => {
      // same skin throughout: with teams (skin alone) these four would be one player
      const events = [dressed(red), dressed(blue), dressed(redder), dressed(blue)];
      expect(groupPlayers(events, { ...people, teamSize: null })).toEqual([0, 1, 0, 1]);
      expect(new Set(groupPlayers(events.map((e) => ({ ...e, look: undefined })), { ...opts, teamSize: null })).size).toBe(1);
    });

    it('tells two people in the same clothes apart by their skin', () => {
      const dark = [0.35, 0.45, -0.3];
      expect(groupPlayers([dressed(red), dressed(red, null, dark), dressed(redder)], { ...people, teamSize: null })).toEqual([0, 1, 0]);
    });

    it('merges down to the number of people the session states, and keeps a passer apart from his shooter', () => {
      const green = [-0.9, 0.5, -0.3];
      const events = [dressed(red), dressed(blue), dressed(green), dressed(redder)];
      expect(new Set(groupPlayers(events, { ...people, teamSize: null })).size).toBe(3);
      expect(new Set(groupPlayers(events, { ...people, teamSize: 2 })).size).toBe(2);
      const g = groupPlayers(events, { ...people, teamSize: 1, cannotLink: [[0, 3]] });
      expect(g[0]).not.toBe(g[3]);
    });
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

describe('one-player sessions', () => {
  const shot = (id: string, t: number, shooter: number | null, made: boolean, extra: Partial<ShotAction> = {}): ShotAction => ({
    type: 'shot', id, index: 0, release_t: t, rim_t: t + 0.6, end_t: t + 1, made, made_confidence: 0.9, is_free_throw: false,
    is_three_point: null, points: made ? 2 : 0, kind: made ? 'swish' : 'rim_out', shooter_track: shooter, assister_track: null,
    rebounder_track: null, shot_image: [0.4, 0.6], shot_world: null, hoop_image: [0.5, 0.3], hoop_id: 0, excitement: 0.5,
    confidence: 0.9, ...extra,
  });
  const track = (id: number, t0: number, t1: number, frames: number): ClusterRecord => ({
    track_id: id, team: null, jersey_rgb: [id, id, id], jersey_number: null, t_start: t0, t_end: t1, frames,
    thumb_t: t0, thumb_box: [0.1 * id, 0.2, 0.1 * id + 0.1, 0.6], confidence: Math.min(1, frames / 60),
  });

  it('is a solo session or one stated player', () => {
    expect(isOnePlayerSession({ sessionType: 'solo' })).toBe(true);
    expect(isOnePlayerSession({ numPlayers: 1 })).toBe(true);
    expect(isOnePlayerSession({ sessionType: '1v1' })).toBe(false);
    expect(isOnePlayerSession({})).toBe(false);
  });

  // A real practice clip of one shooter (51 s, 16 attempts) gave a motion track per shot: 18 players.
  it('makes every track named by an action one player, and every shot theirs', () => {
    const actions: ActionRecord[] = [
      shot('s1', 1, 3, false, { rebounder_track: 4 }),
      { type: 'rebound', t: 2.5, shot_id: 's1', track: 4, offensive: false, confidence: 0.6 },
      { type: 'pass', t: 4, end_t: 4.5, from_track: 4, to_track: 5, confidence: 0.5 },
      shot('s2', 5, 5, true, { assister_track: 4 }),
      shot('s3', 9, null, false),
    ];
    const clusters = [track(3, 0.5, 1.2, 20), track(4, 2.2, 4.1, 50), track(5, 4.4, 5.3, 30), track(9, 6, 7, 90)];
    const one = asOnePlayer(actions, clusters);
    expect(one.clusters).toEqual([
      {
        track_id: 1, team: null, jersey_rgb: [4, 4, 4], jersey_number: null, t_start: 0.5, t_end: 5.3, frames: 100,
        thumb_t: 2.2, thumb_box: [0.4, 0.2, 0.5, 0.6], confidence: 50 / 60,
      },
    ]); // track 9 (no action names it: someone walking past) is left out
    const shots = shotsOf(one.actions);
    expect(shots.map((s) => [s.id, s.shooter_track, s.assister_track, s.rebounder_track])).toEqual([
      ['s1', 1, null, 1],
      ['s2', 1, null, null],
      ['s3', 1, null, null], // no body seen at release: still the only player's shot
    ]);
    expect(one.actions.filter((a) => a.type === 'pass')).toEqual([]);
    expect(one.actions.find((a) => a.type === 'rebound')).toMatchObject({ shot_id: 's1', track: 1, offensive: true });
    expect(shots[0]).toMatchObject({ release_t: 1, made: false, kind: 'rim_out' }); // the shots themselves unchanged
  });

  it('leaves the shots without a shooter when nobody was seen', () => {
    const one = asOnePlayer([shot('s1', 1, null, true)], []);
    expect(one.clusters).toEqual([]);
    expect(one.actions).toMatchObject([{ id: 's1', shooter_track: null }]);
  });
});
