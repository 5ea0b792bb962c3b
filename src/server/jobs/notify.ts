import { logger } from '../logger';
import { inngest } from './client';
import { sessionSubmitted } from './events';

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
