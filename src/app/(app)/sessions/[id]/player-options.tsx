import { playerLabel, teamLabel, type Player } from './types';

/** The `<option>`s of a player picker, labelled as lists label players; the caller adds any empty choice. */
export function PlayerOptions({ players }: { players: Player[] }) {
  return (
    <>
      {players.map((p) => (
        <option key={p.id} value={p.id}>
          {playerLabel(p)}
        </option>
      ))}
    </>
  );
}

/** The `<option>`s of a team picker: the teams the players are on, in order; the caller adds any empty choice. */
export function TeamOptions({ players }: { players: Player[] }) {
  const teams = [...new Set(players.map((p) => p.team_id).filter((t): t is number => t !== null))].sort();
  return (
    <>
      {teams.map((t) => (
        <option key={t} value={String(t)}>
          {teamLabel(t)}
        </option>
      ))}
    </>
  );
}
