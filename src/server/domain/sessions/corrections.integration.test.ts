import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, highlights, ledgerEntries, sessions, shots, usageEvents } from '../../db/schema';
import { cluster, makeProcessedSession, shotAction } from '../../../test/processed-session';
import { makeOrg } from '../../../test/db';
import type { ActionRecord } from '../../analysis/types';
import { getBalance } from '../billing/credits';
import { playerDetails } from '../dashboard/session-summaries';
import { applyCorrection, listCorrections, undoCorrection, type Actor, type Correction } from './corrections';
import { createSession } from './create-session';
import { getSession } from './read-sessions';
import type { ApiSession } from './serialize';

/**
 * A small game: Ana (track 1) makes a 2 and misses one that Cy (track 3, other team)
 * rebounds; Bo (track 2) makes a 3 off Ana's pass; Cy makes a free throw; nobody is known
 * for a last made 2.
 */
const actions: ActionRecord[] = [
  shotAction({ id: 's1', release_t: 5, shooter_track: 1, made: true }),
  shotAction({ id: 's2', release_t: 12, shooter_track: 1, made: false, rebounder_track: 3 }),
  shotAction({ id: 's3', release_t: 30, is_three_point: true, shooter_track: 2, made: true }),
  shotAction({ id: 's4', release_t: 40, is_free_throw: true, is_three_point: null, shooter_track: 3, made: true }),
  shotAction({ id: 's5', release_t: 50, shooter_track: null, made: true }),
  { type: 'pass', t: 27, end_t: 28.5, from_track: 1, to_track: 2, confidence: 0.8 },
];
const clusters = [cluster(1, 0, '4'), cluster(2, 0), cluster(3, 1)];
const coach: Actor = { userId: 'usr_coach', apiKeyId: null };

type Box = ApiSession['totals'];
const zero = (): Box => ({ points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 });

/** An independent recount of the box scores from the API's shots, with points by `system`. */
function recount(s: ApiSession, system: 1 | 2) {
  const totals = zero();
  const by = new Map<string, Box>(s.players.data.map((p) => [p.id, zero()]));
  const add = (b: Box, shot: ApiSession['shots']['data'][number]) => {
    const kind = shot.is_free_throw ? 'ft' : shot.is_three_point ? 'fg_3pt' : 'fg_2pt';
    b[`${kind}_att`]++;
    if (shot.made) {
      b[`${kind}_make`]++;
      b.points += shot.is_free_throw ? 1 : system + (shot.is_three_point ? 1 : 0);
    }
  };
  for (const shot of s.shots.data) {
    add(totals, shot);
    if (shot.players.scorer) add(by.get(shot.players.scorer)!, shot);
    if (shot.made && shot.players.assister) (by.get(shot.players.assister)!.assist++, totals.assist++);
    if (shot.made === false && shot.players.rebounder) (by.get(shot.players.rebounder)!.rebound++, totals.rebound++);
  }
  return { totals, by };
}

/** The stored session agrees with a recount of its shots, and shots are numbered in time order. */
function expectConsistent(s: ApiSession, system: 1 | 2) {
  const { totals, by } = recount(s, system);
  expect(s.totals).toEqual(totals);
  for (const p of s.players.data) expect(p.stats, p.id).toEqual(by.get(p.id));
  for (const shot of s.shots.data) expect(shot.points).toBe(shot.made ? (shot.is_free_throw ? 1 : system + (shot.is_three_point ? 1 : 0)) : 0);
  const byTime = [...s.shots.data].sort((a, b) => a.start_seconds! - b.start_seconds!);
  expect(byTime.map((x) => x.index)).toEqual(byTime.map((_, i) => i));
  // and listed in that order (a shot added by a correction has the newest id, not the last time)
  expect(s.shots.data.map((x) => x.index)).toEqual(s.shots.data.map((_, i) => i));
  const unattributed = s.shots.data.filter((x) => x.made && !x.players.scorer).reduce((n, x) => n + x.points!, 0);
  expect(s.players.data.reduce((n, p) => n + p.stats.points, 0) + unattributed).toBe(s.totals.points);
}

async function setup(options: Record<string, unknown> = {}) {
  const { db, org } = await makeOrg({ grantCents: 10_000 });
  const id = await makeProcessedSession(db, { organizationId: org.id, options, actions, clusters });
  const get = () => getSession(db, { organizationId: org.id, id });
  const s = await get();
  const shot = (i: number) => s.shots.data.find((x) => x.index === i)!;
  const ana = shot(0).players.scorer!;
  const bo = shot(2).players.scorer!;
  const cy = shot(3).players.scorer!;
  const apply = (correction: Correction) => applyCorrection(db, { organizationId: org.id, sessionId: id, actor: coach, correction });
  const undo = (correctionId: string) => undoCorrection(db, { organizationId: org.id, sessionId: id, correctionId, actor: coach });
  return { db, org, id, get, s, shot, ana, bo, cy, apply, undo };
}

describe('scoring systems', () => {
  it('point_system 2 (default): 2s, 3s and 1 per free throw, in shots, box scores and totals', async () => {
    const { s, ana, bo, cy } = await setup();
    expect(s.shots.data.map((x) => x.points)).toEqual([2, 0, 3, 1, 2]);
    expect(s.totals).toEqual({ points: 8, fg_2pt_att: 3, fg_2pt_make: 2, fg_3pt_att: 1, fg_3pt_make: 1, ft_att: 1, ft_make: 1, assist: 1, rebound: 1 });
    const stats = (id: string) => s.players.data.find((p) => p.id === id)!.stats;
    expect(stats(ana)).toMatchObject({ points: 2, assist: 1 });
    expect(stats(bo)).toMatchObject({ points: 3 });
    expect(stats(cy)).toMatchObject({ points: 1, rebound: 1 });
    expectConsistent(s, 2);
  });

  it('point_system 1: 1s inside the arc, 2s outside, 1 per free throw', async () => {
    const { s, bo } = await setup({ point_system: 1 });
    expect(s.shots.data.map((x) => x.points)).toEqual([1, 0, 2, 1, 1]);
    expect(s.totals.points).toBe(5);
    expect(s.players.data.find((p) => p.id === bo)!.stats.points).toBe(2);
    expectConsistent(s, 1);
  });

  it('session_type does not change points: a 3v3 game keeps 2s and 3s unless point_system is 1', async () => {
    expect((await setup({ session_type: '3v3' })).s.totals.points).toBe(8);
    expect((await setup({ session_type: '3v3', point_system: 1 })).s.totals.points).toBe(5);
  });

  it('400 at submit for a point_system other than 1 or 2 (through the API schema)', async () => {
    const { ZCreateSessionRequest } = await import('../../trpc/routers/sessions/create-session.types');
    for (const bad of [0, 3, '2', 1.5, null]) {
      expect(ZCreateSessionRequest.safeParse({ source: { url: 'https://a.example/g.mp4' }, options: { point_system: bad } }).success, String(bad)).toBe(false);
    }
    expect(ZCreateSessionRequest.safeParse({ source: { url: 'https://a.example/g.mp4' }, options: { point_system: 1 } }).success).toBe(true);
  });

  it.each([2, 1] as const)('corrections re-derive under the session’s point_system %i', async (system) => {
    const { apply, get, shot, ana } = await setup({ point_system: system });
    await apply({ kind: 'set_shot_type', shot: shot(0).id, type: 'three' });
    let s = await get();
    expect(s.shots.data[0].points).toBe(system + 1);
    expect(s.players.data.find((p) => p.id === ana)!.stats).toMatchObject({ points: system + 1, fg_3pt_make: 1, fg_3pt_att: 1, fg_2pt_att: 1 });
    expectConsistent(s, system);
    await apply({ kind: 'set_made', shot: shot(1).id, made: true });
    await apply({ kind: 'add_shot', time_seconds: 20, shooter: ana, type: 'three', made: true });
    s = await get();
    expect(s.totals.points).toBe({ 2: 8 + 1 + 2 + 3, 1: 5 + 1 + 1 + 2 }[system]);
    expectConsistent(s, system);
  });
});

describe('corrections', () => {
  it('every kind changes what it should, keeps box scores and totals consistent, and undo restores the session exactly', async () => {
    const ctx = await setup();
    const { apply, undo, get, shot, ana, bo, cy } = ctx;
    const cases: Array<[Correction, (s: ApiSession) => void]> = [
      [{ kind: 'set_made', shot: shot(0).id, made: false }, (s) => {
        expect(s.totals.points).toBe(6);
        expect(s.highlights.data.find((h) => h.shot === shot(0).id)!.is_lowlight).toBe(true);
      }],
      [{ kind: 'set_made', shot: shot(2).id, made: false }, (s) => {
        // the assist goes with the make
        expect(s.shots.data[2].players.assister).toBeNull();
        expect(s.players.data.find((p) => p.id === ana)!.stats.assist).toBe(0);
      }],
      [{ kind: 'set_shot_type', shot: shot(0).id, type: 'free_throw' }, (s) => {
        expect(s.shots.data[0]).toMatchObject({ type: 'freethrow', is_free_throw: true, is_three_point: false, points: 1 });
      }],
      [{ kind: 'set_shot_type', shot: shot(2).id, type: 'two' }, (s) => expect(s.totals).toMatchObject({ points: 7, fg_3pt_att: 0, fg_2pt_att: 4 })],
      [{ kind: 'set_shooter', shot: shot(0).id, player: cy }, (s) => {
        expect(s.players.data.find((p) => p.id === cy)!.stats.points).toBe(3);
        expect(s.players.data.find((p) => p.id === ana)!.stats.points).toBe(0);
        expect(s.highlights.data.find((h) => h.shot === shot(0).id)!.player).toBe(cy);
        expect(s.totals.points).toBe(8);
      }],
      [{ kind: 'set_shooter', shot: shot(4).id, player: bo }, (s) => expect(s.players.data.find((p) => p.id === bo)!.stats.points).toBe(5)],
      [{ kind: 'set_shooter', shot: shot(2).id, player: ana }, (s) => expect(s.shots.data[2].players.assister).toBeNull()],
      [{ kind: 'set_assister', shot: shot(0).id, player: bo }, (s) => expect(s.totals.assist).toBe(2)],
      [{ kind: 'set_assister', shot: shot(2).id, player: null }, (s) => expect(s.totals.assist).toBe(0)],
      [{ kind: 'set_rebounder', shot: shot(1).id, player: ana }, (s) => {
        expect(s.players.data.find((p) => p.id === ana)!.stats.rebound).toBe(1);
        expect(s.players.data.find((p) => p.id === cy)!.stats.rebound).toBe(0);
      }],
      [{ kind: 'delete_shot', shot: shot(2).id }, (s) => {
        expect(s.shots.total_count).toBe(4);
        expect(s.shots.data.map((x) => x.index)).toEqual([0, 1, 2, 3]);
        expect(s.highlights.data.some((h) => h.shot === shot(2).id)).toBe(false);
        expect(s.totals).toMatchObject({ points: 5, assist: 0, fg_3pt_att: 0 });
      }],
      [{ kind: 'add_shot', time_seconds: 20 }, (s) => {
        const added = s.shots.data.find((x) => x.start_seconds === 20)!;
        expect(added).toMatchObject({ index: 2, made: false, points: 0, is_three_point: false, players: { scorer: null, assister: null, rebounder: null }, highlight: null });
        expect(s.shots.data.find((x) => x.id === shot(2).id)!.index).toBe(3);
        expect(s.totals.fg_2pt_att).toBe(4);
      }],
      [{ kind: 'add_shot', time_seconds: 0.5, shooter: cy, type: 'three', made: true }, (s) => {
        expect(s.players.data.find((p) => p.id === cy)!.stats).toMatchObject({ points: 4, fg_3pt_make: 1 });
      }],
      [{ kind: 'rename_player', player: ana, name: '  Ana Lopez ' }, (s) => expect(s.players.data.find((p) => p.id === ana)!.name).toBe('Ana Lopez')],
      [{ kind: 'set_jersey', player: bo, jersey: '23' }, (s) => expect(s.players.data.find((p) => p.id === bo)!.jersey).toBe('23')],
      [{ kind: 'set_team', player: cy, team_id: 0 }, (s) => expect(s.players.data.find((p) => p.id === cy)!.team_id).toBe(0)],
      [{ kind: 'merge_players', keep: bo, remove: ana }, (s) => {
        expect(s.players.data.map((p) => p.id)).not.toContain(ana);
        const b = s.players.data.find((p) => p.id === bo)!;
        // Ana's jersey fills Bo's blank one; her shots are his; her assist to him is dropped
        expect(b).toMatchObject({ jersey: '4', stats: { points: 5, fg_2pt_att: 2, fg_2pt_make: 1, fg_3pt_make: 1, assist: 0 } });
        expect(s.shots.data[2].players).toMatchObject({ scorer: bo, assister: null });
        expect(s.totals.points).toBe(8);
      }],
    ];
    const original = await get();
    for (const [correction, check] of cases) {
      const before = await get();
      const done = await apply(correction);
      expect(done).toMatchObject({ object: 'session_correction', kind: correction.kind, correction, undone: null, undoable: true, actor: { user: 'usr_coach', name: null, api_key: null } });
      expect(done.summary.length).toBeGreaterThan(5);
      const after = await get();
      expectConsistent(after, 2);
      check(after);
      const undone = await undo(done.id);
      expect(undone).toMatchObject({ id: done.id, undoable: false });
      expect(undone.undone).toBeGreaterThan(0);
      expect(await get(), correction.kind).toEqual(before);
    }
    expect(await get()).toEqual(original);
  });

  it('undo: any correction whose rows are unchanged since, in any order; 409 when a later one touched the same rows or it was undone', async () => {
    const { apply, undo, get, shot, ana, bo, db, org, id } = await setup();
    const original = await get();
    const first = await apply({ kind: 'set_shooter', shot: shot(0).id, player: bo });
    const second = await apply({ kind: 'set_made', shot: shot(0).id, made: false });
    const third = await apply({ kind: 'rename_player', player: ana, name: 'Ana' });
    await expect(undo(first.id)).rejects.toMatchObject({ code: 'correction_conflict', status: 409 });
    const history = await listCorrections(db, { organizationId: org.id, sessionId: id, params: { limit: 10 } });
    expect(history.data.map((c) => [c.id, c.undoable])).toEqual([[third.id, true], [second.id, true], [first.id, false]]);
    expect(history.data[2].summary).toBe('Shot 1 (0:05): shooter #4 → Player 2');
    await undo(second.id); // independent of the rename
    await undo(first.id);
    await expect(undo(first.id)).rejects.toMatchObject({ code: 'correction_conflict' });
    await undo(third.id);
    expect(await get()).toEqual(original);
    const after = await listCorrections(db, { organizationId: org.id, sessionId: id, params: { limit: 10 } });
    expect(after.data.every((c) => c.undone !== null && !c.undoable)).toBe(true);
  });

  it('an unnamed player keeps his number when another is merged away, and undo brings the merged one back with his', async () => {
    const { apply, undo, db, org, id, shot, ana, bo, cy } = await setup();
    const numbers = async () => Object.fromEntries(Object.entries(await playerDetails(db, { organizationId: org.id, id })).map(([k, v]) => [k, v.number]));
    expect(await numbers()).toEqual({ [ana]: 1, [bo]: 2, [cy]: 3 });
    const merge = await apply({ kind: 'merge_players', keep: ana, remove: bo });
    expect(merge.summary).toBe('Player 2 merged into #4');
    // Cy is third in a list of two now, and still "Player 3"
    const moved = await apply({ kind: 'set_shooter', shot: shot(4).id, player: cy });
    expect(moved.summary).toBe('Shot 5 (0:50): shooter nobody → Player 3');
    await undo(moved.id);
    expect(await numbers()).toEqual({ [ana]: 1, [cy]: 3 });
    await undo(merge.id);
    expect(await numbers()).toEqual({ [ana]: 1, [bo]: 2, [cy]: 3 });
    const history = await listCorrections(db, { organizationId: org.id, sessionId: id, params: {} });
    expect(history.data.map((c) => c.summary)).toEqual(['Shot 5 (0:50): shooter nobody → Player 3', 'Player 2 merged into #4']);
  });

  it('a manual highlight follows its shot (index, scorer), is detached when the shot is deleted, and undo reattaches it', async () => {
    const { db, org, id, apply, undo, get, shot, ana, bo } = await setup();
    const target = shot(2); // Bo's three at 30 s
    const [manual] = await db
      .insert(highlights)
      .values({ id: 'hl_manual_follow', sessionId: id, shotId: target.id, shotIndex: 2, playerId: bo, lengthSeconds: 6, isManual: true, startSeconds: 27, status: 'ready' })
      .returning();
    const manualOf = async () => (await get()).highlights.data.find((h) => h.id === manual.id)!;
    const original = await get();

    await apply({ kind: 'set_shooter', shot: target.id, player: ana });
    await apply({ kind: 'add_shot', time_seconds: 1 });
    expect(await manualOf()).toMatchObject({ shot: target.id, shot_index: 3, player: ana, is_manual: true, is_lowlight: false });
    const deleted = await apply({ kind: 'delete_shot', shot: target.id });
    expect(await manualOf()).toMatchObject({ shot: null, shot_index: null, player: null, is_manual: true });
    await undo(deleted.id);
    expect(await manualOf()).toMatchObject({ shot: target.id, shot_index: 3, player: ana });
    for (const c of (await listCorrections(db, { organizationId: org.id, sessionId: id, params: { limit: 100 } })).data) {
      if (c.undoable) await undo(c.id); // newest first
    }
    expect(await get()).toEqual(original);
  });

  it('a merge undone brings the removed player back with their shots', async () => {
    const { apply, undo, get, ana, bo } = await setup();
    const original = await get();
    const merge = await apply({ kind: 'merge_players', keep: ana, remove: bo });
    expect((await get()).players.total_count).toBe(2);
    await undo(merge.id);
    expect(await get()).toEqual(original);
  });

  it('merges a list of players into one in one correction (every shot theirs), undone at once; refuses a list naming keep, twice, or nobody', async () => {
    const { apply, undo, get, ana, bo, cy } = await setup();
    const original = await get();
    const all = await apply({ kind: 'merge_players', keep: cy, remove: [ana, bo] });
    expect(all.summary).toBe('#4 and Player 2 merged into Player 3'); // Ana plays in jersey 4
    const merged = await get();
    expect(merged.players.data.map((p) => p.id)).toEqual([cy]);
    // the scorer of every attributed shot, with their points; an assist to oneself is no assist
    expect(merged.players.data[0].stats).toMatchObject({ points: 2 + 3 + 1, assist: 0, rebound: 1 });
    expect(merged.shots.data.filter((x) => x.players.scorer).every((x) => x.players.scorer === cy)).toBe(true);
    expectConsistent(merged, 2);
    await undo(all.id);
    expect(await get()).toEqual(original);
    for (const remove of [[ana, cy], [ana, ana], []]) {
      await expect(apply({ kind: 'merge_players', keep: cy, remove })).rejects.toMatchObject({ code: 'parameter_invalid', status: 400, param: 'remove' });
    }
    await expect(apply({ kind: 'merge_players', keep: cy, remove: [ana, 'plr_nope'] })).rejects.toMatchObject({ status: 404, param: 'remove' });
    expect(await get()).toEqual(original);
  });

  it('solo: every player merged into one, who gets every shot (those without a shooter too) and no assists; undone at once', async () => {
    const { apply, undo, get, ana, bo, cy } = await setup();
    const original = await get();
    await expect(apply({ kind: 'merge_players', keep: cy, remove: [ana], solo: true })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'solo' });
    const solo = await apply({ kind: 'merge_players', keep: cy, remove: [ana, bo], solo: true });
    expect(solo.summary).toBe('#4 and Player 2 merged into Player 3: every shot is theirs');
    const s = await get();
    expect(s.players.data.map((p) => p.id)).toEqual([cy]);
    expect(s.shots.data.every((x) => x.players.scorer === cy && x.players.assister === null)).toBe(true);
    expect(s.players.data[0].stats).toEqual({ ...s.totals, assist: 0 });
    expect(s.totals).toMatchObject({ points: 8, assist: 0, rebound: 1 });
    expectConsistent(s, 2);
    await undo(solo.id);
    expect(await get()).toEqual(original);
  });

  it('rejects what cannot be right: 404 for other organizations and unknown ids, 409 before processing, 400 for invalid or empty corrections', async () => {
    const { apply, shot, ana, bo, db, id } = await setup();
    const other = await makeOrg();
    await expect(
      applyCorrection(db, { organizationId: other.org.id, sessionId: id, actor: coach, correction: { kind: 'delete_shot', shot: shot(0).id } }),
    ).rejects.toMatchObject({ code: 'resource_missing', status: 404, param: 'id' });
    await expect(undoCorrection(db, { organizationId: other.org.id, sessionId: id, correctionId: 'corr_x', actor: coach })).rejects.toMatchObject({ status: 404 });
    await expect(listCorrections(db, { organizationId: other.org.id, sessionId: id, params: {} })).rejects.toMatchObject({ status: 404 });
    await expect(apply({ kind: 'delete_shot', shot: 'shot_nope' })).rejects.toMatchObject({ status: 404, param: 'shot' });
    await expect(apply({ kind: 'set_shooter', shot: shot(0).id, player: 'plr_nope' })).rejects.toMatchObject({ status: 404, param: 'player' });
    await expect(apply({ kind: 'set_assister', shot: shot(1).id, player: bo })).rejects.toMatchObject({ code: 'parameter_invalid', status: 400 });
    await expect(apply({ kind: 'set_assister', shot: shot(0).id, player: ana })).rejects.toMatchObject({ code: 'parameter_invalid' });
    await expect(apply({ kind: 'set_rebounder', shot: shot(0).id, player: bo })).rejects.toMatchObject({ code: 'parameter_invalid' });
    await expect(apply({ kind: 'set_made', shot: shot(0).id, made: true })).rejects.toMatchObject({ code: 'parameter_invalid', message: 'This correction changes nothing.' });
    await expect(apply({ kind: 'add_shot', time_seconds: 10_000 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'time_seconds' });
    await expect(apply({ kind: 'set_team', player: ana, team_id: 12 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'team_id' });
    await expect(apply({ kind: 'merge_players', keep: ana, remove: ana })).rejects.toMatchObject({ code: 'parameter_invalid' });
    const { org: o2, db: db2 } = await makeOrg({ grantCents: 10_000 });
    const { session: queued } = await createSession(db2, { organizationId: o2.id, apiKeyId: null, input: { source: { url: 'https://a.example/g.mp4' }, duration_seconds: 60 } });
    await expect(
      applyCorrection(db2, { organizationId: o2.id, sessionId: queued.id, actor: coach, correction: { kind: 'add_shot', time_seconds: 1 } }),
    ).rejects.toMatchObject({ code: 'session_not_processed', status: 409 });
  });

  it('never touches billing, usage or events', async () => {
    const { apply, undo, shot, ana, db, org, id } = await setup();
    const snapshot = async () => ({
      balance: await getBalance(db, org.id),
      usage: await db.select().from(usageEvents).where(eq(usageEvents.organizationId, org.id)),
      ledger: await db.select().from(ledgerEntries).where(eq(ledgerEntries.organizationId, org.id)),
      events: await db.select().from(events).where(eq(events.organizationId, org.id)),
      cost: (await db.select({ c: sessions.costCents }).from(sessions).where(eq(sessions.id, id)))[0].c,
    });
    const before = await snapshot();
    expect(before.events.map((e) => e.type)).toEqual(['session.processed']);
    expect(before.usage.map((u) => u.status)).toEqual(['settled']);
    const a = await apply({ kind: 'set_made', shot: shot(1).id, made: true });
    await apply({ kind: 'delete_shot', shot: shot(4).id });
    await apply({ kind: 'rename_player', player: ana, name: 'Ana' });
    await undo(a.id);
    expect(await snapshot()).toEqual(before);
  });

  it('serialises concurrent corrections of one session (the session row is locked)', async () => {
    const { apply, get } = await setup();
    await Promise.all([3, 7, 11, 13, 17, 19].map((t) => apply({ kind: 'add_shot', time_seconds: t, made: true })));
    const s = await get();
    expect(s.shots.total_count).toBe(11);
    expect(s.totals.points).toBe(8 + 6 * 2);
    expectConsistent(s, 2);
  });

  it('a long game: a shot added at the start renumbers all 300 shots and their highlights in one correction', async () => {
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    const many = Array.from({ length: 300 }, (_, i) => shotAction({ id: `s${i}`, release_t: 5 + i * 10, shooter_track: (i % 4) + 1, made: i % 3 !== 0, is_three_point: i % 5 === 0 }));
    const id = await makeProcessedSession(db, { organizationId: org.id, actions: many, clusters: [1, 2, 3, 4].map((t) => cluster(t, (t % 2) as 0 | 1)), durationSeconds: 3100 });
    await applyCorrection(db, { organizationId: org.id, sessionId: id, actor: coach, correction: { kind: 'add_shot', time_seconds: 1, made: true } });
    await applyCorrection(db, { organizationId: org.id, sessionId: id, actor: coach, correction: { kind: 'add_shot', time_seconds: 2, made: true } });
    const all = await db.select().from(shots).where(eq(shots.sessionId, id));
    expect(all).toHaveLength(302);
    const sorted = [...all].sort((a, b) => a.startSeconds! - b.startSeconds!);
    expect(sorted.map((x) => x.index)).toEqual(sorted.map((_, i) => i));
    const hl = await db.select().from(highlights).where(eq(highlights.sessionId, id));
    for (const h of hl) expect(h.shotIndex).toBe(all.find((x) => x.id === h.shotId)!.index);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
    expect(row.totals!.fg_2pt_att + row.totals!.fg_3pt_att).toBe(302);
  });

  it('keeps the unique time-order index valid when shots move past each other', async () => {
    const { apply, get, db, id } = await setup();
    for (const t of [1, 2, 3, 31, 0]) await apply({ kind: 'add_shot', time_seconds: t });
    const s = await get();
    expect(s.shots.total_count).toBe(10);
    expectConsistent(s, 2);
    const rows = await db.select({ i: shots.index }).from(shots).where(eq(shots.sessionId, id));
    expect(rows.map((r) => r.i).sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const hl = await db.select().from(highlights).where(eq(highlights.sessionId, id));
    for (const h of hl) expect(h.shotIndex).toBe(s.shots.data.find((x) => x.id === h.shotId)!.index);
  });
});
