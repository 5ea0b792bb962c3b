import { createWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { createWebhookEndpointMeta, ZCreateWebhookEndpointRequest, ZCreateWebhookEndpointResponse } from './create-webhook-endpoint.types';
import { syncOutput } from '../../sync-output';

export const createWebhookEndpointRoute = adminProcedure
  .meta(createWebhookEndpointMeta)
  .input(ZCreateWebhookEndpointRequest)
  .output(syncOutput(ZCreateWebhookEndpointResponse))
  .mutation(async ({ ctx, input }) => {
    const endpoint = await createWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, input });
    ctx.res.status = 201;
    return endpoint;
  });
