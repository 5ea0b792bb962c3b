import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { ZEndpointId, ZWebhookEndpointWithSecret } from './schemas';

export const rotateWebhookSecretMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/webhook_endpoints/{id}/rotate_secret',
    protect: true,
    tags: ['Webhooks'],
    summary: 'Rotate a webhook endpoint’s secret',
    description:
      'Issues a new signing secret (returned here only). For the next 24 hours every delivery carries two signatures in `webhook-signature` — one with the new secret, one with the old — so receivers verify with either while they switch. A second rotation within those 24 hours retires the oldest secret at once.',
  },
  errorStatuses: [404],
};

export const ZRotateWebhookSecretRequest = z.object({ id: ZEndpointId }).strict();
export const ZRotateWebhookSecretResponse = ZWebhookEndpointWithSecret;
