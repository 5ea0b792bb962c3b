import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema';

export type Database = PostgresJsDatabase<typeof schema>;
/** A transaction handle: domain functions that take part in a caller's transaction accept `Database | Tx`. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

interface Handle {
  url: string;
  sql: postgres.Sql;
  db: Database;
}

const globalKey = Symbol.for('swish.db');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Handle };

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error('DATABASE_URL is not set: start the service with `npm start`, which runs the embedded PostgreSQL');
  }
  return url;
}

/**
 * The process-wide connection pool, created on first use from DATABASE_URL (set by
 * `npm start` to the embedded server when the operator did not set one). Kept on
 * globalThis so module reloads (dev server, test workers) share one pool.
 */
export function getHandle(): Handle {
  const g = globalThis as GlobalWithDb;
  const url = databaseUrl();
  if (g[globalKey] && g[globalKey].url === url) return g[globalKey];
  const sql = postgres(url, {
    max: Number(process.env.SWISH_DB_POOL ?? 10),
    onnotice: () => {},
    idle_timeout: 30,
  });
  const handle = { url, sql, db: drizzle(sql, { schema }) };
  g[globalKey] = handle;
  return handle;
}

export function getDb(): Database {
  return getHandle().db;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const h = g[globalKey];
  if (h) {
    g[globalKey] = undefined;
    await h.sql.end({ timeout: 5 });
  }
}
