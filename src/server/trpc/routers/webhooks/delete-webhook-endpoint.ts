import { deleteWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { orgProcedure } from '../../procedures';
import { deleteWebhookEndpointMeta, ZDeleteWebhookEndpointRequest, ZDeleteWebhookEndpointResponse } from './delete-webhook-endpoint.types';

export const deleteWebhookEndpointRoute = orgProcedure
  .meta(deleteWebhookEndpointMeta)
  .input(ZDeleteWebhookEndpointRequest)
  .output(ZDeleteWebhookEndpointResponse)
  .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));
