import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ZWebhookDelivery } from '../webhooks/schemas';

export const redeliverEventMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/events/{id}/redeliver',
    protect: true,
    tags: ['Events', 'Webhooks'],
    summary: 'Redeliver an event to an endpoint',
    description:
      'Sends a logged event again to one of your endpoints (`endpoint`, in the body or as `?endpoint=we_…`), whatever the endpoint’s status or subscriptions. One attempt, with the same `webhook-id` so receivers can de-duplicate; the result appears in the delivery log. Answers 201 with the pending delivery.',
  },
  successStatus: 201,
  errorStatuses: [404],
};

export const ZRedeliverEventRequest = z
  .object({
    id: z.string().max(64).describe('An event id (`evt_…`).'),
    endpoint: z.string().max(64).optional().describe('The webhook endpoint (`we_…`) to deliver to. Required, here or as the `endpoint` query parameter.'),
  })
  .strict();

export const ZRedeliverEventResponse = ZWebhookDelivery;
