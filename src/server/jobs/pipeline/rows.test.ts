import { describe, expect, it } from 'vitest';
import { emptyBoxScore } from '../../analysis/box-score';
import type { DerivedShot } from '../../analysis/derive';
import { buildSessionRows, CLIP_LEAD_SECONDS, CLIP_TAIL_SECONDS } from './rows';

function shot(index: number, release: number, rim: number): DerivedShot {
  return {
    actionId: `s${index + 1}`, index, startSeconds: release, endSeconds: rim + 0.5, rimSeconds: rim, made: true, points: 2,
    type: 'fieldgoal', isThreePoint: false, isFreeThrow: false, isFouled: false, shotImageNormed: [0.5, 0.7],
    shotWorldNormed: null, hoopImageNormed: [0.5, 0.3], excitementScore: 0.5, scorerTrack: null, assisterTrack: null, rebounderTrack: null,
  };
}

const derived = { shots: [shot(0, 5, 6), shot(1, 21, 22), shot(2, 37, 39.2)], players: [], totals: emptyBoxScore() };

describe('buildSessionRows: highlight windows', () => {
  it('keeps play before the release and after the rim, within the video', () => {
    const { clips, rows } = buildSessionRows(derived, { durationSeconds: 40, balls: [] });
    expect(clips.map((c) => [c.start, c.end])).toEqual([
      [5 - CLIP_LEAD_SECONDS, 6.5 + CLIP_TAIL_SECONDS],
      [21 - CLIP_LEAD_SECONDS, 22.5 + CLIP_TAIL_SECONDS],
      [37 - CLIP_LEAD_SECONDS, 40],
    ]);
    expect(rows.highlights.map((h) => h.lengthSeconds)).toEqual([6.5, 6.5, 6]);
  });

  it('keeps a highlight within the recording of its shot in a video cut together from several', () => {
    const scenes: Array<[number, number]> = [
      [0, 19.5],
      [19.5, 38],
      [38, 40],
    ];
    const { clips, rows } = buildSessionRows(derived, { durationSeconds: 40, balls: [], scenes });
    expect(clips.map((c) => [c.start, c.end])).toEqual([
      [2, 8.5],
      [19.5, 24.5],
      [34, 38],
    ]);
    expect(rows.highlights.map((h) => h.lengthSeconds)).toEqual([6.5, 5, 4]);
  });
});
