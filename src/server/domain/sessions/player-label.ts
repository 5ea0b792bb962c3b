/**
 * How the dashboard names a player, the same on the session page and in correction summaries:
 * name (with the jersey when there is one), else the jersey, else its number in the analysis
 * ("Player 3"), which stays when another player is merged away (a place in the list would shift).
 * Null when the player has none of these. Pure: the browser imports it too.
 */
export function playerName(p: { name: string | null; jersey: string | null; number: number | null }): string | null {
  if (p.name) return p.jersey ? `${p.name} #${p.jersey}` : p.name;
  if (p.jersey) return `#${p.jersey}`;
  return p.number !== null ? `Player ${p.number}` : null;
}
