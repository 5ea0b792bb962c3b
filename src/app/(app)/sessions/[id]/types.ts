import { playerName } from '@/server/domain/sessions/player-label';
import type { PlayerDetails } from '@/server/domain/dashboard/session-summaries';
import type { Outputs } from '../../../_lib/trpc';

export type Session = Outputs['sessions']['get'];
export type Shot = Session['shots']['data'][number];
export type Highlight = Session['highlights']['data'][number];
/** A player as the API gives it, with what the dashboard adds to tell unnamed players apart (number, colour, picture: null when there is none). */
export type Player = Session['players']['data'][number] & PlayerDetails;
export type BoxScore = Session['totals'];

/** How a player is called in lists ({@link playerName}: name, else jersey, else their number from the analysis). */
export function playerLabel(p: Player | undefined): string {
  if (!p) return 'Unknown player';
  return playerName(p) ?? 'Unnamed player';
}

export function teamLabel(teamId: number | null | undefined): string {
  if (teamId === null || teamId === undefined) return 'No team';
  return `Team ${String.fromCharCode(65 + teamId)}`;
}

/** A player's shots: field goals and free throws attempted. */
export const attempts = (p: Pick<Player, 'stats'>): number => p.stats.fg_2pt_att + p.stats.fg_3pt_att + p.stats.ft_att;

/**
 * True when the players look split, what a practice video of one shooter (or a game without jerseys) gives when the
 * analysis does not recognise a person who left the view or stood still: several of them and none with more than one
 * attempt, or six or more with fewer than two attempts each on average (the real 51 s one-shooter clip `ncku_new`,
 * submitted with the API's defaults: 9 players, 14 attempts). A game's list has several attempts per player.
 */
export function looksSplit(players: Array<Pick<Player, 'stats'>>): boolean {
  if (players.length >= 4 && players.every((p) => attempts(p) <= 1)) return true;
  return players.length >= 6 && 2 * players.length > players.reduce((n, p) => n + attempts(p), 0);
}
