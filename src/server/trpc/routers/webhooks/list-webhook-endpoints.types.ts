import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';
import { ZWebhookEndpoint } from './schemas';

export const listWebhookEndpointsMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/webhook_endpoints',
    protect: true,
    tags: ['Webhooks'],
    summary: 'List webhook endpoints',
    description: 'The organization’s endpoints, newest first (secrets are never listed).',
  },
};

export const ZListWebhookEndpointsRequest = z.object({ ...listParamsShape }).strict().superRefine(oneCursor);
export const ZListWebhookEndpointsResponse = listEnvelope(ZWebhookEndpoint);
export type TListWebhookEndpointsResponse = z.infer<typeof ZListWebhookEndpointsResponse>;
