import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { createSession } from './create-session';
import { beginStage, endStage, loadSession, markProcessing, recordProgress, staleSessions } from './lifecycle';

const limits = { jobTimeoutSeconds: 30, queueTimeoutSeconds: 3600 };

async function processingSession() {
  const { db, org } = await makeOrg({ grantCents: 10_000 });
  const { session } = await createSession(db, { organizationId: org.id, apiKeyId: null, input: { source: { url: 'https://a.example/g.mp4' }, duration_seconds: 60 } });
  expect(await markProcessing(db, session.id)).toBe(true);
  const stale = async () => (await staleSessions(db, limits)).some((s) => s.id === session.id);
  const age = (column: 'heartbeat_at' | 'started_at', seconds: number) =>
    db.execute(sql`update sessions set ${sql.raw(column)} = now() - make_interval(secs => ${seconds}) where id = ${session.id}`);
  return { db, id: session.id, stale, age };
}

describe('liveness of a processing session', () => {
  it('a running stage silent for the job timeout is stale', async () => {
    const { db, id, stale, age } = await processingSession();
    await beginStage(db, id);
    expect(await stale()).toBe(false);
    await age('heartbeat_at', 31);
    expect(await stale()).toBe(true);
    await recordProgress(db, id, 'analysing', 10);
    expect(await stale()).toBe(false);
  });

  it('a run parked between stages behind other games is not stale until the queue timeout', async () => {
    const { db, id, stale, age } = await processingSession();
    await beginStage(db, id);
    await endStage(db, id, 'source', 1234);
    const parked = (await loadSession(db, id))!;
    expect(parked.heartbeatAt).toBeNull();
    expect(parked.timings).toMatchObject({ source: 1234 });
    await age('started_at', 600); // waited ten minutes for a slot: longer than the job timeout
    expect(await stale()).toBe(false);
    await age('started_at', 3601);
    expect(await stale()).toBe(true);
  });

  it('a late progress beat never un-parks a run whose stage ended', async () => {
    const { db, id } = await processingSession();
    await beginStage(db, id);
    await endStage(db, id, 'analyse', 10);
    await recordProgress(db, id, 'analysing', 60);
    const [row] = await db.select({ heartbeatAt: sessions.heartbeatAt, progress: sessions.progress }).from(sessions).where(eq(sessions.id, id));
    expect(row).toEqual({ heartbeatAt: null, progress: 0 });
  });
});
