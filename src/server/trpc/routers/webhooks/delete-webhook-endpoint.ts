import { deleteWebhookEndpoint } from '../../../domain/webhooks/endpoints';
import { adminProcedure } from '../../procedures';
import { deleteWebhookEndpointMeta, ZDeleteWebhookEndpointRequest, ZDeleteWebhookEndpointResponse } from './delete-webhook-endpoint.types';
import { syncOutput } from '../../sync-output';

export const deleteWebhookEndpointRoute = adminProcedure
  .meta(deleteWebhookEndpointMeta)
  .input(ZDeleteWebhookEndpointRequest)
  .output(syncOutput(ZDeleteWebhookEndpointResponse))
  .mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));
