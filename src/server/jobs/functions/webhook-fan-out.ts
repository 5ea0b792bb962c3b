import { getDb } from '../../db/client';
import { createEventDeliveries } from '../../domain/webhooks/deliveries';
import { inngest } from '../client';
import { eventRecorded, webhookDeliveryRequested } from '../events';
import { BUFFERED_CHECKPOINTS } from './webhook-deliver';

/**
 * Each recorded event → one delivery per subscribed endpoint, each carried out by its own
 * `webhook-deliver` run, so a slow or dead endpoint never holds up the others. The
 * requested events carry the delivery id as their event id: a retried fan-out cannot start
 * a delivery twice.
 */
export const webhookFanOut = inngest.createFunction(
  // both steps are reported with the run's end (see BUFFERED_CHECKPOINTS); a fan-out re-run
  // after a crash finds its deliveries made and their events deduplicated by id
  { id: 'webhook-fan-out', triggers: [{ event: eventRecorded }], checkpointing: BUFFERED_CHECKPOINTS },
  async ({ event, step }) => {
    const organizationId = event.data.organization_id;
    const deliveries = await step.run('create-deliveries', () => createEventDeliveries(getDb(), { organizationId, eventId: event.data.event_id }));
    if (deliveries.length > 0) {
      await step.sendEvent(
        'request-deliveries',
        deliveries.map((d) => webhookDeliveryRequested.create({ delivery_id: d.id, endpoint_id: d.endpointId, organization_id: organizationId }, { id: d.id })),
      );
    }
    return { deliveries: deliveries.length };
  },
);
