import { updateWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { orgProcedure } from '../../procedures';
import { updateWebhookEndpointMeta, ZUpdateWebhookEndpointRequest, ZUpdateWebhookEndpointResponse } from './update-webhook-endpoint.types';

export const updateWebhookEndpointRoute = orgProcedure
  .meta(updateWebhookEndpointMeta)
  .input(ZUpdateWebhookEndpointRequest)
  .output(ZUpdateWebhookEndpointResponse)
  .mutation(({ ctx, input: { id, ...input } }) => updateWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id, input }));
