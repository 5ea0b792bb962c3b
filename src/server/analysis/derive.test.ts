import { describe, expect, it } from 'vitest';
import { deriveSession, shotValue } from './derive';
import type { ActionRecord, ClusterRecord, ShotAction } from './types';

function shot(over: Partial<ShotAction> & Pick<ShotAction, 'id' | 'release_t'>): ShotAction {
  return {
    type: 'shot',
    index: 0,
    rim_t: over.release_t + 1,
    end_t: over.release_t + 1.5,
    made: true,
    made_confidence: 0.9,
    is_free_throw: false,
    is_three_point: false,
    points: 2,
    kind: 'swish',
    shooter_track: 1,
    assister_track: null,
    rebounder_track: null,
    shot_image: [0.4, 0.6],
    shot_world: [0.5, 0.3],
    hoop_image: [0.5, 0.2],
    hoop_id: 0,
    excitement: 0.5,
    confidence: 0.9,
    ...over,
  };
}

const cluster = (track_id: number, team: 0 | 1 | null): ClusterRecord => ({
  track_id,
  team,
  jersey_rgb: [255, 255, 255],
  jersey_number: null,
  t_start: 0,
  t_end: 60,
  frames: 100,
  thumb_t: 1,
  thumb_box: [0, 0, 0.1, 0.3],
  confidence: 0.8,
});

describe('shot values', () => {
  it('scores 2/3/1 by default and 1/2/1 with point_system 1', () => {
    expect(shotValue({ isFreeThrow: false, isThreePoint: false }, 2)).toBe(2);
    expect(shotValue({ isFreeThrow: false, isThreePoint: true }, 2)).toBe(3);
    expect(shotValue({ isFreeThrow: true, isThreePoint: false }, 2)).toBe(1);
    expect(shotValue({ isFreeThrow: false, isThreePoint: false }, 1)).toBe(1);
    expect(shotValue({ isFreeThrow: false, isThreePoint: true }, 1)).toBe(2);
    expect(shotValue({ isFreeThrow: false, isThreePoint: null }, 2)).toBe(2);
  });
});

describe('deriveSession', () => {
  const actions: ActionRecord[] = [
    shot({ id: 's3', release_t: 30, is_three_point: true, shooter_track: 2, made: true }),
    shot({ id: 's1', release_t: 5, shooter_track: 1, made: true }),
    shot({ id: 's2', release_t: 12, shooter_track: 1, made: false, rebounder_track: 3 }),
    shot({ id: 's4', release_t: 40, is_free_throw: true, is_three_point: null, shooter_track: 3, made: true }),
    shot({ id: 's5', release_t: 50, shooter_track: null, made: true }),
    { type: 'pass', t: 27, end_t: 28.5, from_track: 1, to_track: 2, confidence: 0.8 },
  ];
  const clusters = [cluster(1, 0), cluster(2, 0), cluster(3, 1), cluster(9, 1)];

  it('orders shots in time, scores them and builds box scores and totals', () => {
    const d = deriveSession({ actions, clusters });
    expect(d.shots.map((s) => s.actionId)).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(d.shots.map((s) => s.index)).toEqual([0, 1, 2, 3, 4]);
    expect(d.shots.map((s) => s.points)).toEqual([2, 0, 3, 1, 2]);
    expect(d.shots[3]).toMatchObject({ type: 'freethrow', isFreeThrow: true, isThreePoint: false });
    expect(d.totals).toEqual({ points: 8, fg_2pt_att: 3, fg_2pt_make: 2, fg_3pt_att: 1, fg_3pt_make: 1, ft_att: 1, ft_make: 1, assist: 1, rebound: 1 });
    const byTrack = Object.fromEntries(d.players.map((p) => [p.track, p]));
    expect(Object.keys(byTrack)).toEqual(['1', '2', '3']); // track 9 did nothing: not a player
    expect(byTrack[1].stats).toMatchObject({ points: 2, fg_2pt_att: 2, fg_2pt_make: 1, assist: 1 });
    expect(byTrack[2].stats).toMatchObject({ points: 3, fg_3pt_att: 1, fg_3pt_make: 1 });
    expect(byTrack[3]).toMatchObject({ teamId: 1, stats: { points: 1, ft_att: 1, ft_make: 1, rebound: 1 } });
    // players' points plus unattributed shots add up to the total
    expect(d.players.reduce((s, p) => s + p.stats.points, 0) + 2).toBe(d.totals.points);
  });

  it("gives each player the colour and the moment the analysis saw them, for the dashboard's picture", () => {
    const seen = [cluster(1, 0), { ...cluster(2, 0), jersey_rgb: [200, 16.4, 3] as [number, number, number], thumb_t: 29.5, thumb_box: [0.4, 0.3, 0.45, 0.5] as ClusterRecord['thumb_box'] }];
    // a record without an area (no box was read) gives no moment; a track without a record neither colour nor moment
    seen.push({ ...cluster(3, 1), thumb_box: [0.2, 0.2, 0.2, 0.4] });
    const byTrack = Object.fromEntries(deriveSession({ actions, clusters: seen }).players.map((p) => [p.track, p]));
    expect(byTrack[1]).toMatchObject({ colour: '#ffffff', seen: { t: 1, box: [0, 0, 0.1, 0.3] } });
    expect(byTrack[2]).toMatchObject({ colour: '#c81003', seen: { t: 29.5, box: [0.4, 0.3, 0.45, 0.5] } });
    expect(byTrack[3]).toMatchObject({ colour: '#ffffff', seen: null });
    const unrecorded = deriveSession({ actions, clusters: [] }).players;
    expect(unrecorded.map((p) => [p.colour, p.seen])).toEqual([[null, null], [null, null], [null, null]]);
  });

  it('credits an assist only to a teammate whose pass ended within 3 s of the release', () => {
    const d = deriveSession({ actions, clusters });
    expect(d.shots[2].assisterTrack).toBe(1);
    const farPass: ActionRecord[] = [...actions.filter((a) => a.type !== 'pass'), { type: 'pass', t: 20, end_t: 21, from_track: 1, to_track: 2, confidence: 0.8 }];
    expect(deriveSession({ actions: farPass, clusters }).shots[2].assisterTrack).toBeNull();
    const opponent: ActionRecord[] = [...actions.filter((a) => a.type !== 'pass'), { type: 'pass', t: 27, end_t: 28.5, from_track: 3, to_track: 2, confidence: 0.8 }];
    expect(deriveSession({ actions: opponent, clusters }).shots[2].assisterTrack).toBeNull();
  });

  it('follows point_system 1', () => {
    const d = deriveSession({ actions, clusters }, { pointSystem: 1 });
    expect(d.shots.map((s) => s.points)).toEqual([1, 0, 2, 1, 1]);
    expect(d.totals.points).toBe(5);
  });

  it('keeps undecided makes as null points and out of the made counts', () => {
    const d = deriveSession({ actions: [shot({ id: 's1', release_t: 1, made: null })], clusters });
    expect(d.shots[0].points).toBeNull();
    expect(d.totals).toMatchObject({ fg_2pt_att: 1, fg_2pt_make: 0, points: 0 });
  });
});
