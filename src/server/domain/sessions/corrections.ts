import { and, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx, Tx } from '../../db/client';
import { highlights, players, sessionCorrections, sessions, shots, users, type BoxScoreJson } from '../../db/schema';
import { emptyBoxScore } from '../../analysis/box-score';
import { boxScores, pointSystemOf, shotValue, type PointSystem } from '../../analysis/derive';
import { AppError, notFound } from '../errors';
import { isId, newId } from '../ids';
import { paginate, type ListParams } from '../pagination';
import { playerName } from './player-label';

/**
 * Coach corrections of a processed session (README "Corrections"). Every correction runs
 * in one transaction: the session row is locked, the correction is applied to the stored
 * shots / players / highlights, everything derived from them is recomputed with the
 * session's point system (shot points and time-order indices, highlights' player and
 * lowlight flag, every player's box score, the totals — with derive.ts's `boxScores`, the
 * code the pipeline uses), and an audit row keeps the touched rows before and after.
 *
 * Undo restores the "before" rows of one correction, then re-derives. Any correction that
 * is not undone yet may be undone as long as the rows it touched are still as it left them
 * (otherwise 409 `correction_conflict`: undo the later corrections first). Corrections never
 * touch billing or usage and never emit events: GET /v1/sessions/{id} simply shows the
 * corrected state.
 */

export const SHOT_TYPES = ['two', 'three', 'free_throw'] as const;
export type ShotType = (typeof SHOT_TYPES)[number];

export type Correction =
  | { kind: 'set_made'; shot: string; made: boolean }
  | { kind: 'set_shot_type'; shot: string; type: ShotType }
  | { kind: 'set_shooter'; shot: string; player: string | null }
  | { kind: 'set_assister'; shot: string; player: string | null }
  | { kind: 'set_rebounder'; shot: string; player: string | null }
  | { kind: 'delete_shot'; shot: string }
  | { kind: 'add_shot'; time_seconds: number; shooter?: string | null; type?: ShotType; made?: boolean }
  | { kind: 'rename_player'; player: string; name: string | null }
  | { kind: 'set_jersey'; player: string; jersey: string | null }
  | { kind: 'set_team'; player: string; team_id: number | null }
  | { kind: 'merge_players'; keep: string; remove: string | string[]; solo?: boolean };

export type CorrectionKind = Correction['kind'];
export const CORRECTION_KINDS = [
  'set_made',
  'set_shot_type',
  'set_shooter',
  'set_assister',
  'set_rebounder',
  'delete_shot',
  'add_shot',
  'rename_player',
  'set_jersey',
  'set_team',
  'merge_players',
] as const satisfies readonly CorrectionKind[];

/** Who acts: a dashboard member or an API key. */
export interface Actor {
  userId: string | null;
  apiKeyId: string | null;
}

type ShotRow = typeof shots.$inferSelect;
type PlayerRow = typeof players.$inferSelect;
type HighlightRow = typeof highlights.$inferSelect;
type SessionRow = typeof sessions.$inferSelect;
type CorrectionRow = typeof sessionCorrections.$inferSelect;

interface State {
  shots: ShotRow[];
  players: PlayerRow[];
  highlights: HighlightRow[];
}
type TableName = keyof State;
const TABLES: TableName[] = ['shots', 'players', 'highlights'];

/** The rows a correction touched, as stored (derived fields left out), by table. */
type Snapshot = Record<TableName, Array<Record<string, unknown>>>;

/** Fields recomputed by `rederive`: never compared, never restored. */
const DERIVED: Record<TableName, string[]> = {
  shots: ['index', 'points', 'type'],
  players: ['stats'],
  highlights: ['shotIndex', 'isLowlight', 'playerId'],
};
/** A manual highlight's lowlight flag is the coach's, not its shot's. */
const derivedFields = (table: TableName, row: Record<string, unknown>) =>
  table === 'highlights' && row.isManual ? ['shotIndex', 'playerId'] : DERIVED[table];

/**
 * A highlight the pipeline cut for a shot follows that shot entirely (index, player,
 * lowlight) and goes with it when the shot is deleted; a manual one follows its shot's index
 * and scorer, and outlives the shot (detached: no shot, no player).
 */
const followsShot = (h: HighlightRow) => !h.isManual;

export const MAX_TEAM_ID = 9;
const MAX_NAME = 80;
const MAX_JERSEY = 8;

// ---------------------------------------------------------------------------------------
// Pure part: the derivation from stored rows, and applying a correction to a State.

/**
 * Recomputes everything derived from the stored shots, in place: indices (time order),
 * points under `system`, the shot `type`, highlights' shot index / player / lowlight flag,
 * every player's box score; returns the totals.
 */
export function rederive(state: State, system: PointSystem): BoxScoreJson {
  state.shots.sort((a, b) => (a.startSeconds ?? 0) - (b.startSeconds ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  state.shots.forEach((s, i) => {
    s.index = i;
    s.type = s.isFreeThrow ? 'freethrow' : 'fieldgoal';
    s.points = s.made === null ? null : s.made ? shotValue(s, system) : 0;
  });
  const { byTrack, totals } = boxScores<string>(
    state.shots.map((s) => ({ ...s, scorerTrack: s.scorerId, assisterTrack: s.assisterId, rebounderTrack: s.rebounderId })),
  );
  for (const p of state.players) p.stats = byTrack.get(p.id) ?? emptyBoxScore();
  const shotById = new Map(state.shots.map((s) => [s.id, s]));
  for (const h of state.highlights) {
    const shot = h.shotId ? shotById.get(h.shotId) : undefined;
    if (!shot) {
      if (!followsShot(h)) h.shotIndex = h.playerId = null;
      continue;
    }
    h.shotIndex = shot.index;
    h.playerId = shot.scorerId;
    if (followsShot(h)) h.isLowlight = shot.made === false;
  }
  return totals;
}

const invalid = (message: string, param: string) => new AppError('parameter_invalid', { message, param });

function clock(seconds: number | null): string {
  const s = Math.max(0, Math.round(seconds ?? 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** How the dashboard calls a player ({@link playerName}, as the session page does). */
function labeller(list: PlayerRow[]) {
  return (id: string | null) => {
    if (id === null) return 'nobody';
    const p = list.find((x) => x.id === id);
    if (!p) return 'an unknown player';
    return playerName(p) ?? 'an unnamed player';
  };
}

const typeLabel = (s: Pick<ShotRow, 'isFreeThrow' | 'isThreePoint'>) => (s.isFreeThrow ? 'free throw' : s.isThreePoint ? '3' : '2');

function applyShotType(shot: ShotRow, type: ShotType) {
  shot.isFreeThrow = type === 'free_throw';
  shot.isThreePoint = type === 'three';
  if (shot.isFreeThrow) shot.assisterId = null; // free throws are not assisted
}

/**
 * Applies one correction to `state` (its non-derived fields), validating it against the
 * session. Returns the one-line summary. Throws 404 for unknown shots/players, 400 for a
 * correction that is not allowed or changes nothing.
 */
export function applyToState(state: State, c: Correction, session: Pick<SessionRow, 'durationSeconds'>): string {
  const label = labeller(state.players);
  const shotOf = (id: string) => {
    const s = state.shots.find((x) => x.id === id);
    if (!s) throw notFound('shot', 'shot');
    return s;
  };
  const playerOf = (id: string, param = 'player') => {
    const p = state.players.find((x) => x.id === id);
    if (!p) throw notFound('player', param);
    return p;
  };
  const shotName = (s: ShotRow) => `Shot ${(s.index ?? 0) + 1} (${clock(s.startSeconds)})`;

  switch (c.kind) {
    case 'set_made': {
      const s = shotOf(c.shot);
      const was = s.made;
      s.made = c.made;
      if (c.made) s.rebounderId = null;
      else s.assisterId = null;
      return `${shotName(s)}: ${was === null ? 'undecided' : was ? 'made' : 'missed'} → ${c.made ? 'made' : 'missed'}`;
    }
    case 'set_shot_type': {
      const s = shotOf(c.shot);
      const was = typeLabel(s);
      applyShotType(s, c.type);
      return `${shotName(s)}: ${was} → ${typeLabel(s)}`;
    }
    case 'set_shooter': {
      const s = shotOf(c.shot);
      if (c.player !== null) playerOf(c.player);
      const was = s.scorerId;
      s.scorerId = c.player;
      if (c.player !== null && s.assisterId === c.player) s.assisterId = null; // nobody assists themself
      return `${shotName(s)}: shooter ${label(was)} → ${label(c.player)}`;
    }
    case 'set_assister': {
      const s = shotOf(c.shot);
      if (c.player !== null) {
        playerOf(c.player);
        if (s.made !== true) throw invalid('Only a made shot has an assister.', 'player');
        if (s.isFreeThrow) throw invalid('Free throws are not assisted.', 'player');
        if (c.player === s.scorerId) throw invalid('The shooter cannot assist their own shot.', 'player');
      }
      const was = s.assisterId;
      s.assisterId = c.player;
      return `${shotName(s)}: assist ${label(was)} → ${label(c.player)}`;
    }
    case 'set_rebounder': {
      const s = shotOf(c.shot);
      if (c.player !== null) {
        playerOf(c.player);
        if (s.made !== false) throw invalid('Only a missed shot has a rebounder.', 'player');
      }
      const was = s.rebounderId;
      s.rebounderId = c.player;
      return `${shotName(s)}: rebound ${label(was)} → ${label(c.player)}`;
    }
    case 'delete_shot': {
      const s = shotOf(c.shot);
      state.shots = state.shots.filter((x) => x !== s);
      state.highlights = state.highlights.filter((h) => !(h.shotId === s.id && followsShot(h)));
      for (const h of state.highlights) if (h.shotId === s.id) h.shotId = null;
      return `${shotName(s)} deleted (${s.made ? 'made' : 'missed'} ${typeLabel(s)} by ${label(s.scorerId)})`;
    }
    case 'add_shot': {
      const t = Math.round(c.time_seconds * 100) / 100;
      if (!(t >= 0) || (session.durationSeconds !== null && t > session.durationSeconds)) {
        throw invalid(`time_seconds must be between 0 and the video's length (${session.durationSeconds ?? '?'} s).`, 'time_seconds');
      }
      const shooter = c.shooter ?? null;
      if (shooter !== null) playerOf(shooter, 'shooter');
      const s: ShotRow = {
        id: newId('shot'),
        sessionId: state.shots[0]?.sessionId ?? '',
        index: null,
        startSeconds: t,
        endSeconds: t,
        made: c.made ?? false,
        points: null,
        type: 'fieldgoal',
        isThreePoint: false,
        isFreeThrow: false,
        isFouled: false,
        shotImageNormed: null,
        shotWorldNormed: null,
        hoopImageNormed: null,
        excitementScore: null,
        scorerId: shooter,
        assisterId: null,
        rebounderId: null,
        highlightId: null,
      };
      applyShotType(s, c.type ?? 'two');
      state.shots.push(s);
      return `Shot added at ${clock(t)}: ${s.made ? 'made' : 'missed'} ${typeLabel(s)} by ${label(shooter)}`;
    }
    case 'rename_player': {
      const p = playerOf(c.player);
      const name = c.name?.trim() || null;
      if (name && name.length > MAX_NAME) throw invalid(`Names are at most ${MAX_NAME} characters.`, 'name');
      const was = label(p.id);
      p.name = name;
      return `${was} renamed to ${name ?? '(no name)'}`;
    }
    case 'set_jersey': {
      const p = playerOf(c.player);
      const jersey = c.jersey?.trim() || null;
      if (jersey && jersey.length > MAX_JERSEY) throw invalid(`Jersey numbers are at most ${MAX_JERSEY} characters.`, 'jersey');
      const was = p.jersey;
      const who = label(p.id);
      p.jersey = jersey;
      return `${who}: jersey ${was ? `#${was}` : 'none'} → ${jersey ? `#${jersey}` : 'none'}`;
    }
    case 'set_team': {
      const p = playerOf(c.player);
      if (c.team_id !== null && (!Number.isInteger(c.team_id) || c.team_id < 0 || c.team_id > MAX_TEAM_ID)) {
        throw invalid(`team_id is an integer from 0 to ${MAX_TEAM_ID}, or null.`, 'team_id');
      }
      const team = (t: number | null) => (t === null ? 'no team' : `team ${String.fromCharCode(65 + t)}`);
      const was = p.teamId;
      p.teamId = c.team_id;
      return `${label(p.id)}: ${team(was)} → ${team(c.team_id)}`;
    }
    case 'merge_players': {
      const ids = Array.isArray(c.remove) ? c.remove : [c.remove];
      if (ids.length === 0) throw invalid('Pick a player to merge.', 'remove');
      if (ids.includes(c.keep)) throw invalid('Pick two different players.', 'remove');
      if (new Set(ids).size !== ids.length) throw invalid('A player is named twice in `remove`.', 'remove');
      const keep = playerOf(c.keep, 'keep');
      const removed = ids.map((id) => playerOf(id, 'remove'));
      if (c.solo && state.players.length - removed.length > 1) throw invalid('`solo` merges every other player: name them all in `remove`.', 'solo');
      const names = removed.map((p) => label(p.id));
      const who = names.length === 1 ? names[0] : names.length <= 3 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
      const summary = `${who} merged into ${label(keep.id)}`;
      for (const remove of removed) {
        for (const s of state.shots) {
          if (s.scorerId === remove.id) s.scorerId = keep.id;
          if (s.assisterId === remove.id) s.assisterId = keep.id;
          if (s.rebounderId === remove.id) s.rebounderId = keep.id;
          if (s.assisterId !== null && s.assisterId === s.scorerId) s.assisterId = null;
        }
        for (const h of state.highlights) if (h.playerId === remove.id && !followsShot(h)) h.playerId = keep.id;
        keep.name ??= remove.name;
        keep.jersey ??= remove.jersey;
        keep.teamId ??= remove.teamId;
        keep.userId ??= remove.userId;
      }
      state.players = state.players.filter((p) => !removed.includes(p));
      if (c.solo) {
        // one person played: every shot is theirs, and nobody passed to them (as a `solo` session is analysed)
        for (const s of state.shots) {
          s.scorerId = keep.id;
          s.assisterId = null;
          if (s.rebounderId !== null) s.rebounderId = keep.id;
        }
        return `${summary}: every shot is theirs`;
      }
      return summary;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Comparing and snapshotting rows.

/** JSON with sorted keys (jsonb does not keep key order), Dates as ISO strings. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

function stored(table: TableName, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const skip = derivedFields(table, row);
  for (const [k, v] of Object.entries(row)) if (!skip.includes(k)) out[k] = v instanceof Date ? v.toISOString() : v;
  return out;
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/** The rows whose stored (non-derived) fields differ between two states, before and after. */
function touched(a: State, b: State): { before: Snapshot; after: Snapshot } {
  const before = { shots: [], players: [], highlights: [] } as Snapshot;
  const after = { shots: [], players: [], highlights: [] } as Snapshot;
  for (const t of TABLES) {
    const x = byId<{ id: string }>(a[t]);
    const y = byId<{ id: string }>(b[t]);
    for (const id of new Set([...x.keys(), ...y.keys()])) {
      const rx = x.get(id) && stored(t, x.get(id)!);
      const ry = y.get(id) && stored(t, y.get(id)!);
      if (canonical(rx ?? null) === canonical(ry ?? null)) continue;
      if (rx) before[t].push(rx);
      if (ry) after[t].push(ry);
    }
  }
  return { before, after };
}

/** A snapshot row back to a drizzle row (Dates revived, derived fields reset for `rederive`). */
function revive(table: TableName, row: Record<string, unknown>): any {
  if (table === 'shots') return { index: null, points: null, type: 'fieldgoal', ...row };
  if (table === 'players') return { stats: emptyBoxScore(), ...row };
  return { shotIndex: null, isLowlight: false, playerId: null, ...row, createdAt: new Date(row.createdAt as string) };
}

// ---------------------------------------------------------------------------------------
// Database part.

async function lockProcessedSession(tx: Tx, organizationId: string, sessionId: string): Promise<SessionRow> {
  const [session] = isId('session', sessionId)
    ? await tx
        .select()
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.organizationId, organizationId)))
        .for('update')
    : [];
  if (!session) throw notFound('session');
  if (session.status !== 'processed') {
    throw new AppError('session_not_processed', { message: 'Only a processed session can be corrected.', param: 'id' });
  }
  return session;
}

async function loadState(tx: DbOrTx, sessionId: string): Promise<State> {
  const [s, p, h] = await Promise.all([
    tx.select().from(shots).where(eq(shots.sessionId, sessionId)),
    tx.select().from(players).where(eq(players.sessionId, sessionId)),
    tx.select().from(highlights).where(eq(highlights.sessionId, sessionId)),
  ]);
  return { shots: s, players: p, highlights: h };
}

const clone = (s: State): State => structuredClone(s);

/**
 * Writes the difference between two full states of a session and the totals: deletes, then
 * one upsert per table for the changed and new rows. Shots whose index changes are parked at
 * a null index first, so the unique (session, index) never sees two shots at one index.
 */
async function writeState(tx: Tx, sessionId: string, from: State, to: State, totals: BoxScoreJson) {
  const tables = { shots, players, highlights } as const;
  for (const t of TABLES) {
    const table = tables[t] as typeof shots;
    const x = byId<{ id: string }>(from[t]);
    const y = byId<{ id: string }>(to[t]);
    const gone = [...x.keys()].filter((id) => !y.has(id));
    if (gone.length) await tx.delete(table).where(inArray(table.id, gone));
    const write = [...y.values()].filter((r) => !x.has(r.id) || canonical(x.get(r.id)) !== canonical(r));
    if (write.length === 0) continue;
    if (t === 'shots') {
      const moved = (write as ShotRow[]).filter((r) => x.has(r.id) && (x.get(r.id) as ShotRow).index !== r.index).map((r) => r.id);
      if (moved.length) await tx.update(shots).set({ index: null }).where(inArray(shots.id, moved));
    }
    const columns = Object.entries(getTableColumns(table)).filter(([key]) => key !== 'id');
    await tx
      .insert(table)
      .values(write.map((r) => ({ ...r, sessionId })) as any)
      .onConflictDoUpdate({ target: table.id, set: Object.fromEntries(columns.map(([key, col]) => [key, sql.raw(`excluded."${col.name}"`)])) });
  }
  await tx.update(sessions).set({ totals }).where(eq(sessions.id, sessionId));
}

export interface ApiCorrection {
  id: string;
  object: 'session_correction';
  session: string;
  created: number;
  kind: CorrectionKind;
  correction: Correction;
  summary: string;
  /** The dashboard user (with their name) or the API key that made it. */
  actor: { user: string | null; name: string | null; api_key: string | null };
  undone: number | null;
  /** Whether it can be undone now: not undone yet, and the rows it touched are as it left them. */
  undoable: boolean;
}

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function toApiCorrection(row: CorrectionRow, undoable: boolean, names: Map<string, string>): ApiCorrection {
  return {
    id: row.id,
    object: 'session_correction',
    session: row.sessionId,
    created: unix(row.createdAt)!,
    kind: row.kind as CorrectionKind,
    correction: row.request as unknown as Correction,
    summary: row.summary,
    actor: { user: row.actorUserId, name: row.actorUserId ? (names.get(row.actorUserId) ?? null) : null, api_key: row.actorApiKeyId },
    undone: unix(row.undoneAt),
    undoable,
  };
}

/** Display names of the members who made these corrections. */
async function userNames(db: DbOrTx, rows: CorrectionRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.actorUserId).filter((x): x is string => x !== null))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u.name]));
}

/** True when every row the correction touched is still exactly as it left it. */
function unchangedSince(row: CorrectionRow, current: State): boolean {
  const after = row.after as unknown as Snapshot;
  const before = row.before as unknown as Snapshot;
  for (const t of TABLES) {
    const now = byId<{ id: string }>(current[t]);
    const left = byId(after[t] as Array<{ id: string }>);
    const ids = new Set([...left.keys(), ...(before[t] as Array<{ id: string }>).map((r) => r.id)]);
    for (const id of ids) {
      const cur = now.get(id);
      if (canonical(cur ? stored(t, cur) : null) !== canonical(left.get(id) ?? null)) return false;
    }
  }
  return true;
}

/**
 * Applies one correction to a processed session of the organization (one transaction, see
 * the module comment). Returns the recorded correction.
 */
export async function applyCorrection(
  db: Database,
  opts: {
    organizationId: string;
    sessionId: string;
    actor: Actor;
    correction: Correction;
    /** Runs last inside the transaction (an idempotent request stores its response there). */
    beforeCommit?: (tx: Tx, correction: ApiCorrection) => Promise<void>;
  },
): Promise<ApiCorrection> {
  return db.transaction(async (tx) => {
    const session = await lockProcessedSession(tx, opts.organizationId, opts.sessionId);
    const loaded = await loadState(tx, session.id);
    const current = clone(loaded);
    rederive(current, pointSystemOf(session.options)); // shot numbers in summaries are time positions
    const next = clone(current);
    const summary = applyToState(next, opts.correction, session);
    for (const s of next.shots) s.sessionId = session.id;
    const { before, after } = touched(current, next);
    if (TABLES.every((t) => before[t].length === 0 && after[t].length === 0)) {
      throw new AppError('parameter_invalid', { message: 'This correction changes nothing.', param: 'kind' });
    }
    const totals = rederive(next, pointSystemOf(session.options));
    await writeState(tx, session.id, loaded, next, totals);
    const [row] = await tx
      .insert(sessionCorrections)
      .values({
        id: newId('correction'),
        sessionId: session.id,
        organizationId: session.organizationId,
        actorUserId: opts.actor.userId,
        actorApiKeyId: opts.actor.apiKeyId,
        kind: opts.correction.kind,
        request: opts.correction as unknown as Record<string, unknown>,
        summary,
        before,
        after,
      })
      .returning();
    const correction = toApiCorrection(row, true, await userNames(tx, [row]));
    await opts.beforeCommit?.(tx, correction);
    return correction;
  });
}

/**
 * Undoes one correction: its touched rows go back to their "before" state, everything
 * derived is recomputed. 409 `correction_conflict` when a later correction changed the
 * same rows (undo that one first) or it was undone already.
 */
export async function undoCorrection(
  db: Database,
  opts: { organizationId: string; sessionId: string; correctionId: string; actor: Actor },
): Promise<ApiCorrection> {
  return db.transaction(async (tx) => {
    const session = await lockProcessedSession(tx, opts.organizationId, opts.sessionId);
    const [row] = isId('correction', opts.correctionId)
      ? await tx
          .select()
          .from(sessionCorrections)
          .where(and(eq(sessionCorrections.id, opts.correctionId), eq(sessionCorrections.sessionId, session.id)))
      : [];
    if (!row) throw notFound('correction', 'correction');
    if (row.undoneAt) throw new AppError('correction_conflict', { message: 'This correction was undone already.', param: 'correction' });
    const current = await loadState(tx, session.id);
    if (!unchangedSince(row, current)) {
      throw new AppError('correction_conflict', {
        message: 'A later correction changed the same shots or players; undo that one first.',
        param: 'correction',
      });
    }
    const next = clone(current);
    const before = row.before as unknown as Snapshot;
    const after = row.after as unknown as Snapshot;
    for (const t of TABLES) {
      const drop = new Set([...(after[t] as Array<{ id: string }>).map((r) => r.id), ...(before[t] as Array<{ id: string }>).map((r) => r.id)]);
      (next as Record<TableName, Array<{ id: string }>>)[t] = [...next[t].filter((r) => !drop.has(r.id)), ...before[t].map((r) => revive(t, r))];
    }
    const totals = rederive(next, pointSystemOf(session.options));
    await writeState(tx, session.id, current, next, totals);
    const [updated] = await tx
      .update(sessionCorrections)
      .set({ undoneAt: new Date(), undoneByUserId: opts.actor.userId, undoneByApiKeyId: opts.actor.apiKeyId })
      .where(and(eq(sessionCorrections.id, row.id), isNull(sessionCorrections.undoneAt)))
      .returning();
    return toApiCorrection(updated, false, await userNames(tx, [updated]));
  });
}

/** A session's corrections, newest first, each with whether it can be undone now. */
export async function listCorrections(db: DbOrTx, opts: { organizationId: string; sessionId: string; params: ListParams }) {
  const [session] = isId('session', opts.sessionId)
    ? await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, opts.sessionId), eq(sessions.organizationId, opts.organizationId)))
    : [];
  if (!session) throw notFound('session');
  let current: State | null = null;
  return paginate<CorrectionRow, ApiCorrection>(db, {
    table: sessionCorrections,
    id: sessionCorrections.id,
    scope: eq(sessionCorrections.sessionId, session.id),
    noun: 'correction',
    where: eq(sessionCorrections.sessionId, session.id),
    params: opts.params,
    url: `/v1/sessions/${session.id}/corrections`,
    map: async (rows) => {
      if (rows.some((r) => !r.undoneAt)) current = await loadState(db, session.id);
      const names = await userNames(db, rows);
      return rows.map((r) => toApiCorrection(r, !r.undoneAt && unchangedSince(r, current!), names));
    },
  });
}
