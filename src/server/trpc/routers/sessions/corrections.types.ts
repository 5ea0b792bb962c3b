import { z } from 'zod';
import { CORRECTION_KINDS, MAX_TEAM_ID, SHOT_TYPES, type Correction } from '../../../domain/sessions/corrections';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';

/** Most players one `merge_players` removes (a session lists at most a few dozen). */
const MAX_MERGE = 100;

const ZSessionId = z.string().max(64).describe('A session id (`sess_…`).');
const shotId = z.string().max(64).describe('A shot of the session (`shot_…`).');
const playerId = (what: string) => z.string().max(64).nullable().describe(`${what} (\`plr_…\`), or null for nobody.`);

/** Which fields each kind takes (required ones first) — one flat body, checked per kind. */
const FIELDS: Record<Correction['kind'], { required: string[]; optional?: string[] }> = {
  set_made: { required: ['shot', 'made'] },
  set_shot_type: { required: ['shot', 'type'] },
  set_shooter: { required: ['shot', 'player'] },
  set_assister: { required: ['shot', 'player'] },
  set_rebounder: { required: ['shot', 'player'] },
  delete_shot: { required: ['shot'] },
  add_shot: { required: ['time_seconds'], optional: ['shooter', 'type', 'made'] },
  rename_player: { required: ['player', 'name'] },
  set_jersey: { required: ['player', 'jersey'] },
  set_team: { required: ['player', 'team_id'] },
  merge_players: { required: ['keep', 'remove'], optional: ['solo'] },
};

const correctionShape = {
  kind: z
    .enum(CORRECTION_KINDS)
    .describe(
      'What to correct. `set_made` {shot, made} · `set_shot_type` {shot, type} · `set_shooter` / `set_assister` / `set_rebounder` {shot, player} · `delete_shot` {shot} · `add_shot` {time_seconds, shooter?, type?, made?} (a missed 2 by nobody unless said otherwise) · `rename_player` {player, name} · `set_jersey` {player, jersey} · `set_team` {player, team_id} · `merge_players` {keep, remove, solo?} (remove: one player or a list).',
    ),
  shot: shotId.optional(),
  made: z.boolean().optional().describe('`set_made`: made (true) or missed (false). `add_shot`: default false.'),
  type: z.enum(SHOT_TYPES).optional().describe('`two`, `three` or `free_throw` (its points follow the session’s `point_system`).'),
  player: z.string().max(64).nullable().optional().describe('The player (`plr_…`); null for nobody in `set_shooter` / `set_assister` / `set_rebounder`.'),
  time_seconds: z.number().min(0).optional().describe('`add_shot`: when the shot was released, in seconds from the start of the video.'),
  shooter: playerId('`add_shot`: who shot').optional(),
  name: z.string().max(80).nullable().optional().describe('`rename_player`: the name; null or blank clears it.'),
  jersey: z.string().max(8).nullable().optional().describe('`set_jersey`: the jersey number; null or blank clears it.'),
  team_id: z.number().int().min(0).max(MAX_TEAM_ID).nullable().optional().describe('`set_team`: 0 or 1 (up to 9), or null for no team.'),
  keep: z.string().max(64).optional().describe('`merge_players`: the player that stays (`plr_…`).'),
  remove: z
    .union([z.string().max(64), z.array(z.string().max(64)).min(1).max(MAX_MERGE)])
    .optional()
    .describe(`\`merge_players\`: the same person’s other player, removed; their shots, assists and rebounds move to \`keep\`. A list (up to ${MAX_MERGE}) merges them all in one correction, undone at once.`),
  solo: z
    .boolean()
    .optional()
    .describe('`merge_players` with every other player in `remove`: one person played, so every shot becomes `keep`’s (those without a shooter too) and no shot has an assister, as a `solo` session is analysed.'),
};

/** Every field its kind needs, none it does not. */
function fieldsOfKind(value: { kind: Correction['kind'] } & Record<string, unknown>, ctx: z.RefinementCtx) {
  const spec = FIELDS[value.kind];
  if (!spec) return;
  const allowed = new Set(['id', 'kind', ...spec.required, ...(spec.optional ?? [])]);
  for (const key of spec.required) {
    if (value[key] === undefined) ctx.addIssue({ code: 'invalid_type', expected: 'string', message: `Invalid input: expected a value, received undefined`, path: [key] });
  }
  for (const key of Object.keys(value)) {
    if (!allowed.has(key) && value[key] !== undefined) ctx.addIssue({ code: 'custom', message: `Not a field of \`${value.kind}\`.`, path: [key] });
  }
}

/** The flat body back to the domain's union (only the kind's fields). */
export function toCorrection(input: { kind: Correction['kind'] } & Record<string, unknown>): Correction {
  const spec = FIELDS[input.kind];
  const out: Record<string, unknown> = { kind: input.kind };
  for (const key of [...spec.required, ...(spec.optional ?? [])]) if (input[key] !== undefined) out[key] = input[key];
  return out as Correction;
}

export const ZCreateCorrectionRequest = z
  .object({ id: ZSessionId, ...correctionShape })
  .strict()
  .superRefine(fieldsOfKind);

export const ZCorrection = z
  .object({
    id: z.string().describe('`corr_…`'),
    object: z.literal('session_correction'),
    session: z.string(),
    created: z.number().int().describe('Unix seconds.'),
    kind: z.enum(CORRECTION_KINDS),
    correction: z.object(correctionShape).describe('The correction as sent (its kind’s fields only).'),
    summary: z.string().describe('One line for people, e.g. "Shot 3 (0:42): shooter #4 → Ana".'),
    actor: z.object({ user: z.string().nullable().describe('The dashboard user (`usr_…`).'), name: z.string().nullable().describe('That user’s name.'), api_key: z.string().nullable().describe('The API key (`key_…`).') }),
    undone: z.number().int().nullable().describe('Unix seconds when it was undone; null while it holds.'),
    undoable: z.boolean().describe('Whether it can be undone now: not undone, and no later correction changed the same shots or players.'),
  })
  .meta({ id: 'SessionCorrection' });

export const createCorrectionMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/sessions/{id}/corrections',
    protect: true,
    tags: ['Corrections'],
    summary: 'Correct a processed session',
    description:
      'Applies one correction (made/missed, 2/3/free throw, shooter, assister, rebounder, delete or add a shot, player name, jersey, team, merge two players). In the same transaction every shot’s points (under the session’s `point_system`), every player’s box score and the totals are re-derived, and the correction is recorded so it can be undone. `GET /v1/sessions/{id}` shows the corrected state at once. No event is emitted and nothing is charged. 409 `session_not_processed` before processing ends; 400 when the correction is not possible (an assist on a miss, a rebound on a make, a shooter assisting themself) or changes nothing.',
  },
  successStatus: 201,
  errorStatuses: [404, 409],
  idempotent: true,
  responseHeaderDocs: { 'Idempotent-Replayed': '`true` when this is the stored response of an earlier request with the same Idempotency-Key.' },
};

export const ZUndoCorrectionRequest = z
  .object({ id: ZSessionId, correction: z.string().max(64).describe('A correction of the session (`corr_…`).') })
  .strict();

export const undoCorrectionMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/sessions/{id}/corrections/{correction}/undo',
    protect: true,
    tags: ['Corrections'],
    summary: 'Undo a correction',
    description:
      'Puts the shots and players the correction changed back as they were and re-derives box scores and totals. Any correction can be undone while the rows it changed are as it left them; otherwise (a later correction changed the same shots or players, or it was undone already) 409 `correction_conflict` — undo the later one first. Undoing twice is a 409, so a retried request cannot undo anything else.',
  },
  errorStatuses: [404, 409],
};

export const listCorrectionsMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/sessions/{id}/corrections',
    protect: true,
    tags: ['Corrections'],
    summary: 'List a session’s corrections',
    description: 'The audit log of a session’s corrections, newest first: who, when, what, whether undone and whether it can be undone now.',
  },
  errorStatuses: [404],
};

export const ZListCorrectionsRequest = z.object({ id: ZSessionId, ...listParamsShape }).strict().superRefine(oneCursor);
export const ZListCorrectionsResponse = listEnvelope(ZCorrection, { embedded: true });
