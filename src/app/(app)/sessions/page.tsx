'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { Suspense, useEffect, useState } from 'react';
import { Pager, usePaging } from '../../_components/pager';
import { Empty, ErrorState, Icon, Loading, ProgressCell, StatusBadge } from '../../_components/ui';
import { formatDate, formatDuration } from '../../_lib/format';
import { useTRPC } from '../../_lib/trpc';
import { SampleGameButton } from '../sample-game';

const PAGE = 20;
const STATUSES = ['queued', 'processing', 'processed', 'failed'] as const;
type Status = (typeof STATUSES)[number];

function useDebounced<T>(value: T, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function SessionsList() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const [status, setStatus] = useState<Status | ''>((params.get('status') as Status) ?? '');
  const [group, setGroup] = useState(params.get('group') ?? '');
  const paging = usePaging();
  const search = useDebounced(q.trim(), 250);
  useEffect(() => paging.reset(), [search, status, group]);
  // the filters live in the URL too, so a reload, the back button or a shared link keeps them
  useEffect(() => {
    const next = new URLSearchParams(params.toString());
    for (const [name, value] of [['q', search], ['status', status], ['group', group]] as const) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    const query = next.toString();
    if (query !== params.toString()) router.replace(query ? `/sessions?${query}` : '/sessions', { scroll: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- written from the filters, not read back
  }, [search, status, group]);

  const groups = useQuery(trpc.dashboard.groups.list.queryOptions());
  const list = useQuery({
    ...trpc.dashboard.sessions.list.queryOptions({
      limit: PAGE,
      ...(status ? { status } : {}),
      ...(group ? { group } : {}),
      ...(search ? { q: search } : {}),
      ...paging.cursor,
    }),
    placeholderData: keepPreviousData,
    // live status: poll fast while anything on the page is in progress
    refetchInterval: (query) => (query.state.data?.data.some((s) => s.status === 'queued' || s.status === 'processing') ? 2000 : 15000),
  });

  const filtered = Boolean(search || status || group);
  const rows = list.data?.data ?? [];

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Sessions</h1>
          <p>Every game you or your API clients submitted. Status updates live.</p>
        </div>
        <div className="page-actions">
          <SampleGameButton />
          <Link className="btn btn-primary" href="/upload">
            {Icon.upload} Upload game
          </Link>
        </div>
      </div>
      {params.get('welcome') && (
        <div className="notice notice-info" style={{ marginBottom: 16 }}>
          <div className="grow">
            <strong>Welcome to Swish.</strong>
            Your organization comes with starter credit. Upload a game, or try a sample game: we render a short synthetic game and process it, so you can see highlights, a shot chart and box scores within minutes.
          </div>
        </div>
      )}
      <div className="card">
        <div className="card-head">
          <div className="row grow">
            <label className="grow" style={{ minWidth: 180, maxWidth: 360 }}>
              <span className="sr-only">Search sessions</span>
              <input
                className="input"
                style={{ width: '100%' }}
                type="search"
                placeholder="Search name, opponent, metadata…  ( / )"
                value={q}
                onChange={(e) => setQ(e.target.value)}
                data-search
              />
            </label>
            <label>
              <span className="sr-only">Status</span>
              <select className="select" value={status} onChange={(e) => setStatus(e.target.value as Status | '')} aria-label="Status">
                <option value="">All statuses</option>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s[0].toUpperCase() + s.slice(1)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span className="sr-only">Group</span>
              <select className="select" value={group} onChange={(e) => setGroup(e.target.value)} aria-label="Group">
                <option value="">All groups</option>
                {groups.data?.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {list.isFetching && <span className="spinner" role="status" aria-label="Refreshing" />}
        </div>
        {list.error ? (
          <div className="card-body">
            <ErrorState error={list.error} retry={() => list.refetch()} />
          </div>
        ) : !list.data ? (
          <Loading rows={5} />
        ) : rows.length === 0 ? (
          filtered ? (
            <Empty title="No sessions match">Try another search or clear the filters.</Empty>
          ) : (
            <Empty
              icon={Icon.ball}
              title="No games yet"
              action={
                <div className="row" style={{ justifyContent: 'center' }}>
                  <SampleGameButton primary />
                  <Link className="btn" href="/upload">
                    Upload a game
                  </Link>
                </div>
              }
            >
              Upload a game video (or submit a link) and Swish finds every shot, cuts highlight clips and builds the box score. No video at hand? Try a sample game.
            </Empty>
          )
        ) : (
          <>
            <div className="table-wrap">
              <table className="table" data-testid="sessions-table">
                <thead>
                  <tr>
                    <th>Session</th>
                    <th>Status</th>
                    <th className="hide-sm">Group</th>
                    <th className="num hide-sm">Length</th>
                    <th className="num hide-sm">Points</th>
                    <th className="hide-sm">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((s) => (
                    <tr key={s.id} className="row-link" data-session={s.id} onClick={() => router.push(`/sessions/${s.id}`)}>
                      <td className="cell-wrap">
                        <Link className="table-link" href={`/sessions/${s.id}`} onClick={(e) => e.stopPropagation()}>
                          {s.name ?? s.metadata.opponent ?? 'Untitled game'}
                        </Link>
                        <div className="cell-sub mono hide-sm">{s.id}</div>
                      </td>
                      <td>
                        <div className="stack" style={{ gap: 6 }}>
                          <StatusBadge status={s.status} />
                          <ProgressCell status={s.status} stage={s.stage} progress={s.progress} />
                          {s.error && <span className="cell-sub">{s.error.code.replace(/_/g, ' ')}</span>}
                        </div>
                      </td>
                      <td className="hide-sm">{s.group.name}</td>
                      <td className="num hide-sm">{formatDuration(s.duration_seconds)}</td>
                      <td className="num hide-sm">{s.points ?? '—'}</td>
                      <td className="hide-sm cell-sub">{formatDate(s.created)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager paging={paging} total={list.data.total_count} hasMore={list.data.has_more} rows={rows} noun="session" />
          </>
        )}
      </div>
    </div>
  );
}

export default function SessionsPage() {
  return (
    <Suspense>
      <SessionsList />
    </Suspense>
  );
}
