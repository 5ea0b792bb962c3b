import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { highlights, sessions, shots } from '../../db/schema';
import type { HighlightClipResult } from '../../media/clips';
import { getMediaStorage, mediaKeys } from '../../media/storage';
import { AppError, notFound } from '../errors';
import { isId, newId } from '../ids';

/** Limits of a manual highlight: its length, and how many one session may hold. */
export const MANUAL_HIGHLIGHT_MIN_SECONDS = 1;
export const MANUAL_HIGHLIGHT_MAX_SECONDS = 60;
export const MANUAL_HIGHLIGHTS_PER_SESSION = 200;

type HighlightRow = typeof highlights.$inferSelect;

/** The organization's session, or 404 (another organization's id is not found either). */
export async function ownSession(db: DbOrTx, organizationId: string, sessionId: string) {
  const [row] = isId('session', sessionId)
    ? await db.select().from(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.organizationId, organizationId)))
    : [];
  if (!row) throw notFound('session', 'session');
  return row;
}

/** A manual highlight as the dashboard lists it, whatever its state (the public Session shows ready ones only). */
export function toManualHighlight(row: HighlightRow) {
  return {
    id: row.id,
    status: row.status,
    start_seconds: row.startSeconds,
    length_seconds: row.lengthSeconds,
    shot: row.shotId,
    player: row.playerId,
    created: Math.floor(row.createdAt.getTime() / 1000),
  };
}
export type ManualHighlight = ReturnType<typeof toManualHighlight>;

/**
 * A coach marks a moment of a processed session: validates the window against the video's
 * length and the limits, and stores the highlight as `processing`. The caller then sends
 * `swish/highlight.requested`; the `cut-manual-highlight` function cuts it. Nothing is
 * charged and no Event is recorded.
 */
export async function createManualHighlight(
  db: DbOrTx,
  opts: { organizationId: string; sessionId: string; startSeconds: number; endSeconds: number; userId?: string | null },
): Promise<ManualHighlight> {
  const session = await ownSession(db, opts.organizationId, opts.sessionId);
  if (session.status !== 'processed' || !session.video.original) {
    throw new AppError('session_not_processed', { message: 'Highlights can be marked once the session is processed.', param: 'session' });
  }
  const start = Math.round(opts.startSeconds * 1000) / 1000;
  const end = Math.round(opts.endSeconds * 1000) / 1000;
  const duration = session.durationSeconds ?? 0;
  if (!(start >= 0)) throw new AppError('parameter_invalid', { message: 'start_seconds must be 0 or more.', param: 'start_seconds' });
  if (!(end > start)) throw new AppError('parameter_invalid', { message: 'end_seconds must be after start_seconds.', param: 'end_seconds' });
  if (end > duration) {
    throw new AppError('parameter_invalid', { message: `end_seconds is past the end of the video (${duration} s).`, param: 'end_seconds' });
  }
  if (end - start < MANUAL_HIGHLIGHT_MIN_SECONDS || end - start > MANUAL_HIGHLIGHT_MAX_SECONDS) {
    throw new AppError('parameter_invalid', {
      message: `A highlight is ${MANUAL_HIGHLIGHT_MIN_SECONDS}–${MANUAL_HIGHLIGHT_MAX_SECONDS} s long.`,
      param: 'end_seconds',
    });
  }
  const [{ n }] = await db
    .select({ n: count() })
    .from(highlights)
    .where(and(eq(highlights.sessionId, session.id), eq(highlights.isManual, true)));
  if (Number(n) >= MANUAL_HIGHLIGHTS_PER_SESSION) {
    throw new AppError('resource_limit_reached', { message: `A session holds at most ${MANUAL_HIGHLIGHTS_PER_SESSION} manual highlights.` });
  }
  const [row] = await db
    .insert(highlights)
    .values({
      id: newId('highlight'),
      sessionId: session.id,
      shotId: null,
      lengthSeconds: Math.round((end - start) * 1000) / 1000,
      isManual: true,
      status: 'processing',
      startSeconds: start,
      createdBy: opts.userId ?? null,
    })
    .returning();
  return toManualHighlight(row);
}

/** Every manual highlight of a session in creation order, with its state (dashboard). */
export async function listManualHighlights(db: DbOrTx, opts: { organizationId: string; sessionId: string }): Promise<ManualHighlight[]> {
  const session = await ownSession(db, opts.organizationId, opts.sessionId);
  const rows = await db
    .select()
    .from(highlights)
    .where(and(eq(highlights.sessionId, session.id), eq(highlights.isManual, true)))
    .orderBy(asc(highlights.id));
  return rows.map(toManualHighlight);
}

/**
 * The shot a manual highlight is for: among the shots whose span (release → end) overlaps
 * the window, the one whose middle is nearest the window's middle; null when none does.
 */
export function nearestShot<S extends { startSeconds: number | null; endSeconds: number | null }>(list: S[], start: number, end: number): S | null {
  const mid = (start + end) / 2;
  let best: S | null = null;
  let bestDistance = Infinity;
  for (const s of list) {
    if (s.startSeconds === null) continue;
    const sEnd = s.endSeconds ?? s.startSeconds;
    if (sEnd < start || s.startSeconds > end) continue;
    const d = Math.abs((s.startSeconds + sEnd) / 2 - mid);
    if (d < bestDistance) {
      best = s;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Stores a cut clip and attaches the highlight to the nearest shot (its scorer becomes the
 * highlight's player); the highlight becomes `ready` and appears in the Session. Returns
 * false when the highlight was deleted meanwhile (the caller removes the clip's media).
 */
export async function finishManualHighlight(db: DbOrTx, opts: { highlightId: string; clip: HighlightClipResult }): Promise<boolean> {
  const [row] = await db.select().from(highlights).where(eq(highlights.id, opts.highlightId));
  if (!row) return false;
  if (row.status === 'ready') return true;
  const start = row.startSeconds ?? 0;
  const sessionShots = await db.select().from(shots).where(eq(shots.sessionId, row.sessionId));
  const shot = nearestShot(sessionShots, start, start + row.lengthSeconds);
  await db
    .update(highlights)
    .set({
      status: 'ready',
      video: opts.clip.video,
      preview: opts.clip.preview,
      lengthSeconds: opts.clip.lengthSeconds,
      shotId: shot?.id ?? null,
      shotIndex: shot?.index ?? null,
      playerId: shot?.scorerId ?? null,
    })
    .where(eq(highlights.id, row.id));
  return true;
}

/** A clip that could not be cut: the highlight stays listed in the dashboard as `failed`, to delete or mark again. */
export async function failManualHighlight(db: DbOrTx, highlightId: string): Promise<void> {
  await db.update(highlights).set({ status: 'failed' }).where(and(eq(highlights.id, highlightId), eq(highlights.status, 'processing')));
}

/** Deletes a manual highlight and its clip files. Automatic highlights cannot be deleted. */
export async function deleteManualHighlight(db: DbOrTx, opts: { organizationId: string; sessionId: string; highlightId: string }): Promise<void> {
  const session = await ownSession(db, opts.organizationId, opts.sessionId);
  const [row] = isId('highlight', opts.highlightId)
    ? await db.select().from(highlights).where(and(eq(highlights.id, opts.highlightId), eq(highlights.sessionId, session.id)))
    : [];
  if (!row) throw notFound('highlight', 'highlight');
  if (!row.isManual) throw new AppError('parameter_invalid', { message: 'Only manual highlights can be deleted.', param: 'highlight' });
  await db.delete(highlights).where(eq(highlights.id, row.id));
  await getMediaStorage().delete(mediaKeys.highlightPrefix(session.id, row.id));
}
