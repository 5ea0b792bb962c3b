import { playerLabel, type Player } from './types';

/** The `<option>`s of a player picker, labelled as lists label players; the caller adds any empty choice. */
export function PlayerOptions({ players }: { players: Player[] }) {
  return (
    <>
      {players.map((p, i) => (
        <option key={p.id} value={p.id}>
          {playerLabel(p, i)}
        </option>
      ))}
    </>
  );
}
