import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { highlights, players, sessions, shots, type BoxScoreJson } from '../../db/schema';
import { emptyBoxScore } from '../../analysis/box-score';
import { mediaUrl } from '../../media/storage';
import type { ListEnvelope } from '../pagination';
import type { SessionFailureCode } from './failure-codes';

export const EMBEDDED_LIMIT = 100;

type SessionRow = typeof sessions.$inferSelect;
type ShotRow = typeof shots.$inferSelect;
type HighlightRow = typeof highlights.$inferSelect;
type PlayerRow = typeof players.$inferSelect;

const unix = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : null);

export function toApiShot(row: ShotRow) {
  return {
    id: row.id,
    object: 'shot' as const,
    index: row.index,
    start_seconds: row.startSeconds,
    end_seconds: row.endSeconds,
    made: row.made,
    points: row.points,
    type: row.type,
    is_three_point: row.isThreePoint,
    is_free_throw: row.isFreeThrow,
    is_fouled: row.isFouled,
    location: {
      shot_image_normed: row.shotImageNormed ?? null,
      shot_world_normed: row.shotWorldNormed ?? null,
      hoop_image_normed: row.hoopImageNormed ?? null,
    },
    excitement_score: row.excitementScore,
    players: { scorer: row.scorerId, assister: row.assisterId, rebounder: row.rebounderId },
    highlight: row.highlightId,
  };
}

/**
 * A manual highlight is part of the Session only once its clip is cut (`status = 'ready'`):
 * API clients never see a highlight without video. The dashboard lists unfinished ones itself.
 */
export const READY_HIGHLIGHT = eq(highlights.status, 'ready');

const HIGHLIGHT_RENDITIONS = ['default', 'horizontal', '1080p', '720p', '480p', '360p', '240p', '144p'] as const;

export function toApiHighlight(row: HighlightRow) {
  return {
    id: row.id,
    object: 'highlight' as const,
    shot: row.shotId,
    shot_index: row.shotIndex,
    length_seconds: row.lengthSeconds,
    is_lowlight: row.isLowlight,
    is_manual: row.isManual,
    player: row.playerId,
    video: Object.fromEntries(HIGHLIGHT_RENDITIONS.map((r) => [r, mediaUrl(row.video[r])])) as Record<(typeof HIGHLIGHT_RENDITIONS)[number], string | null>,
    preview: { default: mediaUrl(row.preview.default), horizontal: mediaUrl(row.preview.horizontal) },
    created: unix(row.createdAt),
  };
}

export function toApiPlayer(row: PlayerRow) {
  return {
    id: row.id,
    object: 'player' as const,
    name: row.name,
    jersey: row.jersey,
    user_id: row.userId,
    team_id: row.teamId,
    stats: { ...emptyBoxScore(), ...row.stats },
  };
}

export type ApiShot = ReturnType<typeof toApiShot>;
export type ApiHighlight = ReturnType<typeof toApiHighlight>;
export type ApiPlayer = ReturnType<typeof toApiPlayer>;

export interface ApiSession {
  id: string;
  object: 'session';
  created: number;
  status: SessionRow['status'];
  group: string;
  source: { type: SessionRow['sourceType']; url: string | null };
  metadata: Record<string, string>;
  run_version: number | null;
  duration_seconds: number | null;
  cost_cents: number | null;
  highlights: EmbeddedList<ApiHighlight>;
  shots: EmbeddedList<ApiShot>;
  players: EmbeddedList<ApiPlayer>;
  totals: BoxScoreJson;
  video: {
    url: string | null;
    preview_url: string | null;
    '1080p': string | null;
    '720p': string | null;
    '360p': string | null;
    width: number | null;
    height: number | null;
    fps: number | null;
  };
  artifacts: { actions: string | null; balls: string | null; hoops: string | null; clusters: string | null };
  error: { code: SessionFailureCode; message: string } | null;
}

export type EmbeddedList<T> = ListEnvelope<T> & { url: string };

function embedded<T>(items: T[], total: number, url: string): EmbeddedList<T> {
  return { object: 'list', data: items, has_more: total > items.length, total_count: total, url };
}

/**
 * Embedded lists are in creation order (shots are created in time order), like the first
 * page of their paging endpoints.
 *
 * Loads the embedded lists (first 100 of each, with counts) for a page of sessions in a
 * fixed number of queries, whatever the page size, and builds the full Session objects.
 */
export async function toApiSessions(db: DbOrTx, rows: SessionRow[]): Promise<ApiSession[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [shotsBy, highlightsBy, playersBy] = await Promise.all([
    firstOfEach(db, shots, ids, toApiShot),
    firstOfEach(db, highlights, ids, toApiHighlight, sql`t.status = 'ready'`),
    firstOfEach(db, players, ids, toApiPlayer),
  ]);
  const list = <T>(by: Map<string, { items: T[]; total: number }>, id: string, kind: string) => {
    const found = by.get(id);
    return embedded(found?.items ?? [], found?.total ?? 0, `/v1/sessions/${id}/${kind}`);
  };
  return rows.map((row) =>
    toApiSession(row, { shots: list(shotsBy, row.id, 'shots'), highlights: list(highlightsBy, row.id, 'highlights'), players: list(playersBy, row.id, 'players') }),
  );
}

/**
 * The column a session's child list is ordered by before its id: a shot's time-order `index`
 * (a shot added by a correction has a later id), none for highlights and players (creation
 * order). The embedded lists and their paging endpoints both order by it.
 */
export function childPosition(table: typeof shots | typeof highlights | typeof players): PgColumn | undefined {
  return table === shots ? shots.index : undefined;
}

/**
 * The first EMBEDDED_LIMIT children of each session (in {@link childPosition} order) and each
 * session's total, in one query whatever the number of sessions: a window function ranks
 * and counts the rows per session. Rows are decoded with the table's column decoders
 * directly (drizzle's generic row mapping of a subquery was half the CPU of a page).
 */
async function firstOfEach<Table extends typeof shots | typeof highlights | typeof players, Item>(
  db: DbOrTx,
  table: Table,
  ids: string[],
  map: (row: Table['$inferSelect']) => Item,
  only: SQL = sql`true`,
): Promise<Map<string, { items: Item[]; total: number }>> {
  const position = childPosition(table);
  const order = position ? sql`t.${sql.identifier(position.name)}, t.id` : sql`t.id`;
  const found = (await db.execute(sql`select * from (
      select t.*, row_number() over w as swish_rank, count(*) over (partition by t.session_id) as swish_total
      from ${table} t where t.session_id in ${ids} and ${only}
      window w as (partition by t.session_id order by ${order})
    ) ranked where swish_rank <= ${EMBEDDED_LIMIT} order by session_id, swish_rank`)) as unknown as Array<Record<string, unknown>>;
  const decode = rowDecoder(table);
  const out = new Map<string, { items: Item[]; total: number }>();
  for (const raw of found) {
    const row = decode(raw) as Table['$inferSelect'];
    let entry = out.get(row.sessionId);
    if (!entry) out.set(row.sessionId, (entry = { items: [], total: Number(raw.swish_total) }));
    entry.items.push(map(row));
  }
  return out;
}

const decoders = new WeakMap<object, (raw: Record<string, unknown>) => Record<string, unknown>>();

/** Maps a raw row (column names, driver values) to the table's typed row, with the decoders computed once per table. */
function rowDecoder(table: typeof shots | typeof highlights | typeof players) {
  let decode = decoders.get(table);
  if (!decode) {
    const columns = Object.entries(getTableColumns(table)).map(([prop, column]) => ({ prop, name: column.name, column }));
    decode = (raw) => {
      const out: Record<string, unknown> = {};
      for (const { prop, name, column } of columns) {
        const value = raw[name];
        out[prop] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return out;
    };
    decoders.set(table, decode);
  }
  return decode;
}

export function toApiSession(
  row: SessionRow,
  lists: { shots: EmbeddedList<ApiShot>; highlights: EmbeddedList<ApiHighlight>; players: EmbeddedList<ApiPlayer> },
): ApiSession {
  return {
    id: row.id,
    object: 'session',
    created: unix(row.createdAt)!,
    status: row.status,
    group: row.groupId,
    source: { type: row.sourceType, url: row.sourceUrl },
    metadata: row.metadata,
    run_version: row.runVersion,
    duration_seconds: row.durationSeconds,
    cost_cents: row.costCents,
    highlights: lists.highlights,
    shots: lists.shots,
    players: lists.players,
    totals: { ...emptyBoxScore(), ...(row.totals ?? {}) },
    video: {
      url: mediaUrl(row.video.original),
      preview_url: mediaUrl(row.video.preview),
      '1080p': mediaUrl(row.video['1080p']),
      '720p': mediaUrl(row.video['720p']),
      '360p': mediaUrl(row.video['360p']),
      width: row.width,
      height: row.height,
      fps: row.fps,
    },
    artifacts: {
      actions: mediaUrl(row.artifacts.actions),
      balls: mediaUrl(row.artifacts.balls),
      hoops: mediaUrl(row.artifacts.hoops),
      clusters: mediaUrl(row.artifacts.clusters),
    },
    error: row.status === 'failed' && row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
  };
}

/** Maps a raw snake_case row (from sql``) to drizzle's row shape of `table`, decoding values as drizzle would. */
