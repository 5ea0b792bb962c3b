import { boolean, index, integer, jsonb, pgTable, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BoxScore } from '../../analysis/box-score';
import type { SessionFailureCode } from '../../domain/sessions/failure-codes';
import { createdAt, idColumn, ts } from './columns';
import { apiKeys } from './api-keys';
import { groups, organizations } from './organizations';

export type SessionStatus = 'queued' | 'processing' | 'processed' | 'failed';

/** Storage keys (not URLs) of a session's media; URLs are signed when a session is read. */
export interface SessionVideoKeys {
  original?: string | null;
  preview?: string | null;
  '1080p'?: string | null;
  '720p'?: string | null;
  '360p'?: string | null;
}

export type BoxScoreJson = BoxScore;

/** A submitted game video and, once processed, what was found in it (SPEC §2.2). */
export const sessions = pgTable(
  'sessions',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id),
    /** The key that submitted it; null for dashboard submissions. */
    apiKeyId: text('api_key_id').references(() => apiKeys.id),
    status: text('status', { enum: ['queued', 'processing', 'processed', 'failed'] }).notNull(),
    sourceType: text('source_type', { enum: ['upload', 'url', 'platform'] }).notNull(),
    sourceUrl: text('source_url'),
    uploadId: text('upload_id'),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** The client's `duration_seconds`, used only for the hold estimate. */
    declaredDurationSeconds: integer('declared_duration_seconds'),
    runVersion: integer('run_version'),
    durationSeconds: integer('duration_seconds'),
    costCents: integer('cost_cents'),
    width: integer('width'),
    height: integer('height'),
    fps: real('fps'),
    video: jsonb('video').$type<SessionVideoKeys>().notNull().default({}),
    /** Storage keys of the JSONL artifacts (`actions`, `balls`, `hoops`, `clusters`). */
    artifacts: jsonb('artifacts').$type<Record<string, string | null>>().notNull().default({}),
    totals: jsonb('totals').$type<BoxScoreJson | null>(),
    errorCode: text('error_code').$type<SessionFailureCode>(),
    errorMessage: text('error_message'),
    /** Dashboard-only progress: the pipeline stage and a 0–100 percentage. */
    stage: text('stage'),
    progress: integer('progress'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    /** Wall milliseconds per pipeline stage (source, analyse, renditions, clips, pictures, settle), for operators and benchmarks. */
    timings: jsonb('timings').$type<Record<string, number>>().notNull().default({}),
    /** Last sign of life from the pipeline; a run silent for SWISH_JOB_TIMEOUT is failed. */
    heartbeatAt: ts('heartbeat_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sessions_org_idx').on(t.organizationId, t.id),
    index('sessions_org_status_idx').on(t.organizationId, t.status, t.id),
    index('sessions_org_group_idx').on(t.organizationId, t.groupId, t.id),
  ],
);

export const shots = pgTable(
  'shots',
  {
    id: idColumn(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    index: integer('index'),
    startSeconds: real('start_seconds'),
    endSeconds: real('end_seconds'),
    made: boolean('made'),
    points: integer('points'),
    type: text('type').notNull().default('fieldgoal'),
    isThreePoint: boolean('is_three_point'),
    isFreeThrow: boolean('is_free_throw').notNull().default(false),
    isFouled: boolean('is_fouled').notNull().default(false),
    shotImageNormed: jsonb('shot_image_normed').$type<number[] | null>(),
    shotWorldNormed: jsonb('shot_world_normed').$type<number[] | null>(),
    hoopImageNormed: jsonb('hoop_image_normed').$type<number[] | null>(),
    excitementScore: real('excitement_score'),
    scorerId: text('scorer_id'),
    assisterId: text('assister_id'),
    rebounderId: text('rebounder_id'),
    highlightId: text('highlight_id'),
  },
  (t) => [uniqueIndex('shots_session_index_idx').on(t.sessionId, t.index)],
);

export const highlights = pgTable(
  'highlights',
  {
    id: idColumn(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The shot the clip is for; null only for a manual highlight with no shot in its window. */
    shotId: text('shot_id'),
    shotIndex: integer('shot_index'),
    lengthSeconds: real('length_seconds').notNull(),
    isLowlight: boolean('is_lowlight').notNull().default(false),
    isManual: boolean('is_manual').notNull().default(false),
    playerId: text('player_id'),
    /** Storage keys by rendition name (`default`, `horizontal`, `1080p` … `144p`). */
    video: jsonb('video').$type<Record<string, string | null>>().notNull().default({}),
    preview: jsonb('preview').$type<Record<string, string | null>>().notNull().default({}),
    /**
     * `ready` for every automatic highlight; a manual one is `processing` until its clip is
     * cut (or `failed`). Only ready highlights appear in the public Session and lists.
     */
    status: text('status', { enum: ['processing', 'ready', 'failed'] }).notNull().default('ready'),
    /** Where a manual highlight starts in the session's video (seconds); null for automatic ones. */
    startSeconds: real('start_seconds'),
    /** The member who marked a manual highlight (dashboard user id). */
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('highlights_session_idx').on(t.sessionId, t.shotIndex, t.id)],
);

export const players = pgTable(
  'players',
  {
    id: idColumn(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    name: text('name'),
    jersey: text('jersey'),
    userId: text('user_id'),
    teamId: integer('team_id'),
    stats: jsonb('stats').$type<BoxScoreJson>().notNull(),
    /**
     * The player's number in the analysis (1, 2, …), what the dashboard calls an unnamed player without
     * a jersey ("Player 3"). Stored so that the label stays when another player is merged away; not
     * part of the public Player. Null for rows restored from a correction made before it existed.
     */
    number: integer('number'),
    /**
     * How the player looked to the analysis, for the dashboard to tell unnamed players apart (not part of
     * the public Player): the clothes' colour as `#rrggbb`, and the storage key of a JPEG of the player
     * at a moment they were seen. Null when the analysis read no colour or the picture could not be made.
     */
    colour: text('colour'),
    thumbnailKey: text('thumbnail_key'),
  },
  (t) => [index('players_session_idx').on(t.sessionId, t.id)],
);

/**
 * The audit log of coach corrections (README "Corrections"): who changed what and when, with
 * the rows the correction touched before and after it (shots, players, highlights as stored),
 * so it can be undone. Derived values (points, indices, box scores, totals) are recomputed
 * after every correction and every undo, never restored from here.
 */
export const sessionCorrections = pgTable(
  'session_corrections',
  {
    id: idColumn(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The dashboard member who made it; null when made with an API key. */
    actorUserId: text('actor_user_id'),
    actorApiKeyId: text('actor_api_key_id'),
    kind: text('kind').notNull(),
    /** The correction as requested (the API's union member). */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    /** A one-line human description, e.g. "Shot 3 (0:42): scorer #23 → Ana". */
    summary: text('summary').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>().notNull(),
    after: jsonb('after').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    undoneAt: ts('undone_at'),
    undoneByUserId: text('undone_by_user_id'),
    undoneByApiKeyId: text('undone_by_api_key_id'),
  },
  (t) => [index('session_corrections_session_idx').on(t.sessionId, t.id)],
);
