import { getDb } from '../../db/client';
import { failSession, queuedSessionsOlderThan, staleSessions } from '../../domain/sessions/lifecycle';
import { inngest } from '../client';
import { eventRecorded, sessionSubmitted } from '../events';
import { jobTimeoutSeconds } from '../pipeline/steps';

/** A queued session whose start event is older than this is sent again. */
const REQUEUE_AFTER_SECONDS = 120;
/**
 * A session still queued after this long (SWISH_QUEUE_TIMEOUT, default 24 h) is failed as
 * `timeout`: waiting in line behind other games is normal, a day is not.
 */
const queueTimeoutSeconds = () => Number(process.env.SWISH_QUEUE_TIMEOUT ?? 86_400);

/**
 * Every minute: fails sessions whose running stage went silent for SWISH_JOB_TIMEOUT (a
 * crashed or stuck run: `timeout`, hold voided, event recorded) or that waited — queued, or
 * parked between stages behind other games — past SWISH_QUEUE_TIMEOUT, and re-sends the start event of
 * sessions still queued (it may have been lost when the engine was unreachable at submit;
 * the pipeline is idempotent per session, so a duplicate start does nothing).
 */
export const sweepSessions = inngest.createFunction(
  { id: 'sweep-sessions', triggers: [{ cron: '* * * * *' }] },
  async ({ step }) => {
    const db = getDb();
    const timedOut = await step.run('fail-stale', async () => {
      const out: Array<{ eventId: string; organizationId: string }> = [];
      const limits = { jobTimeoutSeconds: jobTimeoutSeconds(), queueTimeoutSeconds: queueTimeoutSeconds() };
      const stale = [...(await staleSessions(db, limits)), ...(await queuedSessionsOlderThan(db, limits.queueTimeoutSeconds))];
      for (const s of stale) {
        const failed = await failSession(db, { sessionId: s.id, code: 'timeout' });
        if (failed) out.push({ eventId: failed.eventId, organizationId: s.organizationId });
      }
      return out;
    });
    if (timedOut.length) {
      await step.sendEvent('fan-out-timeouts', timedOut.map((t) => eventRecorded.create({ event_id: t.eventId, organization_id: t.organizationId })));
    }
    const queued = await step.run('find-queued', () => queuedSessionsOlderThan(db, REQUEUE_AFTER_SECONDS));
    if (queued.length) {
      await step.sendEvent('requeue', queued.map((s) => sessionSubmitted.create({ session_id: s.id, organization_id: s.organizationId })));
    }
    return { timedOut: timedOut.length, requeued: queued.length };
  },
);
