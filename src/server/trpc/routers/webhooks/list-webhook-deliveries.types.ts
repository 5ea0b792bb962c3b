import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';
import { ZEndpointId, ZWebhookDelivery } from './schemas';

export const listWebhookDeliveriesMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/webhook_endpoints/{id}/deliveries',
    protect: true,
    tags: ['Webhooks'],
    summary: 'List an endpoint’s deliveries',
    description:
      'The delivery log, newest first: each delivery of an event to this endpoint with every attempt (status code, duration, error, first 1 KiB of the response body).',
  },
  errorStatuses: [404],
};

export const ZListWebhookDeliveriesRequest = z
  .object({
    id: ZEndpointId,
    ...listParamsShape,
    status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional().describe('Only deliveries in this state.'),
    event: z.string().max(64).optional().describe('Only deliveries of this event (`evt_…`).'),
  })
  .strict()
  .superRefine(oneCursor);

export const ZListWebhookDeliveriesResponse = listEnvelope(ZWebhookDelivery);
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
