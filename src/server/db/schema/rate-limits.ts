import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Sliding-window log per limiter key: tokens (Unix ms × 1000 + a random part) of the requests accepted in the
 * last window. Kept in PostgreSQL so every app instance shares one count.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text('key').primaryKey(),
  hits: bigint('hits', { mode: 'number' }).array().notNull(),
});
