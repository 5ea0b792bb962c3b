import { listWebhookDeliveries } from '../../../domain/webhooks/deliveries';
import { adminProcedure } from '../../procedures';
import { listWebhookDeliveriesMeta, ZListWebhookDeliveriesRequest, ZListWebhookDeliveriesResponse } from './list-webhook-deliveries.types';

export const listWebhookDeliveriesRoute = adminProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ZListWebhookDeliveriesRequest)
  .output(ZListWebhookDeliveriesResponse)
  .query(({ ctx, input: { id, ...params } }) =>
    listWebhookDeliveries(ctx.db, { organizationId: ctx.auth.organizationId, endpointId: id, params }),
  );
