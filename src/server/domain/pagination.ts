import { and, asc, count, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { AppError } from './errors';

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
 * or creation order with `order: 'asc'` (time order with a `position` column);
 * a cursor must name an item of the scope;
 * `starting_after` pages towards older items, `ending_before` towards newer ones,
 * `total_count` counts the whole filtered set. `map` turns the page's rows into API
 * objects (it may batch-load related rows for the page only).
 */
export async function paginate<Row extends Record<string, unknown>, Item>(
  db: DbOrTx,
  opts: {
    table: PgTable;
    id: PgColumn;
    /**
     * The rows a cursor may name (the owner: an organization, a session, an endpoint), without
     * the list's filters: a cursor outside it is refused (`parameter_invalid`), while one that
     * no longer matches a filter (a session that changed status between two pages) still pages.
     */
    scope: SQL;
    /** What the list holds, for the error on an unknown cursor ("No such session: …"). */
    noun: string;
    /** The list's filters, `scope` included. */
    where?: SQL;
    params: ListParams;
    /**
     * A column to order by before the id, unique within the scope (a shot's time-order `index`):
     * a cursor then pages from its row's position. Only with `order: 'asc'`.
     */
    position?: PgColumn;
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
  const named = after ?? before;
  const pos = opts.position;
  // "after" follows the list order; "before" walks it backwards and is reversed below
  const past = (after && asc_) || (before && !asc_);
  const cursor = !named
    ? undefined
    : pos
      ? sql`(${pos}, ${opts.id}) ${sql.raw(past ? '>' : '<')} (select c.${sql.identifier(pos.name)}, c.${sql.identifier(opts.id.name)} from ${opts.table} c where c.${sql.identifier(opts.id.name)} = ${named})`
      : (past ? gt : lt)(opts.id, named);
  const ascending = [...(pos ? [asc(pos)] : []), asc(opts.id)];
  const descending = [...(pos ? [desc(pos)] : []), desc(opts.id)];
  const forward = asc_ ? ascending : descending;
  const backward = asc_ ? descending : ascending;
  const pageQuery = db
    .select()
    .from(opts.table as any)
    .where(and(opts.where, cursor))
    .orderBy(...(before ? backward : forward))
    .limit(limit + 1) as unknown as Promise<Row[]>;
  const countQuery = db
    .select({ n: count() })
    .from(opts.table as any)
    .where(opts.where) as unknown as Promise<Array<{ n: number }>>;
  const cursorQuery = named
    ? (db.select({ n: count() }).from(opts.table as any).where(and(opts.scope, eq(opts.id, named))) as unknown as Promise<Array<{ n: number }>>)
    : Promise.resolve([{ n: 1 }]);
  const [rows, [{ n }], [known]] = await Promise.all([pageQuery, countQuery, cursorQuery]);
  if (Number(known.n) === 0) {
    throw new AppError('parameter_invalid', { message: `No such ${opts.noun}: '${named}'.`, param: after ? 'starting_after' : 'ending_before' });
  }
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
