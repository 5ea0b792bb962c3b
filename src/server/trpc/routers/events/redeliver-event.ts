import { AppError } from '../../../domain/errors';
import { createRedelivery } from '../../../domain/webhooks/deliveries';
import { notifyWebhookDeliveryRequested } from '../../../jobs/notify';
import { adminProcedure } from '../../procedures';
import { redeliverEventMeta, ZRedeliverEventRequest, ZRedeliverEventResponse } from './redeliver-event.types';
import { syncOutput } from '../../sync-output';

export const redeliverEventRoute = adminProcedure
  .meta(redeliverEventMeta)
  .input(ZRedeliverEventRequest)
  .output(syncOutput(ZRedeliverEventResponse))
  .mutation(async ({ ctx, input }) => {
    // POST inputs come from the body only; `?endpoint=` is read here as documented
    const endpointId = input.endpoint ?? new URL(ctx.req.url).searchParams.get('endpoint');
    if (!endpointId) throw new AppError('parameter_missing', { message: 'Missing required parameter: endpoint.', param: 'endpoint' });
    const organizationId = ctx.auth.organizationId;
    const delivery = await createRedelivery(ctx.db, { organizationId, eventId: input.id, endpointId });
    await notifyWebhookDeliveryRequested(delivery, organizationId);
    ctx.res.status = 201;
    return delivery;
  });
