import { getDb } from '../db/client';
import { cancelPendingDelivery } from '../domain/webhooks/deliveries';
import { logger } from '../logger';
import { inngest } from './client';
import { highlightRequested, reelRequested, sessionSubmitted, webhookDeliveryRequested } from './events';

/**
 * Starts processing of a submitted session. Called after the session's transaction
 * committed. If the event cannot be sent (the job engine is unreachable), the request
 * still succeeds — the session is safely `queued` with its hold — and the scheduled
 * re-queue of stale queued sessions sends it again.
 */
export async function notifySessionSubmitted(sessionId: string, organizationId: string): Promise<void> {
  try {
    await inngest.send(sessionSubmitted.create({ session_id: sessionId, organization_id: organizationId }));
  } catch (err) {
    logger.warn({ err, sessionId }, 'could not send swish/session.submitted; the re-queue job will retry');
  }
}

/**
 * Starts the run of a webhook delivery created outside the fan-out (a manual redelivery or
 * a test). Unlike a submit, a failure to queue it is reported to the caller (500), who can
 * simply ask again; the delivery is marked `cancelled` so the log never shows a delivery
 * pending forever.
 */
export async function notifyWebhookDeliveryRequested(delivery: { id: string; endpoint: string }, organizationId: string): Promise<void> {
  try {
    await inngest.send(
      webhookDeliveryRequested.create({ delivery_id: delivery.id, endpoint_id: delivery.endpoint, organization_id: organizationId }, { id: delivery.id }),
    );
  } catch (err) {
    await cancelPendingDelivery(getDb(), delivery.id).catch((e) => logger.error({ err: e, deliveryId: delivery.id }, 'could not cancel an unqueued delivery'));
    throw err;
  }
}

/**
 * Starts cutting a manual highlight or rendering a reel. As with a webhook redelivery, a
 * failure to queue is reported to the caller, who marks the highlight or reel `failed` (it
 * can be deleted and made again).
 */
export async function notifyHighlightRequested(highlight: { id: string; sessionId: string }, organizationId: string): Promise<void> {
  await inngest.send(
    highlightRequested.create({ highlight_id: highlight.id, session_id: highlight.sessionId, organization_id: organizationId }, { id: highlight.id }),
  );
}

export async function notifyReelRequested(reelId: string, organizationId: string): Promise<void> {
  await inngest.send(reelRequested.create({ reel_id: reelId, organization_id: organizationId }, { id: reelId }));
}
