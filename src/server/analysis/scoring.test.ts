import { describe, expect, it } from 'vitest';
import { identityCounts, matchShots, scoreClip } from './scoring';
import { toJsonl } from './index';
import { assignTeams, type PlayerTrack } from './players';
import type { GroundTruthClip } from './ground-truth';
import type { AnalysisResult, ShotAction } from './types';

describe('identityCounts', () => {
  it('counts purity and cohesion of shooter tracks against true shooters', () => {
    // track 1: a, a, b (2 pure); track 2: b (1); track 3: c, c (2) — a on one track, b split over two, c whole
    const shots = [
      { track: 1, who: 'a' },
      { track: 1, who: 'a' },
      { track: 1, who: 'b' },
      { track: 2, who: 'b' },
      { track: 3, who: 'c' },
      { track: 3, who: 'c' },
    ];
    expect(identityCounts(shots)).toEqual({ idShots: 6, idTracks: 3, idPlayers: 3, idPure: 5, idCohesive: 5 });
    // one track per shot: pure, not cohesive; one track for all: cohesive for one player only
    expect(identityCounts(shots.map((s, i) => ({ ...s, track: i })))).toMatchObject({ idTracks: 6, idPure: 6, idCohesive: 3 });
    expect(identityCounts(shots.map((s) => ({ ...s, track: 1 })))).toMatchObject({ idTracks: 1, idPure: 2, idCohesive: 6 });
  });
});

describe('matchShots', () => {
  it('matches one-to-one within 1.0 s, closest first', () => {
    expect(matchShots([1, 2, 10], [1.9, 1.2, 5])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(matchShots([1], [1.8, 2.0])).toEqual([[0, 0]]);
    expect(matchShots([1], [2.01])).toEqual([]);
  });
});

function shotAction(rim: number, made: boolean, shooter: number | null, points: number): ShotAction {
  return {
    type: 'shot',
    id: `s${rim}`,
    index: 0,
    release_t: rim - 1,
    rim_t: rim,
    end_t: rim + 0.5,
    made,
    made_confidence: 0.8,
    is_free_throw: false,
    is_three_point: null,
    points,
    kind: 'unknown',
    shooter_track: shooter,
    assister_track: null,
    rebounder_track: null,
    shot_image: [0.2, 0.8],
    shot_world: null,
    hoop_image: [0.5, 0.2],
    hoop_id: 0,
    excitement: 0.5,
    confidence: 1,
  };
}

describe('scoreClip', () => {
  it('counts matches, makes, points and shooter teams up to a label swap', () => {
    const clip = {
      file: 'x.mp4',
      camera: 'stationary',
      players_visible: 2,
      n_attempts: 3,
      n_made: 2,
      media: { duration_s: 20, width: 640, height: 360, fps: 30 },
      attempts: [
        { n: 1, release_s: 1, rim_arrival_s: 2, made: true, points: 2, shooter: { team: 0, jersey: '4', player_id: 't0p1' } },
        { n: 2, release_s: 5, rim_arrival_s: 6, made: false, points: 0, shooter: { team: 1, jersey: '5', player_id: 't1p1' } },
        { n: 3, release_s: 9, rim_arrival_s: 10, made: true, points: 3, shooter: { team: 0, jersey: '4', player_id: 't0p1' } },
      ],
    } as GroundTruthClip;
    const res = {
      actions: [shotAction(2.3, true, 1, 2), shotAction(6.1, true, 2, 2), shotAction(10.2, true, 1, 2), shotAction(15, false, null, 0)],
      clusters: [
        { track_id: 1, team: 1 },
        { track_id: 2, team: 0 },
      ],
    } as unknown as AnalysisResult;
    const s = scoreClip(clip, res);
    expect(s).toMatchObject({ truth: 3, detected: 4, matched: 3, madeCorrect: 2, pointsLabelled: 3, pointsCorrect: 1, teamLabelled: 3, teamCorrect: 3 });
  });
});

describe('toJsonl', () => {
  it('writes one JSON object per line with a trailing newline, nothing for no records', () => {
    expect(toJsonl([{ a: 1 }, { b: [1, 2] }])).toBe('{"a":1}\n{"b":[1,2]}\n');
    expect(toJsonl([])).toBe('');
  });
});

describe('assignTeams', () => {
  const track = (id: number, rgb: [number, number, number], n = 20): PlayerTrack => ({ id, obs: new Array(n).fill(null), rgb, team: null });

  it('splits white and navy jerseys into two teams, brighter team 0', () => {
    const t = [track(1, [220, 220, 225]), track(2, [30, 35, 80]), track(3, [200, 205, 210]), track(4, [40, 40, 90])];
    assignTeams(t, { solo: false });
    expect(t.map((x) => x.team)).toEqual([0, 1, 0, 1]);
  });

  it('leaves teams undecided for a solo session or indistinct colours', () => {
    const a = [track(1, [220, 220, 225]), track(2, [30, 35, 80])];
    assignTeams(a, { solo: true });
    expect(a.map((x) => x.team)).toEqual([null, null]);
    const b = [track(1, [120, 120, 120]), track(2, [125, 122, 118])];
    assignTeams(b, { solo: false });
    expect(b.map((x) => x.team)).toEqual([null, null]);
  });
});
