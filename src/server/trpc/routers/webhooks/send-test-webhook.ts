import { createTestDelivery } from '../../../domain/webhooks/deliveries';
import { notifyWebhookDeliveryRequested } from '../../../jobs/notify';
import { adminProcedure } from '../../procedures';
import { sendTestWebhookMeta, ZSendTestWebhookRequest, ZSendTestWebhookResponse } from './send-test-webhook.types';
import { syncOutput } from '../../sync-output';

export const sendTestWebhookRoute = adminProcedure
  .meta(sendTestWebhookMeta)
  .input(ZSendTestWebhookRequest)
  .output(syncOutput(ZSendTestWebhookResponse))
  .mutation(async ({ ctx, input }) => {
    const organizationId = ctx.auth.organizationId;
    const delivery = await createTestDelivery(ctx.db, { organizationId, endpointId: input.id, type: input.type ?? 'session.processed' });
    await notifyWebhookDeliveryRequested(delivery, organizationId);
    ctx.res.status = 201;
    return delivery;
  });
