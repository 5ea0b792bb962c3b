import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ENABLED_EVENTS, ZWebhookEndpointWithSecret } from './schemas';

export const createWebhookEndpointMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/webhook_endpoints',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Create a webhook endpoint',
    description:
      'Registers an https URL that receives the organization’s events, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The response carries the signing `secret` — shown only here and on rotation. The URL must resolve to public addresses. At most 16 endpoints per organization (409 `resource_limit_reached`).',
  },
  successStatus: 201,
  errorStatuses: [409],
};

export const ZWebhookUrl = z.string().min(1).max(2048).describe('An https URL on a public address.');
export const ZEnabledEvents = z
  .array(z.enum(ENABLED_EVENTS))
  .min(1)
  .max(10)
  .describe('Event types to deliver: `["*"]` (default) for all, or some of `session.processed`, `session.failed`.');
export const ZDescription = z.string().max(500).nullable().describe('Free text for your own reference.');

export const ZCreateWebhookEndpointRequest = z
  .object({
    url: ZWebhookUrl,
    enabled_events: ZEnabledEvents.optional(),
    description: ZDescription.optional(),
  })
  .strict();

export const ZCreateWebhookEndpointResponse = ZWebhookEndpointWithSecret;
export type TCreateWebhookEndpointRequest = z.infer<typeof ZCreateWebhookEndpointRequest>;
export type TCreateWebhookEndpointResponse = z.infer<typeof ZCreateWebhookEndpointResponse>;
