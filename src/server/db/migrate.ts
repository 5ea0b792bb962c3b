import { resolve } from 'node:path';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';

/** Arbitrary constant: the advisory lock that serialises migrations across app instances. */
const MIGRATION_LOCK = 727_274_001;

/**
 * Applies the drizzle-kit migrations in `drizzle/`. Safe to run from several processes at
 * once (a session-level advisory lock serialises them); already applied migrations are skipped.
 */
export async function runMigrations(url: string, folder = resolve(process.cwd(), 'drizzle')): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: folder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
