import type { Outputs } from '../../../_lib/trpc';

export type Session = Outputs['sessions']['get'];
export type Shot = Session['shots']['data'][number];
export type Highlight = Session['highlights']['data'][number];
export type Player = Session['players']['data'][number];
export type BoxScore = Session['totals'];

/** How a player is called in lists: name, else jersey, else their position in the list. */
export function playerLabel(p: Player | undefined, index?: number): string {
  if (!p) return 'Unknown player';
  if (p.name) return p.jersey ? `${p.name} #${p.jersey}` : p.name;
  if (p.jersey) return `#${p.jersey}`;
  return index !== undefined ? `Player ${index + 1}` : 'Unnamed player';
}

export function teamLabel(teamId: number | null | undefined): string {
  if (teamId === null || teamId === undefined) return 'No team';
  return `Team ${String.fromCharCode(65 + teamId)}`;
}
