import { getDb } from '../../db/client';
import { purgeExpiredIdempotencyKeys } from '../../domain/idempotency/idempotency';
import { inngest } from '../client';

/** Hourly: deletes Idempotency-Key records past their 24 h replay window. */
export const purgeIdempotencyKeys = inngest.createFunction(
  { id: 'purge-idempotency-keys', triggers: [{ cron: '17 * * * *' }] },
  async ({ step }) => step.run('purge', async () => ({ purged: await purgeExpiredIdempotencyKeys(getDb()) })),
);
