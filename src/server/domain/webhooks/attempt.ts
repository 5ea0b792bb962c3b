import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../db/client';
import { events, webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints, type WebhookDeliveryStatus } from '../../db/schema';
import { toApiEvent } from '../events/events';
import { disableAfterSeconds, parseRetryAfter, retryDelayMs, retryScheduleSeconds } from './config';
import { openSecret } from './secret-box';
import { sendWebhook } from './send';

export const USER_AGENT = 'Swish-Webhooks/1';

export interface AttemptOutcome {
  /** True when the delivery is over (succeeded, failed for good, cancelled or gone). */
  done: boolean;
  status: WebhookDeliveryStatus | 'deleted';
  /** ISO time of the next attempt when not done. */
  nextAttemptAt: string | null;
}

/**
 * `webhook-signature` for a body: one `v1,<base64>` per secret, space-separated (Standard
 * Webhooks), so during a rotation receivers holding either secret can verify.
 */
export function signWebhook(opts: { secrets: string[]; msgId: string; timestamp: Date; body: string }): string {
  return opts.secrets.map((secret) => new Webhook(secret).sign(opts.msgId, opts.timestamp, opts.body)).join(' ');
}

/** The Standard Webhooks request headers of one attempt. */
export function webhookHeaders(opts: { secrets: string[]; msgId: string; timestamp: Date; body: string }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': opts.msgId,
    'webhook-timestamp': String(Math.floor(opts.timestamp.getTime() / 1000)),
    'webhook-signature': signWebhook(opts),
  };
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Rendered Event bodies by organization, event id and hour. An Event is never changed once
 * recorded (only its media links are signed again, the same within an hour), and a fan-out
 * sends it to every endpoint at about the same time: the row (a whole Session) is read and
 * serialised once per event rather than once per delivery.
 */
const bodies = new Map<string, Promise<string | null>>();
const BODY_CACHE_SIZE = 256;

/**
 * The promise is cached, not only the string: a fan-out's deliveries start together, and
 * they wait for the one read in flight instead of each reading the row. A missing event is
 * not kept (it cannot appear later under that id, but nothing is gained by remembering it).
 */
function eventBody(db: Database, organizationId: string, eventId: string): Promise<string | null> {
  // per hour: within one the event's media links sign the same (their expiry rounds up to the
  // hour); a retry days later gets links that work from then
  const key = `${organizationId}/${eventId}/${Math.floor(Date.now() / 3_600_000)}`;
  const cached = bodies.get(key);
  if (cached !== undefined) return cached;
  const body = (async () => {
    const [event] = await db.select().from(events).where(and(eq(events.id, eventId), eq(events.organizationId, organizationId)));
    return event ? JSON.stringify(toApiEvent(event)) : null;
  })();
  if (bodies.size >= BODY_CACHE_SIZE) bodies.delete(bodies.keys().next().value!);
  bodies.set(key, body);
  body.then(
    (v) => v === null && bodies.get(key) === body && bodies.delete(key),
    () => bodies.get(key) === body && bodies.delete(key),
  );
  return body;
}

/**
 * Makes attempt number `attempt` (1-based) of a delivery and records it, then decides what
 * comes next, all from the database so a retried step never sends twice what it recorded:
 *
 * - 2xx: delivered; the endpoint's failure streak ends (`failing` → `enabled`).
 * - 410 Gone: the endpoint is disabled; no more attempts.
 * - anything else with attempts left: the next one is due after the retry schedule's delay
 *   for it (jittered), or the receiver's `Retry-After` on 429/503 if longer.
 * - the last attempt failed: the delivery fails; an automatic delivery marks the endpoint
 *   `failing`, and disables it once its failures have gone on for SWISH_WEBHOOK_DISABLE_AFTER.
 *
 * A delivery whose endpoint was disabled meanwhile is cancelled without a request (manual
 * redeliveries and tests are still sent). The URL is SSRF-checked on every attempt.
 */
export async function attemptDelivery(db: Database, opts: { deliveryId: string; attempt: number }): Promise<AttemptOutcome> {
  const [found] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, opts.deliveryId));
  if (!found) return { done: true, status: 'deleted', nextAttemptAt: null };
  const { delivery, endpoint } = found;
  if (delivery.status !== 'pending' || delivery.attemptCount >= opts.attempt) {
    // already decided (a step re-run after its result was recorded)
    return { done: delivery.status !== 'pending', status: delivery.status, nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null };
  }

  let body: string;
  if (delivery.payload) body = JSON.stringify(delivery.payload);
  else {
    const rendered = await eventBody(db, delivery.organizationId, delivery.eventId);
    if (rendered === null) return cancel(db, delivery.id);
    body = rendered;
  }
  if (endpoint.status === 'disabled' && delivery.kind === 'event') return cancel(db, delivery.id);

  const now = new Date();
  const secrets = [openSecret(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openSecret(endpoint.previousSecret));
  }
  const result = await sendWebhook(endpoint.url, { headers: webhookHeaders({ secrets, msgId: delivery.eventId, timestamp: now, body }), body });
  const succeeded = isSuccess(result.status);
  const gone = result.status === 410;
  const last = opts.attempt >= delivery.maxAttempts;
  const automatic = delivery.kind === 'event';

  let status: WebhookDeliveryStatus = 'pending';
  let nextAttemptAt: Date | null = null;
  if (succeeded) status = 'succeeded';
  else if (gone || last) status = 'failed';
  else {
    const retryAfter = result.status === 429 || result.status === 503 ? parseRetryAfter(result.retryAfter) : null;
    nextAttemptAt = new Date(Date.now() + retryDelayMs(retryScheduleSeconds(), opts.attempt + 1, retryAfter));
  }

  // The delivery log commits without waiting for its WAL flush: a crash can only lose the
  // newest commits (WAL order), together with the engine's record of this step, and the
  // step then runs again — an at-least-once redelivery, which receivers dedupe by webhook-id.
  if (succeeded) {
    // The hot path in one statement (one round trip instead of a six-statement transaction):
    // the attempt, the delivery, and the endpoint only if it has a failure streak to end.
    // set_config(…, true) lasts until the end of this statement's own transaction, so its
    // commit, too, skips the WAL flush wait.
    await db.execute(sql`
      with attempt as (
        insert into ${webhookDeliveryAttempts} (delivery_id, attempt, succeeded, response_status, duration_ms, error, response_body, created_at)
        values (${delivery.id}, ${opts.attempt}, true, ${result.status}, ${result.durationMs}, ${result.error ?? null}, ${result.body}, ${now.toISOString()}::timestamptz)
        on conflict do nothing returning 1),
      delivered as (
        update ${webhookDeliveries} set status = 'succeeded', attempt_count = ${opts.attempt}, next_attempt_at = null, completed_at = ${new Date().toISOString()}::timestamptz
        where id = ${delivery.id} returning 1),
      streak as (
        update ${webhookEndpoints} set failing_since = null, status = case when status = 'failing' then 'enabled' else status end
        where id = ${endpoint.id} and (failing_since is not null or status = 'failing') returning 1)
      select set_config('synchronous_commit', 'off', true) as commit_mode,
        (select count(*) from attempt) + (select count(*) from delivered) + (select count(*) from streak) as changed`);
    return { done: true, status, nextAttemptAt: null };
  }

  await db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    await tx
      .insert(webhookDeliveryAttempts)
      .values({
        deliveryId: delivery.id,
        attempt: opts.attempt,
        succeeded,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error ?? (gone ? 'The endpoint answered 410 Gone: it has been disabled.' : `The endpoint answered ${result.status}.`),
        responseBody: result.body,
        createdAt: now,
      })
      .onConflictDoNothing();
    await tx
      .update(webhookDeliveries)
      .set({ status, attemptCount: opts.attempt, nextAttemptAt, completedAt: status === 'pending' ? null : new Date() })
      .where(eq(webhookDeliveries.id, delivery.id));

    if (gone) {
      await tx.update(webhookEndpoints).set({ status: 'disabled', disabledReason: 'gone' }).where(eq(webhookEndpoints.id, endpoint.id));
    } else if (automatic) {
      const disableAfter = disableAfterSeconds();
      const at = sql`${now.toISOString()}::timestamptz`;
      await tx
        .update(webhookEndpoints)
        .set({
          failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})`,
          ...(last
            ? {
                status: sql`case
                  when ${webhookEndpoints.status} = 'disabled' then 'disabled'
                  when coalesce(${webhookEndpoints.failingSince}, ${at}) <= ${at} - make_interval(secs => ${disableAfter}) then 'disabled'
                  else 'failing' end`,
                disabledReason: sql`case
                  when ${webhookEndpoints.status} = 'disabled' then ${webhookEndpoints.disabledReason}
                  when coalesce(${webhookEndpoints.failingSince}, ${at}) <= ${at} - make_interval(secs => ${disableAfter}) then 'failing'
                  else null end`,
              }
            : {}),
        })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
  });
  return { done: status !== 'pending', status, nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}

async function cancel(db: Database, deliveryId: string): Promise<AttemptOutcome> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'cancelled', nextAttemptAt: null, completedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, 'pending')));
  return { done: true, status: 'cancelled', nextAttemptAt: null };
}
