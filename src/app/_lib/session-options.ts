/** How the dashboard names the session types of the API's `options.session_type`. */
export const SESSION_TYPES = [
  ['', 'Game, 5 on 5'],
  ['4v4', '4 on 4'],
  ['3v3', '3 on 3'],
  ['2v2', '2 on 2'],
  ['1v1', '1 on 1'],
  ['solo', 'Solo shooting practice'],
] as const;

/** How the dashboard names the API's `options.point_system`. */
export const SCORING = [
  ['', '2s and 3s'],
  ['1', '1s and 2s (3x3, streetball)'],
] as const;

/**
 * One line for a session's `options` as submitted ("Solo shooting practice · 1s and 2s
 * scoring"): what the coach said was filmed, so the results can be read against it.
 */
export function describeSessionOptions(options: Record<string, unknown> | undefined): string {
  const o = options ?? {};
  const value = o.session_type === undefined || o.session_type === '5v5' ? '' : o.session_type; // 5v5 is the default
  const parts: string[] = [SESSION_TYPES.find(([v]) => v === value)?.[1] ?? String(value)];
  if (typeof o.num_players === 'number') parts.push(`${o.num_players} ${o.num_players === 1 ? 'player' : 'players'}`);
  if (o.has_jerseys === true) parts.push('team jerseys');
  if (o.point_system === 1) parts.push('1s and 2s scoring');
  if (o.camera_setup === 'panning') parts.push('panning camera');
  return parts.join(' · ');
}

/** The session's scoring from its `options`: 2 (2s and 3s, the default) or 1 (1s and 2s). */
export function pointSystemOf(options: Record<string, unknown> | undefined): 1 | 2 {
  return options?.point_system === 1 ? 1 : 2;
}

/** "free throw", or a field goal by its value under the session's scoring ("2-pointer"; "1-pointer" in 1s and 2s). */
export function shotKindLabel(shot: { is_free_throw: boolean; is_three_point: boolean | null }, pointSystem: 1 | 2): string {
  if (shot.is_free_throw) return 'free throw';
  return `${pointSystem + (shot.is_three_point ? 1 : 0)}-pointer`;
}
