'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorState, Loading, useToast } from '../../../_components/ui';
import { Pager, usePaging } from '../../../_components/pager';
import { timeAgo } from '../../../_lib/format';
import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '@/server/trpc/routers';
import { errorMessage, useTRPC } from '../../../_lib/trpc';
import type { Player, Shot } from './types';
import { PlayerOptions } from './player-options';
import { PlayerPicture } from './player-picture';

type CreateInput = inferRouterInputs<AppRouter>['sessions']['corrections']['create'];
type CorrectionInput = Omit<CreateInput, 'id'>;

const clock = (s: number | null) => {
  const v = Math.max(0, Math.round(s ?? 0));
  return `${Math.floor(v / 60)}:${String(v % 60).padStart(2, '0')}`;
};

/** The session page's game video (page.tsx renders it); corrections read and set its time. */
const gameVideo = () => document.querySelector<HTMLVideoElement>('[data-testid="session-video"]');

/**
 * Sends one correction and refreshes what it changes (the session — its paged lists follow —
 * and the history). Shared by the shot editor, the players tab and the history's Undo.
 */
export function useCorrections(sessionId: string) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: sessionId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.sessions.corrections.list.pathKey() });
  };
  const correct = useMutation(
    trpc.sessions.corrections.create.mutationOptions({
      onSuccess: (c) => (refresh(), toast(`Saved: ${c.summary}`)),
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const undo = useMutation(
    trpc.sessions.corrections.undo.mutationOptions({
      onSuccess: (c) => (refresh(), toast(`Undone: ${c.summary}`)),
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return {
    apply: (c: CorrectionInput) => correct.mutate({ id: sessionId, ...c } as CreateInput),
    undo: (correction: string) => undo.mutate({ id: sessionId, correction }),
    pending: correct.isPending || undo.isPending,
  };
}

function PlayerSelect({ label, value, players, onChange, disabled }: {
  label: string;
  value: string | null;
  players: Player[];
  onChange: (id: string | null) => void;
  disabled?: boolean;
}) {
  return (
    <select className="select" style={SELECT} aria-label={label} value={value ?? ''} disabled={disabled} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">Nobody</option>
      <PlayerOptions players={players} />
    </select>
  );
}

/** The editor is a dense table: compact controls and cells (inline, to stay out of the shared stylesheet). */
const SELECT: React.CSSProperties = { height: 28, padding: '0 4px', fontSize: 13 };
const CELL: React.CSSProperties = { padding: '6px 6px' };

const typeOf = (s: Shot) => (s.is_free_throw ? 'free_throw' : s.is_three_point ? 'three' : 'two');

function ShotRow({ shot, players, fix }: { shot: Shot; players: Player[]; fix: ReturnType<typeof useCorrections> }) {
  const n = (shot.index ?? 0) + 1;
  const made = shot.made;
  return (
    <tr data-shot={shot.id}>
      <td style={CELL}>
        <button
          type="button"
          className="btn btn-sm btn-ghost mono"
          title="Watch this shot"
          onClick={() => {
            const v = gameVideo();
            if (v && shot.start_seconds !== null) (v.currentTime = Math.max(0, shot.start_seconds - 2), v.scrollIntoView({ block: 'nearest' }));
          }}
        >
          <span className="sr-only">Watch shot </span>
          {n} · {clock(shot.start_seconds)}
        </button>
      </td>
      <td style={CELL}>
        <select
          className="select"
          style={SELECT}
          aria-label={`Result of shot ${n}`}
          value={made === null ? '' : made ? 'made' : 'missed'}
          onChange={(e) => fix.apply({ kind: 'set_made', shot: shot.id, made: e.target.value === 'made' })}
        >
          {made === null && <option value="">Undecided</option>}
          <option value="made">Made</option>
          <option value="missed">Missed</option>
        </select>
      </td>
      <td style={CELL}>
        <select className="select" style={SELECT} aria-label={`Type of shot ${n}`} value={typeOf(shot)} onChange={(e) => fix.apply({ kind: 'set_shot_type', shot: shot.id, type: e.target.value as 'two' })}>
          <option value="two">2 pt</option>
          <option value="three">3 pt</option>
          <option value="free_throw">FT</option>
        </select>
      </td>
      <td style={CELL}>
        <PlayerSelect label={`Shooter of shot ${n}`} value={shot.players.scorer} players={players} onChange={(p) => fix.apply({ kind: 'set_shooter', shot: shot.id, player: p })} />
      </td>
      <td style={CELL}>
        <PlayerSelect
          label={`Assister of shot ${n}`}
          value={shot.players.assister}
          players={players.filter((p) => p.id !== shot.players.scorer)}
          disabled={made !== true || shot.is_free_throw}
          onChange={(p) => fix.apply({ kind: 'set_assister', shot: shot.id, player: p })}
        />
      </td>
      <td style={CELL}>
        <PlayerSelect
          label={`Rebounder of shot ${n}`}
          value={shot.players.rebounder}
          players={players}
          disabled={made !== false}
          onChange={(p) => fix.apply({ kind: 'set_rebounder', shot: shot.id, player: p })}
        />
      </td>
      <td className="num" style={CELL}>{shot.points ?? '—'}</td>
      <td style={CELL}>
        <button type="button" className="btn btn-sm btn-ghost btn-danger" aria-label={`Delete shot ${n}`} onClick={() => fix.apply({ kind: 'delete_shot', shot: shot.id })}>
          ✕
        </button>
      </td>
    </tr>
  );
}

function AddShot({ players, fix }: { players: Player[]; fix: ReturnType<typeof useCorrections> }) {
  const [shooter, setShooter] = useState<string | null>(null);
  const [type, setType] = useState<'two' | 'three' | 'free_throw'>('two');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        fix.apply({ kind: 'add_shot', time_seconds: Math.round((gameVideo()?.currentTime ?? 0) * 100) / 100, shooter, type });
      }}
    >
      <span className="label">New shot by</span>
      <PlayerSelect label="Shooter of the new shot" value={shooter} players={players} onChange={setShooter} />
      <select className="select" style={SELECT} aria-label="Type of the new shot" value={type} onChange={(e) => setType(e.target.value as typeof type)}>
        <option value="two">2 pt</option>
        <option value="three">3 pt</option>
        <option value="free_throw">Free throw</option>
      </select>
      <button type="submit" className="btn btn-sm" disabled={fix.pending}>
        Add a missed shot at the video’s time
      </button>
    </form>
  );
}

function MergePlayers({ players, fix }: { players: Player[]; fix: ReturnType<typeof useCorrections> }) {
  const [keep, setKeep] = useState<string | null>(null);
  const [remove, setRemove] = useState<string | null>(null);
  if (players.length < 2) return null;
  // the picture of a chosen player, to check the two are one person
  const picked = (id: string | null) => {
    const p = id ? players.find((x) => x.id === id) : undefined;
    return p ? <PlayerPicture p={p} small /> : null;
  };
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (keep && remove) fix.apply({ kind: 'merge_players', keep, remove });
        setRemove(null);
      }}
    >
      <span className="label">Same person:</span>
      {picked(keep)}
      <PlayerSelect label="Player to keep" value={keep} players={players.filter((p) => p.id !== remove)} onChange={setKeep} />
      <span className="muted">absorbs</span>
      {picked(remove)}
      <PlayerSelect label="Player to merge into it" value={remove} players={players.filter((p) => p.id !== keep)} onChange={setRemove} />
      <button type="submit" className="btn btn-sm" disabled={!keep || !remove || fix.pending}>
        Merge
      </button>
    </form>
  );
}

/** Corrections per page of the history. */
const HISTORY_PAGE = 20;

/** Every correction of the session, newest first, with Undo where the rows are still as it left them. */
export function CorrectionHistory({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const fix = useCorrections(sessionId);
  const paging = usePaging();
  const list = useQuery({
    ...trpc.sessions.corrections.list.queryOptions({ id: sessionId, limit: HISTORY_PAGE, ...paging.cursor }),
    placeholderData: keepPreviousData,
  });
  // Ctrl/⌘+Z (outside text fields) undoes the newest correction that can be undone (first page only)
  const latest = paging.page === 1 ? list.data?.data.find((c) => c.undoable) : undefined;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.key.toLowerCase() !== 'z' || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
      if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable)) return;
      if (!latest || fix.pending) return;
      e.preventDefault();
      fix.undo(latest.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [latest, fix]);
  return (
    <section className="card" aria-labelledby="history-h">
      <div className="card-head">
        <div>
          <h3 id="history-h">History</h3>
          <p>Every correction, newest first. Undo one whose shots and players no later correction changed; Ctrl+Z (⌘Z) undoes the newest.</p>
        </div>
      </div>
      {list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : !list.data ? (
        <Loading rows={2} />
      ) : list.data.data.length === 0 ? (
        <p className="card-body muted">No corrections yet.</p>
      ) : (
        <ul className="table" data-testid="correction-history" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {list.data.data.map((c) => (
            <li key={c.id} className="row" data-correction={c.id} data-undone={c.undone !== null} style={{ padding: '8px 16px', borderBottom: '1px solid var(--border)' }}>
              <span className="grow" style={{ minWidth: 200, textDecoration: c.undone ? 'line-through' : undefined }}>
                {c.summary}
              </span>
              <span className="cell-sub">
                {c.actor.api_key ? 'API key' : (c.actor.name ?? 'A member')} · {timeAgo(c.created)}
              </span>
              {c.undone ? (
                <span className="tag">Undone</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-sm"
                  aria-label={`Undo: ${c.summary}`}
                  title={c.undoable ? undefined : 'A later correction changed the same shots or players; undo that first.'}
                  disabled={!c.undoable || fix.pending}
                  onClick={() => fix.undo(c.id)}
                >
                  Undo
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && list.data.total_count > HISTORY_PAGE && (
        <Pager paging={paging} total={list.data.total_count} hasMore={list.data.has_more} rows={list.data.data} noun="correction" />
      )}
    </section>
  );
}

/**
 * The coach's editor: every shot (made/missed, 2/3/FT, shooter, assister, rebounder,
 * delete), a missed shot added at the video's time, two players merged, and the history.
 * Each change is saved at once as one correction (box scores and totals re-derived on the
 * server) and can be undone from the history.
 */
export function Corrections({ sessionId, shots, players }: { sessionId: string; shots: Shot[]; players: Player[] }) {
  const fix = useCorrections(sessionId);
  const ordered = [...shots].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return (
    <div className="stack">
      <section className="card" aria-labelledby="edit-shots-h">
        <div className="card-head">
          <div>
            <h3 id="edit-shots-h">Shots</h3>
            <p>Each change is saved at once; box scores and totals follow. Click a shot’s time to watch it.</p>
          </div>
        </div>
        <div className="table-wrap">
          <table className="table" data-testid="shot-editor">
            <thead>
              <tr>
                <th style={CELL}>Shot</th>
                <th style={CELL}>Result</th>
                <th style={CELL}>Type</th>
                <th style={CELL}>Shooter</th>
                <th style={CELL}>Assist</th>
                <th style={CELL}>Rebound</th>
                <th className="num" style={CELL}>PTS</th>
                <th>
                  <span className="sr-only">Delete</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ordered.map((s) => (
                <ShotRow key={s.id} shot={s} players={players} fix={fix} />
              ))}
            </tbody>
          </table>
        </div>
        <div className="card-body stack" style={{ gap: 10 }}>
          <AddShot players={players} fix={fix} />
          <MergePlayers players={players} fix={fix} />
        </div>
      </section>
      <CorrectionHistory sessionId={sessionId} />
    </div>
  );
}
