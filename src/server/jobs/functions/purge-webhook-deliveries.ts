import { getDb } from '../../db/client';
import { deliveryRetentionDays, purgeWebhookDeliveries as purge } from '../../domain/webhooks/deliveries';
import { inngest } from '../client';

/** Daily: deletes finished webhook deliveries older than the retention (SWISH_WEBHOOK_LOG_RETENTION_DAYS). */
export const purgeWebhookDeliveries = inngest.createFunction(
  { id: 'purge-webhook-deliveries', triggers: [{ cron: '41 3 * * *' }] },
  async ({ step }) =>
    step.run('purge', async () => ({ purged: await purge(getDb(), new Date(Date.now() - deliveryRetentionDays() * 86_400_000)) })),
);
