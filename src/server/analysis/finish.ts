import { ballCandidates, cameraPath, linkTracks, type BallCandidate, type CameraPath } from './ball-track';
import { estimateTimeScale, isFlightArc, splitIntoArcs, type Arc } from './arcs';
import type { FrameFeatures } from './frame-features';
import { locateHoopsFromArcs, type HoopEstimate } from './hoop-locate';
import { detectShots, type ShotDetection } from './shots';
import type { AnalysisOptions, AnalysisOutcome, BallRecord, ClusterRecord, HoopRecord, ShotAction, ActionRecord } from './types';

/** Input of the post-decode stage (runs in a worker). */
export interface FinishInput {
  features: FrameFeatures[];
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  options: AnalysisOptions;
}

/** Output of the post-decode stage. */
export interface FinishOutput {
  outcome: AnalysisOutcome;
  actions: ActionRecord[];
  balls: BallRecord[];
  hoops: HoopRecord[];
  clusters: ClusterRecord[];
  timeScale: number;
}

const round = (v: number, d = 4) => Math.round(v * 10 ** d) / 10 ** d;

/**
 * Turns per-frame features into the artifact records: ball tracks → flights → hoop → shots →
 * make decisions → records. Pure computation over the collected features, so it runs in a worker.
 */
export function finishAnalysis(input: FinishInput): FinishOutput {
  const { features, width, height, fps } = input;
  const dims = { width, height };
  const path = cameraPath(features);
  const perFrame = features.map((f, i) => ballCandidates(f, i, path, dims));
  const tracks = linkTracks(perFrame);
  const arcs = tracks.flatMap((t) => splitIntoArcs(t)).filter((a) => isFlightArc(a, fps, dims));
  const timeScale = estimateTimeScale(arcs, fps);
  const lookback = Math.round((1.6 / timeScale) * fps);
  const hoopEstimates = locateHoopsFromArcs(arcs, dims, lookback, (f, y) => y + path.oy[f]);
  const target = hoopEstimates.find((h) => h.support >= 1) ?? null;
  const shots = target ? detectShots(arcs, target, perFrame, tracks, fps, timeScale) : [];
  const hoops = target ? hoopRecords(hoopEstimates, target, path, features.length, fps, dims) : [];
  const actions: ActionRecord[] = shots.map((s, i) => shotAction(s, i, target!, path, fps, dims, input.options, shots.length));
  const balls = ballRecords(arcs, path, fps, dims);
  let outcome: AnalysisOutcome = 'ok';
  if (!target) outcome = 'no_hoops';
  else if (shots.length === 0) outcome = 'no_shots';
  return { outcome, actions, balls, hoops, clusters: [], timeScale };
}

function hoopRecords(
  all: HoopEstimate[],
  target: HoopEstimate,
  path: CameraPath,
  frames: number,
  fps: number,
  dims: { width: number; height: number },
): HoopRecord[] {
  const moving = path.ox.some((v) => v !== 0) || path.oy.some((v) => v !== 0);
  const step = moving ? Math.max(1, Math.round(fps)) : Math.max(1, frames - 1);
  return all
    .filter((h) => h === target || h.support >= 2)
    .map((h, i) => {
      const samples = [];
      for (let f = 0; f < frames; f += step) samples.push(hoopSample(h, path, f, fps, dims));
      if (frames > 1 && (frames - 1) % step !== 0) samples.push(hoopSample(h, path, frames - 1, fps, dims));
      const s0 = samples[0] ?? hoopSample(h, path, 0, fps, dims);
      const bw = (h.w * 1.8) / 0.45 / dims.width;
      const bh = (h.w * 1.05) / 0.45 / dims.height;
      const bx = s0.x;
      const by = s0.y - (0.15 / 0.45) * (h.w / dims.height);
      return {
        id: i,
        x: s0.x,
        y: s0.y,
        w: s0.w,
        samples,
        backboard: [round(bx - bw / 2), round(by - bh * 0.85), round(bx + bw / 2), round(by + bh * 0.15)] as [number, number, number, number],
        support: h.support,
        is_target: h === target,
        confidence: round(h.confidence, 3),
      };
    });
}

function hoopSample(h: HoopEstimate, path: CameraPath, f: number, fps: number, dims: { width: number; height: number }) {
  return {
    t: round(f / fps, 3),
    x: round((h.x + path.ox[f]) / dims.width),
    y: round((h.y + path.oy[f]) / dims.height),
    w: round(h.w / dims.width),
  };
}

function shotAction(
  s: ShotDetection,
  index: number,
  hoop: HoopEstimate,
  path: CameraPath,
  fps: number,
  dims: { width: number; height: number },
  options: AnalysisOptions,
  total: number,
): ShotAction {
  const base = options.pointSystem ?? 2;
  const rf = s.releaseFrame;
  const isThree: boolean | null = null;
  const isFt = false;
  const value = isFt ? 1 : isThree ? base + 1 : base;
  const apexRise = (hoop.y - s.arc.apexY) / hoop.w;
  const dist = Math.hypot(s.releaseX - hoop.x, s.releaseY - hoop.y) / hoop.w;
  const drama = s.kind === 'rim_in' || s.kind === 'bank_in' ? 0.15 : 0;
  const excitement = Math.max(
    0,
    Math.min(1, (s.made ? 0.45 : 0.1) + 0.08 * Math.min(3, apexRise) + 0.025 * Math.min(8, dist) + drama + (total > 1 ? 0.05 * (index / (total - 1)) : 0)),
  );
  return {
    type: 'shot',
    id: `s${index + 1}`,
    index,
    release_t: round(rf / fps, 3),
    rim_t: round(s.rimFrame / fps, 3),
    end_t: round(s.endFrame / fps, 3),
    made: s.made,
    made_confidence: round(s.madeConfidence, 3),
    is_free_throw: isFt,
    is_three_point: isThree,
    points: s.made ? value : 0,
    kind: s.kind,
    shooter_track: null,
    assister_track: null,
    rebounder_track: null,
    shot_image: [round((s.releaseX + path.ox[rf]) / dims.width), round((s.releaseY + path.oy[rf]) / dims.height)],
    shot_world: null,
    hoop_image: [round((hoop.x + path.ox[rf]) / dims.width), round((hoop.y + path.oy[rf]) / dims.height)],
    hoop_id: 0,
    excitement: round(excitement, 3),
    confidence: round(s.confidence, 3),
  };
}

function ballRecords(arcs: Arc[], path: CameraPath, fps: number, dims: { width: number; height: number }): BallRecord[] {
  const byFrame = new Map<number, BallCandidate & { conf: number }>();
  for (const a of arcs) {
    for (const p of a.points) {
      const prev = byFrame.get(p.frame);
      const conf = Math.min(1, a.score * Math.min(1, a.points.length / 10));
      if (!prev || prev.conf < conf) byFrame.set(p.frame, { ...p, conf });
    }
  }
  return [...byFrame.values()]
    .sort((a, b) => a.frame - b.frame)
    .map((p) => ({
      t: round(p.frame / fps, 3),
      x: round((p.x + path.ox[p.frame]) / dims.width),
      y: round((p.y + path.oy[p.frame]) / dims.height),
      r: round(p.r / dims.width),
      confidence: round(p.conf, 3),
      source: 'motion' as const,
    }));
}
