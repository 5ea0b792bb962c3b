'use client';

import { useMemo, useState } from 'react';
import { shotKindLabel } from '../../../_lib/session-options';
import { playerLabel, type Player, type Shot } from './types';
import { PlayerOptions, TeamOptions } from './player-options';

/**
 * Half-court shot chart as inline SVG (FIBA geometry, 1 unit = 10 cm, baseline at the top):
 * 15 m × 14 m, rim 1.575 m from the baseline, key 4.9 m wide to the free-throw line at
 * 5.8 m, free-throw circle r 1.8 m, 3-point arc r 6.75 m with corner lines 0.9 m in.
 * Markers come from `shot_world_normed` ([x across, y from the baseline], 0–1). A shot
 * without court coordinates is placed from its image position relative to the hoop and
 * drawn dashed ("estimated").
 */
const W = 150;
const H = 140;
const RIM = { x: 75, y: 15.75 };

function position(shot: Shot): { x: number; y: number; estimated: boolean } | null {
  const world = shot.location.shot_world_normed;
  if (world && world.length >= 2) return { x: world[0] * W, y: world[1] * H, estimated: false };
  if (shot.is_free_throw) return { x: RIM.x, y: 58, estimated: true };
  const img = shot.location.shot_image_normed;
  const hoop = shot.location.hoop_image_normed;
  if (!img || !hoop) return { x: RIM.x, y: RIM.y + 30, estimated: true };
  const dx = (img[0] - hoop[0]) * 0.8;
  const dy = Math.max(0.04, img[1] - hoop[1]) * 1.2;
  const x = Math.min(W - 4, Math.max(4, RIM.x + dx * W));
  const y = Math.min(H - 4, Math.max(RIM.y + 4, RIM.y + dy * H));
  return { x, y, estimated: true };
}

function Court() {
  const line = { fill: 'none', stroke: '#7a5a2e', strokeWidth: 0.6 };
  const cornerY = RIM.y + Math.sqrt(67.5 ** 2 - 66 ** 2);
  return (
    <g>
      <rect x={0.3} y={0.3} width={W - 0.6} height={H - 0.6} {...line} />
      <rect x={75 - 24.5} y={0.3} width={49} height={57.7} fill="#f3e2c7" stroke="#7a5a2e" strokeWidth={0.6} />
      <circle cx={75} cy={58} r={18} {...line} />
      <path d={`M 9 0.3 L 9 ${cornerY} A 67.5 67.5 0 0 0 141 ${cornerY} L 141 0.3`} {...line} />
      <path d={`M ${75 - 12.5} ${RIM.y} A 12.5 12.5 0 0 0 ${75 + 12.5} ${RIM.y}`} {...line} />
      <line x1={66} y1={12} x2={84} y2={12} stroke="#3d2a12" strokeWidth={1} />
      <circle cx={RIM.x} cy={RIM.y} r={2.25} fill="none" stroke="#d9480f" strokeWidth={0.8} />
      <line x1={0} y1={H - 0.3} x2={W} y2={H - 0.3} stroke="#7a5a2e" strokeWidth={1} />
      <circle cx={75} cy={H} r={18} {...line} />
    </g>
  );
}

export function ShotChart({ shots, players, pointSystem }: { shots: Shot[]; players: Player[]; pointSystem: 1 | 2 }) {
  const [player, setPlayer] = useState('');
  const [team, setTeam] = useState('');
  const byId = useMemo(() => new Map(players.map((p) => [p.id, p])), [players]);
  const visible = shots.filter((s) => {
    if (player && s.players.scorer !== player) return false;
    if (team !== '') {
      const scorer = s.players.scorer ? byId.get(s.players.scorer) : undefined;
      if (String(scorer?.team_id ?? '') !== team) return false;
    }
    return true;
  });
  const made = visible.filter((s) => s.made).length;
  const anyEstimated = visible.some((s) => !s.location.shot_world_normed);

  return (
    <div className="stack">
      <div className="row">
        <label>
          <span className="sr-only">Player</span>
          <select className="select" aria-label="Filter shots by player" value={player} onChange={(e) => setPlayer(e.target.value)}>
            <option value="">All players</option>
            <PlayerOptions players={players} />
          </select>
        </label>
        <label>
          <span className="sr-only">Team</span>
          <select className="select" aria-label="Filter shots by team" value={team} onChange={(e) => setTeam(e.target.value)}>
            <option value="">Both teams</option>
            <TeamOptions players={players} />
          </select>
        </label>
        <span className="muted grow" style={{ textAlign: 'right' }}>
          {made}/{visible.length} made{visible.length ? ` · ${Math.round((made / visible.length) * 100)}%` : ''}
        </span>
      </div>
      <svg className="court" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Shot chart: ${visible.length} shots, ${made} made`} data-testid="shot-chart">
        <Court />
        {visible.map((s) => {
          const pos = position(s);
          if (!pos) return null;
          const scorer = s.players.scorer ? byId.get(s.players.scorer) : undefined;
          const title = `${s.made ? 'Made' : 'Missed'} ${shotKindLabel(s, pointSystem)} at ${s.start_seconds?.toFixed(1) ?? '?'} s${scorer ? ` by ${playerLabel(scorer)}` : ''}${pos.estimated ? ' (position estimated)' : ''}`;
          return (
            <g key={s.id} data-testid="shot-marker" data-made={s.made ? 'true' : 'false'}>
              <title>{title}</title>
              {s.made ? (
                <circle cx={pos.x} cy={pos.y} r={2.6} fill="#16653a" stroke="#fff" strokeWidth={0.6} strokeDasharray={pos.estimated ? '1 0.6' : undefined} />
              ) : (
                <g stroke="#b42318" strokeWidth={1.1} strokeLinecap="round">
                  <line x1={pos.x - 2.1} y1={pos.y - 2.1} x2={pos.x + 2.1} y2={pos.y + 2.1} />
                  <line x1={pos.x - 2.1} y1={pos.y + 2.1} x2={pos.x + 2.1} y2={pos.y - 2.1} />
                </g>
              )}
            </g>
          );
        })}
      </svg>
      <div className="legend">
        <span>
          <i style={{ background: '#16653a' }} /> Made
        </span>
        <span>
          {/* the same ✕ the chart draws for a miss */}
          <svg width="10" height="10" viewBox="-5 -5 10 10" aria-hidden="true" style={{ display: 'inline-block', marginRight: 4, verticalAlign: 'middle' }}>
            <g stroke="#b42318" strokeWidth={1.6} strokeLinecap="round">
              <line x1={-3.5} y1={-3.5} x2={3.5} y2={3.5} />
              <line x1={-3.5} y1={3.5} x2={3.5} y2={-3.5} />
            </g>
          </svg>
          Missed
        </span>
        {anyEstimated && <span>Some positions are estimated from the camera view (no court calibration for this video).</span>}
      </div>
    </div>
  );
}
