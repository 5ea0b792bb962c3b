import { and, asc, count, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';

export interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  total_count: number;
  url?: string;
}

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/**
 * The one list helper (SPEC §2.1, DESIGN §4): newest first by id (ids are time-sortable),
 * or creation order with `order: 'asc'`;
 * `starting_after` pages towards older items, `ending_before` towards newer ones,
 * `total_count` counts the whole filtered set. `map` turns the page's rows into API
 * objects (it may batch-load related rows for the page only).
 */
export async function paginate<Row extends Record<string, unknown>, Item>(
  db: DbOrTx,
  opts: {
    table: PgTable;
    id: PgColumn;
    where?: SQL;
    params: ListParams;
    map: (rows: Row[]) => Promise<Item[]> | Item[];
    url?: string;
    /** `desc` (default): newest first. `asc`: creation order, for a session's shots, highlights and players. */
    order?: 'asc' | 'desc';
  },
): Promise<ListEnvelope<Item>> {
  const limit = opts.params.limit ?? DEFAULT_PAGE_SIZE;
  const before = opts.params.ending_before;
  const after = opts.params.starting_after;
  const asc_ = opts.order === 'asc';
  // "after" follows the list order; "before" walks it backwards and is reversed below
  const cursor = after ? (asc_ ? gt : lt)(opts.id, after) : before ? (asc_ ? lt : gt)(opts.id, before) : undefined;
  const forward = asc_ ? asc(opts.id) : desc(opts.id);
  const backward = asc_ ? desc(opts.id) : asc(opts.id);
  const pageQuery = db
    .select()
    .from(opts.table as any)
    .where(and(opts.where, cursor))
    .orderBy(before ? backward : forward)
    .limit(limit + 1) as unknown as Promise<Row[]>;
  const countQuery = db
    .select({ n: count() })
    .from(opts.table as any)
    .where(opts.where) as unknown as Promise<Array<{ n: number }>>;
  const [rows, [{ n }]] = await Promise.all([pageQuery, countQuery]);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  if (before) page.reverse();
  return {
    object: 'list',
    data: await opts.map(page),
    has_more: hasMore,
    total_count: Number(n),
    ...(opts.url ? { url: opts.url } : {}),
  };
}
