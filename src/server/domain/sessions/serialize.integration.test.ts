import { describe, expect, it } from 'vitest';
import { highlights, players, sessions, shots } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { newId } from '../ids';
import { compileOutputCheck } from '../../trpc/output-check';
import { ZListShotsResponse } from '../../trpc/routers/sessions/list-session-children.types';
import { ZGetSessionResponse } from '../../trpc/routers/sessions/get-session.types';
import { ZListSessionsResponse } from '../../trpc/routers/sessions/list-sessions.types';
import { getSession, listSessionShots, listSessions } from './read-sessions';

const box = { points: 2, fg_2pt_att: 1, fg_2pt_make: 1, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 };

async function seed(n: number) {
  const { db, org } = await makeOrg();
  const id = newId('session');
  await db.insert(sessions).values({
    id, organizationId: org.id, groupId: org.defaultGroupId, status: 'processed', sourceType: 'url', sourceUrl: 'https://a.example/g.mp4',
    runVersion: 2, durationSeconds: 600, costCents: 84, width: 1280, height: 720, fps: 29.97, totals: box,
    video: { original: `sessions/${id}/original.mp4`, '720p': `sessions/${id}/720p.mp4` },
    artifacts: { actions: `sessions/${id}/actions.jsonl` },
  });
  const plr = newId('player');
  await db.insert(players).values({ id: plr, sessionId: id, name: 'Ana', jersey: '7', teamId: 0, stats: box });
  const shotIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const sid = newId('shot');
    shotIds.push(sid);
    await db.insert(shots).values({
      id: sid, sessionId: id, index: i, startSeconds: i * 5, endSeconds: i * 5 + 2, made: i % 2 === 0, points: i % 2 === 0 ? 2 : 0,
      isThreePoint: false, shotImageNormed: [0.25, 0.5], shotWorldNormed: null, hoopImageNormed: [0.5, 0.2], excitementScore: 0.7, scorerId: plr,
    });
    await db.insert(highlights).values({ id: newId('highlight'), sessionId: id, shotId: sid, shotIndex: i, lengthSeconds: 6.5, playerId: plr, video: { default: `sessions/${id}/hl/${i}.mp4` }, preview: {} });
  }
  return { db, org, id, plr, shotIds };
}

describe('session serialization', () => {
  it('builds the full session with embedded lists capped at 100 and signed media URLs', async () => {
    const { db, org, id, plr, shotIds } = await seed(105);
    const s = await getSession(db, { organizationId: org.id, id });
    expect(s).toMatchObject({ id, status: 'processed', run_version: 2, duration_seconds: 600, cost_cents: 84, totals: box });
    expect(s.video.width).toBe(1280);
    expect(s.video.fps).toBeCloseTo(29.97, 2);
    expect(s.video.url).toMatch(new RegExp(`/media/sessions/${id}/original\\.mp4\\?expires=\\d+&signature=`));
    expect(s.video['1080p']).toBeNull();
    expect(s.artifacts.actions).toContain('/media/');
    expect(s.shots).toMatchObject({ object: 'list', has_more: true, total_count: 105, url: `/v1/sessions/${id}/shots` });
    expect(s.shots.data).toHaveLength(100);
    expect(s.shots.data.map((x) => x.id)).toEqual(shotIds.slice(0, 100));
    expect(s.shots.data[0]).toMatchObject({
      object: 'shot', index: 0, made: true, points: 2, type: 'fieldgoal', is_free_throw: false,
      location: { shot_image_normed: [0.25, 0.5], shot_world_normed: null, hoop_image_normed: [0.5, 0.2] },
      players: { scorer: plr, assister: null, rebounder: null },
    });
    expect(s.highlights.total_count).toBe(105);
    expect(s.highlights.data[0]).toMatchObject({ object: 'highlight', shot: shotIds[0], length_seconds: 6.5, is_lowlight: false, player: plr });
    expect(s.highlights.data[0].video.default).toContain('/media/');
    expect(s.highlights.data[0].video['144p']).toBeNull();
    expect(typeof s.highlights.data[0].created).toBe('number');
    expect(s.players.data).toEqual([{ id: plr, object: 'player', name: 'Ana', jersey: '7', user_id: null, team_id: 0, stats: box }]);

    const rest = await listSessionShots(db, { organizationId: org.id, sessionId: id, params: { limit: 100, starting_after: shotIds[99] } });
    expect(rest.data.map((x) => x.id)).toEqual(shotIds.slice(100));
    const list = await listSessions(db, { organizationId: org.id, params: { limit: 100 } });
    expect(list.data[0]).toEqual(s);

    // Built in the public shape, key for key and in order (the jsonb columns too), so the
    // responses' output check takes them as they are instead of copying them through zod.
    expect(compileOutputCheck(ZGetSessionResponse)!(s)).toBe(true);
    expect(compileOutputCheck(ZListSessionsResponse)!(list)).toBe(true);
    expect(compileOutputCheck(ZListShotsResponse)!(rest)).toBe(true);
  });
});
