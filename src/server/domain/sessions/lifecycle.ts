import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { events, highlights, players, sessions, shots, type BoxScoreJson, type SessionVideoKeys } from '../../db/schema';
import { settleHold, voidHold } from '../billing/holds';
import { billableSeconds } from '../billing/money';
import { recordEvent, type ApiEvent } from '../events/events';
import { SESSION_FAILURES, type SessionFailureCode } from './failure-codes';
import { toApiSessions } from './serialize';

/** What the probe measured of a session's video; a failed session keeps it too. */
export interface MeasuredVideo {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
}

/** The measured facts of a probe (ffprobe's `VideoProbe`, or any object with these fields). */
export const measuredOf = (probe: MeasuredVideo): MeasuredVideo => ({ durationSeconds: probe.durationSeconds, width: probe.width, height: probe.height, fps: probe.fps });

/**
 * The state machine of SPEC §3 for the processing pipeline: `queued` → `processing` →
 * `processed` (settled, event) or `failed` (voided, event). Every transition is one
 * transaction and idempotent, so a retried step never settles, voids or records twice.
 */

export async function loadSession(db: Database, sessionId: string) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  return row ?? null;
}

/*
 * Liveness. `heartbeat_at` is set while a pipeline stage runs (at its start and on each
 * progress beat) and cleared when the stage ends: between stages a run may wait for a
 * processing slot behind other games (the concurrency limit counts running steps, as
 * Inngest's does), and waiting in line is not silence. A running stage silent for the job
 * timeout is stale; a run parked between stages is stale only after the queue timeout.
 */

/** queued → processing (parked until its first stage starts). Returns false when the session is already finished (nothing to do). */
export async function markProcessing(db: Database, sessionId: string): Promise<boolean> {
  const [row] = await db
    .update(sessions)
    .set({ status: 'processing', startedAt: sql`coalesce(${sessions.startedAt}, now())`, heartbeatAt: null, stage: 'queued', progress: 0 })
    .where(and(eq(sessions.id, sessionId), inArray(sessions.status, ['queued', 'processing'])))
    .returning({ id: sessions.id });
  return Boolean(row);
}

/** A pipeline stage starts: the job timeout watches it from now. */
export async function beginStage(db: Database, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.status, 'processing')));
}

/**
 * A pipeline stage ended: records how long it took (merged into `sessions.timings`) and parks
 * the run. A stage that ran beside another one (`park: false`, the session renditions during
 * the analysis) records its time only: the other stage is still running and watched.
 */
export async function endStage(db: Database, sessionId: string, stage: string, ms: number, opts: { park?: boolean } = {}): Promise<void> {
  const timings = sql`${sessions.timings} || jsonb_build_object(${stage}::text, ${Math.round(ms)}::int)`;
  await db
    .update(sessions)
    .set(opts.park === false ? { timings } : { timings, heartbeatAt: null })
    .where(eq(sessions.id, sessionId));
}

/**
 * Dashboard progress and the liveness signal the job timeout watches. Only while a stage
 * runs: a late, throttled beat never un-parks a run whose stage has ended.
 */
export async function recordProgress(db: Database, sessionId: string, stage: string, progress: number): Promise<void> {
  await db
    .update(sessions)
    .set({ stage, progress: Math.max(0, Math.min(100, Math.round(progress))), heartbeatAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.status, 'processing'), isNotNull(sessions.heartbeatAt)));
}

export interface CompletedMedia {
  width: number;
  height: number;
  fps: number;
  video: SessionVideoKeys;
  artifacts: Record<'actions' | 'balls' | 'hoops' | 'clusters', string | null>;
}

export interface CompletedRows {
  /**
   * `number`: the player's place in the analysis's list, from 1 (see the players table); absent in rows built before it
   * existed. `colour` and `thumbnailKey`: how they looked (see the players table); absent before run version 53's pipeline.
   */
  players: Array<{ id: string; teamId: number | null; jersey: string | null; stats: BoxScoreJson; number?: number; colour?: string | null; thumbnailKey?: string | null }>;
  shots: Array<Omit<typeof shots.$inferInsert, 'sessionId'>>;
  highlights: Array<Omit<typeof highlights.$inferInsert, 'sessionId'>>;
  totals: BoxScoreJson;
}

async function existingEvent(db: Database, sessionId: string, type: ApiEvent['type']) {
  const [row] = await db.select({ id: events.id }).from(events).where(and(eq(events.sessionId, sessionId), eq(events.type, type)));
  return row?.id ?? null;
}

/**
 * processing → processed, in one transaction: stores shots, highlights, players and
 * totals, settles the hold for the measured length, and records `session.processed`.
 * Returns the event id (the existing one when the session was already processed).
 */
export async function completeSession(
  db: Database,
  opts: { sessionId: string; durationSeconds: number; runVersion: number; media: CompletedMedia; rows: CompletedRows },
): Promise<{ eventId: string; costCents: number } | null> {
  return db.transaction(async (tx) => {
    const [session] = await tx.select().from(sessions).where(eq(sessions.id, opts.sessionId)).for('update');
    if (!session) return null;
    if (session.status === 'processed') {
      const id = await existingEvent(db, session.id, 'session.processed');
      return id ? { eventId: id, costCents: session.costCents ?? 0 } : null;
    }
    if (session.status === 'failed') return null;
    const seconds = billableSeconds(opts.durationSeconds);
    const usage = await settleHold(tx, { sessionId: session.id, measuredSeconds: seconds, runVersion: opts.runVersion });
    if (opts.rows.players.length) await tx.insert(players).values(opts.rows.players.map((p) => ({ ...p, sessionId: session.id })));
    if (opts.rows.shots.length) await tx.insert(shots).values(opts.rows.shots.map((s) => ({ ...s, sessionId: session.id })));
    if (opts.rows.highlights.length) await tx.insert(highlights).values(opts.rows.highlights.map((h) => ({ ...h, sessionId: session.id })));
    const [updated] = await tx
      .update(sessions)
      .set({
        status: 'processed',
        runVersion: opts.runVersion,
        durationSeconds: seconds,
        costCents: usage.costCents,
        width: opts.media.width,
        height: opts.media.height,
        fps: opts.media.fps,
        video: opts.media.video,
        artifacts: opts.media.artifacts,
        totals: opts.rows.totals,
        stage: 'done',
        progress: 100,
        finishedAt: sql`now()`,
        errorCode: null,
        errorMessage: null,
      })
      .where(eq(sessions.id, session.id))
      .returning();
    const [api] = await toApiSessions(tx, [updated]);
    const event = await recordEvent(tx, { organizationId: session.organizationId, type: 'session.processed', session: api });
    return { eventId: event.id, costCents: usage.costCents };
  });
}

/**
 * Any failure → failed, in one transaction: voids the hold (nothing charged), sets the
 * error, records `session.failed`. A session already finished is left as it is.
 */
export async function failSession(
  db: Database,
  opts: { sessionId: string; code: SessionFailureCode; message?: string; measured?: MeasuredVideo },
): Promise<{ eventId: string } | null> {
  return db.transaction(async (tx) => {
    const [session] = await tx.select().from(sessions).where(eq(sessions.id, opts.sessionId)).for('update');
    if (!session) return null;
    if (session.status === 'failed') {
      const id = await existingEvent(db, session.id, 'session.failed');
      return id ? { eventId: id } : null;
    }
    if (session.status === 'processed') return null;
    await voidHold(tx, { sessionId: session.id });
    // rows a partial run may have left are removed, so a failed session shows no half results
    await tx.delete(highlights).where(eq(highlights.sessionId, session.id));
    await tx.delete(shots).where(eq(shots.sessionId, session.id));
    await tx.delete(players).where(eq(players.sessionId, session.id));
    const [updated] = await tx
      .update(sessions)
      .set({
        status: 'failed',
        errorCode: opts.code,
        errorMessage: opts.message ?? SESSION_FAILURES[opts.code],
        // what the probe measured before the failure (SPEC: the measured length once known)
        ...(opts.measured
          ? { durationSeconds: billableSeconds(opts.measured.durationSeconds), width: opts.measured.width, height: opts.measured.height, fps: opts.measured.fps }
          : {}),
        stage: 'failed',
        finishedAt: sql`now()`,
      })
      .where(eq(sessions.id, session.id))
      .returning();
    const [api] = await toApiSessions(tx, [updated]);
    const event = await recordEvent(tx, { organizationId: session.organizationId, type: 'session.failed', session: api });
    return { eventId: event.id };
  });
}

/**
 * Sessions in `processing` whose running stage showed no sign of life for `jobTimeoutSeconds`,
 * or that have been parked between stages for longer than `queueTimeoutSeconds` since they started.
 */
export async function staleSessions(db: Database, opts: { jobTimeoutSeconds: number; queueTimeoutSeconds: number }) {
  return db
    .select({ id: sessions.id, organizationId: sessions.organizationId })
    .from(sessions)
    .where(
      and(
        eq(sessions.status, 'processing'),
        or(
          sql`${sessions.heartbeatAt} < now() - make_interval(secs => ${opts.jobTimeoutSeconds})`,
          and(isNull(sessions.heartbeatAt), sql`${sessions.startedAt} < now() - make_interval(secs => ${opts.queueTimeoutSeconds})`),
        ),
      ),
    );
}

/** Sessions still `queued` after `seconds` (their start event may have been lost). */
export async function queuedSessionsOlderThan(db: Database, seconds: number) {
  return db
    .select({ id: sessions.id, organizationId: sessions.organizationId })
    .from(sessions)
    .where(and(eq(sessions.status, 'queued'), sql`${sessions.createdAt} < now() - make_interval(secs => ${seconds})`));
}
