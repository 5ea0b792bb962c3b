'use client';

import { useState } from 'react';

type Cursor = { starting_after?: string; ending_before?: string };

/**
 * Cursor paging over a newest-first list (`starting_after` / `ending_before`), with the
 * page number shown to the user. Spread `cursor` into the list query; call `reset()` when
 * a filter changes.
 */
export function usePaging() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [page, setPage] = useState(1);
  return {
    cursor,
    page,
    reset() {
      setCursor({});
      setPage(1);
    },
    previous(firstId: string) {
      setCursor(page - 1 === 1 ? {} : { ending_before: firstId });
      setPage(page - 1);
    },
    next(lastId: string) {
      setCursor({ starting_after: lastId });
      setPage(page + 1);
    },
  };
}

/** "N things · page P" with Previous / Next, for a list page loaded with `usePaging`'s cursor. */
export function Pager({ paging, total, hasMore, rows, noun }: {
  paging: ReturnType<typeof usePaging>;
  total: number;
  hasMore: boolean;
  rows: Array<{ id: string }>;
  noun: string;
}) {
  // paging back from a later page: there is always a next page (the one we came from)
  const hasNext = paging.cursor.ending_before ? true : hasMore;
  return (
    <div className="pager">
      <span>
        {total} {noun}
        {total === 1 ? '' : 's'} · page {paging.page}
      </span>
      <div className="row">
        <button className="btn btn-sm" disabled={paging.page === 1} onClick={() => paging.previous(rows[0].id)}>
          Previous
        </button>
        <button className="btn btn-sm" disabled={!hasNext} onClick={() => paging.next(rows[rows.length - 1].id)}>
          Next
        </button>
      </div>
    </div>
  );
}
