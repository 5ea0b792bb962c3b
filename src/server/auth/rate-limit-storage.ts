import type { BetterAuthRateLimitStorage } from 'better-auth';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { consumeRateLimit } from '../domain/rate-limit/rate-limit';

/** Prefix of the sign-in/sign-up limiter's keys in `rate_limit_windows` (better-auth's key is `<address>|<path>`). */
export const AUTH_RATE_LIMIT_PREFIX = 'auth:';

/** How long a client's window row is kept after its last counted attempt. */
const KEEP_MS = 60 * 60_000;

/** How often (at most) one process deletes the rows of clients that stopped trying. */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * better-auth's rate-limit storage (sign-in, sign-up, password changes: its default rules, 3
 * attempts per 10 s per client address and path) kept in PostgreSQL, in the same sliding log
 * as the API keys' limit, so every app instance behind a load balancer counts the same
 * attempts. better-auth's default keeps them in each process's memory: with N instances a
 * client had N times the attempts. Rows of addresses that stopped trying are deleted an hour
 * after their last attempt.
 */
export function sharedAuthRateLimit(db: () => Database): BetterAuthRateLimitStorage {
  let prunedAt = 0;
  return {
    async consume(key, rule) {
      const now = Date.now();
      const state = await consumeRateLimit(db(), AUTH_RATE_LIMIT_PREFIX + key, rule.max, now, rule.window * 1000);
      if (now - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now;
        await pruneAuthWindows(db(), now - KEEP_MS);
      }
      return { allowed: state.allowed, retryAfter: state.allowed ? null : state.retryAfter };
    },
  };
}

/** Deletes the limiter rows whose last counted attempt is older than `before` (Unix ms). */
export async function pruneAuthWindows(db: Database, before: number): Promise<number> {
  const rows = await db.execute<{ key: string }>(sql`
    delete from rate_limit_windows
     where starts_with(key, ${AUTH_RATE_LIMIT_PREFIX})
       and coalesce(hits[cardinality(hits)], 0) < ${before * 1000}
 returning key`);
  return rows.length;
}
