'use client';

import { PlayerPicture } from './player-picture';
import { playerLabel, teamLabel, type BoxScore, type Player, type Session } from './types';

const ZERO: BoxScore = { points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 };

function add(a: BoxScore, b: BoxScore): BoxScore {
  const out = { ...a };
  for (const k of Object.keys(ZERO) as Array<keyof BoxScore>) out[k] = a[k] + b[k];
  return out;
}

function StatCells({ s }: { s: BoxScore }) {
  return (
    <>
      <td className="num" data-stat="points">{s.points}</td>
      <td className="num" data-stat="fg_2pt">{s.fg_2pt_make}-{s.fg_2pt_att}</td>
      <td className="num" data-stat="fg_3pt">{s.fg_3pt_make}-{s.fg_3pt_att}</td>
      <td className="num" data-stat="ft">{s.ft_make}-{s.ft_att}</td>
      <td className="num" data-stat="assist">{s.assist}</td>
      <td className="num" data-stat="rebound">{s.rebound}</td>
    </>
  );
}

function Head({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th>{first}</th>
        <th className="num" title="Points">PTS</th>
        <th className="num" title="2-point field goals made-attempted">2PT</th>
        <th className="num" title="3-point field goals made-attempted">3PT</th>
        <th className="num" title="Free throws made-attempted">FT</th>
        <th className="num" title="Assists">AST</th>
        <th className="num" title="Rebounds">REB</th>
      </tr>
    </thead>
  );
}

/** A table per team (players and the team's total) and the game totals the API reports. */
export function BoxScoreTables({ session, players }: { session: Session; players: Player[] }) {
  const teams = new Map<string, Player[]>();
  players.forEach((p) => {
    const key = p.team_id === null ? 'none' : String(p.team_id);
    teams.set(key, [...(teams.get(key) ?? []), p]);
  });
  const ordered = [...teams.entries()].sort(([a], [b]) => (a === 'none' ? 1 : b === 'none' ? -1 : Number(a) - Number(b)));
  return (
    <div className="stack">
      {ordered.map(([key, list]) => {
        const total = list.reduce((acc, p) => add(acc, p.stats), ZERO);
        const name = teamLabel(key === 'none' ? null : Number(key));
        return (
          <div className="card" key={key}>
            <div className="card-head">
              <h3>{name}</h3>
              <span className="muted">{total.points} pts</span>
            </div>
            <div className="table-wrap">
              <table className="table" data-testid="team-box-score">
                <caption className="sr-only">Box score: {name}</caption>
                <Head first="Player" />
                <tbody>
                  {list.map((p) => (
                    <tr key={p.id}>
                      <td>
                        <span className="player-name">
                          <PlayerPicture p={p} small />
                          {playerLabel(p)}
                        </span>
                      </td>
                      <StatCells s={p.stats} />
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <td>Team total</td>
                    <StatCells s={total} />
                  </tr>
                </tfoot>
              </table>
            </div>
          </div>
        );
      })}
      <div className="card">
        <div className="card-head">
          <h3>Game totals</h3>
          <span className="muted">every shot found, including those without an identified shooter</span>
        </div>
        <div className="table-wrap">
          <table className="table" data-testid="game-totals">
            <caption className="sr-only">Game totals</caption>
            <Head first="" />
            <tbody>
              <tr>
                <td>All</td>
                <StatCells s={session.totals} />
              </tr>
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
