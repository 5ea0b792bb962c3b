import { getDb } from '../../db/client';
import { expireStaleUploads } from '../../domain/uploads/uploads';
import { inngest } from '../client';

/** Hourly: unfinished uploads older than 24 h become `expired` and their partial bytes are deleted. */
export const expireUploads = inngest.createFunction(
  { id: 'expire-uploads', triggers: [{ cron: '41 * * * *' }] },
  async ({ step }) => step.run('expire', async () => ({ expired: (await expireStaleUploads(getDb())).length })),
);
