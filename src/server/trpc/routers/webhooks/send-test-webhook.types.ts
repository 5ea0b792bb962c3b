import { z } from 'zod';
import { EVENT_TYPES } from '../../../domain/events/events';
import type { SwishMeta } from '../../init';
import { ZEndpointId, ZWebhookDelivery } from './schemas';

export const sendTestWebhookMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/webhook_endpoints/{id}/test',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Send a test event',
    description:
      'Sends a sample event of the given type (default `session.processed`) to this endpoint, signed like any delivery, so you can check your receiver. The sample session has `metadata.swish_test = "true"`; the event is not added to the event log. One attempt, sent whatever the endpoint’s status; the result appears in the delivery log. Answers 201 with the pending delivery.',
  },
  successStatus: 201,
  errorStatuses: [404],
};

export const ZSendTestWebhookRequest = z
  .object({
    id: ZEndpointId,
    type: z.enum(EVENT_TYPES).optional().describe('Default `session.processed`.'),
  })
  .strict();

export const ZSendTestWebhookResponse = ZWebhookDelivery;
