import { text, timestamp } from 'drizzle-orm/pg-core';

/** Prefixed, time-sortable id (see domain/ids.ts): ordering by id is ordering by creation. */
export const idColumn = () => text('id').primaryKey();

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
