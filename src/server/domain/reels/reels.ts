import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { highlights, players, reels, shots, type ReelKind, type ReelOrientation } from '../../db/schema';
import { getMediaStorage, mediaKeys, mediaUrl } from '../../media/storage';
import { AppError, notFound } from '../errors';
import { ownSession } from '../highlights/manual-highlights';
import { isId, newId } from '../ids';

/** Limits of a reel: clips, total length, and the "best N plays" range. */
export const REEL_MAX_CLIPS = 30;
export const REEL_MAX_SECONDS = 600;
export const REEL_DEFAULT_BEST = 5;

type ReelRow = typeof reels.$inferSelect;

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function toApiReel(row: ReelRow) {
  return {
    id: row.id,
    object: 'reel' as const,
    session: row.sessionId,
    title: row.title,
    kind: row.kind,
    orientation: row.orientation,
    criteria: row.criteria,
    highlights: row.highlightIds,
    status: row.status,
    video: row.status === 'ready' ? mediaUrl(row.storageKey) : null,
    poster: row.status === 'ready' ? mediaUrl(row.posterKey) : null,
    duration_seconds: row.durationSeconds,
    width: row.width,
    height: row.height,
    error: row.status === 'failed' ? (row.errorMessage ?? 'The reel could not be rendered.') : null,
    created: unix(row.createdAt)!,
    finished_at: unix(row.finishedAt),
  };
}
export type ApiReel = ReturnType<typeof toApiReel>;

export interface CreateReelInput {
  organizationId: string;
  sessionId: string;
  kind: ReelKind;
  orientation: ReelOrientation;
  title?: string | null;
  /** player_makes: the player (`plr_…`) whose made shots make the reel. */
  player?: string;
  /** team_best: only this team's plays (team_id), else the whole session's. */
  team?: number | null;
  /** team_best: how many plays (1–REEL_MAX_CLIPS, default 5). */
  limit?: number;
  /** picked: highlight ids in play order. */
  highlights?: string[];
  userId?: string | null;
}

/** A ready highlight of the session with what selection needs: its time, shot and the shot's scorer's team. */
async function candidates(db: DbOrTx, sessionId: string) {
  return db
    .select({
      id: highlights.id,
      playerId: highlights.playerId,
      lengthSeconds: highlights.lengthSeconds,
      at: sql<number>`coalesce(${highlights.startSeconds}, ${shots.startSeconds}, 0)`.mapWith(Number),
      made: shots.made,
      excitement: shots.excitementScore,
      teamId: players.teamId,
    })
    .from(highlights)
    .leftJoin(shots, eq(shots.id, highlights.shotId))
    .leftJoin(players, eq(players.id, highlights.playerId))
    .where(and(eq(highlights.sessionId, sessionId), eq(highlights.status, 'ready')));
}

/**
 * The clips of a reel, in play order. `player_makes`: every highlight of a made shot by the
 * player, in game time. `team_best`: the N made shots with the highest excitement score (of
 * one team, or of the session), then in game time. `picked`: the given highlights in the
 * given order. Lowlights (misses) never enter the first two.
 */
export async function selectReelHighlights(db: DbOrTx, input: CreateReelInput & { sessionId: string }) {
  const all = await candidates(db, input.sessionId);
  const byTime = (a: { at: number; id: string }, b: { at: number; id: string }) => a.at - b.at || a.id.localeCompare(b.id);
  let chosen: typeof all;
  if (input.kind === 'player_makes') {
    if (!input.player) throw new AppError('parameter_missing', { message: 'Choose a player.', param: 'player' });
    const [p] = isId('player', input.player)
      ? await db.select({ id: players.id }).from(players).where(and(eq(players.id, input.player), eq(players.sessionId, input.sessionId)))
      : [];
    if (!p) throw notFound('player', 'player');
    chosen = all.filter((h) => h.playerId === p.id && h.made === true).sort(byTime);
  } else if (input.kind === 'team_best') {
    const limit = input.limit ?? REEL_DEFAULT_BEST;
    if (!Number.isInteger(limit) || limit < 1 || limit > REEL_MAX_CLIPS) {
      throw new AppError('parameter_invalid', { message: `limit is 1–${REEL_MAX_CLIPS}.`, param: 'limit' });
    }
    const made = all.filter((h) => h.made === true && (input.team === undefined || input.team === null || h.teamId === input.team));
    chosen = made
      .sort((a, b) => (b.excitement ?? 0) - (a.excitement ?? 0) || byTime(a, b))
      .slice(0, limit)
      .sort(byTime);
  } else {
    const ids = input.highlights ?? [];
    if (ids.length === 0) throw new AppError('parameter_missing', { message: 'Pick at least one clip.', param: 'highlights' });
    if (new Set(ids).size !== ids.length) throw new AppError('parameter_invalid', { message: 'A clip is picked twice.', param: 'highlights' });
    const byId = new Map(all.map((h) => [h.id, h]));
    chosen = ids.map((id, i) => {
      const h = byId.get(id);
      if (!h) throw new AppError('parameter_invalid', { message: `No ready highlight ${id} in this session.`, param: `highlights.${i}` });
      return h;
    });
  }
  if (chosen.length === 0) throw new AppError('parameter_invalid', { message: 'No clips match: the reel would be empty.', param: 'kind' });
  if (chosen.length > REEL_MAX_CLIPS) throw new AppError('parameter_invalid', { message: `A reel holds at most ${REEL_MAX_CLIPS} clips.`, param: 'highlights' });
  const seconds = chosen.reduce((a, h) => a + h.lengthSeconds, 0);
  if (seconds > REEL_MAX_SECONDS) {
    throw new AppError('parameter_invalid', { message: `A reel is at most ${REEL_MAX_SECONDS / 60} minutes long (this one would be ${Math.round(seconds)} s).`, param: 'highlights' });
  }
  return chosen.map((h) => h.id);
}

/** Creates a `queued` reel of a processed session; the caller sends `swish/reel.requested`. */
export async function createReel(db: DbOrTx, input: CreateReelInput): Promise<ApiReel> {
  const session = await ownSession(db, input.organizationId, input.sessionId);
  if (session.status !== 'processed') {
    throw new AppError('session_not_processed', { message: 'Reels can be made once the session is processed.', param: 'session' });
  }
  const title = input.title?.trim() || null;
  if (title && title.length > 120) throw new AppError('parameter_invalid', { message: 'At most 120 characters.', param: 'title' });
  const ids = await selectReelHighlights(db, input);
  const criteria =
    input.kind === 'player_makes' ? { player: input.player } : input.kind === 'team_best' ? { team: input.team ?? null, limit: input.limit ?? REEL_DEFAULT_BEST } : {};
  const [row] = await db
    .insert(reels)
    .values({
      id: newId('reel'),
      organizationId: input.organizationId,
      sessionId: session.id,
      title,
      kind: input.kind,
      orientation: input.orientation,
      criteria,
      highlightIds: ids,
      createdBy: input.userId ?? null,
    })
    .returning();
  return toApiReel(row);
}

export async function ownReel(db: DbOrTx, organizationId: string, reelId: string) {
  const [row] = isId('reel', reelId) ? await db.select().from(reels).where(and(eq(reels.id, reelId), eq(reels.organizationId, organizationId))) : [];
  if (!row) throw notFound('reel', 'reel');
  return row;
}

export async function getReel(db: DbOrTx, opts: { organizationId: string; reelId: string }): Promise<ApiReel> {
  return toApiReel(await ownReel(db, opts.organizationId, opts.reelId));
}

/** A session's reels, newest first (dashboard). */
export async function listReels(db: DbOrTx, opts: { organizationId: string; sessionId: string }): Promise<ApiReel[]> {
  const session = await ownSession(db, opts.organizationId, opts.sessionId);
  const rows = await db.select().from(reels).where(and(eq(reels.organizationId, opts.organizationId), eq(reels.sessionId, session.id))).orderBy(desc(reels.id));
  return rows.map(toApiReel);
}

/** Deletes a reel, its share links (cascade) and its media. */
export async function deleteReel(db: DbOrTx, opts: { organizationId: string; reelId: string }): Promise<void> {
  const row = await ownReel(db, opts.organizationId, opts.reelId);
  await db.delete(reels).where(eq(reels.id, row.id));
  await getMediaStorage().delete(mediaKeys.reelPrefix(row.id));
}

/** queued → rendering; returns the reel and the storage keys of its clips in the reel's orientation (null when a clip is gone). */
export async function startReelRender(db: DbOrTx, reelId: string) {
  const [row] = await db
    .update(reels)
    .set({ status: 'rendering' })
    .where(and(eq(reels.id, reelId), inArray(reels.status, ['queued', 'rendering'])))
    .returning();
  if (!row) return null;
  const rows = row.highlightIds.length
    ? await db.select({ id: highlights.id, video: highlights.video }).from(highlights).where(inArray(highlights.id, row.highlightIds))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r.video]));
  const rendition = row.orientation === 'vertical' ? 'default' : 'horizontal';
  return { reel: row, clipKeys: row.highlightIds.map((id) => byId.get(id)?.[rendition] ?? null) };
}

/** rendering → ready. Returns false when the reel was deleted meanwhile (the caller removes the files). */
export async function finishReel(
  db: DbOrTx,
  reelId: string,
  media: { key: string; posterKey: string; durationSeconds: number; width: number; height: number },
): Promise<boolean> {
  const updated = await db
    .update(reels)
    .set({ status: 'ready', storageKey: media.key, posterKey: media.posterKey, durationSeconds: media.durationSeconds, width: media.width, height: media.height, finishedAt: sql`now()` })
    .where(eq(reels.id, reelId))
    .returning({ id: reels.id });
  return updated.length > 0;
}

export async function failReel(db: DbOrTx, reelId: string, message: string): Promise<void> {
  await db
    .update(reels)
    .set({ status: 'failed', errorMessage: message.slice(0, 300), finishedAt: sql`now()` })
    .where(and(eq(reels.id, reelId), inArray(reels.status, ['queued', 'rendering'])));
}
