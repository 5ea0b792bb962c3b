'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useToast } from '../../../_components/ui';
import { errorMessage, useTRPC } from '../../../_lib/trpc';
import { playerLabel, teamLabel, type Player } from './types';

function PlayerRow({ sessionId, p, i }: { sessionId: string; p: Player; i: number }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [name, setName] = useState(p.name ?? '');
  const [jersey, setJersey] = useState(p.jersey ?? '');
  const save = useMutation(
    trpc.dashboard.sessions.updatePlayer.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: sessionId }) });
        toast('Player saved');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const commit = () => {
    if ((name.trim() || null) === p.name && (jersey.trim() || null) === p.jersey) return;
    save.mutate({ session: sessionId, player: p.id, name: name.trim() || null, jersey: jersey.trim() || null });
  };
  const onKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
  };
  return (
    <tr>
      <td style={{ width: 90 }}>
        <input
          className="input"
          style={{ width: 70 }}
          value={jersey}
          placeholder="#"
          maxLength={8}
          aria-label={`Jersey of ${playerLabel(p, i)}`}
          onChange={(e) => setJersey(e.target.value)}
          onBlur={commit}
          onKeyDown={onKey}
        />
      </td>
      <td>
        <input
          className="input"
          style={{ width: '100%', maxWidth: 280 }}
          value={name}
          placeholder={`Player ${i + 1}`}
          maxLength={80}
          aria-label={`Name of ${playerLabel(p, i)}`}
          onChange={(e) => setName(e.target.value)}
          onBlur={commit}
          onKeyDown={onKey}
        />
      </td>
      <td className="hide-sm">{teamLabel(p.team_id)}</td>
      <td className="num">{p.stats.points}</td>
    </tr>
  );
}

/** Names and jerseys, editable by any member (saved on blur or Enter). */
export function Players({ sessionId, players }: { sessionId: string; players: Player[] }) {
  if (players.length === 0) return <p className="muted">No players were identified in this video.</p>;
  return (
    <div className="card">
      <div className="card-head">
        <div>
          <h3>Players</h3>
          <p>Name the players and set their jersey numbers; highlights, the shot chart and box scores use them.</p>
        </div>
      </div>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Jersey</th>
              <th>Name</th>
              <th className="hide-sm">Team</th>
              <th className="num">PTS</th>
            </tr>
          </thead>
          <tbody>
            {players.map((p, i) => (
              <PlayerRow key={p.id} sessionId={sessionId} p={p} i={i} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
