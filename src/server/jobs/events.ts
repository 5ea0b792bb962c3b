import { eventType } from 'inngest';
import { z } from 'zod';

/**
 * Typed events, one `eventType` per event name: `inngest.send(sessionSubmitted.create({...}))`
 * validates the payload before it leaves, and functions triggered by it receive typed
 * `event.data` (validated again on arrival). Add an event here, never inline in a function.
 */

/** A session was submitted (after its credit hold): starts the session pipeline. */
export const sessionSubmitted = eventType('swish/session.submitted', {
  schema: z.object({
    session_id: z.string(),
    organization_id: z.string(),
  }),
});

/**
 * The session renditions of a session being processed: `process-session` invokes
 * `render-session-renditions` with it (`step.invoke`) so they are made while the analysis runs.
 */
export const sessionRenditionsRequested = eventType('swish/session.renditions.requested', {
  schema: z.object({
    session_id: z.string(),
    original_key: z.string(),
  }),
});

/** A public Event (`session.processed`, `session.failed`) was recorded: fans it out to webhook endpoints. */
export const eventRecorded = eventType('swish/event.recorded', {
  schema: z.object({
    event_id: z.string(),
    organization_id: z.string(),
  }),
});

/** A webhook delivery (`whd_…`) was created: one run of `webhook-deliver` carries out its attempts. */
export const webhookDeliveryRequested = eventType('swish/webhook.delivery.requested', {
  schema: z.object({
    delivery_id: z.string(),
    endpoint_id: z.string(),
    organization_id: z.string(),
  }),
});

/** A settlement left the organization below its auto-recharge threshold: `auto-recharge` charges the saved card (at most once an hour). */
export const autoRechargeRequested = eventType('swish/billing.auto_recharge.requested', {
  schema: z.object({
    organization_id: z.string(),
  }),
});

/** A coach marked a manual highlight (`hl_…`, status `processing`): `cut-manual-highlight` cuts its clip. */
export const highlightRequested = eventType('swish/highlight.requested', {
  schema: z.object({
    highlight_id: z.string(),
    session_id: z.string(),
    organization_id: z.string(),
  }),
});

/** A reel (`reel_…`, status `queued`) was created: `render-reel` concatenates its clips. */
export const reelRequested = eventType('swish/reel.requested', {
  schema: z.object({
    reel_id: z.string(),
    organization_id: z.string(),
  }),
});
