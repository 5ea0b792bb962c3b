import { describe, expect, it } from 'vitest';
import { END_GAP_RIMS, goalEnds, HALF_TIME_GAP_S, teamsByEnd, type EndVote } from './court-ends';

describe('goalEnds', () => {
  it('splits the goals of a full court at its widest gap: a basket tracked twice stays one end', () => {
    // a panning camera: the left basket tracked at x ≈ 300 twice (the path drifted 40 px), the right one at 2100
    const goals = [
      { x: 2100, w: 18 },
      { x: 300, w: 17 },
      { x: 340, w: 18 },
    ];
    expect(goalEnds(goals, [0, 1, 2, 1])).toEqual([1, 0, 0]);
  });

  it('gives no ends when the goals are one basket, when only one goal scored, and to a goal without shots', () => {
    const near = [
      { x: 300, w: 18 },
      { x: 300 + (END_GAP_RIMS - 1) * 18, w: 18 },
    ];
    expect(goalEnds(near, [0, 1])).toEqual([null, null]);
    const far = [
      { x: 300, w: 18 },
      { x: 2000, w: 18 },
      { x: 900, w: 18 },
    ];
    expect(goalEnds(far, [0, 0])).toEqual([null, null, null]);
    expect(goalEnds(far, [0, 1])).toEqual([0, 1, null]);
  });
});

/** Shots every 10 s, alternating ends; `read(i, team)` is the team the jersey says for shot i of the team attacking its end. */
function game(n: number, attacking: (end: 0 | 1, t: number) => 0 | 1, read: (i: number, team: 0 | 1) => 0 | 1 | null, start = 0): EndVote[] {
  return Array.from({ length: n }, (_, i) => {
    const end = (i % 2) as 0 | 1;
    const t = start + 10 * i;
    return { end, t, team: read(i, attacking(end, t)) };
  });
}

describe('teamsByEnd', () => {
  it('names the team of every shot at an end, unread ones and misread ones included, when the jerseys side with one team per end', () => {
    // end 0 attacked by team 1: 12 shots, jerseys right on 8, wrong on 2 (3 and 6), unread on 2 (5 and 10)
    const votes = game(12, (end) => (end === 0 ? 1 : 0), (i, team) => ([5, 10].includes(i) ? null : [3, 6].includes(i) ? ((1 - team) as 0 | 1) : team));
    expect(teamsByEnd(votes)).toEqual(votes.map((v) => (v.end === 0 ? 1 : 0)));
  });

  it('says nothing where the jerseys do not side with the ends (a shootaround at both baskets), where an end has too few reads, or at no known end', () => {
    const mixed = game(12, () => 0, (i) => ((i >> 1) % 2) as 0 | 1);
    expect(teamsByEnd(mixed)).toEqual(mixed.map(() => null));
    const oneRead = game(8, (end) => end, (i, team) => (i % 2 === 1 && i > 1 ? null : team));
    expect(teamsByEnd(oneRead)).toEqual(oneRead.map(() => null));
    const noEnds = game(8, (end) => end, (_, team) => team).map((v) => ({ ...v, end: null }));
    expect(teamsByEnd(noEnds)).toEqual(noEnds.map(() => null));
  });

  it('keeps a shot without an end out of it', () => {
    const votes = game(8, (end) => end, (_, team) => team);
    votes.push({ end: null, t: 200, team: 1 });
    expect(teamsByEnd(votes)).toEqual([...votes.slice(0, 8).map((v) => v.end), null]);
  });

  it('lets the teams change ends once, at a half-time break without shots', () => {
    const half = (start: number, swap: boolean) => game(10, (end) => ((swap ? 1 - end : end) as 0 | 1), (i, team) => (i === 4 ? ((1 - team) as 0 | 1) : team), start);
    const first = half(0, false);
    const second = half(90 + HALF_TIME_GAP_S, true);
    const out = teamsByEnd([...first, ...second]);
    expect(out).toEqual([...first.map((v) => v.end), ...second.map((v) => 1 - v.end!)]);
    // the same change of ends without the break: no period explains the jerseys, they decide alone
    const cut = half(100, true);
    expect(teamsByEnd([...first, ...cut])).toEqual([...first, ...cut].map(() => null));
  });
});
