'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Empty, ErrorState, Loading } from '../../_components/ui';
import { formatDate } from '../../_lib/format';
import { useTRPC } from '../../_lib/trpc';

type EventType = 'session.processed' | 'session.failed';

export function Events() {
  const trpc = useTRPC();
  const [type, setType] = useState<EventType | ''>('');
  const [cursor, setCursor] = useState<string | undefined>();
  const events = useQuery({
    ...trpc.events.list.queryOptions({ limit: 20, ...(type ? { type } : {}), ...(cursor ? { starting_after: cursor } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: 10000,
  });
  const rows = events.data?.data ?? [];
  return (
    <section className="card" aria-labelledby="ev-h">
      <div className="card-head">
        <div>
          <h2 id="ev-h">Events</h2>
          <p>Every event of the organization, kept 30 days — the same log as GET /v1/events.</p>
        </div>
        <label>
          <span className="sr-only">Event type</span>
          <select className="select" aria-label="Event type" value={type} onChange={(e) => (setType(e.target.value as EventType | ''), setCursor(undefined))}>
            <option value="">All types</option>
            <option value="session.processed">session.processed</option>
            <option value="session.failed">session.failed</option>
          </select>
        </label>
      </div>
      {events.error ? (
        <div className="card-body">
          <ErrorState error={events.error} retry={() => events.refetch()} />
        </div>
      ) : !events.data ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty title="No events yet">Events are recorded when sessions finish processing.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Event</th>
                  <th>Session</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((e) => (
                  <tr key={e.id}>
                    <td>
                      {e.type}
                      <div className="cell-sub mono">{e.id}</div>
                    </td>
                    <td>
                      <Link className="mono" href={`/sessions/${e.data.object.id}`}>
                        {e.data.object.id}
                      </Link>
                    </td>
                    <td className="cell-sub">{formatDate(e.created)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <span>{events.data.total_count} events</span>
            <div className="row">
              <button className="btn btn-sm" disabled={!cursor} onClick={() => setCursor(undefined)}>
                Newest
              </button>
              <button className="btn btn-sm" disabled={!events.data.has_more} onClick={() => setCursor(rows[rows.length - 1].id)}>
                Older
              </button>
            </div>
          </div>
        </>
      )}
    </section>
  );
}
