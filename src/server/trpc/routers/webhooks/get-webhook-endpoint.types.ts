import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ZEndpointId, ZWebhookEndpoint } from './schemas';

export const getWebhookEndpointMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/webhook_endpoints/{id}',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Retrieve a webhook endpoint',
    description: 'The endpoint and its `status`. Its delivery log is at `/v1/webhook_endpoints/{id}/deliveries`.',
  },
  errorStatuses: [404],
};

export const ZGetWebhookEndpointRequest = z.object({ id: ZEndpointId }).strict();
export const ZGetWebhookEndpointResponse = ZWebhookEndpoint;
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;
