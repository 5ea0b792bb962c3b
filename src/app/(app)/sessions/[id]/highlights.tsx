'use client';

import { useMemo, useState } from 'react';
import { Empty, Icon } from '../../../_components/ui';
import { shotKindLabel } from '../../../_lib/session-options';
import { playerLabel, type Highlight, type Player, type Shot } from './types';
import { PlayerOptions } from './player-options';
import { PlayerPicture } from './player-picture';

type Orientation = 'vertical' | 'horizontal';
type Result = 'all' | 'made' | 'missed';

function Clip({ h, shot, who, orientation, pointSystem }: { h: Highlight; shot?: Shot; who?: Player; orientation: Orientation; pointSystem: 1 | 2 }) {
  const player = who ? playerLabel(who) : undefined;
  const [playing, setPlaying] = useState(false);
  const src = orientation === 'vertical' ? (h.video.default ?? h.video.horizontal) : (h.video.horizontal ?? h.video['720p'] ?? h.video.default);
  const poster = orientation === 'vertical' ? (h.preview.default ?? h.preview.horizontal) : (h.preview.horizontal ?? h.preview.default);
  const kind = shot ? shotKindLabel(shot, pointSystem) : null;
  const what = kind ? kind[0].toUpperCase() + kind.slice(1) : h.is_manual ? 'Marked moment' : 'Shot';
  const label = shot || !h.is_manual ? `${what} ${shot?.made ? 'made' : 'missed'}${player ? ` by ${player}` : ''}` : what;
  return (
    <article className="card clip" data-testid="highlight" data-highlight={h.id}>
      <div className="clip-media">
        {playing && src ? (
          <video src={src} poster={poster ?? undefined} controls autoPlay playsInline aria-label={label} />
        ) : (
          <>
            {poster ? <img src={poster} alt="" loading="lazy" /> : null}
            <button className="play" onClick={() => setPlaying(true)} aria-label={`Play: ${label}`} disabled={!src}>
              <span>{Icon.play}</span>
            </button>
          </>
        )}
      </div>
      <div className="clip-body">
        <div className="row">
          {shot || !h.is_manual ? <span className={shot?.made ? 'made' : 'missed'}>{shot?.made ? 'Made' : 'Missed'}</span> : <span>Manual</span>}
          <span className="muted">
            {what} · {h.length_seconds.toFixed(0)} s{h.is_manual && shot ? ' · manual' : ''}
          </span>
        </div>
        <div className="row">
          <span className="muted player-name" style={{ minWidth: 0 }}>
            {who ? <PlayerPicture p={who} small /> : null}
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {player ?? 'Unknown shooter'}
              {h.is_lowlight ? ' · lowlight' : ''}
            </span>
          </span>
          {src && (
            <a className="btn btn-sm btn-ghost" href={src} download aria-label={`Download: ${label}`}>
              Download
            </a>
          )}
        </div>
      </div>
    </article>
  );
}

export function Highlights({ highlights, shots, players, pointSystem }: { highlights: Highlight[]; shots: Shot[]; players: Player[]; pointSystem: 1 | 2 }) {
  const [orientation, setOrientation] = useState<Orientation>('vertical');
  const [result, setResult] = useState<Result>('all');
  const [player, setPlayer] = useState('');
  const [lowlights, setLowlights] = useState(false);
  const shotById = useMemo(() => new Map(shots.map((s) => [s.id, s])), [shots]);
  const byId = useMemo(() => new Map(players.map((p) => [p.id, p])), [players]);
  const visible = highlights.filter((h) => {
    const shot = h.shot ? shotById.get(h.shot) : undefined;
    if (!lowlights && h.is_lowlight) return false;
    if (result === 'made' && !shot?.made) return false;
    if (result === 'missed' && shot?.made) return false;
    if (player && h.player !== player) return false;
    return true;
  });
  const hiddenLowlights = highlights.filter((h) => h.is_lowlight).length;

  return (
    <div className="stack">
      <div className="row">
        <div className="segmented" role="group" aria-label="Clip orientation">
          {(['vertical', 'horizontal'] as const).map((o) => (
            <button key={o} aria-pressed={orientation === o} onClick={() => setOrientation(o)}>
              {o === 'vertical' ? 'Vertical' : 'Horizontal'}
            </button>
          ))}
        </div>
        <div className="segmented" role="group" aria-label="Result">
          {(['all', 'made', 'missed'] as const).map((r) => (
            <button key={r} aria-pressed={result === r} onClick={() => setResult(r)}>
              {r === 'all' ? 'All' : r === 'made' ? 'Made' : 'Missed'}
            </button>
          ))}
        </div>
        <label>
          <span className="sr-only">Player</span>
          <select className="select" aria-label="Filter highlights by player" value={player} onChange={(e) => setPlayer(e.target.value)}>
            <option value="">All players</option>
            <PlayerOptions players={players} />
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={lowlights} onChange={(e) => setLowlights(e.target.checked)} />
          Show lowlights{hiddenLowlights ? ` (${hiddenLowlights})` : ''}
        </label>
      </div>
      {visible.length === 0 ? (
        <Empty title="No clips match">{highlights.length ? 'Change the filters to see more clips.' : 'No highlight clips were cut for this session.'}</Empty>
      ) : (
        <div className="clips" data-orientation={orientation}>
          {visible.map((h) => (
            <Clip key={h.id} h={h} shot={h.shot ? shotById.get(h.shot) : undefined} who={h.player ? byId.get(h.player) : undefined} orientation={orientation} pointSystem={pointSystem} />
          ))}
        </div>
      )}
    </div>
  );
}
