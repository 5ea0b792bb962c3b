import { listWebhookEndpoints } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { listWebhookEndpointsMeta, ZListWebhookEndpointsRequest, ZListWebhookEndpointsResponse } from './list-webhook-endpoints.types';
import { syncOutput } from '../../sync-output';

export const listWebhookEndpointsRoute = adminProcedure
  .meta(listWebhookEndpointsMeta)
  .input(ZListWebhookEndpointsRequest)
  .output(syncOutput(ZListWebhookEndpointsResponse))
  .query(({ ctx, input }) => listWebhookEndpoints(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
