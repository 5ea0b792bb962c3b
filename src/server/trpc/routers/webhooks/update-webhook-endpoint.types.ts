import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { strictJson } from '../../schemas/json';
import { ZDescription, ZEnabledEvents, ZWebhookUrl } from './create-webhook-endpoint.types';
import { ZEndpointId, ZWebhookEndpoint } from './schemas';

export const updateWebhookEndpointMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/webhook_endpoints/{id}',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Update a webhook endpoint',
    description:
      'Changes the URL, event types or description. `disabled: true` stops deliveries; `disabled: false` re-enables a disabled endpoint (after a 410 or long failure) and clears its failure history.',
  },
  errorStatuses: [404],
};

export const ZUpdateWebhookEndpointRequest = z
  .object({
    id: ZEndpointId,
    url: ZWebhookUrl.optional(),
    enabled_events: ZEnabledEvents.optional(),
    description: ZDescription.optional(),
    disabled: strictJson(z.boolean()).optional().describe('`true` disables the endpoint, `false` enables it again.'),
  })
  .strict();

export const ZUpdateWebhookEndpointResponse = ZWebhookEndpoint;
