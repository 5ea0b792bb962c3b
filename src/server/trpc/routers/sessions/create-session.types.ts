import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { strictJson } from '../../schemas/json';
import { ZSession } from '../../schemas/session';

export const createSessionMeta: SwishMeta = {
  openapi: {
    method: 'POST',
    path: '/sessions',
    protect: true,
    tags: ['Sessions'],
    summary: 'Submit a game video',
    description:
      'Creates a session in state `queued`, places a credit hold for the estimated cost (from `duration_seconds`, else the file size at 4 Mbit/s, else 2 hours, at the hourly rate) and queues the video for processing. The final charge is for the measured length. Listen for `session.processed` / `session.failed` webhooks or poll the session.',
  },
  successStatus: 201,
  errorStatuses: [402, 404, 409, 413],
  idempotent: true,
  responseHeaderDocs: {
    'X-Service-Cost-Cents': 'Cents held for the job (an estimate, corrected at settlement).',
    'X-Service-Balance-Cents': 'Available balance after the hold.',
    'Idempotent-Replayed': '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
  },
};

export const ZSessionSource = z
  .object({
    type: z.enum(['upload', 'url', 'platform']).optional().describe('Derived from the fields when omitted; a link to a supported video platform is always `platform`.'),
    upload_id: z.string().max(64).optional().describe('For `upload`: a finished upload (`up_…`).'),
    url: z.string().max(2048).optional().describe('For `url`: a public https MP4/MOV. For `platform`: a public match page or CDN link.'),
  })
  .strict();

export const ZSessionOptions = z
  .object({
    session_type: z.enum(['solo', '1v1', '2v2', '3v3', '4v4', '5v5']).optional().describe('Default `5v5`. `solo`: one person shoots; the session has one player, who took every shot.'),
    session_mode: z.enum(['game', 'scrimmage', 'practice', 'shootaround']).optional().describe('What was filmed (default `game`).'),
    point_system: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .describe('`2` (default): 2s and 3s, 1 per free throw. `1`: 1s inside the arc and 2s outside (FIBA 3x3, streetball).'),
    court_type: z.enum(['full_court', 'half_court']).optional(),
    camera_setup: z.enum(['stationary', 'panning']).optional().describe('Fixed tripod or a camera that follows play.'),
    recording_setup: z.enum(['tripod', 'handheld', 'broadcast']).optional(),
    has_jerseys: strictJson(z.boolean()).optional().describe('The teams wear jerseys of their own colours, so the analysis reads each player\'s team from them. Default false: the players get no team and are told apart by the colours of their clothes (a pickup game, a practice in own shirts); send `true` for a team game.'),
    num_players: strictJson(z.number().int().min(1).max(20)).optional().describe('How many different people play in the video, both teams and substitutes included. `1` is a one-player session, as `solo` is.'),
    recording_team_name: z.string().max(100).optional(),
    opponent_team_name: z.string().max(100).optional(),
  })
  .strict();

export const ZMetadata = z
  .record(z.string().min(1).max(40, 'Metadata keys are at most 40 characters.'), z.string().max(500, 'Metadata values are at most 500 characters.'))
  .refine((m) => Object.keys(m).length <= 20, { message: 'Metadata has at most 20 entries.' })
  .describe('Up to 20 string entries (keys ≤ 40 characters, values ≤ 500), echoed on the session and in every event.');

export const ZCreateSessionRequest = z
  .object({
    source: ZSessionSource,
    group: z.string().max(64).optional().describe('A group of the organization (`grp_…`); default: the default group.'),
    metadata: ZMetadata.optional(),
    duration_seconds: strictJson(z.number().int().min(1)).optional().describe('Length of the video, for a tighter hold; the charge is for the measured length.'),
    options: ZSessionOptions.optional(),
  })
  .strict();

export const ZCreateSessionResponse = ZSession;
export type TCreateSessionRequest = z.infer<typeof ZCreateSessionRequest>;
