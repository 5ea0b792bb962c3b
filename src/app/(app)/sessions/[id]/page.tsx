'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { ErrorState, Loading, StatusBadge, useToast } from '../../../_components/ui';
import { FAILURE_HELP, formatCents, formatDate, formatDuration, stageLabel } from '../../../_lib/format';
import { describeSessionOptions, pointSystemOf } from '../../../_lib/session-options';
import { apiError, errorMessage, useTRPC, useTRPCClient } from '../../../_lib/trpc';
import { BoxScoreTables } from './box-score';
import { Corrections } from './corrections';
import { Highlights } from './highlights';
import { MarkHighlight } from './mark-highlight';
import { Players } from './players';
import { Reels } from './reels';
import { ShotChart } from './shot-chart';
import type { Player, Session } from './types';

type Tab = 'highlights' | 'shots' | 'box' | 'players' | 'corrections' | 'reels';
const TABS: Array<[Tab, string]> = [
  ['highlights', 'Highlights'],
  ['shots', 'Shot chart'],
  ['box', 'Box score'],
  ['players', 'Players'],
  ['corrections', 'Corrections'],
  ['reels', 'Reels'],
];

/** A number per distinct session object (a refetch that changed nothing keeps the object: structural sharing). */
const versions = new WeakMap<object, number>();
let lastVersion = 0;
function versionOf(o: object | undefined): number {
  if (!o) return 0;
  if (!versions.has(o)) versions.set(o, ++lastVersion);
  return versions.get(o)!;
}

/**
 * The embedded lists hold the first 100 items; a long game pages the rest in. Keyed by the
 * session's content version, so a correction (which refetches the session) reloads them,
 * with the previous lists shown meanwhile.
 */
function useAllChildren(session: Session | undefined) {
  const client = useTRPCClient();
  return useQuery({
    queryKey: ['session-children', session?.id, versionOf(session)],
    placeholderData: (previous, query) => (query?.queryKey[1] === session?.id ? previous : undefined),
    enabled: Boolean(session && session.status === 'processed'),
    staleTime: 60_000,
    queryFn: async () => {
      const s = session!;
      async function all<T extends { id: string }>(first: { data: T[]; has_more: boolean }, page: (after: string) => Promise<{ data: T[]; has_more: boolean }>) {
        const items = [...first.data];
        let more = first.has_more;
        while (more && items.length) {
          const next = await page(items[items.length - 1].id);
          items.push(...next.data);
          more = next.has_more;
        }
        return items;
      }
      const [shots, highlights, listed, details] = await Promise.all([
        all(s.shots, (after) => client.sessions.shots.query({ id: s.id, limit: 100, starting_after: after })),
        all(s.highlights, (after) => client.sessions.highlights.query({ id: s.id, limit: 100, starting_after: after })),
        all(s.players, (after) => client.sessions.players.query({ id: s.id, limit: 100, starting_after: after })),
        client.dashboard.sessions.playerDetails.query({ id: s.id }),
      ]);
      // the dashboard's number ("Player N"), colour and picture of each player (not in the public Player)
      const players: Player[] = listed.map((p) => ({ ...p, ...(details[p.id] ?? { number: null, colour: null, thumbnail: null }) }));
      return { shots, highlights, players };
    },
  });
}

function VideoPlayer({ session, videoRef: ref }: { session: Session; videoRef: RefObject<HTMLVideoElement | null> }) {
  const options: Array<[string, string]> = (['1080p', '720p', '360p'] as const).filter((r) => session.video[r]).map((r) => [r, session.video[r]!]);
  if (session.video.url) options.push(['original', session.video.url]);
  const [choice, setChoice] = useState<string>(options.find(([r]) => r === '720p')?.[0] ?? options[0]?.[0] ?? '');
  const src = options.find(([r]) => r === choice)?.[1];
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  if (!src) return null;
  return (
    <div className="player-wrap card">
      <video
        ref={ref}
        src={src}
        poster={session.video.preview_url ?? undefined}
        controls
        playsInline
        preload="metadata"
        aria-label="Game video"
        data-testid="session-video"
        onLoadedMetadata={(e) => {
          const r = resume.current;
          if (r) {
            e.currentTarget.currentTime = r.time;
            if (r.playing) void e.currentTarget.play().catch(() => {});
            resume.current = null;
          }
        }}
      />
      <div className="player-bar">
        <span className="muted">
          {session.video.width && session.video.height ? `${session.video.width}×${session.video.height}` : ''}
          {session.video.fps ? ` · ${Math.round(session.video.fps)} fps` : ''}
        </span>
        <label className="row" style={{ gap: 6 }}>
          <span className="label">Quality</span>
          <select
            className="select"
            value={choice}
            onChange={(e) => {
              const v = ref.current;
              resume.current = v ? { time: v.currentTime, playing: !v.paused } : null;
              setChoice(e.target.value);
            }}
          >
            {options.map(([r]) => (
              <option key={r} value={r}>
                {r === 'original' ? 'Original' : r}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

function Title({ id, name }: { id: string; name: string | null }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(name ?? '');
  useEffect(() => setValue(name ?? ''), [name]);
  const save = useMutation(
    trpc.dashboard.sessions.update.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sessions.pathKey() });
        toast('Name saved');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return (
    <input
      className="inline-edit title-edit"
      value={value}
      placeholder="Untitled game"
      aria-label="Session name"
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
      onBlur={() => value.trim() !== (name ?? '') && save.mutate({ id, name: value.trim() || null })}
    />
  );
}

function MetadataEditor({ session }: { session: Session }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const initial = Object.entries(session.metadata).filter(([k]) => k !== 'name');
  const [rows, setRows] = useState<Array<[string, string]>>(initial);
  const [editing, setEditing] = useState(false);
  const save = useMutation(
    trpc.dashboard.sessions.update.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: session.id }) });
        setEditing(false);
        toast('Metadata saved');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  if (!editing) {
    return (
      <div className="stack" style={{ gap: 8 }}>
        {initial.length === 0 ? (
          <p className="muted">No metadata.</p>
        ) : (
          <dl className="kv">
            {initial.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        )}
        <div>
          <button className="btn btn-sm" onClick={() => (setRows(initial), setEditing(true))}>
            Edit metadata
          </button>
        </div>
      </div>
    );
  }
  return (
    <form
      className="stack"
      style={{ gap: 8 }}
      onSubmit={(e) => {
        e.preventDefault();
        const metadata: Record<string, string> = {};
        for (const [k, v] of rows) if (k.trim()) metadata[k.trim()] = v;
        if (session.metadata.name) metadata.name = session.metadata.name;
        save.mutate({ id: session.id, metadata });
      }}
    >
      {rows.map(([k, v], i) => (
        <div className="row" key={i} style={{ flexWrap: 'nowrap' }}>
          <input className="input" style={{ width: '40%' }} aria-label={`Key ${i + 1}`} value={k} maxLength={40} onChange={(e) => setRows(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} />
          <input className="input grow" aria-label={`Value ${i + 1}`} value={v} maxLength={500} onChange={(e) => setRows(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))} />
          <button type="button" className="btn btn-sm btn-ghost" aria-label={`Remove ${k || `row ${i + 1}`}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      <div className="row">
        <button type="button" className="btn btn-sm" onClick={() => setRows([...rows, ['', '']])} disabled={rows.length >= 19}>
          Add field
        </button>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => setEditing(false)}>
          Cancel
        </button>
        <button type="submit" className="btn btn-sm btn-primary" disabled={save.isPending}>
          Save
        </button>
      </div>
    </form>
  );
}

function GroupSelect({ session }: { session: Session }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.dashboard.groups.list.queryOptions());
  const move = useMutation(
    trpc.dashboard.sessions.update.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: session.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.groups.list.queryKey() });
        toast('Moved to another group');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return (
    <select className="select" aria-label="Group" value={session.group} onChange={(e) => move.mutate({ id: session.id, group: e.target.value })}>
      {groups.data?.map((g) => (
        <option key={g.id} value={g.id}>
          {g.name}
        </option>
      )) ?? <option value={session.group}>{session.group}</option>}
    </select>
  );
}

function Details({ session, options }: { session: Session; options: Record<string, unknown> | undefined }) {
  const artifacts = Object.entries(session.artifacts).filter(([, url]) => url) as Array<[string, string]>;
  return (
    <aside className="stack">
      <section className="card" aria-labelledby="details-h">
        <div className="card-head">
          <h2 id="details-h">Details</h2>
        </div>
        <div className="card-body">
          <dl className="kv">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={session.status} />
            </dd>
            <dt>Group</dt>
            <dd>
              <GroupSelect session={session} />
            </dd>
            <dt>Length</dt>
            <dd>{formatDuration(session.duration_seconds)}</dd>
            <dt>Cost</dt>
            <dd>{session.cost_cents === null ? (session.status === 'failed' ? 'Not charged' : 'Held until processed') : formatCents(session.cost_cents)}</dd>
            <dt>Created</dt>
            <dd>{formatDate(session.created)}</dd>
            <dt>Source</dt>
            <dd>{session.source.url ? <span className="mono">{session.source.url}</span> : session.source.type}</dd>
            <dt>Filmed</dt>
            <dd data-testid="filmed">{options ? describeSessionOptions(options) : '—'}</dd>
            <dt>Analyser</dt>
            <dd>{session.run_version ? `v${session.run_version}` : '—'}</dd>
            <dt>Id</dt>
            <dd className="mono">{session.id}</dd>
          </dl>
        </div>
      </section>
      <section className="card" aria-labelledby="meta-h">
        <div className="card-head">
          <h2 id="meta-h">Metadata</h2>
        </div>
        <div className="card-body">
          <MetadataEditor key={JSON.stringify(session.metadata)} session={session} />
        </div>
      </section>
      {artifacts.length > 0 && (
        <section className="card" aria-labelledby="art-h">
          <div className="card-head">
            <div>
              <h2 id="art-h">Raw model output</h2>
              <p>JSONL files, as in the API.</p>
            </div>
          </div>
          <div className="card-body row">
            {artifacts.map(([name, url]) => (
              <a key={name} className="btn btn-sm" href={url} download={`${session.id}-${name}.jsonl`}>
                {name}.jsonl
              </a>
            ))}
          </div>
        </section>
      )}
    </aside>
  );
}

export default function SessionPage() {
  const { id } = useParams<{ id: string }>();
  const trpc = useTRPC();
  const [tab, setTab] = useState<Tab>('highlights');
  const videoRef = useRef<HTMLVideoElement>(null);
  const inProgress = (s?: { status: string }) => s?.status === 'queued' || s?.status === 'processing';
  const session = useQuery({ ...trpc.sessions.get.queryOptions({ id }), refetchInterval: (q) => (inProgress(q.state.data) ? 3000 : false) });
  const summary = useQuery({
    ...trpc.dashboard.sessions.get.queryOptions({ id }),
    // the live stage while it runs; once for a finished session (what was filmed)
    refetchInterval: () => (inProgress(session.data) ? 2000 : false),
  });
  const children = useAllChildren(session.data);

  if (session.error) {
    return (
      <div className="page">
        {apiError(session.error)?.status === 404 ? (
          <div className="empty">
            <h2>Session not found</h2>
            <p>It does not exist or belongs to another organization.</p>
            <Link className="btn" href="/sessions">
              Back to sessions
            </Link>
          </div>
        ) : (
          <ErrorState error={session.error} retry={() => session.refetch()} />
        )}
      </div>
    );
  }
  if (!session.data) return <div className="page"><Loading rows={6} /></div>;
  const s = session.data;
  const help = s.error ? (FAILURE_HELP[s.error.code] ?? FAILURE_HELP.unknown) : null;
  const progress = summary.data?.progress ?? 0;

  return (
    <div className="page">
      <nav aria-label="Breadcrumb" className="cell-sub" style={{ marginBottom: 8 }}>
        <Link href="/sessions">Sessions</Link> / <span className="mono">{s.id}</span>
      </nav>
      <div className="page-head">
        <div className="grow" style={{ minWidth: 260 }}>
          <Title id={s.id} name={s.metadata.name ?? null} />
          <div className="row" style={{ marginTop: 6 }}>
            <StatusBadge status={s.status} />
            <span className="muted">
              {formatDate(s.created)} · {formatDuration(s.duration_seconds)}
              {s.cost_cents !== null ? ` · ${formatCents(s.cost_cents)}` : ''}
              {s.status === 'processed' ? ` · ${s.shots.total_count} shots · ${s.totals.points} pts` : ''}
            </span>
          </div>
        </div>
      </div>

      <div className="session-layout">
        <div className="stack" style={{ minWidth: 0 }}>
          {inProgress(s) && (
            <section className="card card-body stack" aria-live="polite" style={{ gap: 10 }}>
              <div className="row">
                <span className="spinner" aria-hidden="true" />
                <strong>{s.status === 'queued' ? 'Queued — processing starts in a moment' : stageLabel(summary.data?.stage)}</strong>
                <span className="grow" />
                <span className="muted">{s.status === 'processing' ? `${progress}%` : ''}</span>
              </div>
              <div className="progress progress-lg" role="progressbar" aria-label="Processing progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
                <div style={{ width: `${s.status === 'processing' ? Math.max(3, progress) : 0}%` }} />
              </div>
              <p className="muted">You can leave this page; the session list shows progress too. Highlights, the shot chart and box scores appear here when processing ends.</p>
            </section>
          )}
          {help && s.error && (
            <section className="notice notice-danger" role="alert" data-testid="failure">
              <div>
                <strong>
                  {help.title} <code>({s.error.code})</code>
                </strong>
                <p>{s.error.message || help.explain}</p>
                <p style={{ marginTop: 6 }}>
                  <strong style={{ display: 'inline' }}>What to do: </strong>
                  {help.action}
                </p>
              </div>
            </section>
          )}
          {s.status === 'processed' && <VideoPlayer session={s} videoRef={videoRef} />}
          {s.status === 'processed' && <MarkHighlight session={s} videoRef={videoRef} />}
          {s.status === 'processed' && (
            <section>
              <div className="tabs" role="tablist" aria-label="Session results">
                {TABS.map(([t, label]) => (
                  <button
                    key={t}
                    role="tab"
                    id={`tab-${t}`}
                    aria-selected={tab === t}
                    aria-controls={`panel-${t}`}
                    tabIndex={tab === t ? 0 : -1}
                    onClick={() => setTab(t)}
                    onKeyDown={(e) => {
                      const i = TABS.findIndex(([x]) => x === t);
                      const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : null;
                      if (next) {
                        setTab(next[0]);
                        document.getElementById(`tab-${next[0]}`)?.focus();
                      }
                    }}
                  >
                    {label}
                  </button>
                ))}
              </div>
              <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
                {children.error ? (
                  <ErrorState error={children.error} retry={() => children.refetch()} />
                ) : !children.data ? (
                  <Loading />
                ) : tab === 'highlights' ? (
                  <Highlights highlights={children.data.highlights} shots={children.data.shots} players={children.data.players} pointSystem={pointSystemOf(summary.data?.options)} />
                ) : tab === 'shots' ? (
                  <ShotChart shots={children.data.shots} players={children.data.players} pointSystem={pointSystemOf(summary.data?.options)} />
                ) : tab === 'box' ? (
                  <BoxScoreTables session={s} players={children.data.players} />
                ) : tab === 'reels' ? (
                  <Reels sessionId={s.id} highlights={children.data.highlights} shots={children.data.shots} players={children.data.players} />
                ) : tab === 'players' ? (
                  <Players sessionId={s.id} players={children.data.players} />
                ) : (
                  <Corrections sessionId={s.id} shots={children.data.shots} players={children.data.players} />
                )}
              </div>
            </section>
          )}
        </div>
        <Details session={s} options={summary.data?.options} />
      </div>
    </div>
  );
}
