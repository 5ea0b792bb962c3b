/**
 * Ground-truth format shared by the real development clips and the synthetic game generator.
 *
 * One benchmark reads both: a folder of videos plus a `ground_truth.json` of the shape
 * `{ schema, clips: [...] }`. The real clips were annotated by eye and fill only the core
 * fields; synthetic clips fill the optional ones exactly (points, kind, shooter, positions).
 * Field names are stable: the analyser and its benchmark depend on them.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** How a synthetic shot ended. `blocked` is reserved; the generator does not produce it yet. */
export const SHOT_KINDS = ['swish', 'rim_in', 'bank_in', 'rim_out', 'air_ball', 'bank_out', 'blocked'] as const;
export type ShotKind = (typeof SHOT_KINDS)[number];

/** A point in normalized image coordinates: x and y in [0, 1] from the top-left corner (may fall outside when off-screen). */
export const imagePointSchema = z.object({
  /** Horizontal position, 0 = left edge, 1 = right edge. */
  x: z.number(),
  /** Vertical position, 0 = top edge, 1 = bottom edge. */
  y: z.number(),
});
export type ImagePoint = z.infer<typeof imagePointSchema>;

/** Identity of the player who took a shot. */
export const shooterSchema = z.object({
  /** Team index, 0 or 1 (see `synthetic.teams`). */
  team: z.union([z.literal(0), z.literal(1)]),
  /** Jersey number as printed, e.g. "23". */
  jersey: z.string(),
  /** Stable player id within the clip, e.g. "t0p3". */
  player_id: z.string(),
});
export type Shooter = z.infer<typeof shooterSchema>;

/** The hoop in the image at the moment of release. */
export const hoopImageSchema = z.object({
  /** Rim centre in normalized image coordinates. */
  x: z.number(),
  y: z.number(),
  /** Projected rim ellipse half-width as a fraction of the image width. */
  rim_half_width: z.number().optional(),
  /** Projected rim ellipse half-height as a fraction of the image height. */
  rim_half_height: z.number().optional(),
});
export type HoopImage = z.infer<typeof hoopImageSchema>;

/** One shot attempt. Core fields come from the real annotation; the rest are filled by synthetic clips. */
export const attemptSchema = z
  .object({
    /** 1-based attempt number within the clip, in time order. */
    n: z.number().int(),
    /** First frame time (s, file time) the ball is clearly out of the shooter's hands; null when not visible. */
    release_s: z.number().nullable(),
    /** First time (s) the ball reaches the rim/backboard area (first contact or entry). For air balls: the time the ball passes closest to the rim. */
    rim_arrival_s: z.number(),
    /** True when the ball went down through the hoop. */
    made: z.boolean(),
    /** Annotator confidence 0-1 in `made` (1 for synthetic clips). */
    made_confidence: z.number().optional(),
    /** Free-text shot description ("jump shot, mid-range", "free throw", "3PT jump shot"). */
    shot_type: z.string().optional(),
    /** Free-text annotator notes. */
    notes: z.string().optional(),
    /** Points scored by this attempt: 0 when missed, 1 free throw, 2 or 3 field goal. */
    points: z.number().int().min(0).max(3).optional(),
    /** True when taken from beyond the 3-point line (whether made or not). */
    is_three_point: z.boolean().optional(),
    /** True for a free throw. */
    is_free_throw: z.boolean().optional(),
    /** Exact outcome kind (synthetic clips). */
    kind: z.enum(SHOT_KINDS).optional(),
    /** Who shot. */
    shooter: shooterSchema.optional(),
    /** Player id of the last passer when a made field goal was assisted (pass within a few seconds), else null. */
    assister: z.string().nullable().optional(),
    /** Player id of the player who took the rebound after a miss, else null (made shots, or ball out of play). */
    rebounder: z.string().nullable().optional(),
    /** Ball position in normalized image coordinates at release. */
    release_xy: imagePointSchema.nullable().optional(),
    /** Target hoop in normalized image coordinates at release. */
    hoop: hoopImageSchema.nullable().optional(),
    /** Index of the target hoop in `synthetic.hoops`. */
    hoop_index: z.number().int().optional(),
    /** Shooter's distance to the basket centre on the floor (m). */
    distance_m: z.number().optional(),
  })
  .passthrough();
export type GroundTruthAttempt = z.infer<typeof attemptSchema>;

/** Media facts of the clip file. */
export const mediaSchema = z
  .object({
    duration_s: z.number(),
    width: z.number().int(),
    height: z.number().int(),
    fps: z.number(),
    codec: z.string().optional(),
    frames: z.number().int().optional(),
    bytes: z.number().int().optional(),
  })
  .passthrough();
export type GroundTruthMedia = z.infer<typeof mediaSchema>;

/** A team of a synthetic clip. */
export const syntheticTeamSchema = z.object({
  /** Team index 0 or 1. */
  id: z.number().int(),
  /** Jersey colour as [r, g, b] 0-255. */
  color_rgb: z.tuple([z.number(), z.number(), z.number()]),
  /** Final score of the team in this clip. */
  score: z.number().int().optional(),
});

/** A player of a synthetic clip. */
export const syntheticPlayerSchema = z.object({
  /** Stable id, e.g. "t1p4". */
  id: z.string(),
  /** Team index. */
  team: z.number().int(),
  /** Jersey number as printed. */
  jersey: z.string(),
});

/** A hoop of a synthetic clip in world coordinates (metres; x along the court length, y across, z up; origin at centre court). */
export const syntheticHoopSchema = z.object({
  /** Index used by `attempt.hoop_index`. */
  index: z.number().int(),
  /** Rim centre in world metres [x, y, z]. */
  rim_center_m: z.tuple([z.number(), z.number(), z.number()]),
  /** Rim radius (m), 0.225 for a regulation rim. */
  rim_radius_m: z.number(),
  /** Which team attacks this hoop (in the first half; the generator does not switch sides). */
  attacked_by: z.number().int().nullable().optional(),
});

/** Generator facts of a synthetic clip: enough to reproduce it and to interpret ids. */
export const syntheticInfoSchema = z
  .object({
    /** PRNG seed. */
    seed: z.number().int(),
    /** The resolved render options (after defaults). */
    options: z.record(z.string(), z.unknown()),
    /** Generator version; a change means the same seed may render differently. */
    generator_version: z.string().optional(),
    teams: z.array(syntheticTeamSchema),
    players: z.array(syntheticPlayerSchema),
    hoops: z.array(syntheticHoopSchema),
  })
  .passthrough();
export type SyntheticInfo = z.infer<typeof syntheticInfoSchema>;

/** One clip (one video file). */
export const clipSchema = z
  .object({
    /** File name relative to the folder of ground_truth.json. */
    file: z.string(),
    /** Camera description ("stationary", "handheld, small drift/pan", "panning ..."). */
    camera: z.string(),
    /** Number of players visible (max at any time); real clips sometimes give a free-text description instead. */
    players_visible: z.union([z.number().int(), z.string()]),
    /** Speed-up note for time-compressed clips; synthetic clips are "real-time". */
    time_scale: z.string().optional(),
    attempts: z.array(attemptSchema),
    media: mediaSchema,
    n_attempts: z.number().int(),
    n_made: z.number().int(),
    /** Present only for synthetic clips. */
    synthetic: syntheticInfoSchema.optional(),
  })
  .passthrough();
export type GroundTruthClip = z.infer<typeof clipSchema>;

/** The whole file. */
export const groundTruthFileSchema = z.object({
  /** Free-form description of the fields (strings keyed by field name). */
  schema: z.record(z.string(), z.unknown()),
  clips: z.array(clipSchema),
});
export type GroundTruthFile = z.infer<typeof groundTruthFileSchema>;

/**
 * Reads and validates a ground_truth.json (real or synthetic). Throws with the zod issue
 * list when the file does not match, so a broken benchmark set fails loudly instead of
 * silently scoring against partial truth.
 */
export async function loadGroundTruth(path: string): Promise<GroundTruthFile> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as unknown;
  return parseGroundTruth(raw);
}

/** Validates an already-parsed ground-truth object; see {@link loadGroundTruth}. */
export function parseGroundTruth(raw: unknown): GroundTruthFile {
  const res = groundTruthFileSchema.safeParse(raw);
  if (!res.success) {
    throw new Error(`invalid ground truth: ${res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return res.data;
}

/** Tolerance used by the benchmark: a detection matches a true shot when rim-arrival times differ by at most this (s). */
export const RIM_ARRIVAL_MATCH_TOLERANCE_S = 1.0;
