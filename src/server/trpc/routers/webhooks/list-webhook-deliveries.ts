import { listWebhookDeliveries } from '../../../domain/webhooks/deliveries';
import { orgProcedure } from '../../procedures';
import { listWebhookDeliveriesMeta, ZListWebhookDeliveriesRequest, ZListWebhookDeliveriesResponse } from './list-webhook-deliveries.types';

export const listWebhookDeliveriesRoute = orgProcedure
  .meta(listWebhookDeliveriesMeta)
  .input(ZListWebhookDeliveriesRequest)
  .output(ZListWebhookDeliveriesResponse)
  .query(({ ctx, input: { id, ...params } }) =>
    listWebhookDeliveries(ctx.db, { organizationId: ctx.auth.organizationId, endpointId: id, params }),
  );
