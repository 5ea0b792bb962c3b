import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reelShares, reels, sessions } from '../../db/schema';
import { publicBaseUrl } from '../../media/urls';
import { AppError, notFound } from '../errors';
import { isId, newId } from '../ids';
import { ownReel } from './reels';

/** A share link lives 30 days unless asked otherwise (1–365). */
export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 365;

/** 32 random bytes (256 bits) in base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const shareUrl = (token: string) => `${publicBaseUrl()}/r/${token}`;

type ShareRow = typeof reelShares.$inferSelect;

export function toApiReelShare(row: ShareRow, now = new Date()) {
  return {
    id: row.id,
    object: 'reel_share' as const,
    reel: row.reelId,
    /** The first characters of the token, to tell links apart; the full link is shown once. */
    token_prefix: row.tokenPrefix,
    status: row.revokedAt ? ('revoked' as const) : row.expiresAt <= now ? ('expired' as const) : ('active' as const),
    expires_at: Math.floor(row.expiresAt.getTime() / 1000),
    revoked_at: row.revokedAt ? Math.floor(row.revokedAt.getTime() / 1000) : null,
    last_viewed_at: row.lastViewedAt ? Math.floor(row.lastViewedAt.getTime() / 1000) : null,
    created: Math.floor(row.createdAt.getTime() / 1000),
  };
}
export type ApiReelShare = ReturnType<typeof toApiReelShare>;

/**
 * A share link for a ready reel: an unguessable token (256 random bits) of which only the
 * SHA-256 is stored, so the link (`url`) is returned here once, like an API key's secret.
 */
export async function createReelShare(
  db: DbOrTx,
  opts: { organizationId: string; reelId: string; expiresInDays?: number; userId?: string | null },
): Promise<ApiReelShare & { token: string; url: string }> {
  const reel = await ownReel(db, opts.organizationId, opts.reelId);
  if (reel.status !== 'ready') throw new AppError('reel_not_ready', { message: 'The reel is not rendered yet.', param: 'reel' });
  const days = opts.expiresInDays ?? SHARE_DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > SHARE_MAX_DAYS) {
    throw new AppError('parameter_invalid', { message: `expires_in_days is 1–${SHARE_MAX_DAYS}.`, param: 'expires_in_days' });
  }
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(reelShares)
    .values({
      id: newId('reelShare'),
      organizationId: opts.organizationId,
      reelId: reel.id,
      tokenHash: hashToken(token),
      tokenPrefix: token.slice(0, 6),
      expiresAt: sql`now() + make_interval(days => ${days})`,
      createdBy: opts.userId ?? null,
    })
    .returning();
  return { ...toApiReelShare(row), token, url: shareUrl(token) };
}

export async function listReelShares(db: DbOrTx, opts: { organizationId: string; reelId: string }): Promise<ApiReelShare[]> {
  const reel = await ownReel(db, opts.organizationId, opts.reelId);
  const rows = await db.select().from(reelShares).where(eq(reelShares.reelId, reel.id)).orderBy(desc(reelShares.id));
  return rows.map((r) => toApiReelShare(r));
}

/** Revokes a share link at once (idempotent): its page answers 410 from the next request. */
export async function revokeReelShare(db: DbOrTx, opts: { organizationId: string; shareId: string }): Promise<ApiReelShare> {
  const [row] = isId('reelShare', opts.shareId)
    ? await db.select().from(reelShares).where(and(eq(reelShares.id, opts.shareId), eq(reelShares.organizationId, opts.organizationId)))
    : [];
  if (!row) throw notFound('share link', 'share');
  const [updated] = await db
    .update(reelShares)
    .set({ revokedAt: sql`coalesce(${reelShares.revokedAt}, now())` })
    .where(eq(reelShares.id, row.id))
    .returning();
  return toApiReelShare(updated);
}

export type ResolvedShare =
  | { state: 'missing' }
  | { state: 'revoked' | 'expired' }
  | { state: 'ok'; reel: typeof reels.$inferSelect; sessionName: string | null; shareId: string };

/**
 * What a `/r/<token>` request may see. The token is looked up by its hash (so no timing
 * difference reveals a stored token); an unknown or malformed token, or a reel that is gone
 * or not ready, is `missing` (404); a revoked or expired link is `revoked`/`expired` (410).
 */
export async function resolveShareToken(db: DbOrTx, token: string, now = new Date()): Promise<ResolvedShare> {
  if (!TOKEN_PATTERN.test(token)) return { state: 'missing' };
  const [hit] = await db
    .select({ share: reelShares, reel: reels, metadata: sessions.metadata })
    .from(reelShares)
    .innerJoin(reels, eq(reels.id, reelShares.reelId))
    .innerJoin(sessions, eq(sessions.id, reels.sessionId))
    .where(eq(reelShares.tokenHash, hashToken(token)));
  if (!hit) return { state: 'missing' };
  if (hit.share.revokedAt) return { state: 'revoked' };
  if (hit.share.expiresAt <= now) return { state: 'expired' };
  if (hit.reel.status !== 'ready' || !hit.reel.storageKey) return { state: 'missing' };
  await db
    .update(reelShares)
    .set({ lastViewedAt: sql`now()` })
    .where(and(eq(reelShares.id, hit.share.id), isNull(reelShares.revokedAt)));
  return { state: 'ok', reel: hit.reel, sessionName: hit.metadata.name ?? null, shareId: hit.share.id };
}
