import { resolve } from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../server/db/embedded';
import { runMigrations } from '../server/db/migrate';

let db: EmbeddedDatabase | undefined;

/**
 * Integration tests run against a real PostgreSQL: TEST_DATABASE_URL when set, otherwise
 * an embedded server under `.data/test` (port 54339). The schema is rebuilt from the
 * migrations on every run, so each run starts empty.
 */
export async function setup() {
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    db = await startEmbeddedPostgres({
      root: resolve(process.env.TEST_DATA_DIR ?? '.data/test'),
      port: Number(process.env.TEST_DB_PORT ?? 54339),
      mode: 'owner',
    });
    url = db.url;
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql.unsafe('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;');
  await sql.end();
  await runMigrations(url);
  process.env.DATABASE_URL = url;
}

export async function teardown() {
  await db?.stop();
}
