import { and, asc, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { events, groups, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, type WebhookDeliveryKind, type WebhookDeliveryStatus } from '../../db/schema';
import { notFound } from '../errors';
import { getEvent, type ApiEvent, type EventType } from '../events/events';
import { isId, newId } from '../ids';
import { paginate, type ListParams } from '../pagination';
import { emptyBoxScore } from '../../analysis/box-score';
import type { ApiSession } from '../sessions/serialize';
import { MAX_ENDPOINTS_PER_ORGANIZATION, retryScheduleSeconds } from './config';
import { endpointRow } from './endpoints';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

export interface ApiWebhookDeliveryAttempt {
  attempt: number;
  created: number;
  succeeded: boolean;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

export interface ApiWebhookDelivery {
  id: string;
  object: 'webhook_delivery';
  endpoint: string;
  event: string;
  event_type: string;
  kind: WebhookDeliveryKind;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: number | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  response_body: string | null;
  attempts: ApiWebhookDeliveryAttempt[];
  created: number;
  completed_at: number | null;
}

/** A delivery that a run of the delivery function must carry out. */
export interface RequestedDelivery {
  id: string;
  endpointId: string;
}

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function toApiAttempt(row: AttemptRow): ApiWebhookDeliveryAttempt {
  return {
    attempt: row.attempt,
    created: unix(row.createdAt)!,
    succeeded: row.succeeded,
    response_status: row.responseStatus,
    duration_ms: row.durationMs,
    error: row.error,
    response_body: row.responseBody,
  };
}

/** The delivery with every attempt, oldest first; the top-level response fields are the latest attempt's. */
export function toApiDelivery(row: DeliveryRow, attempts: AttemptRow[]): ApiWebhookDelivery {
  const list = attempts.map(toApiAttempt);
  const last = list[list.length - 1];
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint: row.endpointId,
    event: row.eventId,
    event_type: row.eventType,
    kind: row.kind,
    status: row.status,
    attempt_count: row.attemptCount,
    max_attempts: row.maxAttempts,
    next_attempt_at: row.status === 'pending' ? unix(row.nextAttemptAt) : null,
    response_status: last?.response_status ?? null,
    duration_ms: last?.duration_ms ?? null,
    error: last?.error ?? null,
    response_body: last?.response_body ?? null,
    attempts: list,
    created: unix(row.createdAt)!,
    completed_at: unix(row.completedAt),
  };
}

async function toApiDeliveries(db: DbOrTx, rows: DeliveryRow[]): Promise<ApiWebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.deliveryId, rows.map((r) => r.id)))
    .orderBy(asc(webhookDeliveryAttempts.deliveryId), asc(webhookDeliveryAttempts.attempt));
  const by = new Map<string, AttemptRow[]>();
  for (const a of attempts) {
    if (!by.has(a.deliveryId)) by.set(a.deliveryId, []);
    by.get(a.deliveryId)!.push(a);
  }
  return rows.map((r) => toApiDelivery(r, by.get(r.id) ?? []));
}

/**
 * Fan-out of a recorded event: one pending delivery per endpoint of the organization that
 * is not disabled and subscribes to the event's type. Idempotent (one `event` delivery per
 * event and endpoint), so a retried fan-out returns the same deliveries. Returns those
 * still pending, for the caller to start one delivery run each.
 */
export async function createEventDeliveries(
  db: DbOrTx,
  opts: { organizationId: string; eventId: string },
  idCount = MAX_ENDPOINTS_PER_ORGANIZATION,
): Promise<RequestedDelivery[]> {
  // One statement (one round trip per event instead of four): the event, its subscribed
  // endpoints, the deliveries made for them (ids from here, by default one per endpoint an
  // organization can have), and the pending ones — those just made, or made by an earlier
  // statement (a retried step, or the first pass below).
  const ids = Array.from({ length: idCount }, () => newId('webhookDelivery'));
  const rows = (await db.execute(sql`
    with ev as (
      select id, type from ${events} where id = ${opts.eventId} and organization_id = ${opts.organizationId}),
    targets as (
      select e.id, row_number() over (order by e.id) as n from ${webhookEndpoints} e, ev
      where e.organization_id = ${opts.organizationId} and e.status <> 'disabled'
        and (e.enabled_events ? '*' or e.enabled_events ? ev.type)),
    made as (
      insert into ${webhookDeliveries} (id, organization_id, endpoint_id, event_id, event_type, kind, max_attempts)
      select ${JSON.stringify(ids)}::jsonb ->> (t.n::int - 1), ${opts.organizationId}, t.id, ev.id, ev.type, 'event', ${retryScheduleSeconds().length}
      from targets t, ev where t.n <= ${ids.length}
      on conflict (endpoint_id, event_id) where kind = 'event' do nothing
      returning id, endpoint_id)
    select id, endpoint_id, null::int as targets from made
    union all
    select d.id, d.endpoint_id, null from ${webhookDeliveries} d, ev
      where d.event_id = ev.id and d.kind = 'event' and d.status = 'pending'
    union all
    select null, null, count(*)::int from targets having count(*) > ${ids.length}`)) as unknown as Array<{
    id: string | null;
    endpoint_id: string | null;
    targets: number | null;
  }>;
  // More subscribed endpoints than ids (endpoints made before a lower limit, or the limit
  // raced): the first ones are made; once more with an id for each, which makes the rest.
  const overflow = rows.find((r) => r.targets !== null);
  if (overflow) return createEventDeliveries(db, opts, overflow.targets!);
  return rows.map((r) => ({ id: r.id!, endpointId: r.endpoint_id! }));
}

/**
 * `POST /v1/events/{id}/redeliver`: a new delivery of a logged event to one endpoint of
 * the organization, whatever the endpoint's status or subscriptions (it was asked for
 * explicitly). A single attempt: the result is in the delivery log.
 */
export async function createRedelivery(
  db: DbOrTx,
  opts: { organizationId: string; eventId: string; endpointId: string },
): Promise<ApiWebhookDelivery> {
  const event = isId('event', opts.eventId) ? await getEvent(db, { organizationId: opts.organizationId, id: opts.eventId }) : null;
  if (!event) throw notFound('event');
  const endpoint = await endpointRow(db, opts.organizationId, opts.endpointId, 'endpoint');
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      id: newId('webhookDelivery'),
      organizationId: opts.organizationId,
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      kind: 'redelivery',
      maxAttempts: 1,
    })
    .returning();
  return toApiDelivery(row, []);
}

/**
 * A sample event for checking a receiver (like Stripe's "send test webhook"): a
 * `session.processed` or `session.failed` Event with a made-up session whose metadata is
 * `{ "swish_test": "true" }`. Signed and delivered like any event, once, to this endpoint
 * only; it is not added to the event log.
 */
export async function createTestDelivery(
  db: DbOrTx,
  opts: { organizationId: string; endpointId: string; type: EventType },
): Promise<ApiWebhookDelivery> {
  const endpoint = await endpointRow(db, opts.organizationId, opts.endpointId);
  const [group] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.organizationId, opts.organizationId), eq(groups.isDefault, true)));
  const payload = sampleEvent(opts.type, group?.id ?? 'grp_test');
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      id: newId('webhookDelivery'),
      organizationId: opts.organizationId,
      endpointId: endpoint.id,
      eventId: payload.id,
      eventType: payload.type,
      kind: 'test',
      payload,
      maxAttempts: 1,
    })
    .returning();
  return toApiDelivery(row, []);
}

function sampleEvent(type: EventType, groupId: string): ApiEvent {
  const now = Math.floor(Date.now() / 1000);
  const sessionId = newId('session');
  const list = (kind: string) => ({ object: 'list' as const, data: [], has_more: false, total_count: 0, url: `/v1/sessions/${sessionId}/${kind}` });
  const processed = type === 'session.processed';
  const session: ApiSession = {
    id: sessionId,
    object: 'session',
    created: now - 600,
    status: processed ? 'processed' : 'failed',
    group: groupId,
    source: { type: 'url', url: 'https://videos.example.com/sample-game.mp4' },
    metadata: { swish_test: 'true' },
    run_version: processed ? 1 : null,
    duration_seconds: processed ? 2_400 : null,
    cost_cents: processed ? 334 : null,
    highlights: list('highlights'),
    shots: list('shots'),
    players: list('players'),
    totals: emptyBoxScore(),
    video: { url: null, preview_url: null, '1080p': null, '720p': null, '360p': null, width: processed ? 1920 : null, height: processed ? 1080 : null, fps: processed ? 30 : null },
    artifacts: { actions: null, balls: null, hoops: null, clusters: null },
    error: processed ? null : { code: 'source_unavailable', message: 'This is a test event: no video was processed.' },
  };
  return { id: newId('event'), object: 'event', type, created: now, data: { object: session } };
}

/** `GET /v1/webhook_endpoints/{id}/deliveries`: the delivery log of one endpoint, newest first. */
export async function listWebhookDeliveries(
  db: DbOrTx,
  opts: { organizationId: string; endpointId: string; params: ListParams & { status?: WebhookDeliveryStatus; event?: string } },
) {
  const endpoint = await endpointRow(db, opts.organizationId, opts.endpointId);
  const filters: SQL[] = [eq(webhookDeliveries.endpointId, endpoint.id)];
  if (opts.params.status) filters.push(eq(webhookDeliveries.status, opts.params.status));
  if (opts.params.event) filters.push(eq(webhookDeliveries.eventId, opts.params.event));
  return paginate<DeliveryRow, ApiWebhookDelivery>(db, {
    table: webhookDeliveries,
    id: webhookDeliveries.id,
    scope: filters[0],
    noun: 'delivery',
    where: and(...filters),
    params: opts.params,
    map: (rows) => toApiDeliveries(db, rows),
  });
}

/** One delivery of the organization (the dashboard and tests poll it). */
export async function getWebhookDelivery(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiWebhookDelivery | null> {
  if (!isId('webhookDelivery', opts.id)) return null;
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, opts.id), eq(webhookDeliveries.organizationId, opts.organizationId)));
  if (!row) return null;
  const [api] = await toApiDeliveries(db, [row]);
  return api;
}

/** Days a finished delivery (and its attempts) stays in the log (SWISH_WEBHOOK_LOG_RETENTION_DAYS, default 30). */
export const deliveryRetentionDays = () => Number(process.env.SWISH_WEBHOOK_LOG_RETENTION_DAYS ?? 30);

/**
 * Deletes finished deliveries (succeeded, failed, cancelled) created before `olderThan`, with
 * their attempts; pending ones stay whatever their age. Returns how many were deleted.
 */
export async function purgeWebhookDeliveries(db: DbOrTx, olderThan: Date): Promise<number> {
  const deleted = await db
    .delete(webhookDeliveries)
    .where(and(ne(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.createdAt, olderThan)))
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}

/** Marks a delivery that was never queued `cancelled` (only while it is still pending, without attempts). */
export async function cancelPendingDelivery(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'cancelled', completedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending'), sql`not exists (select 1 from ${webhookDeliveryAttempts} a where a.delivery_id = ${webhookDeliveries.id})`));
}
