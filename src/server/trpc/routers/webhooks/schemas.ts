import { z } from 'zod';
import { EVENT_TYPES } from '../../../domain/events/events';

/** Allowlists of the webhook objects (every procedure's `.output()`): nothing else of a row leaves. */

export const ENABLED_EVENTS = ['*', ...EVENT_TYPES] as const;

export const ZWebhookEndpoint = z
  .object({
    id: z.string().describe('`we_…`'),
    object: z.literal('webhook_endpoint'),
    url: z.string().describe('Where events are POSTed.'),
    enabled_events: z.array(z.enum(ENABLED_EVENTS)).describe('`["*"]` for every event type, else the types delivered.'),
    description: z.string().nullable(),
    status: z
      .enum(['enabled', 'failing', 'disabled'])
      .describe(
        '`enabled`; `failing`: a delivery used up all its retries (deliveries continue; any success returns the endpoint to `enabled`); `disabled`: nothing is sent — after a 410 answer, 5 days of continuous failure, or on request.',
      ),
    created: z.number().int(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string().describe('The signing secret (`whsec_…`), for the Standard Webhooks libraries. Shown only in this response.'),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const ZWebhookDeliveryAttempt = z
  .object({
    attempt: z.number().int().describe('1-based.'),
    created: z.number().int().describe('When the request was sent.'),
    succeeded: z.boolean().describe('The receiver answered 2xx.'),
    response_status: z.number().int().nullable().describe('The receiver’s HTTP status; null when it did not answer (timeout, connection refused, blocked URL).'),
    duration_ms: z.number().int(),
    error: z.string().nullable().describe('Why the attempt failed.'),
    response_body: z.string().nullable().describe('The first 1 KiB of the response body.'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const ZWebhookDelivery = z
  .object({
    id: z.string().describe('`whd_…`'),
    object: z.literal('webhook_delivery'),
    endpoint: z.string().describe('The endpoint (`we_…`).'),
    event: z.string().describe('The event (`evt_…`), sent as `webhook-id`.'),
    event_type: z.string(),
    kind: z.enum(['event', 'redelivery', 'test']).describe('`event`: sent when the event was recorded; `redelivery`: a manual resend; `test`: a sample event.'),
    status: z
      .enum(['pending', 'succeeded', 'failed', 'cancelled'])
      .describe('`pending` (being attempted or waiting for a retry), `succeeded`, `failed` (410, or no attempt succeeded), `cancelled` (the endpoint was disabled before it could be sent).'),
    attempt_count: z.number().int(),
    max_attempts: z.number().int().describe('The length of the retry schedule; 1 for manual redeliveries and tests.'),
    next_attempt_at: z.number().int().nullable().describe('When the next retry is due, while `pending`.'),
    response_status: z.number().int().nullable().describe('Of the latest attempt.'),
    duration_ms: z.number().int().nullable().describe('Of the latest attempt.'),
    error: z.string().nullable().describe('Of the latest attempt.'),
    response_body: z.string().nullable().describe('Of the latest attempt (first 1 KiB).'),
    attempts: z.array(ZWebhookDeliveryAttempt).describe('Every attempt, oldest first.'),
    created: z.number().int(),
    completed_at: z.number().int().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const ZEndpointId = z.string().max(64).describe('A webhook endpoint id (`we_…`).');
