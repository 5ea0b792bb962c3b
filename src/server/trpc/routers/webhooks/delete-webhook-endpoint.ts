import { deleteWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { deleteWebhookEndpointMeta, ZDeleteWebhookEndpointRequest, ZDeleteWebhookEndpointResponse } from './delete-webhook-endpoint.types';

export const deleteWebhookEndpointRoute = adminProcedure
  .meta(deleteWebhookEndpointMeta)
  .input(ZDeleteWebhookEndpointRequest)
  .output(ZDeleteWebhookEndpointResponse)
  .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));
