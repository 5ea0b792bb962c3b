'use client';

import { playerLabel, type Player } from './types';

/**
 * How the player looked: the analysis's picture of them, framed in the colour of their clothes; the colour alone
 * when there is no picture; an empty frame when neither was read. `small` is the list icon beside a name (its
 * picture decorative: the name says who it is).
 */
export function PlayerPicture({ p, small = false }: { p: Player; small?: boolean }) {
  const style = p.colour ? { borderColor: p.colour, background: p.colour } : undefined;
  const size = small ? { width: 24, height: 32 } : { width: 60, height: 80 };
  return (
    <span className={small ? 'player-pic player-pic-sm' : 'player-pic'} style={style} title={p.colour ? `Clothes colour ${p.colour}` : undefined} data-testid={small ? undefined : 'player-picture'}>
      {p.thumbnail ? <img src={p.thumbnail} alt={small ? '' : `${playerLabel(p)} as seen in the video`} {...size} loading="lazy" /> : null}
    </span>
  );
}
