import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { AppError } from '../errors';

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window has room again (oldest counted request leaves it). */
  reset: number;
  /** Whole seconds to wait before retrying; 0 when allowed. */
  retryAfter: number;
}

const WINDOW_MS = 60_000;

let sequence = Math.floor(Math.random() * 1000);

/**
 * Counts one request against `key` in a rolling window (60 seconds unless `windowMs` says
 * otherwise) shared through PostgreSQL (a sliding log of accepted request times, locked per
 * key). Rejected requests are not counted, so a client that backs off gets in again as soon as
 * the oldest request leaves the window.
 */
export async function consumeRateLimit(db: Database, key: string, limit: number, now = Date.now(), windowMs = WINDOW_MS): Promise<RateLimitState> {
  // Entries are tokens ms × 1000 + a per-process sequence, so a request can tell from the
  // returned window whether its own token was admitted: distinct within a process for up
  // to 1,000 requests per millisecond (and still below 2^53, exact as a JS number).
  sequence = (sequence + 1) % 1000;
  const token = now * 1000 + sequence;
  const since = (now - windowMs) * 1000;
  const update = () =>
    db.execute<{ hits: Array<string | number> }>(sql`
      update rate_limit_windows
         set hits = array(select h from unnest(hits) h where h > ${since} order by h)
                    || case when (select count(*) from unnest(hits) h where h > ${since}) < ${limit}
                            then array[${token}::bigint] else '{}'::bigint[] end
       where key = ${key}
   returning hits`);
  let rows = await update();
  if (rows.length === 0) {
    rows = await db.execute<{ hits: Array<string | number> }>(sql`
      insert into rate_limit_windows (key, hits) values (${key}, array[${token}::bigint])
      on conflict (key) do nothing returning hits`);
    if (rows.length === 0) rows = await update();
  }
  const hits = rows[0].hits.map(Number);
  const allowed = hits.includes(token);
  const oldestMs = hits.length ? Math.floor(hits[0] / 1000) : now;
  const remaining = Math.max(0, limit - hits.length);
  const reset = Math.ceil((oldestMs + windowMs) / 1000);
  const retryAfter = allowed ? 0 : Math.max(1, Math.ceil((oldestMs + windowMs - now) / 1000));
  return { allowed, limit, remaining, reset, retryAfter };
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}

export function rateLimitError(state: RateLimitState): AppError {
  return new AppError('rate_limited', {
    message: `Too many requests: the limit is ${state.limit} requests per minute per API key. Retry after ${state.retryAfter} s.`,
    headers: { 'Retry-After': String(state.retryAfter), ...rateLimitHeaders(state) },
  });
}
