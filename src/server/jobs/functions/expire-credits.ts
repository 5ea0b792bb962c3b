import { getDb } from '../../db/client';
import { expireCredits as expireGrants } from '../../domain/billing/holds';
import { inngest } from '../client';

/**
 * Hourly: writes the expiry of credit grants past their one-year life into the ledger.
 * The balance already ignores expired grants at read time; this keeps the ledger and
 * statements complete.
 */
export const expireCredits = inngest.createFunction(
  { id: 'expire-credits', triggers: [{ cron: '5 * * * *' }] },
  async ({ step }) => step.run('expire', async () => ({ expired: await expireGrants(getDb()) })),
);
