import { listWebhookDeliveries } from '../../../domain/webhooks/deliveries';
import { adminProcedure } from '../../procedures';
import { listWebhookDeliveriesMeta, ZListWebhookDeliveriesRequest, ZListWebhookDeliveriesResponse } from './list-webhook-deliveries.types';
import { syncOutput } from '../../sync-output';

export const listWebhookDeliveriesRoute = adminProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ZListWebhookDeliveriesRequest)
  .output(syncOutput(ZListWebhookDeliveriesResponse))
  .query(({ ctx, input: { id, ...params } }) =>
    listWebhookDeliveries(ctx.db, { organizationId: ctx.auth.organizationId, endpointId: id, params }),
  );
