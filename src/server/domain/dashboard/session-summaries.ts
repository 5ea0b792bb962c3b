import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { groups, players, sessions, type BoxScoreJson, type SessionStatus } from '../../db/schema';
import { mediaUrl } from '../../media/storage';
import { notFound } from '../errors';
import { isId } from '../ids';
import { assertGroupFilter } from '../groups/groups';
import { paginate, type ListParams } from '../pagination';

/**
 * What the dashboard's sessions list and session header show: a light row (no embedded
 * lists) plus the dashboard-only processing `stage` and `progress`, which never appear in
 * the public Session shape.
 */
export interface SessionSummary {
  id: string;
  created: number;
  status: SessionStatus;
  /** `metadata.name`, the title coaches give a game. */
  name: string | null;
  group: { id: string; name: string };
  source: { type: 'upload' | 'url' | 'platform'; url: string | null };
  metadata: Record<string, string>;
  /** The `options` the session was submitted with (what was filmed). */
  options: Record<string, unknown>;
  duration_seconds: number | null;
  cost_cents: number | null;
  stage: string | null;
  progress: number | null;
  error: { code: string; message: string } | null;
  preview_url: string | null;
  points: number | null;
  submitted_by_api_key: boolean;
}

type Row = typeof sessions.$inferSelect;

async function toSummaries(db: DbOrTx, rows: Row[]): Promise<SessionSummary[]> {
  const groupIds = [...new Set(rows.map((r) => r.groupId))];
  const names = new Map(
    groupIds.length ? (await db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, groupIds))).map((g) => [g.id, g.name]) : [],
  );
  return rows.map((r) => ({
    id: r.id,
    created: Math.floor(r.createdAt.getTime() / 1000),
    status: r.status,
    name: r.metadata.name ?? null,
    group: { id: r.groupId, name: names.get(r.groupId) ?? '' },
    source: { type: r.sourceType, url: r.sourceUrl },
    metadata: r.metadata,
    options: r.options,
    duration_seconds: r.durationSeconds,
    cost_cents: r.costCents,
    stage: r.status === 'processing' || r.status === 'queued' ? r.stage : null,
    progress: r.status === 'processing' ? r.progress : r.status === 'processed' ? 100 : null,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? '' } : null,
    preview_url: mediaUrl(r.video.preview),
    points: (r.totals as BoxScoreJson | null)?.points ?? null,
    submitted_by_api_key: r.apiKeyId !== null,
  }));
}

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The organization's sessions, newest first, paged like every list; filters by status and
 * group, and `q` searches the metadata (keys and values, case-insensitive) or an exact id.
 */
export async function listSessionSummaries(
  db: DbOrTx,
  opts: { organizationId: string; params: ListParams & { status?: SessionStatus; group?: string; q?: string } },
) {
  const filters: SQL[] = [eq(sessions.organizationId, opts.organizationId)];
  if (opts.params.status) filters.push(eq(sessions.status, opts.params.status));
  if (opts.params.group) {
    await assertGroupFilter(db, opts.organizationId, opts.params.group);
    filters.push(eq(sessions.groupId, opts.params.group));
  }
  const q = opts.params.q?.trim();
  if (q) filters.push(or(sql`${sessions.metadata}::text ilike ${likePattern(q)}`, eq(sessions.id, q))!);
  return paginate<Row, SessionSummary>(db, {
    table: sessions,
    id: sessions.id,
    scope: filters[0],
    noun: 'session',
    where: and(...filters),
    params: opts.params,
    map: (rows) => toSummaries(db, rows),
  });
}

/** One session's summary (another organization's id is "not found"). */
export async function getSessionSummary(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<SessionSummary> {
  const [summary] = await toSummaries(db, [await ownSession(db, opts)]);
  return summary;
}

/** The organization's session with this id; another organization's is "not found". */
async function ownSession(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<Row> {
  const [row] = isId('session', opts.id)
    ? await db.select().from(sessions).where(and(eq(sessions.id, opts.id), eq(sessions.organizationId, opts.organizationId)))
    : [];
  if (!row) throw notFound('session');
  return row;
}

/**
 * The number of each of a session's players (player id → number), what the dashboard calls an
 * unnamed player without a jersey ("Player 3"). The numbers come from the analysis and stay when a
 * player is merged away, where a place in the list would shift; players without one are left out.
 */
/** What the dashboard shows of a player beyond the public Player: see {@link playerDetails}. */
export interface PlayerDetails {
  /** The player's number in the analysis, for "Player N" (null for a player restored from a correction older than it). */
  number: number | null;
  /** The clothes' colour the analysis read, `#rrggbb`. */
  colour: string | null;
  /** A signed URL of a picture of the player at a moment the analysis saw them. */
  thumbnail: string | null;
}

/** Each player's number, colour and picture, by id, so the dashboard can tell unnamed players apart (not in the public Player). */
export async function playerDetails(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<Record<string, PlayerDetails>> {
  const own = await ownSession(db, opts);
  const rows = await db
    .select({ id: players.id, number: players.number, colour: players.colour, thumbnailKey: players.thumbnailKey })
    .from(players)
    .where(eq(players.sessionId, own.id));
  return Object.fromEntries(rows.map((r) => [r.id, { number: r.number, colour: r.colour, thumbnail: mediaUrl(r.thumbnailKey) }]));
}

/** The status, stage and progress of the session created from an upload, once there is one. */
export async function sessionForUpload(db: DbOrTx, opts: { organizationId: string; uploadId: string }): Promise<string | null> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.organizationId, opts.organizationId), eq(sessions.uploadId, opts.uploadId)))
    .limit(1);
  return row?.id ?? null;
}
