import type { Inngest } from 'inngest';
import { getDb } from '../../db/client';
import { runAutoRecharge } from '../../domain/billing/auto-recharge';
import { inngest } from '../client';
import { autoRechargeRequested } from '../events';

/**
 * Charges the saved card off-session when a settlement left the available balance below
 * the organization's threshold (SPEC §8): at most once an hour per organization. Requests
 * beyond the rate limit are dropped, not queued; the next settlement below the threshold
 * after the hour asks again. The charge uses the event id as Stripe idempotency key, so a
 * retried step never charges twice. Made by a factory so a test can serve the same
 * function under an app id of its own.
 */
export function createAutoRecharge(client: Inngest.Any) {
  return client.createFunction(
    {
      id: 'auto-recharge',
      triggers: [{ event: autoRechargeRequested }],
      rateLimit: { limit: 1, period: '1h', key: 'event.data.organization_id' },
      retries: 3,
    },
    async ({ event, step }) => {
      const organizationId = event.data.organization_id as string;
      return step.run('recharge', () => runAutoRecharge(getDb(), { organizationId, idempotencyKey: `swish-auto-recharge-${event.id ?? organizationId}` }));
    },
  );
}

export const autoRecharge = createAutoRecharge(inngest);
