import { and, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { events } from '../../db/schema';
import { withFreshMediaUrls } from '../../media/urls';
import { newId } from '../ids';
import { paginate, type ListParams } from '../pagination';
import type { ApiSession } from '../sessions/serialize';

export type EventType = 'session.processed' | 'session.failed';
export const EVENT_TYPES: [EventType, ...EventType[]] = ['session.processed', 'session.failed'];

type Row = typeof events.$inferSelect;

export interface ApiEvent {
  id: string;
  object: 'event';
  type: EventType;
  created: number;
  data: { object: ApiSession };
}

export function toApiEvent(row: Row): ApiEvent {
  return {
    id: row.id,
    object: 'event',
    type: row.type,
    created: Math.floor(row.createdAt.getTime() / 1000),
    // the Session as recorded, with media links that work from now (see withFreshMediaUrls)
    data: withFreshMediaUrls(row.data as { object: ApiSession }),
  };
}

/**
 * Records an event in the organization's log, with the Session as it is at this moment.
 * Call it in the transaction that made the state change, so the log never misses one.
 */
export async function recordEvent(tx: DbOrTx, opts: { organizationId: string; type: EventType; session: ApiSession }): Promise<ApiEvent> {
  const [row] = await tx
    .insert(events)
    .values({ id: newId('event'), organizationId: opts.organizationId, type: opts.type, sessionId: opts.session.id, data: { object: opts.session } })
    .returning();
  return toApiEvent(row);
}

/** GET /v1/events: newest first, filterable by type and session. */
export async function listEvents(db: DbOrTx, opts: { organizationId: string; params: ListParams & { type?: EventType; session?: string } }) {
  const filters: SQL[] = [eq(events.organizationId, opts.organizationId)];
  if (opts.params.type) filters.push(eq(events.type, opts.params.type));
  if (opts.params.session) filters.push(eq(events.sessionId, opts.params.session));
  return paginate<Row, ApiEvent>(db, { table: events, id: events.id, scope: filters[0], noun: 'event', where: and(...filters), params: opts.params, map: (rows) => rows.map(toApiEvent) });
}

export async function getEvent(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiEvent | null> {
  const [row] = await db.select().from(events).where(and(eq(events.id, opts.id), eq(events.organizationId, opts.organizationId)));
  return row ? toApiEvent(row) : null;
}
