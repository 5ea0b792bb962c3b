import { z } from 'zod';
import { SESSION_FAILURE_CODES } from '../../domain/sessions/failure-codes';

const nullableUrl = z.string().nullable();

export const ZBoxScore = z
  .object({
    points: z.number().int(),
    fg_2pt_att: z.number().int(),
    fg_2pt_make: z.number().int(),
    fg_3pt_att: z.number().int(),
    fg_3pt_make: z.number().int(),
    ft_att: z.number().int(),
    ft_make: z.number().int(),
    assist: z.number().int(),
    rebound: z.number().int(),
  })
  .meta({ id: 'BoxScore' });

export const ZShot = z
  .object({
    id: z.string(),
    object: z.literal('shot'),
    index: z.number().int().nullable(),
    start_seconds: z.number().nullable(),
    end_seconds: z.number().nullable(),
    made: z.boolean().nullable(),
    points: z.number().int().nullable().describe('0 when missed; 1 for a free throw; 2 or 3 otherwise (1 or 2 with point_system 1).'),
    type: z.string().describe('Shot kind; `fieldgoal` or `freethrow`.'),
    is_three_point: z.boolean().nullable(),
    is_free_throw: z.boolean(),
    is_fouled: z.boolean(),
    location: z.object({
      shot_image_normed: z.array(z.number()).nullable(),
      shot_world_normed: z.array(z.number()).nullable(),
      hoop_image_normed: z.array(z.number()).nullable(),
    }),
    excitement_score: z.number().nullable(),
    players: z.object({ scorer: z.string().nullable(), assister: z.string().nullable(), rebounder: z.string().nullable() }),
    highlight: z.string().nullable(),
  })
  .meta({ id: 'Shot' });

export const ZHighlight = z
  .object({
    id: z.string(),
    object: z.literal('highlight'),
    shot: z.string().nullable().describe('The shot the clip is for. Null only for a manual highlight whose window holds no shot.'),
    shot_index: z.number().int().nullable(),
    length_seconds: z.number(),
    is_lowlight: z.boolean(),
    is_manual: z.boolean(),
    player: z.string().nullable(),
    video: z.object({
      default: nullableUrl,
      horizontal: nullableUrl,
      '1080p': nullableUrl,
      '720p': nullableUrl,
      '480p': nullableUrl,
      '360p': nullableUrl,
      '240p': nullableUrl,
      '144p': nullableUrl,
    }).describe(
      'Signed, expiring URLs of the clip: `default` (vertical 9:16 following the action), `horizontal` (16:9) and its renditions by short side, null above the source. A rendition smaller than `horizontal` may be encoded on its first request, which then takes a second or two longer.',
    ),
    preview: z.object({ default: nullableUrl, horizontal: nullableUrl }),
    created: z.number().int().nullable(),
  })
  .meta({ id: 'Highlight' });

export const ZPlayer = z
  .object({
    id: z.string(),
    object: z.literal('player'),
    name: z.string().nullable(),
    jersey: z.string().nullable(),
    user_id: z.string().nullable(),
    team_id: z.number().int().nullable(),
    stats: ZBoxScore,
  })
  .meta({ id: 'Player' });

const embedded = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    total_count: z.number().int(),
    url: z.string(),
  });

export const SESSION_STATUSES = ['queued', 'processing', 'processed', 'failed'] as const;

export const ZSession = z
  .object({
    id: z.string(),
    object: z.literal('session'),
    created: z.number().int(),
    status: z.enum(SESSION_STATUSES),
    group: z.string(),
    source: z.object({ type: z.enum(['upload', 'url', 'platform']), url: z.string().nullable() }),
    metadata: z.record(z.string(), z.string()),
    run_version: z.number().int().nullable(),
    duration_seconds: z.number().int().nullable(),
    cost_cents: z.number().int().nullable(),
    highlights: embedded(ZHighlight),
    shots: embedded(ZShot),
    players: embedded(ZPlayer),
    totals: ZBoxScore,
    video: z.object({
      url: nullableUrl,
      preview_url: nullableUrl,
      '1080p': nullableUrl,
      '720p': nullableUrl,
      '360p': nullableUrl,
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      fps: z.number().nullable(),
    }),
    artifacts: z.object({ actions: nullableUrl, balls: nullableUrl, hoops: nullableUrl, clusters: nullableUrl }),
    error: z.object({ code: z.enum(SESSION_FAILURE_CODES), message: z.string() }).nullable(),
  })
  .meta({ id: 'Session' });

export type TSession = z.infer<typeof ZSession>;
