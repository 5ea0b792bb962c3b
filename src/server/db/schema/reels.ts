import { index, integer, jsonb, pgTable, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, ts } from './columns';
import { organizations } from './organizations';
import { sessions } from './sessions';

export type ReelKind = 'player_makes' | 'team_best' | 'picked';
export type ReelOrientation = 'vertical' | 'horizontal';
export type ReelStatus = 'queued' | 'rendering' | 'ready' | 'failed';

/**
 * A reel: chosen highlight clips of one session concatenated into one MP4 (dashboard only).
 * `highlightIds` is the play order, fixed when the reel is created; the rendered file does
 * not change when a highlight is deleted later.
 */
export const reels = pgTable(
  'reels',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    title: text('title'),
    kind: text('kind', { enum: ['player_makes', 'team_best', 'picked'] }).$type<ReelKind>().notNull(),
    orientation: text('orientation', { enum: ['vertical', 'horizontal'] }).$type<ReelOrientation>().notNull(),
    /** What the selection was built from: `{ player }` or `{ team, limit }`; empty for picked clips. */
    criteria: jsonb('criteria').$type<Record<string, unknown>>().notNull().default({}),
    highlightIds: jsonb('highlight_ids').$type<string[]>().notNull(),
    status: text('status', { enum: ['queued', 'rendering', 'ready', 'failed'] }).$type<ReelStatus>().notNull().default('queued'),
    /** Storage keys of the rendered MP4 and its poster. */
    storageKey: text('storage_key'),
    posterKey: text('poster_key'),
    durationSeconds: real('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    errorMessage: text('error_message'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('reels_org_session_idx').on(t.organizationId, t.sessionId, t.id)],
);

/**
 * A share link of a reel: `/r/<token>` plays it without an account. Only the SHA-256 of the
 * token is stored (like API keys), so the link is shown once; it stops working when
 * `revoked_at` is set or `expires_at` has passed.
 */
export const reelShares = pgTable(
  'reel_shares',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    reelId: text('reel_id')
      .notNull()
      .references(() => reels.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the token, to tell links apart in the dashboard. */
    tokenPrefix: text('token_prefix').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    lastViewedAt: ts('last_viewed_at'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('reel_shares_token_idx').on(t.tokenHash), index('reel_shares_reel_idx').on(t.reelId, t.id)],
);
