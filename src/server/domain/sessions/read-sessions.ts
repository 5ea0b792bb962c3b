import { and, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { highlights, players, sessions, shots, type SessionStatus } from '../../db/schema';
import { notFound } from '../errors';
import { assertGroupFilter } from '../groups/groups';
import { isId } from '../ids';
import { paginate, type ListParams } from '../pagination';
import { childPosition, READY_HIGHLIGHT, toApiHighlight, toApiPlayer, toApiSessions, toApiShot, type ApiSession } from './serialize';

async function sessionRow(db: DbOrTx, organizationId: string, id: string) {
  const [row] = isId('session', id)
    ? await db.select().from(sessions).where(and(eq(sessions.id, id), eq(sessions.organizationId, organizationId)))
    : [];
  if (!row) throw notFound('session');
  return row;
}

/** One session of the organization; another organization's id is "not found", never "forbidden". */
export async function getSession(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiSession> {
  const [session] = await toApiSessions(db, [await sessionRow(db, opts.organizationId, opts.id)]);
  return session;
}

export async function listSessions(
  db: DbOrTx,
  opts: { organizationId: string; params: ListParams & { status?: SessionStatus; group?: string } },
) {
  const filters: SQL[] = [eq(sessions.organizationId, opts.organizationId)];
  if (opts.params.status) filters.push(eq(sessions.status, opts.params.status));
  if (opts.params.group) {
    // like the cursors: a group that is not the organization's is a bad parameter, not an empty list
    await assertGroupFilter(db, opts.organizationId, opts.params.group);
    filters.push(eq(sessions.groupId, opts.params.group));
  }
  return paginate<typeof sessions.$inferSelect, ApiSession>(db, {
    table: sessions,
    id: sessions.id,
    scope: filters[0],
    noun: 'session',
    where: and(...filters),
    params: opts.params,
    map: (rows) => toApiSessions(db, rows),
  });
}

type ChildOpts = { organizationId: string; sessionId: string; params: ListParams };

async function listChildren<Row extends Record<string, unknown>, Item>(
  db: DbOrTx,
  opts: ChildOpts,
  kind: 'shots' | 'highlights' | 'players',
  table: typeof shots | typeof highlights | typeof players,
  map: (row: Row) => Item,
  only?: SQL,
) {
  await sessionRow(db, opts.organizationId, opts.sessionId);
  const url = `/v1/sessions/${opts.sessionId}/${kind}`;
  const page = await paginate<Row, Item>(db, {
    table,
    id: table.id,
    scope: eq(table.sessionId, opts.sessionId),
    noun: kind.slice(0, -1),
    position: childPosition(table),
    where: and(eq(table.sessionId, opts.sessionId), only),
    params: opts.params,
    url,
    order: 'asc',
    map: (rows) => rows.map(map),
  });
  return { ...page, url };
}

/** The paging endpoints of a session's embedded lists (`/v1/sessions/{id}/shots` …), in the embedded order. */
export const listSessionShots = (db: DbOrTx, opts: ChildOpts) => listChildren(db, opts, 'shots', shots, toApiShot);
export const listSessionHighlights = (db: DbOrTx, opts: ChildOpts) => listChildren(db, opts, 'highlights', highlights, toApiHighlight, READY_HIGHLIGHT);
export const listSessionPlayers = (db: DbOrTx, opts: ChildOpts) => listChildren(db, opts, 'players', players, toApiPlayer);
