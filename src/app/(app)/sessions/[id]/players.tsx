'use client';

import { useState } from 'react';
import { ConfirmModal } from '../../../_components/ui';
import { useCorrections } from './corrections';
import { PlayerOptions } from './player-options';
import { PlayerPicture } from './player-picture';
import { attempts, looksSplit, playerLabel, teamLabel, type Player } from './types';

/** Team choices: the two teams the analyser splits players into, or none. */
const TEAMS: Array<number | null> = [0, 1, null];

function PlayerRow({ sessionId, p, players }: { sessionId: string; p: Player; players: Player[] }) {
  const fix = useCorrections(sessionId);
  const [name, setName] = useState(p.name ?? '');
  const [jersey, setJersey] = useState(p.jersey ?? '');
  const commit = () => {
    if ((name.trim() || null) !== p.name) fix.apply({ kind: 'rename_player', player: p.id, name: name.trim() || null });
    if ((jersey.trim() || null) !== p.jersey) fix.apply({ kind: 'set_jersey', player: p.id, jersey: jersey.trim() || null });
  };
  const onKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
  };
  return (
    <tr>
      <td style={{ width: 84 }}>
        <PlayerPicture p={p} />
      </td>
      <td style={{ width: 80 }}>
        <input
          className="input"
          style={{ width: 56 }}
          value={jersey}
          placeholder="#"
          maxLength={8}
          aria-label={`Jersey of ${playerLabel(p)}`}
          onChange={(e) => setJersey(e.target.value)}
          onBlur={commit}
          onKeyDown={onKey}
        />
      </td>
      <td>
        <input
          className="input"
          style={{ width: '100%', minWidth: 110, maxWidth: 280 }}
          value={name}
          placeholder={p.number !== null ? `Player ${p.number}` : 'Name'}
          maxLength={80}
          aria-label={`Name of ${playerLabel(p)}`}
          onChange={(e) => setName(e.target.value)}
          onBlur={commit}
          onKeyDown={onKey}
        />
      </td>
      <td>
        <select
          className="select"
          aria-label={`Team of ${playerLabel(p)}`}
          value={p.team_id === null ? '' : String(p.team_id)}
          onChange={(e) => fix.apply({ kind: 'set_team', player: p.id, team_id: e.target.value === '' ? null : Number(e.target.value) })}
        >
          {[...new Set([...TEAMS, p.team_id])].map((t) => (
            <option key={String(t)} value={t === null ? '' : String(t)}>
              {teamLabel(t)}
            </option>
          ))}
        </select>
      </td>
      <td className="num">{p.stats.points}</td>
      <td>
        {players.length > 1 && (
          <select
            className="select"
            style={{ maxWidth: 150 }}
            aria-label={`Merge ${playerLabel(p)} into`}
            value=""
            disabled={fix.pending}
            onChange={(e) => e.target.value && fix.apply({ kind: 'merge_players', keep: e.target.value, remove: p.id })}
          >
            <option value="">Same person as…</option>
            <PlayerOptions players={players.filter((o) => o.id !== p.id)} />
          </select>
        )}
      </td>
    </tr>
  );
}

/**
 * "All one person": a video of one shooter submitted as a game lists them several times; one correction (`solo`) merges
 * every player into the one with the most attempts (the first of them on a tie) and gives them every shot, as a solo
 * session is analysed; undone at once from the history.
 */
function AllOnePerson({ sessionId, players }: { sessionId: string; players: Player[] }) {
  const fix = useCorrections(sessionId);
  const [open, setOpen] = useState(false);
  const keep = players.reduce((a, p) => (attempts(p) > attempts(a) ? p : a), players[0]);
  const others = players.filter((p) => p !== keep);
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => setOpen(true)} disabled={fix.pending}>
        All one person…
      </button>
      <ConfirmModal
        open={open}
        onClose={() => setOpen(false)}
        title={`Merge all ${players.length} players into ${playerLabel(keep)}?`}
        description="For a video of one shooter: every shot becomes theirs, those the analysis found no shooter for too, with their rebounds and highlights, and nobody assists. You can undo it from the Corrections tab’s history."
        confirmLabel="Merge all"
        pending={fix.pending}
        onConfirm={() => {
          fix.apply({ kind: 'merge_players', keep: keep.id, remove: others.map((p) => p.id), solo: true });
          setOpen(false);
        }}
      />
    </>
  );
}

/** Names, jerseys and teams, editable by any member: each change is a correction (saved on blur or Enter, undoable from the history). */
export function Players({ sessionId, players }: { sessionId: string; players: Player[] }) {
  if (players.length === 0) return <p className="muted">No players were identified in this video.</p>;
  return (
    <div className="card">
      <div className="card-head">
        <div>
          <h3>Players</h3>
          <p>Name the players, set their jersey numbers and teams; highlights, the shot chart and box scores use them. Each picture is a moment the analysis saw the player, outlined, framed in the colour of their clothes. Listed twice? Pick <em>Same person as…</em> to merge the two; Undo is in the Corrections tab’s history.</p>
        </div>
        {players.length > 1 && <AllOnePerson sessionId={sessionId} players={players} />}
      </div>
      {looksSplit(players) && (
        <div className="card-body">
          <div className="notice notice-info" role="note" data-testid="players-split">
            <div>
              <strong>The same person may be listed several times.</strong>
              The analysis does not recognise someone who left the view or stood still. Merge duplicates with <em>Same person as…</em>;
              for a video of one shooter, <em>All one person…</em> merges them all (next time, choose <em>Solo shooting practice</em> when you
              submit it, and every shot is theirs).
            </div>
          </div>
        </div>
      )}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>
                <span className="sr-only">Picture</span>
              </th>
              <th>Jersey</th>
              <th>Name</th>
              <th>Team</th>
              <th className="num">PTS</th>
              <th>
                <span className="sr-only">Merge</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {players.map((p) => (
              <PlayerRow key={`${p.id}:${p.name}:${p.jersey}`} sessionId={sessionId} p={p} players={players} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
