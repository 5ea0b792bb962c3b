import { eq } from 'drizzle-orm';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { highlights, players, sessions, shots } from '../server/db/schema';
import { emptyBoxScore } from '../server/analysis/box-score';
import { newId } from '../server/domain/ids';
import { createSession } from '../server/domain/sessions/create-session';
import { getMediaStorage, mediaKeys } from '../server/media/storage';
import { makeTestVideo } from '../server/media/test-videos';
import { makeOrg } from './db';

export interface ShotSpec {
  start: number;
  end: number;
  made: boolean;
  excitement?: number;
  /** Index into the session's players (0 or 1; player 0 is on team 0, player 1 on team 1). */
  scorer?: number;
}

/**
 * A processed session as the pipeline leaves it, without running the analyser: a real test
 * video stored as its original, two players on two teams, and the given shots. Media go to
 * whatever storage is configured (`setMediaStorage` in the test).
 */
export async function makeSessionWithVideo(opts: { seconds: number; width?: number; height?: number; audio?: boolean; shots: ShotSpec[] }) {
  const { db, org } = await makeOrg({ grantCents: 10_000 });
  const created = await createSession(db, {
    organizationId: org.id,
    apiKeyId: null,
    input: { source: { url: 'https://videos.example.com/game.mp4' }, duration_seconds: opts.seconds, metadata: { name: 'Scrimmage vs Eagles' } },
  });
  const sessionId = created.session.id;
  const dir = await mkdtemp(join(tmpdir(), 'swish-processed-'));
  const file = join(dir, 'original.mp4');
  const width = opts.width ?? 640;
  const height = opts.height ?? 360;
  await makeTestVideo({ path: file, width, height, seconds: opts.seconds, audio: opts.audio ?? true });
  const originalKey = mediaKeys.sessionOriginal(sessionId, 'mp4');
  await getMediaStorage().putFile(originalKey, file, 'video/mp4', { move: true });
  await rm(dir, { recursive: true, force: true });
  const playerIds = [newId('player'), newId('player')];
  await db.insert(players).values(playerIds.map((id, i) => ({ id, sessionId, teamId: i, jersey: String(10 + i), stats: emptyBoxScore() })));
  const shotIds = opts.shots.map(() => newId('shot'));
  if (opts.shots.length) {
    await db.insert(shots).values(
      opts.shots.map((s, i) => ({
        id: shotIds[i],
        sessionId,
        index: i,
        startSeconds: s.start,
        endSeconds: s.end,
        made: s.made,
        points: s.made ? 2 : 0,
        excitementScore: s.excitement ?? null,
        scorerId: s.scorer === undefined ? null : playerIds[s.scorer],
      })),
    );
  }
  await db
    .update(sessions)
    .set({ status: 'processed', durationSeconds: opts.seconds, width, height, fps: 30, video: { original: originalKey }, stage: 'done', progress: 100 })
    .where(eq(sessions.id, sessionId));
  return { db, org, sessionId, shotIds, playerIds, originalKey };
}

/** Rows of a session's highlights, for assertions. */
export async function highlightRows(db: Awaited<ReturnType<typeof makeOrg>>['db'], sessionId: string) {
  return db.select().from(highlights).where(eq(highlights.sessionId, sessionId));
}
