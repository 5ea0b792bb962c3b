import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ZEndpointId } from './schemas';

export const deleteWebhookEndpointMeta: SwishMeta = {
  openapi: {
    method: 'DELETE',
    path: '/webhook_endpoints/{id}',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Delete a webhook endpoint',
    description: 'Deletes the endpoint and its delivery log; retries still scheduled for it stop.',
  },
  errorStatuses: [404],
};

export const ZDeleteWebhookEndpointRequest = z.object({ id: ZEndpointId }).strict();
export const ZDeleteWebhookEndpointResponse = z
  .object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });
