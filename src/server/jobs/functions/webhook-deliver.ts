import { getDb } from '../../db/client';
import { attemptDelivery } from '../../domain/webhooks/attempt';
import { retryScheduleSeconds } from '../../domain/webhooks/config';
import { inngest } from '../client';
import { webhookDeliveryRequested } from '../events';

/**
 * Calls in flight per endpoint. A slow endpoint (up to the 15 s timeout per attempt) can
 * occupy at most this many workers, so deliveries to other endpoints keep flowing.
 */
const PER_ENDPOINT_CONCURRENCY = Number(process.env.SWISH_WEBHOOK_ENDPOINT_CONCURRENCY ?? 4);

/** Safety bound on the attempt loop; the delivery's own `max_attempts` ends it long before. */
const MAX_ATTEMPTS = 100;

/**
 * Step results are reported with the run's end (or before a sleep) rather than one
 * checkpoint request each: a delivery that succeeds at once is one call to the function and
 * one statement to end the run. Should the process die in between, the attempt step runs
 * again and finds its outcome recorded by `attemptDelivery` (nothing is sent twice).
 */
export const BUFFERED_CHECKPOINTS = { bufferedSteps: 100 };

/**
 * Carries out one webhook delivery: attempt, and while the receiver fails, sleep until the
 * next attempt of the retry schedule (SWISH_WEBHOOK_RETRY_SCHEDULE) and try again. Every
 * attempt is recorded by `attemptDelivery`, which also decides when (and whether) to retry.
 * Sleeping runs hold no worker, so days of retries cost nothing in between.
 */
export const webhookDeliver = inngest.createFunction(
  {
    id: 'webhook-deliver',
    triggers: [{ event: webhookDeliveryRequested }],
    concurrency: [{ key: 'event.data.endpoint_id', limit: PER_ENDPOINT_CONCURRENCY }],
    checkpointing: BUFFERED_CHECKPOINTS,
  },
  async ({ event, step }) => {
    const deliveryId = event.data.delivery_id;
    const firstDelay = retryScheduleSeconds()[0] ?? 0;
    if (firstDelay > 0) await step.sleep('wait-0', firstDelay * 1000);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const outcome = await step.run(`attempt-${attempt}`, () => attemptDelivery(getDb(), { deliveryId, attempt }));
      if (outcome.done || !outcome.nextAttemptAt) return { status: outcome.status, attempts: attempt };
      await step.sleepUntil(`wait-${attempt}`, new Date(outcome.nextAttemptAt));
    }
    return { status: 'failed', attempts: MAX_ATTEMPTS };
  },
);
