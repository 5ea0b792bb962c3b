import { updateWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { updateWebhookEndpointMeta, ZUpdateWebhookEndpointRequest, ZUpdateWebhookEndpointResponse } from './update-webhook-endpoint.types';
import { syncOutput } from '../../sync-output';

export const updateWebhookEndpointRoute = adminProcedure
  .meta(updateWebhookEndpointMeta)
  .input(ZUpdateWebhookEndpointRequest)
  .output(syncOutput(ZUpdateWebhookEndpointResponse))
  .mutation(({ ctx, input: { id, ...input } }) => updateWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id, input }));
