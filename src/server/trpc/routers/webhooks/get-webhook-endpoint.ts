import { getWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { getWebhookEndpointMeta, ZGetWebhookEndpointRequest, ZGetWebhookEndpointResponse } from './get-webhook-endpoint.types';
import { syncOutput } from '../../sync-output';

export const getWebhookEndpointRoute = adminProcedure
  .meta(getWebhookEndpointMeta)
  .input(ZGetWebhookEndpointRequest)
  .output(syncOutput(ZGetWebhookEndpointResponse))
  .query(({ ctx, input }) => getWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));
