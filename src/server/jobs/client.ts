import { Inngest } from 'inngest';
import { logger } from '../logger';
import { engineAwareFetch } from './engine/in-process';

/**
 * The one Inngest client of the service (app id `swish`). It has no configuration of its
 * own: the SDK reads INNGEST_BASE_URL / INNGEST_SIGNING_KEY / INNGEST_EVENT_KEY /
 * INNGEST_DEV from the environment, which is either what the operator set (Inngest Cloud,
 * self-hosted Inngest) or what the embedded engine exported when `npm start` created it.
 * Either way the functions and `inngest.send` are written the same. Its requests to an
 * embedded engine of this process (events, checkpoints) are handed over in-process
 * (`engineAwareFetch`); all others use the global fetch.
 */
export const inngest = new Inngest({ id: 'swish', logger: logger.child({ component: 'inngest' }), fetch: engineAwareFetch });

/**
 * Re-reads the environment into the client. The SDK copies the environment when the client
 * is created and refreshes it on every request to /api/inngest; code that creates an
 * engine after importing the client (tests, scripts) calls this before sending events.
 */
export function refreshInngestEnv(): void {
  inngest.setEnvVars();
}
