import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cluster, makeProcessedSession, shotAction } from '../../test/processed-session';
import { makeOrg } from '../../test/db';
import { players } from './schema';

/** The statements of a migration file, as the migrator splits them. */
const statements = (file: string) => readFileSync(join(process.cwd(), 'drizzle', file), 'utf8').split('--> statement-breakpoint');

describe('data migrations', () => {
  it('0010 numbers the players each session already had by their place in its list, session by session', async () => {
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    const game = (tracks: number[]) =>
      makeProcessedSession(db, {
        organizationId: org.id,
        actions: tracks.map((t, i) => shotAction({ id: `s${i}`, release_t: 5 + 10 * i, shooter_track: t })),
        clusters: tracks.map((t) => cluster(t, null)),
      });
    const sessionIds = [await game([1, 2, 3]), await game([7, 8])];
    const [, backfill] = statements('0010_player_numbers.sql');
    // The backfill renumbers every player in the database: run it in a transaction that is rolled back, so
    // the players of tests running beside this one (some merged, with gaps in their numbers) keep theirs.
    const seen = await db
      .transaction(async (tx) => {
        await tx.update(players).set({ number: null }).where(inArray(players.sessionId, sessionIds));
        await tx.execute(sql.raw(backfill));
        const rows = await tx.select().from(players).where(inArray(players.sessionId, sessionIds)).orderBy(asc(players.sessionId), asc(players.id));
        throw Object.assign(new Error('rollback'), { rows });
      })
      .catch((e: Error & { rows?: Array<typeof players.$inferSelect> }) => {
        if (!e.rows) throw e;
        return e.rows;
      });
    expect(sessionIds.map((id) => seen.filter((p) => p.sessionId === id).map((p) => p.number))).toEqual([[1, 2, 3], [1, 2]]);
    // rolled back: the numbers the pipeline gave are there again
    const after = await db.select().from(players).where(eq(players.sessionId, sessionIds[0])).orderBy(asc(players.id));
    expect(after.map((p) => p.number)).toEqual([1, 2, 3]);
  });
});
