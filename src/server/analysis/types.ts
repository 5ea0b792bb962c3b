import type { FinishOutput } from './finish';

/** Session options that steer the analyser (all optional; defaults suit a pickup game). */
export interface AnalysisOptions {
  sessionType?: 'solo' | '1v1' | '2v2' | '3v3' | '4v4' | '5v5';
  cameraSetup?: 'stationary' | 'panning';
  hasJerseys?: boolean;
  numPlayers?: number;
  /** The session's scoring system (2: 2/3/1, 1: 1/2/1). Artifacts always carry `points` under the default 2/3/1 system; the API derivation rescales. */
  pointSystem?: number;
}

/** How a shot ended, as far as the analyser can tell. */
export type ShotKind = 'swish' | 'rim_in' | 'bank_in' | 'rim_out' | 'bank_out' | 'air_ball' | 'unknown';

/** One shot attempt (`type: "shot"` line of actions.jsonl). Times in seconds of file time; coordinates normalised 0–1 (x from the left, y from the top). */
export interface ShotAction {
  type: 'shot';
  /** Stable id within the run, "s1", "s2", … in time order. */
  id: string;
  /** 0-based index in time order. */
  index: number;
  /** Time the ball left the shooter's hands (first point of the flight). */
  release_t: number;
  /** Time the ball first reached the rim / backboard area (or passed closest to it). */
  rim_t: number;
  /** Time the play of this shot ended (ball through the net, or off the rim). */
  end_t: number;
  /** True when made, false when missed, null when undecidable. */
  made: boolean | null;
  /** 0–1 confidence in `made`. */
  made_confidence: number;
  is_free_throw: boolean;
  /** True beyond the arc, false inside, null when the court geometry was not readable. */
  is_three_point: boolean | null;
  /** Points scored under the default system (0 missed, 1 free throw, 2 or 3 field goal). */
  points: number;
  kind: ShotKind;
  /** Player track id of the shooter (see clusters.jsonl), null when not identified. */
  shooter_track: number | null;
  /** Player track id of the assisting passer for a made field goal, else null. */
  assister_track: number | null;
  /** Player track id of the player who controlled the rebound after a miss, else null. */
  rebounder_track: number | null;
  /** Ball position at release, normalised image coordinates [x, y]. */
  shot_image: [number, number];
  /** Shot position on a normalised half-court diagram [x across, y from the baseline], null without court geometry. */
  shot_world: [number, number] | null;
  /** Rim centre at release, normalised image coordinates [x, y]. */
  hoop_image: [number, number];
  /** Id of the target hoop (hoops.jsonl). */
  hoop_id: number;
  /** 0–1 highlight score (made, arc height, distance, rim drama, late in the run). */
  excitement: number;
  /** 0–1 confidence that this is a real shot attempt. */
  confidence: number;
}

/** A pass between two player tracks (`type: "pass"`). */
export interface PassAction {
  type: 'pass';
  /** Time the ball left the passer. */
  t: number;
  /** Time the receiver controlled it. */
  end_t: number;
  from_track: number;
  to_track: number;
  confidence: number;
}

/** A rebound after a missed shot (`type: "rebound"`). */
export interface ReboundAction {
  type: 'rebound';
  /** Time the rebounder controlled the ball. */
  t: number;
  /** Id of the missed shot. */
  shot_id: string;
  track: number | null;
  /** True when the rebounder is on the shooter's team. */
  offensive: boolean | null;
  confidence: number;
}

export type ActionRecord = ShotAction | PassAction | ReboundAction;

/** The shots among `actions`, in their order. */
export function shotsOf(actions: readonly ActionRecord[]): ShotAction[] {
  return actions.filter((a): a is ShotAction => a.type === 'shot');
}

/** One ball observation (balls.jsonl). Sampled: every analysed frame where the ball was seen on a tracked flight. */
export interface BallRecord {
  /** Time in seconds. */
  t: number;
  /** Centre, normalised image coordinates. */
  x: number;
  y: number;
  /** Radius as a fraction of the image width. */
  r: number;
  confidence: number;
  /** `motion` (colour + motion blob on a tracked flight), `detector` (learned model), `interpolated` (gap filled along a fitted arc). */
  source: 'motion' | 'detector' | 'interpolated';
}

/** Rim position at one time (for panning cameras the rim moves in the image). */
export interface HoopSample {
  t: number;
  /** Rim centre, normalised image coordinates. */
  x: number;
  y: number;
  /** Rim width as a fraction of the image width. */
  w: number;
}

/** One hoop (hoops.jsonl). */
export interface HoopRecord {
  /** Hoop id referenced by shot actions. */
  id: number;
  /** Rim centre and width at the start (normalised). */
  x: number;
  y: number;
  w: number;
  /** Rim position sampled over time (at least the start and the end; every second when the camera moves). */
  samples: HoopSample[];
  /** Backboard box [x0, y0, x1, y1] normalised, estimated from the rim (regulation proportions); null when unknown. */
  backboard: [number, number, number, number] | null;
  /** Number of shot-like flights that ended at this hoop. */
  support: number;
  /** True for the hoop the shots were scored on. */
  is_target: boolean;
  confidence: number;
}

/** One player track (clusters.jsonl). */
export interface ClusterRecord {
  /** Player track id referenced by actions. */
  track_id: number;
  /** Team 0 or 1 from jersey-colour clustering, null when undecided (e.g. solo sessions). */
  team: 0 | 1 | null;
  /** Mean torso colour [r, g, b] 0–255. */
  jersey_rgb: [number, number, number];
  /** Jersey number when read, else null (not read by this version). */
  jersey_number: string | null;
  /** First and last time the track was seen (s). */
  t_start: number;
  t_end: number;
  /** Number of frames in which the track was observed. */
  frames: number;
  /** A representative moment for a thumbnail: time and box [x0, y0, x1, y1] normalised. */
  thumb_t: number;
  thumb_box: [number, number, number, number];
  confidence: number;
}

/** Why a run produced no shots: `no_hoops` (no hoop found, a court is in view), `no_court` (no hoop and no court: no painted lines in view), `no_shots` (hoop found, no attempts). */
export type AnalysisOutcome = 'ok' | 'no_hoops' | 'no_court' | 'no_shots';

/** Everything one analysis run produces. */
export interface AnalysisResult {
  runVersion: number;
  outcome: AnalysisOutcome;
  video: { width: number; height: number; fps: number; durationSeconds: number };
  actions: ActionRecord[];
  balls: BallRecord[];
  hoops: HoopRecord[];
  clusters: ClusterRecord[];
  /** Diagnostics (not an artifact): analysis geometry, estimated speed-up, per-stage timings. */
  stats?: AnalysisStats;
  /** Diagnostics (not an artifact): what each shot's made/missed call read, in the order of the shot actions. */
  makeEvidence?: FinishOutput['evidence'];
  /** Diagnostics (not an artifact): how each shot was placed on the court, in the order of the shot actions. */
  placement?: FinishOutput['placement'];
  /** Diagnostics (not an artifact): what the team step read of each shot's shooter, in the order of the shot actions. */
  teamReads?: FinishOutput['teamReads'];
  /** The stretches of one recording, `[start, end]` in seconds, of a video cut together from several; absent for a video of one. */
  scenes?: Array<[number, number]>;
}

/** Diagnostics of a run. */
export interface AnalysisStats {
  analysisWidth: number;
  analysisHeight: number;
  analysisFps: number;
  frames: number;
  timeScale: number;
  wallMs: number;
  extractMs: number;
  finishMs: number;
  detector: boolean;
}
