import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSessionWithVideo } from '../../../test/session-with-video';
import { reelShares } from '../../db/schema';
import { inngest } from '../../jobs/client';
import { startTestInngest, type TestInngest } from '../../jobs/engine/testing';
import { cutManualHighlight } from '../../jobs/functions/cut-manual-highlight';
import { renderReelFunction } from '../../jobs/functions/render-reel';
import { notifyHighlightRequested, notifyReelRequested } from '../../jobs/notify';
import { probeVideo } from '../../media/ffmpeg';
import { LocalMediaStorage, setMediaStorage } from '../../media/storage';
import { createManualHighlight, deleteManualHighlight, listManualHighlights } from '../highlights/manual-highlights';
import { createReel, getReel, type ApiReel } from './reels';
import { createReelShare, listReelShares, resolveShareToken, revokeReelShare } from './shares';
import { until as pollUntil } from '../../../test/until';

/** Polls `probe` every 200 ms until it is truthy (default 120_000 ms). */
const until = <T>(what: string, probe: Parameters<typeof pollUntil<T>>[1], timeoutMs = 120_000) => pollUntil<T>(what, probe, { timeoutMs, intervalMs: 200 });

/**
 * Reels end to end: clips cut by the real `cut-manual-highlight`, reels rendered by the real
 * `render-reel` through the embedded engine and ffmpeg, share links resolved as `/r/<token>` does.
 */

let jobs: TestInngest;
let dir: string;
let storage: LocalMediaStorage;
let fixture: Awaited<ReturnType<typeof makeSessionWithVideo>>;
/** Manual highlights over shots 0 (made, player 0, excitement 0.2), 1 (made, player 1, 0.9), 2 (missed, player 0), 3 (made, player 0, 0.7). */
let clips: Array<{ id: string; length: number }>;


beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-reels-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  setMediaStorage(storage);
  jobs = await startTestInngest({ client: inngest, functions: [cutManualHighlight, renderReelFunction] });
  fixture = await makeSessionWithVideo({
    seconds: 16,
    shots: [
      { start: 1, end: 2, made: true, scorer: 0, excitement: 0.2 },
      { start: 5, end: 6, made: true, scorer: 1, excitement: 0.9 },
      { start: 9, end: 10, made: false, scorer: 0, excitement: 0.95 },
      { start: 13, end: 14, made: true, scorer: 0, excitement: 0.7 },
    ],
  });
  const { db, org, sessionId } = fixture;
  const windows: Array<[number, number]> = [[0.5, 2.5], [4, 7], [8.5, 10.5], [12.5, 15]];
  for (const [start, end] of windows) {
    const hl = await createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds: start, endSeconds: end });
    await notifyHighlightRequested({ id: hl.id, sessionId }, org.id);
  }
  const ready = await until('four clips cut', async () => {
    const list = await listManualHighlights(db, { organizationId: org.id, sessionId });
    return list.every((h) => h.status === 'ready') && list;
  });
  clips = ready.map((h) => ({ id: h.id, length: h.length_seconds }));
}, 240_000);

afterAll(async () => {
  await jobs?.stop();
  setMediaStorage(undefined);
  await rm(dir, { recursive: true, force: true });
});

async function rendered(reel: ApiReel): Promise<ApiReel> {
  await notifyReelRequested(reel.id, fixture.org.id);
  return until(`reel ${reel.id} rendered`, async () => {
    const r = await getReel(fixture.db, { organizationId: fixture.org.id, reelId: reel.id });
    if (r.status === 'failed') throw new Error(`reel failed: ${r.error}`);
    return r.status === 'ready' && r;
  });
}

describe('reels', () => {
  it('picked clips render into one horizontal MP4 as long as the clips together, with a poster', async () => {
    const { db, org, sessionId } = fixture;
    const picked = [clips[3].id, clips[0].id];
    const reel = await createReel(db, { organizationId: org.id, sessionId, kind: 'picked', orientation: 'horizontal', highlights: picked });
    expect(reel).toMatchObject({ status: 'queued', highlights: picked, video: null });
    const done = await rendered(reel);
    const sum = clips[3].length + clips[0].length;
    expect(done.duration_seconds!).toBeGreaterThan(sum - 0.35);
    expect(done.duration_seconds!).toBeLessThan(sum + 0.35);
    expect(done.video).toContain('/media/reels/');
    expect(done.poster).toContain('poster.jpg');
    const file = await probeVideo(storage.localPath(`reels/${reel.id}/reel.mp4`));
    expect(file.width).toBeGreaterThan(file.height);
    expect(file.hasAudio).toBe(true);
    expect(file.durationSeconds).toBeCloseTo(done.duration_seconds!, 1);
  }, 180_000);

  it('a team’s best plays are the most exciting made shots in game order, vertical; a player’s makes are theirs only', async () => {
    const { db, org, sessionId, playerIds } = fixture;
    const best = await createReel(db, { organizationId: org.id, sessionId, kind: 'team_best', orientation: 'vertical', limit: 2 });
    // shot 2 (0.95) is a miss: the best two made are shots 1 (0.9) and 3 (0.7), in time order
    expect(best.highlights).toEqual([clips[1].id, clips[3].id]);
    const done = await rendered(best);
    const file = await probeVideo(storage.localPath(`reels/${best.id}/reel.mp4`));
    expect(file.height).toBeGreaterThan(file.width);
    expect(done.duration_seconds!).toBeCloseTo(clips[1].length + clips[3].length, 0);

    const teamOne = await createReel(db, { organizationId: org.id, sessionId, kind: 'team_best', orientation: 'vertical', team: 0, limit: 5 });
    expect(teamOne.highlights).toEqual([clips[0].id, clips[3].id]);
    const makes = await createReel(db, { organizationId: org.id, sessionId, kind: 'player_makes', orientation: 'vertical', player: playerIds[0] });
    expect(makes.highlights).toEqual([clips[0].id, clips[3].id]);
    await expect(createReel(db, { organizationId: org.id, sessionId, kind: 'team_best', orientation: 'vertical', team: 5 })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'kind',
    });
    await expect(createReel(db, { organizationId: org.id, sessionId, kind: 'picked', orientation: 'vertical', highlights: ['hl_nope'] })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'highlights.0',
    });
    await expect(createReel(db, { organizationId: org.id, sessionId, kind: 'player_makes', orientation: 'vertical' })).rejects.toMatchObject({ code: 'parameter_missing' });
  }, 180_000);

  it('a reel whose clips were all deleted fails with a message', async () => {
    const { db, org, sessionId } = fixture;
    const extra = await createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds: 2, endSeconds: 4 });
    await notifyHighlightRequested({ id: extra.id, sessionId }, org.id);
    await until('the extra clip cut', async () => (await listManualHighlights(db, { organizationId: org.id, sessionId })).find((h) => h.id === extra.id && h.status === 'ready'));
    const reel = await createReel(db, { organizationId: org.id, sessionId, kind: 'picked', orientation: 'vertical', highlights: [extra.id] });
    await deleteManualHighlight(db, { organizationId: org.id, sessionId, highlightId: extra.id });
    await notifyReelRequested(reel.id, org.id);
    const failed = await until('the reel failed', async () => {
      const r = await getReel(db, { organizationId: org.id, reelId: reel.id });
      return r.status === 'failed' && r;
    });
    expect(failed.error).toMatch(/clips/);
    expect(failed.video).toBeNull();
    await expect(createReelShare(db, { organizationId: org.id, reelId: reel.id })).rejects.toMatchObject({ code: 'reel_not_ready' });
  }, 180_000);

  it('share links: unguessable, stored hashed, resolve until revoked or expired', async () => {
    const { db, org, sessionId } = fixture;
    const queued = await createReel(db, { organizationId: org.id, sessionId, kind: 'picked', orientation: 'vertical', highlights: [clips[1].id] });
    await expect(createReelShare(db, { organizationId: org.id, reelId: queued.id })).rejects.toMatchObject({ code: 'reel_not_ready', status: 409 });
    const reel = await rendered(queued);

    const share = await createReelShare(db, { organizationId: org.id, reelId: reel.id });
    expect(share.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(share.url).toMatch(new RegExp(`/r/${share.token}$`));
    expect(share.status).toBe('active');
    const days = (share.expires_at - Math.floor(Date.now() / 1000)) / 86_400;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
    const [stored] = await db.select().from(reelShares).where(eq(reelShares.id, share.id));
    expect(JSON.stringify(stored)).not.toContain(share.token);

    const ok = await resolveShareToken(db, share.token);
    expect(ok).toMatchObject({ state: 'ok', sessionName: 'Scrimmage vs Eagles' });
    expect(ok.state === 'ok' && ok.reel.id).toBe(reel.id);
    expect(await resolveShareToken(db, share.token.slice(0, -1) + (share.token.endsWith('A') ? 'B' : 'A'))).toEqual({ state: 'missing' });
    expect(await resolveShareToken(db, 'short')).toEqual({ state: 'missing' });

    // another organization cannot revoke it
    const other = await makeSessionWithVideo({ seconds: 2, shots: [] });
    await expect(revokeReelShare(db, { organizationId: other.org.id, shareId: share.id })).rejects.toMatchObject({ code: 'resource_missing' });
    const revoked = await revokeReelShare(db, { organizationId: org.id, shareId: share.id });
    expect(revoked.status).toBe('revoked');
    expect(await resolveShareToken(db, share.token)).toEqual({ state: 'revoked' });

    const week = await createReelShare(db, { organizationId: org.id, reelId: reel.id, expiresInDays: 7 });
    expect(await resolveShareToken(db, week.token)).toMatchObject({ state: 'ok' });
    await db.update(reelShares).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(reelShares.id, week.id));
    expect(await resolveShareToken(db, week.token)).toEqual({ state: 'expired' });
    expect((await listReelShares(db, { organizationId: org.id, reelId: reel.id })).map((s) => s.status)).toEqual(['expired', 'revoked']);
  }, 180_000);
});
