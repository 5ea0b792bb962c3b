'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ConfirmModal, CopyButton, Empty, useToast } from '../../../_components/ui';
import { formatDate } from '../../../_lib/format';
import { errorMessage, useTRPC, type Outputs } from '../../../_lib/trpc';
import { clock } from './mark-highlight';
import { playerLabel, type Highlight, type Player, type Shot } from './types';
import { PlayerOptions, TeamOptions } from './player-options';

type Reel = Outputs['dashboard']['reels']['list'][number];
type Kind = Reel['kind'];
type Orientation = Reel['orientation'];

const KINDS: Array<[Kind, string]> = [
  ['team_best', 'Best plays'],
  ['player_makes', 'A player’s makes'],
  ['picked', 'Pick clips'],
];

function ReelBadge({ status }: { status: Reel['status'] }) {
  const cls = { queued: 'queued', rendering: 'processing', ready: 'processed', failed: 'failed' }[status];
  const label = { queued: 'Queued', rendering: 'Rendering', ready: 'Ready', failed: 'Failed' }[status];
  return (
    <span className={`badge badge-${cls}`} data-status={status}>
      {label}
    </span>
  );
}

/** A reel's share links: create one (its URL is shown once), see them, revoke. */
function Shares({ reel }: { reel: Reel }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const shares = useQuery(trpc.dashboard.reels.shares.queryOptions({ reel: reel.id }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.reels.shares.queryKey({ reel: reel.id }) });
  const share = useMutation(
    trpc.dashboard.reels.share.mutationOptions({
      onSuccess: (s) => {
        setCreated(s.url);
        void refresh();
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const revoke = useMutation(
    trpc.dashboard.reels.revokeShare.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        void refresh();
        toast('Link revoked');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="row">
        <button type="button" className="btn btn-sm" onClick={() => share.mutate({ reel: reel.id })} disabled={share.isPending}>
          Create share link
        </button>
        <span className="muted">Anyone with the link can watch, without an account, for 30 days or until you revoke it.</span>
      </div>
      {created && (
        <>
          <div className="secret" data-testid="share-link">
            <code>{created}</code>
            <CopyButton text={created} />
          </div>
          <p className="muted">Copy it now: it is shown only once.</p>
        </>
      )}
      {shares.data && shares.data.length > 0 && (
        <ul className="stack" style={{ gap: 4, listStyle: 'none', padding: 0, margin: 0 }} aria-label="Share links">
          {shares.data.map((s) => (
            <li key={s.id} className="row" data-testid="share" data-status={s.status}>
              <span className="mono">/r/{s.token_prefix}…</span>
              <span className="muted">
                {s.status === 'active' ? `expires ${formatDate(s.expires_at)}` : s.status === 'revoked' ? 'revoked' : 'expired'}
              </span>
              <span className="grow" />
              {s.status === 'active' && (
                <button type="button" className="btn btn-sm btn-ghost btn-danger" onClick={() => setRevoking(s.id)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmModal
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke this link?"
        description="Whoever has it can no longer watch the reel. This cannot be undone; you can create a new link."
        confirmLabel="Revoke link"
        onConfirm={() => revoking && revoke.mutate({ share: revoking })}
        pending={revoke.isPending}
      />
    </div>
  );
}

function ReelCard({ reel, sessionId }: { reel: Reel; sessionId: string }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation(
    trpc.dashboard.reels.delete.mutationOptions({
      onSuccess: () => {
        setDeleting(false);
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.reels.list.queryKey({ session: sessionId }) });
        toast('Reel deleted');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const what = KINDS.find(([k]) => k === reel.kind)?.[1] ?? reel.kind;
  return (
    <article className="card card-body stack" style={{ gap: 10 }} data-testid="reel" data-reel={reel.id} data-status={reel.status}>
      <div className="row">
        <strong>{reel.title ?? what}</strong>
        <ReelBadge status={reel.status} />
        <span className="muted">
          {reel.orientation === 'vertical' ? 'Vertical' : 'Horizontal'} · {reel.highlights.length} clip{reel.highlights.length === 1 ? '' : 's'}
          {reel.duration_seconds ? ` · ${reel.duration_seconds.toFixed(0)} s` : ''}
        </span>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-ghost btn-danger" onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {reel.status === 'failed' && <p className="muted">{reel.error}</p>}
      {reel.status === 'ready' && reel.video && (
        <>
          <video
            src={reel.video}
            poster={reel.poster ?? undefined}
            controls
            playsInline
            preload="metadata"
            aria-label={`Reel: ${reel.title ?? what}`}
            style={{ maxHeight: 420, maxWidth: '100%', background: '#000', borderRadius: 8, alignSelf: 'flex-start' }}
          />
          <div className="row">
            <a className="btn btn-sm btn-ghost" href={reel.video} download>
              Download MP4
            </a>
          </div>
          <Shares reel={reel} />
        </>
      )}
      <ConfirmModal
        open={deleting}
        onClose={() => setDeleting(false)}
        title="Delete this reel?"
        description="Its video and every share link stop working."
        confirmLabel="Delete reel"
        onConfirm={() => remove.mutate({ reel: reel.id })}
        pending={remove.isPending}
      />
    </article>
  );
}

/**
 * Reels of a session: build one (the best N plays by excitement, of a team or the whole
 * game; one player's made shots; or hand-picked clips in the order picked), follow its
 * rendering, watch it, share it.
 */
export function Reels({ sessionId, highlights, shots, players }: { sessionId: string; highlights: Highlight[]; shots: Shot[]; players: Player[] }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const reels = useQuery({
    ...trpc.dashboard.reels.list.queryOptions({ session: sessionId }),
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === 'queued' || r.status === 'rendering') ? 2000 : false),
  });
  const [kind, setKind] = useState<Kind>('team_best');
  const [orientation, setOrientation] = useState<Orientation>('vertical');
  const [title, setTitle] = useState('');
  const [player, setPlayer] = useState(players[0]?.id ?? '');
  const [team, setTeam] = useState('');
  const [limit, setLimit] = useState(5);
  const [picked, setPicked] = useState<string[]>([]);
  const shotById = useMemo(() => new Map(shots.map((s) => [s.id, s])), [shots]);
  const names = useMemo(() => new Map(players.map((p) => [p.id, playerLabel(p)])), [players]);
  const create = useMutation(
    trpc.dashboard.reels.create.mutationOptions({
      onSuccess: () => {
        setPicked([]);
        setTitle('');
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.reels.list.queryKey({ session: sessionId }) });
        toast('Reel queued — rendering');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const clipLabel = (h: Highlight) => {
    const shot = h.shot ? shotById.get(h.shot) : undefined;
    const what = shot ? `${shot.made ? 'Made' : 'Missed'} ${shot.is_free_throw ? 'free throw' : shot.is_three_point ? '3' : '2'} at ${clock(shot.start_seconds)}` : 'Marked moment';
    return `${what}${h.player ? ` · ${names.get(h.player) ?? ''}` : ''}${h.is_manual ? ' · manual' : ''} · ${h.length_seconds.toFixed(0)} s`;
  };

  return (
    <div className="stack">
      <form
        className="card card-body stack"
        style={{ gap: 12 }}
        aria-label="Build a reel"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({
            session: sessionId,
            kind,
            orientation,
            title: title.trim() || null,
            ...(kind === 'player_makes' ? { player } : kind === 'team_best' ? { limit, team: team === '' ? null : Number(team) } : { highlights: picked }),
          });
        }}
      >
        <div className="row">
          <div className="segmented" role="group" aria-label="Reel kind">
            {KINDS.map(([k, label]) => (
              <button type="button" key={k} aria-pressed={kind === k} onClick={() => setKind(k)}>
                {label}
              </button>
            ))}
          </div>
          <div className="segmented" role="group" aria-label="Reel orientation">
            {(['vertical', 'horizontal'] as const).map((o) => (
              <button type="button" key={o} aria-pressed={orientation === o} onClick={() => setOrientation(o)}>
                {o === 'vertical' ? 'Vertical 9:16' : 'Horizontal 16:9'}
              </button>
            ))}
          </div>
        </div>
        {kind === 'team_best' && (
          <div className="row">
            <label className="row" style={{ gap: 6 }}>
              <span className="label">Team</span>
              <select className="select" value={team} onChange={(e) => setTeam(e.target.value)}>
                <option value="">Whole game</option>
                <TeamOptions players={players} />
              </select>
            </label>
            <label className="row" style={{ gap: 6 }}>
              <span className="label">Plays</span>
              <input className="input" type="number" min={1} max={30} value={limit} onChange={(e) => setLimit(Number(e.target.value))} style={{ width: 80 }} />
            </label>
            <span className="muted">The made shots with the highest excitement score, in game order.</span>
          </div>
        )}
        {kind === 'player_makes' && (
          <label className="row" style={{ gap: 6 }}>
            <span className="label">Player</span>
            <select className="select" value={player} onChange={(e) => setPlayer(e.target.value)}>
              <PlayerOptions players={players} />
            </select>
          </label>
        )}
        {kind === 'picked' &&
          (highlights.length === 0 ? (
            <p className="muted">No clips to pick yet.</p>
          ) : (
            <fieldset className="stack" style={{ gap: 4, border: 0, padding: 0, margin: 0 }}>
              <legend className="label">Clips, in the order you tick them</legend>
              {highlights.map((h) => {
                const at = picked.indexOf(h.id);
                return (
                  <label key={h.id} className="checkbox" data-testid="pick-clip">
                    <input type="checkbox" checked={at >= 0} onChange={(e) => setPicked(e.target.checked ? [...picked, h.id] : picked.filter((x) => x !== h.id))} />
                    {at >= 0 ? <strong>{at + 1}.</strong> : null} {clipLabel(h)}
                  </label>
                );
              })}
            </fieldset>
          ))}
        <div className="row">
          <label className="row grow" style={{ gap: 6 }}>
            <span className="label">Title</span>
            <input className="input grow" value={title} maxLength={120} placeholder="Optional" onChange={(e) => setTitle(e.target.value)} />
          </label>
          <button type="submit" className="btn btn-primary" disabled={create.isPending || (kind === 'picked' && picked.length === 0) || (kind === 'player_makes' && !player)}>
            Create reel
          </button>
        </div>
      </form>
      {reels.data && reels.data.length === 0 && <Empty title="No reels yet">Build one above: it renders in the background.</Empty>}
      {reels.data?.map((r) => <ReelCard key={r.id} reel={r} sessionId={sessionId} />)}
    </div>
  );
}
