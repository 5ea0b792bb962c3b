import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { webhookEndpoints, type WebhookEndpointStatus } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { EventType } from '../events/events';
import { isId, newId } from '../ids';
import { assertSafeUrl, UnsafeUrlError } from '../net/ssrf';
import { paginate, type ListParams } from '../pagination';
import { MAX_ENDPOINTS_PER_ORGANIZATION, SECRET_OVERLAP_SECONDS } from './config';
import { newWebhookSecret, sealSecret } from './secret-box';

/** `*` (every event type) or one of the event types. */
export type EnabledEvent = '*' | EventType;

type Row = typeof webhookEndpoints.$inferSelect;

export interface ApiWebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  enabled_events: EnabledEvent[];
  description: string | null;
  status: WebhookEndpointStatus;
  created: number;
}

/** The endpoint with its signing secret: only the create and rotate responses carry it. */
export type ApiWebhookEndpointWithSecret = ApiWebhookEndpoint & { secret: string };

export function toApiWebhookEndpoint(row: Row): ApiWebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    enabled_events: row.enabledEvents as EnabledEvent[],
    description: row.description,
    status: row.status,
    created: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/** `["*"]` stays as is; anything with `*` becomes `["*"]`; duplicates go. */
function normaliseEnabledEvents(events: EnabledEvent[] | undefined): EnabledEvent[] {
  if (!events || events.includes('*')) return ['*'];
  return [...new Set(events)];
}

/** https, and (unless SWISH_ALLOW_PRIVATE_SOURCES=1) resolving only to public addresses; else 400 on `url`. */
async function checkEndpointUrl(url: string): Promise<string> {
  try {
    return (await assertSafeUrl(url)).toString();
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new AppError('parameter_invalid', { message: `Invalid url: ${err.message}`, param: 'url' });
    throw err;
  }
}

export async function endpointRow(db: DbOrTx, organizationId: string, id: string, param = 'id'): Promise<Row> {
  const [row] = isId('webhookEndpoint', id)
    ? await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
    : [];
  if (!row) throw notFound('webhook endpoint', param);
  return row;
}

/**
 * Registers an endpoint and returns it with its new secret (shown only here and on
 * rotation). The URL is checked like any outbound URL (https, public addresses). At most
 * MAX_ENDPOINTS_PER_ORGANIZATION per organization (409 `resource_limit_reached`), counted
 * under a per-organization lock so concurrent creates cannot exceed it.
 */
export async function createWebhookEndpoint(
  db: DbOrTx,
  opts: { organizationId: string; input: { url: string; enabled_events?: EnabledEvent[]; description?: string | null } },
): Promise<ApiWebhookEndpointWithSecret> {
  const url = await checkEndpointUrl(opts.input.url);
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${opts.organizationId}`}))`);
    const [{ n }] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, opts.organizationId));
    if (Number(n) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
      throw new AppError('resource_limit_reached', {
        message: `An organization can have at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints; delete one first.`,
      });
    }
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('webhookEndpoint'),
        organizationId: opts.organizationId,
        url,
        enabledEvents: normaliseEnabledEvents(opts.input.enabled_events),
        description: opts.input.description ?? null,
        secret: sealSecret(secret),
      })
      .returning();
    return created;
  });
  return { ...toApiWebhookEndpoint(row), secret };
}

export async function getWebhookEndpoint(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiWebhookEndpoint> {
  return toApiWebhookEndpoint(await endpointRow(db, opts.organizationId, opts.id));
}

/** Newest first. */
export async function listWebhookEndpoints(db: DbOrTx, opts: { organizationId: string; params: ListParams }) {
  return paginate<Row, ApiWebhookEndpoint>(db, {
    table: webhookEndpoints,
    id: webhookEndpoints.id,
    scope: eq(webhookEndpoints.organizationId, opts.organizationId),
    noun: 'webhook endpoint',
    where: eq(webhookEndpoints.organizationId, opts.organizationId),
    params: opts.params,
    map: (rows) => rows.map(toApiWebhookEndpoint),
  });
}

/**
 * Changes the URL, event types or description, or disables / re-enables the endpoint.
 * Re-enabling clears the failure history, so a fixed receiver starts afresh.
 */
export async function updateWebhookEndpoint(
  db: DbOrTx,
  opts: {
    organizationId: string;
    id: string;
    input: { url?: string; enabled_events?: EnabledEvent[]; description?: string | null; disabled?: boolean };
  },
): Promise<ApiWebhookEndpoint> {
  const current = await endpointRow(db, opts.organizationId, opts.id);
  const patch: Partial<typeof webhookEndpoints.$inferInsert> = {};
  if (opts.input.url !== undefined) patch.url = await checkEndpointUrl(opts.input.url);
  if (opts.input.enabled_events !== undefined) patch.enabledEvents = normaliseEnabledEvents(opts.input.enabled_events);
  if (opts.input.description !== undefined) patch.description = opts.input.description;
  if (opts.input.disabled === true && current.status !== 'disabled') Object.assign(patch, { status: 'disabled', disabledReason: 'manual' });
  if (opts.input.disabled === false && current.status === 'disabled') Object.assign(patch, { status: 'enabled', disabledReason: null, failingSince: null });
  if (Object.keys(patch).length === 0) return toApiWebhookEndpoint(current);
  const [row] = await db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, current.id)).returning();
  return toApiWebhookEndpoint(row);
}

/** Deletes the endpoint and its delivery log; deliveries still retrying stop. */
export async function deleteWebhookEndpoint(
  db: DbOrTx,
  opts: { organizationId: string; id: string },
): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
  const row = await endpointRow(db, opts.organizationId, opts.id);
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
  return { id: row.id, object: 'webhook_endpoint', deleted: true };
}

/**
 * Replaces the signing secret. The old one keeps signing alongside the new one for
 * SECRET_OVERLAP_SECONDS (24 h), so receivers can switch without missing a delivery
 * (Standard Webhooks allows several signatures in `webhook-signature`). A second rotation
 * within that window retires the oldest secret at once.
 */
export async function rotateWebhookSecret(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiWebhookEndpointWithSecret> {
  const current = await endpointRow(db, opts.organizationId, opts.id);
  const secret = newWebhookSecret();
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      secret: sealSecret(secret),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(Date.now() + SECRET_OVERLAP_SECONDS * 1000),
    })
    .where(eq(webhookEndpoints.id, current.id))
    .returning();
  return { ...toApiWebhookEndpoint(row), secret };
}
