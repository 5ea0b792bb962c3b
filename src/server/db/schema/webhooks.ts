import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, idColumn, ts } from './columns';
import { organizations } from './organizations';

export type WebhookEndpointStatus = 'enabled' | 'failing' | 'disabled';
/** `cancelled`: not sent (any more) because the endpoint was disabled or the event is no longer in the log. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
/** `event`: fan-out of a recorded event. `redelivery`: a manual resend. `test`: a sample event sent on request. */
export type WebhookDeliveryKind = 'event' | 'redelivery' | 'test';

/** A URL of an organization that receives its events, signed per Standard Webhooks (DESIGN §4). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    /** `["*"]` (every type) or a subset of the event types. */
    enabledEvents: jsonb('enabled_events').$type<string[]>().notNull().default(['*']),
    description: text('description'),
    /** `failing`: a delivery exhausted its retries; still delivered to. `disabled`: nothing is sent any more. */
    status: text('status', { enum: ['enabled', 'failing', 'disabled'] }).notNull().default('enabled'),
    /** Why the endpoint was disabled: `gone` (it answered 410), `failing` (failed for too long), `manual`. */
    disabledReason: text('disabled_reason', { enum: ['gone', 'failing', 'manual'] }),
    /** The signing secret (`whsec_…`), sealed with the deployment key (see domain/webhooks/secret-box.ts). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation; it keeps signing alongside the new one until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    /** Start of the current run of failed attempts (null after any success); drives the automatic disable. */
    failingSince: ts('failing_since'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.organizationId, t.id)],
);

/**
 * One delivery of one event to one endpoint: the fan-out creates one per enabled endpoint
 * (unique per event and endpoint), a manual redelivery or a test adds another. Each runs
 * as its own Inngest run; every HTTP attempt is a row of `webhook_delivery_attempts`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The event's id (the `webhook-id`). Test deliveries carry a synthetic event that is not in the log. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    kind: text('kind', { enum: ['event', 'redelivery', 'test'] }).notNull(),
    /** The body of a test delivery (real deliveries send the logged event). */
    payload: jsonb('payload'),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'cancelled'] }).notNull().default('pending'),
    /** Attempts allowed: the length of the retry schedule when created (1 for manual ones). */
    maxAttempts: integer('max_attempts').notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    /** When the delivery was asked for: the start of the "event recorded → received" latency. */
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_event_idx').on(t.organizationId, t.eventId),
    uniqueIndex('webhook_deliveries_fan_out_once').on(t.endpointId, t.eventId).where(sql`${t.kind} = 'event'`),
  ],
);

/** Every HTTP attempt of a delivery, as the delivery log shows it. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1-based. */
    attempt: integer('attempt').notNull(),
    succeeded: boolean('succeeded').notNull(),
    /** HTTP status of the receiver's answer; null when none came (timeout, refused, blocked URL). */
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** The first 1 KiB of the response body, decoded as UTF-8. */
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
