import { getDb } from '../../db/client';
import type { SessionMediaKeys } from '../../media/renditions';
import { inngest } from '../client';
import { sessionRenditionsRequested } from '../events';
import { renderRenditionsBesideAnalysis } from '../pipeline/steps';
import { ProcessingFailure } from '../pipeline/source';

export type RenditionsOutcome =
  | { ok: true; value: SessionMediaKeys | null }
  | { ok: false; code: ProcessingFailure['code']; message: string };

/**
 * The session renditions as their own run, invoked by `process-session` beside its analysis
 * step. A function of its own because a concurrency limit counts running steps (here as on
 * Inngest): two parallel steps of one `process-session` run would take turns, while this run
 * has its own limit. Its result is memoised in the caller's `renditions` step, so a retried
 * analysis never renders again, and the step itself is idempotent (fixed storage keys). A
 * known failure (`timeout`) is returned as a value for the caller to fail the session with;
 * anything else is retried, then fails the caller's step.
 */
export const renderSessionRenditions = inngest.createFunction(
  {
    id: 'render-session-renditions',
    triggers: [{ event: sessionRenditionsRequested }],
    concurrency: [{ limit: Number(process.env.SWISH_PROCESSING_CONCURRENCY ?? 1) }],
    retries: 3,
  },
  async ({ event, step }) =>
    step.run('renditions', async (): Promise<RenditionsOutcome> => {
      try {
        return { ok: true, value: await renderRenditionsBesideAnalysis(getDb(), event.data.session_id, event.data.original_key) };
      } catch (err) {
        if (err instanceof ProcessingFailure) return { ok: false, code: err.code, message: err.message };
        throw err;
      }
    }),
);
