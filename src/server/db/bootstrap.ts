import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';
import { runMigrations } from './migrate';

/**
 * Makes a migrated database available and points DATABASE_URL at it: the configured
 * external PostgreSQL when DATABASE_URL is set, otherwise the embedded server.
 */
export async function ensureDatabase(opts: {
  mode: 'owner' | 'client';
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  let db: EmbeddedDatabase;
  if (process.env.DATABASE_URL) {
    db = { url: process.env.DATABASE_URL, owned: false, stop: async () => {} };
  } else {
    db = await startEmbeddedPostgres({ mode: opts.mode, log: opts.log });
    process.env.DATABASE_URL = db.url;
  }
  await runMigrations(db.url);
  return db;
}
