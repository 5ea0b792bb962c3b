import { arcAt, ballCandidates, cameraPath, linkTracks, STITCH_OVERLAP, stitchTracks, toPicture, toStable, zoomAt, type BallCandidate, type CameraPath } from './ball-track';
import { checkPathOnSamples } from './path-check';
import { exposureGamma, normaliseExposure } from './exposure';
import { cameIntoView, estimateTimeScale, frameGravity, gravityWindowScale, isCloseFlightArc, isDescentArc, isFlightArc, median, motionAtLast, PANNING_SHOT_GRAVITY_WINDOW, riseBefore, splitIntoArcs, vyAt, type Arc } from './arcs';
import { GRID, unpackFeatures, type FrameFeatures, type PackedFeatures } from './frame-features';
import { belowHeadHeight, hoopPlausibility, insidePlayers, locateHoopsFromArcs, RIM_OVER_BALL, type HoopEstimate, type PersonBox } from './hoop-locate';
import { netTop, persistentRims, type NetTop, type RimCandidate } from './hoop-appearance';
import { goalEnds, type CourtEnd } from './court-ends';
import { anchorPath, firmRuns, firmTrack, trackRims, type RimSample, type RimTrack } from './rim-tracks';
import { detectShots, netSwingVeto, sameEndVeto, stopsOverRim, CLOSE_SHOT_APEX, panningConfident, reboundRiseVeto, unseenDropVeto, fastDropVeto, type MakeEvidence, type MotionProbe, type ShotDetection, type ShotOrigin } from './shots';
import { checkCourt, courtReader, courtViewsAt, courtVisible, looksDown, panningCourtEnabled, placeShots, type CourtCamera, type CourtFit, type ShotPlacement } from './court-lines';
import { asOnePlayer, assignTeams, detectPasses, feetBetween, isOnePlayerSession, linkPlayers, personObservations, playerNear, type PlayerTrack } from './players';
import type { AnalysisOptions, AnalysisOutcome, BallRecord, ClusterRecord, HoopRecord, ShotAction, ActionRecord, PassAction, ReboundAction } from './types';
import type { ShooterTeam } from './jersey';

/** Input of the post-decode stage (runs in a worker). */
export interface FinishInput {
  features: FrameFeatures[];
  /** A few full analysis frames (frame index, RGB) for the hoop appearance check. */
  samples: Array<{ index: number; rgb: Uint8Array }>;
  /** Rim candidates of frames sampled about every second while the camera moves (image pixels); empty for a fixed camera. */
  rimSamples?: RimSample[];
  /** Frames taken about every 2 s while the camera moves, for its court per shot; empty for a fixed camera. */
  viewSamples?: Array<{ index: number; rgb: Uint8Array }>;
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
  /** Make-decision measurements per shot action, in the same order, with how the attempt was found (diagnostics, not an artifact). */
  evidence: Array<MakeEvidence & { origin?: ShotOrigin }>;
  /** Where the passer may be seen, per shot action in the same order (input of the player step, not an artifact). */
  moments?: ShotMoments[];
  /** How each shot action was placed on the court, in the same order (diagnostics, not an artifact). */
  placement?: ShotPlacement[];
  /** The end of the court of each hoop record, by hoop id (input of the team step, not an artifact; see `court-ends.ts`). */
  ends?: CourtEnd[];
  /** The stretches of one recording, `[start, end]` in seconds, of a clip cut together from several (`scenes.ts`); absent for a clip of one. */
  scenes?: Array<[number, number]>;
  /** A still camera's court read after the ball-size check (input of the team step's spacing read, `spacing.ts`; not an artifact). */
  floor?: CourtCamera;
  /** What the team step read of each shot action's shooter, in the same order (diagnostics, not an artifact; `jersey.ts`). */
  teamReads?: ShooterTeam[];
}

/** A ball position in a frame, image pixels of the analysis frame. */
export interface BallMoment {
  frame: number;
  x: number;
  y: number;
  r: number;
}

/**
 * Where the passer of a made field goal may be seen holding the ball: the starts of the flights
 * that ended in the few seconds before the release, latest first (a body holding the ball there,
 * of the shooter's team and not the shooter, is the passer).
 */
export interface ShotMoments {
  pass: BallMoment[];
  /**
   * After a miss: where the flights that followed it ended (the ball caught or picked up), in
   * time order, at most 3 (a body holding the ball there is the rebounder). Empty for a make.
   */
  rebound?: BallMoment[];
}

const round = (v: number, d = 4) => Math.round(v * 10 ** d) / 10 ** d;

/** Where the stabilised point (`x`, `y`) is in frame `f`'s picture, as fractions of its width and height (rounded). */
function pictureNormed(path: CameraPath, f: number, x: number, y: number, dims: { width: number; height: number }): [number, number] {
  const p = toPicture(path, f, x, y);
  return [round(p.x / dims.width), round(p.y / dims.height)];
}

/**
 * Turns per-frame features into the artifact records: ball tracks → flights → hoop → shots →
 * make decisions → records. Pure computation over the collected features, so it runs in a worker.
 */
export function finishAnalysis(input: FinishInput): FinishOutput {
  const { features, width, height, fps } = input;
  // the rim, net, board and line searches test absolute levels: an under- or overexposed clip's samples are corrected first
  const exposure = exposureGamma(input.samples.map((smp) => smp.rgb));
  const samples = normaliseExposure(input.samples, exposure);
  const dims = { width, height };
  // the sampled frames check the summed shifts of a still camera (one wrong step stays in the path: see checkPathOnSamples)
  const wholePath = checkPathOnSamples(features, cameraPath(features, true), input.samples, dims, true);
  const moving = movingHoops(input.rimSamples ?? [], wholePath, dims);
  // A panning camera's hoops are tracked, and its path re-anchored on them, on the whole-pixel steps as before run
  // version 54 (measured: on the synthetic panning games, whose renderer moves the backdrop by whole pixels and the
  // court and hoops by fractions, the sub-pixel path there lost 7 shots of 172). Every other camera — still, hand-held,
  // turning a little — takes the sub-pixel path, which does not drift (see `frame-features.ts#runPath`).
  const path = moving
    ? anchorPath(moving.flatMap((t) => firmRuns(t, Math.max(1, Math.round(fps)))).filter((r) => r.obs.length >= 3), wholePath.ox, wholePath.oy)
    : checkPathOnSamples(features, cameraPath(features, false, dims), input.samples, dims);
  const perFrame = features.map((f, i) => ballCandidates(f, i, path, dims));
  const tracks = stitchTracks(linkTracks(perFrame), Math.round(fps / 3), moving ? STITCH_OVERLAP : 0);
  const allArcs = tracks.flatMap((t) => splitIntoArcs(t));
  const gScale = gravityWindowScale(allArcs, fps, dims);
  const arcs = allArcs.filter((a) => isFlightArc(a, fps, dims, gScale));
  const descents = allArcs.filter((a) => isDescentArc(a, fps, dims, gScale));
  const timeScale = estimateTimeScale(arcs, fps, gScale);
  const lookback = Math.round((1.6 / timeScale) * fps);
  const hoopEstimates = locateHoopsFromArcs(arcs, dims, lookback, (f, y) => toPicture(path, f, 0, y).y);
  const allRims = persistentRims(
    samples
      .filter((smp) => smp.index < features.length)
      .map((smp) => ({ frame: { rgb: smp.rgb, width, height }, ox: path.ox[smp.index], oy: path.oy[smp.index], ...zoomOf(path, smp.index) })),
  );
  const rims = allRims.filter((r) => r.score >= RIM_MIN_SCORE);
  const isShotLike = (a: Arc) =>
    a.points.length >= 6 &&
    a.score >= 0.5 &&
    (riseBefore(a, a.trackPoints, lookback) >= 2.5 * a.r ||
      (toPicture(path, a.points[0].frame, 0, a.points[0].y).y < 0.2 * height && a.apexFrame - a.points[0].frame <= 2 && cameIntoView(a)));
  const shotLike = arcs.filter(isShotLike);
  // close shots: flights too short for the travel test (straight up from under the rim and back down), taken as
  // close shots only (`shots.ts#detectShots`), at a panning camera's tracked rims and at a still camera's hoops
  const closeLike = allArcs.filter((a) => isCloseFlightArc(a, fps, dims, gScale) && isShotLike(a));
  // a panning camera's rims are tracked, and its shots found at them, among flights that may bend less (run version 59);
  // its hoops' estimates, the time scale and every other use keep the usual flights (a shot found is placed from its own)
  const panArcs = moving ? panningShotArcs(allArcs, fps, dims, gScale) : arcs;
  const panShotLike = moving ? panArcs.filter(isShotLike) : shotLike;
  const tracked = moving ? trackedGoals(moving, path, [...panShotLike, ...apexContinuations(panShotLike, panArcs)], fps, dims, timeScale, closeLike) : [];
  // a still camera's hoops take them too; a moving camera's hoops found without tracking keep to flights, as before
  const closeStill = moving ? [] : closeLike;
  const persons = personObservations(features, path, medianR(shotLike));
  let target = tracked.length ? tracked[0].h : chooseTarget(hoopEstimates, [...rims, ...weakRimsFlightsReach(allRims, shotLike)], shotLike, persons, Math.round((BOUNCE_WITHIN_S / timeScale) * fps));
  // a hoop known only from flights (no rim seen there) in a scene with no court in view is not trusted:
  // balls thrown about elsewhere end somewhere too
  let lined: boolean | null = null;
  const courtInView = () => (lined ??= courtVisible(samples, width, height));
  if (target && !tracked.length && !rims.some((r) => rimAt(r, target!)) && !courtInView()) target = null;
  const fixedSamples = samples.filter((smp) => smp.index < features.length);
  const readCourt = courtReader(fixedSamples, path, width, height);
  let court: CourtFit | null | undefined;
  if (target && !tracked.length) {
    // a rim placed on its net is kept only when the court seen from it puts the camera behind the board (see placeOnNet)
    const placed = placeOnNet(target, fixedSamples, path, dims);
    if (placed !== target) {
      const fit = readCourt(placed);
      // the court read from the moved rim puts the camera behind the board, or the rim found is beside its net
      const moves = (fit && fit.camera.pos[0] < BOARD_X_M) || (placed.besideNet && !wholeRimSeen(target, placed, rims));
      if (moves && !netAboveRimRead(target, placed, rims)) {
        const { besideNet: _, ...moved } = placed;
        target = moved;
        court = fit;
      }
    }
  }
  if (target && !hoopEstimates.includes(target)) hoopEstimates.unshift(target);
  const motion = motionTotals(features);
  const probe: MotionProbe = (f, x0, y0, x1, y1) => {
    const ft = features[f];
    if (!ft) return 0;
    if (!motion.pictured[f]) return NaN;
    const a = toPicture(path, f, x0, y0);
    const b = toPicture(path, f, x1, y1);
    const gx0 = Math.max(0, Math.floor(a.x / GRID));
    const gx1 = Math.min(ft.gridW - 1, Math.floor(b.x / GRID));
    const gy0 = Math.max(0, Math.floor(a.y / GRID));
    const gy1 = Math.min(ft.gridH - 1, Math.floor(b.y / GRID));
    let n = 0;
    for (let gy = gy0; gy <= gy1; gy++) for (let gx = gx0; gx <= gx1; gx++) n += ft.motion[gy * ft.gridW + gx];
    return n * 4;
  };
  const goals: HoopEstimate[] = tracked.length ? tracked.map((t) => t.h) : target ? [target, ...otherGoals(target, hoopEstimates, rims, shotLike, persons)] : [];
  const perGoal = goals.map((g, k) => {
    const span = tracked[k]?.span;
    if (!span) return detectShots(arcs, g, perFrame, tracks, fps, timeScale, probe, descents, undefined, false, closeStill).map((s) => ({ s, k }));
    const near = panArcs.filter((a) => a.points[a.points.length - 1].frame >= span[0] && a.points[0].frame <= span[1]);
    const nearDescents = descents.filter((a) => a.points[a.points.length - 1].frame >= span[0] && a.points[0].frame <= span[1]);
    const nearClose = closeLike.filter((a) => a.points[a.points.length - 1].frame >= span[0] && a.points[0].frame <= span[1]);
    return detectShots(near, g, perFrame, tracks, fps, timeScale, probe, nearDescents, CLOSE_SHOT_APEX, true, nearClose)
      .filter((s) => inTrackedSpan(s, span) && panningConfident(s))
      .map((s) => ({ s, k }));
  });
  const minGap = Math.round((1.2 / timeScale) * fps);
  const tagged: Array<{ s: ShotDetection; k: number }> = [];
  for (const t of perGoal.flat().sort((a, b) => b.s.confidence - a.s.confidence)) {
    if (tagged.some((u) => Math.abs(u.s.rimFrame - t.s.rimFrame) < minGap)) continue;
    tagged.push(t);
  }
  tagged.sort((a, b) => a.s.rimFrame - b.s.rimFrame);
  const shots = tagged.map((t) => t.s);
  if (court === undefined) court = target ? readCourt(target) : null;
  const refit = (side: 'court' | 'behind') => (target ? readCourt(target, side) : null);
  // a still camera's read, checked by the ball's size at its flights' depths, before anything takes the camera's height
  // from it: a read the check drops says nothing of where the camera looks from (a moving camera's reads are per shot)
  const checked = tracked.length ? undefined : checkCourt(shots, court, fps, timeScale, { refit, tracks });
  const lookingDown = looksDown(checked ? checked.court : court);
  netSwingVeto(shots, fps, timeScale, { lookingDown });
  if (lookingDown) reboundRiseVeto(shots, fps, timeScale);
  if (tracked.length) {
    unseenDropVeto(shots, fps, timeScale);
    fastDropVeto(shots, fps, timeScale);
  }
  const scoredOn = new Set(tagged.map((t) => t.k));
  const hoops = hoopRecords(goals, scoredOn, path, features.length, fps, dims, tracked.map((t) => t.span));
  const calm = tagged.map((t) => sceneCalm(t.s, features, motion, goals[t.k], path, fps));
  const freeThrows = calm.map((c) => c < FREE_THROW_CALM);
  const shotActions = tagged.map((t, i) => shotAction(t.s, i, goals[t.k], t.k, path, fps, dims, shots.length, freeThrows[i]));
  const ballR = target?.ballR ?? medianR(arcs);
  const bodies = personObservations(features, path, ballR);
  const players = linkPlayers(bodies, Math.round(0.5 * fps));
  const onePlayer = isOnePlayerSession(input.options);
  const solo = onePlayer || input.options.hasJerseys === false;
  assignTeams(players, { solo });
  // a panning camera's court, read per shot from the frame taken nearest to where the camera was (run version 34)
  const views = tracked.length && panningCourtEnabled()
    ? courtViewsAt(
        tagged.map((t) => ({ frame: t.s.rimFrame, rim: goals[t.k], span: tracked[t.k]?.span })),
        [...fixedSamples, ...normaliseExposure(input.viewSamples ?? [], exposure)].filter((smp) => smp.index < features.length),
        path,
        width,
        height,
      )
    : undefined;
  const placement = placeShots(shotActions, shots, court, calm, fps, timeScale, {
    refit,
    checked,
    rims: tagged.map((t) => ({ ...goals[t.k], id: t.k })),
    moving: tracked.length > 0,
    views,
    path,
    tracks,
    bodies: feetBetween(bodies),
  });
  // a make followed at its own end by a field-goal attempt within seconds was missed (full-court games; see sameEndVeto)
  const ends = goalEnds(goals, scoredOn);
  const shotEnds = tagged.map((t) => ends[t.k]);
  for (const i of sameEndVeto(shots, shotEnds, shotActions.map((a) => a.is_free_throw), fps, timeScale)) {
    const a = shotActions[i];
    const t = tagged[i];
    Object.assign(a, { ...shotAction(t.s, i, goals[t.k], t.k, path, fps, dims, shots.length, a.is_free_throw), is_three_point: a.is_three_point, shot_world: a.shot_world });
  }
  const extra = attributeShots(shots, shotActions, players, arcs, fps, timeScale);
  const moments = shotMoments(shots, shotActions, arcs, path, fps, timeScale);
  let actions: ActionRecord[] = [...shotActions, ...extra].sort((a, b) => actionTime(a) - actionTime(b));
  const balls = ballRecords(arcs, path, fps, dims);
  let clusters = players.map((t) => clusterRecord(t, path, fps, dims));
  if (onePlayer && shots.length) ({ actions, clusters } = asOnePlayer(actions, clusters));
  let outcome: AnalysisOutcome = 'ok';
  // no hoop: `no_hoops` when a court (painted lines) is in view, `no_court` when nothing looks like one
  if (!target) outcome = courtInView() ? 'no_hoops' : 'no_court';
  else if (shots.length === 0) outcome = 'no_shots';
  const floor = checked?.court?.camera;
  return { outcome, actions, balls, hoops, clusters, timeScale, evidence: shots.map((s) => ({ ...s.evidence, origin: s.origin })), moments, placement, ends, ...(floor ? { floor } : {}) };
}

/** See {@link ShotMoments}: up to 3 flights that travelled ≥ 3 ball diameters sideways, ended within 4.5 s before the release and started after the previous shot's end. */
function shotMoments(
  shots: ShotDetection[],
  actions: ShotAction[],
  arcs: Arc[],
  path: CameraPath,
  fps: number,
  timeScale: number,
): ShotMoments[] {
  const shotArcs = new Set(shots.map((s) => s.arc));
  const other = arcs.filter((a) => !shotArcs.has(a));
  const at = (p: BallCandidate, r: number): BallMoment => ({ frame: p.frame, ...toPicture(path, p.frame, p.x, p.y), r: r * zoomAt(path, p.frame) });
  return shots.map((s, i) => {
    const pass: BallMoment[] = [];
    if (s.made && !actions[i].is_free_throw) {
      const from = s.releaseFrame - Math.round((4.5 / timeScale) * fps);
      const prevEnd = i > 0 ? shots[i - 1].endFrame : -Infinity;
      for (const a of other) {
        const p0 = a.points[0];
        const e = a.points[a.points.length - 1];
        if (e.frame > s.releaseFrame || e.frame < from || p0.frame <= prevEnd) continue;
        if (Math.abs(e.x - p0.x) < 6 * a.r) continue;
        pass.push(at(p0, a.r));
      }
      pass.sort((p, q) => q.frame - p.frame).splice(3);
    }
    const rebound: BallMoment[] = [];
    if (s.made === false) {
      const limit = s.endFrame + Math.round((3 / timeScale) * fps);
      for (const a of other) {
        const p0 = a.points[0];
        if (p0.frame < s.rimFrame || p0.frame > limit) continue;
        rebound.push(at(a.points[a.points.length - 1], a.r));
      }
      rebound.sort((p, q) => p.frame - q.frame).splice(3);
    }
    return { pass, rebound };
  });
}

/** A sample's zoom for {@link persistentRims}, when the camera zoomed. */
function zoomOf(path: CameraPath, f: number): { zoom?: { s: number; cx: number; cy: number } } {
  return path.zoom ? { zoom: { s: path.zoom.s[f], cx: path.zoom.cx, cy: path.zoom.cy } } : {};
}

/**
 * Hoops of a panning camera, followed by appearance in image coordinates (see `trackRims`), or
 * null for a camera that stays put (its hoop is found in stabilised coordinates instead). A
 * camera pans when its path spans more than a fifth of the frame width.
 */
function movingHoops(samples: RimSample[], path: CameraPath, dims: { width: number; height: number }): RimTrack[] | null {
  if (samples.length < 3) return null;
  let lo = 0;
  let hi = 0;
  for (const v of path.ox) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (hi - lo < 0.2 * dims.width) return null;
  const tracks = trackRims(samples, path.ox, path.oy, dims);
  return tracks.length ? tracks : null;
}

/**
 * The flights a panning camera's shots are found among at its tracked rims: those of {@link isFlightArc} with the wider
 * gravity window {@link PANNING_SHOT_GRAVITY_WINDOW} (a ball flying away from a turning camera bends less in the
 * picture). They are used to track the rims and to find the shots at them; nothing else.
 */
export function panningShotArcs(allArcs: Arc[], fps: number, dims: { width: number; height: number }, gScale: number): Arc[] {
  return allArcs.filter((a) => isFlightArc(a, fps, dims, gScale, PANNING_SHOT_GRAVITY_WINDOW));
}

/**
 * Flights that go on from a shot-like flight whose track broke at its apex: a falling flight whose first sighting is
 * where (within 3 ball radii), and when (the same frame or up to 2 frames later), a shot-like flight was last seen at
 * its highest point, and that climbs no more than a ball radius above it. The ball tracker lets two tracks meet at
 * the apex when a panning camera that follows the ball splits its blob there (it nearly stands still against the
 * moving background): the rise ends as one track and the fall starts as another, whose own track shows no rise, so
 * the fall is not shot-like and its hoop got no support from it. Measured on game-14 at 94.0 s: the rise ends at
 * (836, 61) in frame 2820 and the fall, starting 5 px away in the same frame, comes down into a tracked rim that
 * had no other support; the shot at 94.6 s was lost with it.
 */
export function apexContinuations(shotLike: Arc[], arcs: Arc[]): Arc[] {
  const lostAtApex = shotLike.filter((b) => b.points[b.points.length - 1].frame === b.apexFrame);
  const like = new Set(shotLike);
  return arcs.filter((a) => {
    if (like.has(a)) return false;
    const p0 = a.points[0];
    return lostAtApex.some((b) => {
      const e = b.points[b.points.length - 1];
      const df = p0.frame - e.frame;
      return df >= 0 && df <= 2 && Math.hypot(p0.x - e.x, p0.y - e.y) <= 3 * Math.max(a.r, b.r) && a.apexY >= b.apexY - Math.max(a.r, b.r);
    });
  });
}

/**
 * How high (rim widths) a shot-like flight must peak over a tracked rim of a panning camera to support it. A close
 * shot seen from a raised broadcast view peaks little over the rim in the image: 1.4 rim widths measured on a rim-in
 * from 1.5 m, under the 1.5 used before, which dropped the hoop and its shot; then 1.1 on a 1.7 m bank-in of a
 * panning game (seed 538 at 73.5 s), the only flight at its hoop track, under the 1.25 used after that. Floor
 * lines are told apart by their size against the ball and their height against the other hoops.
 */
export const TRACKED_APEX_OVER_RIM = 1.0;

/**
 * Whether a shot found at a panning camera's tracked hoop belongs to that hoop's goal span (the track's samples
 * ± 1.5 s): it reached the rim after the span began and was released before it ended. The rims are searched once
 * a second and a search can miss the rim while the camera swings with the ball, so a track often ends a sample
 * before the shot reaches its rim: on a panning game of seed 538 two shots (at 8.3 and 97.9 s) were found at their
 * hoop, released inside its span and arriving 0.7 and 0.4 s after it ended, and were dropped when the rim arrival
 * had to fall inside the span.
 */
export function inTrackedSpan(s: Pick<ShotDetection, 'releaseFrame' | 'rimFrame'>, span: [number, number]): boolean {
  return s.rimFrame >= span[0] && s.releaseFrame <= span[1];
}

/**
 * How far across (rim widths) a flight of a panning camera may end from a tracked rim and still be followed on its
 * parabola into it. The camera swings with the ball, and the fast image motion ends flights early: a three lost just
 * past its apex 3.4 rim widths from the rim left its hoop without support at 3 (the fixed-camera value).
 */
export const TRACKED_REACH = 5;

/**
 * How long (seconds of play) the parabola of a panning camera's flight lost at or before its apex is followed
 * down to a tracked rim. A broadcast camera follows the ball: at the apex the ball nearly stands still against
 * the moving background and drops out of the motion mask, so the flight often ends there (its last sighting is
 * its highest), and the shot's hoop got no support — a tracked rim needs a flight coming down into it, and only
 * flights seen falling were followed on. Measured: two jump shots (game-14 at 81.0 s, and a panning game of seed
 * 501 at 83.6 s), each its hoop's only support, lost rising at 2.2–2.6 px a frame: their parabolas came down 0.65
 * and 0.45 rim widths from the tracked rim 22 and 15 frames later. Hits 33 frames on are seen too; the bound only
 * keeps a long extrapolation from wandering onto a rim far away in time.
 */
export const TRACKED_FOLLOW_S = 1.2;

/**
 * How far (a factor, either way) a tracked rim's width may be from the width the ball's size gives (see
 * {@link trackedGoals}). The rim's appearance measures it 0.5–2.1 times that on true hoops: narrow where a part of
 * the rim is read (seed 540: 12 px against 16.5, 1.84 times), wide where the rim's orange run joins the board's red
 * lower edge beside it (seed 970, a broadcast view with a shaking camera: 28–38 px against 18, 2.0–2.1 times, which
 * lost 4 of the game's 11 shots under the 1.8 asked before run version 22). Floor strips and the board's painted
 * square measure 3.1–4.2 times.
 */
export const TRACKED_RIM_SIZE_FIT = 2.2;

/** Samples, all at rim score ≥ {@link SOLID_RIM_SCORE}, of a rim track that needs no flight (see {@link solidRim}). */
export const SOLID_RIM_SAMPLES = 4;
export const SOLID_RIM_SCORE = 0.95;
/** How much narrower than the ball says such a rim may be read (a factor; wider, up to {@link TRACKED_RIM_SIZE_FIT}). */
export const SOLID_RIM_NARROWER = 1.5;

/**
 * A tracked rim that is a hoop without any flight seen coming down into it: read in ≥ {@link SOLID_RIM_SAMPLES}
 * samples, every one scoring ≥ {@link SOLID_RIM_SCORE} (a net hanging under it and a board over it), its width (the
 * track's median, over the width the clip's ball gives: `widthOverBall`) from {@link SOLID_RIM_NARROWER} times narrower
 * to {@link TRACKED_RIM_SIZE_FIT} times wider. An air ball misses the rim, so when it is the only shot while a hoop is tracked no
 * shot-like flight comes down into that rim (seeds 965, 966 and 978 at 83.9, 44.3 and 117.9 s: air balls from 1.4,
 * 5.8 and 7.4 m, their rims read in 10–13 samples at score 1.0 and 1.22–1.34 times the ball's width); nor did the
 * flights of a swish from 1.9 m and a rim-in from 2.6 m (seeds 970 and 976 at 52.1 and 114.6 s; rims read 1.77 and
 * 1.83 times as wide, joined with the board's red edge): the hoop was dropped and the shot with it. Lines on the floor
 * that bounce passes drop onto read as rims too, but not with a net and a board on every sample. A rim read narrower
 * is a fragment (the smallest runs taken are 8 px): such tracks, at half the ball's width, took that air ball of seed
 * 965 from its rim and called it made when they were let in.
 */
export function solidRim(t: RimTrack, widthOverBall: number): boolean {
  return (
    t.obs.length >= SOLID_RIM_SAMPLES &&
    t.obs.every((o) => o.score >= SOLID_RIM_SCORE) &&
    widthOverBall > 1 / SOLID_RIM_NARROWER &&
    widthOverBall < TRACKED_RIM_SIZE_FIT
  );
}

/**
 * One goal per tracked hoop of a panning camera, in the re-anchored stabilised frame, valid while
 * the track lasts (± 1.5 s): its rim is where the tracked rim sits, its ball size comes from
 * flights ending there. Tracks whose rim is far too small or too large for the ball (a factor
 * {@link TRACKED_RIM_SIZE_FIT}), or that no shot-like flight reaches from above (peaking at least
 * {@link TRACKED_APEX_OVER_RIM} rim widths over the rim; lines on the floor look like rims too, and
 * bounce passes drop onto them) unless the rim is seen whole throughout ({@link solidRim}), are
 * dropped, and so are hoops far above or below the others (a panning camera yaws: its hoops stay
 * at about one height, but the re-anchored path can drift up or down over a game: see
 * {@link levelWithTheOthers}). A flight lost on its way down (the camera swinging, the ball against the
 * crowd) counts when its parabola, followed on from up to {@link TRACKED_REACH} rim widths across,
 * comes down into the rim; one lost at its top is followed under the clip's gravity (the speed-up
 * `timeScale` squared times real gravity), not its own fitted one. The best supported comes first.
 */
export function trackedGoals(
  tracks: RimTrack[],
  path: CameraPath,
  shotLike: Arc[],
  fps: number,
  dims: { width: number; height: number },
  timeScale = 1,
  closeFlights: Arc[] = [],
): Array<{ h: HoopEstimate; span: [number, number] }> {
  const follow = Math.round((TRACKED_FOLLOW_S / timeScale) * fps);
  const gravity = frameGravity(fps, timeScale ** 2);
  const ballR = medianR(shotLike);
  const out: Array<{ h: HoopEstimate; span: [number, number]; score: number }> = [];
  for (const t of tracks) {
    const firm = firmTrack(t).obs;
    const x = median(firm.map((o) => o.x - path.ox[o.index]));
    const y = median(firm.map((o) => o.y - path.oy[o.index]));
    const w = median(firm.map((o) => o.w));
    const span: [number, number] = [
      Math.max(0, t.obs[0].index - Math.round(1.5 * fps)),
      Math.min(path.ox.length - 1, t.obs[t.obs.length - 1].index + Math.round(1.5 * fps)),
    ];
    const inSpan = (a: Arc) => peaksOverInSpan(a, span, y, TRACKED_APEX_OVER_RIM * w);
    const fromAbove = shotLike.filter(inSpan);
    const sup = flightSupport(fromAbove, x, y, w, TRACKED_REACH, follow, true, gravity);
    // close flights support the rim but do not measure the ball there: their short pieces near the rim are often
    // blobs of the board or net (game-14 at 101.5 s: 3.2 px against the ball's 4.9)
    sup.n += flightSupport(closeFlights.filter(inSpan), x, y, w, TRACKED_REACH, follow, true, gravity).n;
    const r = sup.n && sup.r ? sup.r : ballR;
    // the ball measured on the supporting flights near the rim, or over all shot-like flights, whichever fits better: near
    // the rim the ball's blob merges with the rim, board and net (seed 540 at 88–101 s: 5.9 px there, 4.8 over the clip,
    // true 4.4), and with a rim measured narrow (12 px, true 16.5) a true hoop was 1.84 times off and dropped with two shots
    const widthOver = (rr: number) => w / (2 * RIM_OVER_BALL * rr);
    const sizeFit = Math.min(...[r, ballR].map((rr) => Math.abs(Math.log(widthOver(rr)))));
    // a rim read wider than its ball says may also be reached from the apex bound in the ball's rim width: that only keeps
    // the track, whose support and ball stay those of the bound in its own width (see reachedUnderWideRim)
    if (sizeFit > Math.log(TRACKED_RIM_SIZE_FIT) || (sup.n === 0 && !solidRim({ obs: firm }, widthOver(ballR)) && !reachedUnderWideRim(shotLike, span, x, y, w, ballR, follow, gravity))) continue;
    const score = firm.reduce((a, o) => a + o.score, 0) / firm.length;
    out.push({ h: { x, y, w, ballR: r, support: sup.n, quality: sup.n, confidence: Math.min(1, score) }, span, score: sup.n + score });
  }
  return levelWithTheOthers(out).sort((a, b) => b.score - a.score);
}

/**
 * Whether a tracked rim is read wider than its ball says (`w` over the rim width the clip's ball radius `ballR` gives)
 * and a shot-like flight inside `span` reaches it, when its apex is measured against that narrower width instead of the read one
 * ({@link TRACKED_APEX_OVER_RIM} of it over the rim). A panning camera's rim read in a swing or merged with the board
 * comes out wide: on pan-2004 at 17.0 s the rim read 27 px (the clip's others 22, the ball's 17.4) and the swish into
 * it peaked 24.8 px over it, under one read width, so its hoop and shot were lost. Only used to keep a track that
 * nothing else keeps: counting such a flight as support measures the goal's ball on it near the rim, which turned a
 * make of held-304 (101.2 s) wrong (see "A tracked rim read wider than its ball, run version 63").
 */
export function reachedUnderWideRim(
  shotLike: Arc[],
  span: [number, number],
  x: number,
  y: number,
  w: number,
  ballR: number,
  follow: number,
  gravity: number,
): boolean {
  const wBall = 2 * RIM_OVER_BALL * ballR;
  if (w <= wBall) return false;
  const over = shotLike.filter((a) => peaksOverInSpan(a, span, y, TRACKED_APEX_OVER_RIM * wBall));
  return flightSupport(over, x, y, w, TRACKED_REACH, follow, true, gravity).n > 0;
}

/** Whether a flight overlaps a tracked rim's span and peaks at least `over` px over its level `y`. */
function peaksOverInSpan(a: Arc, span: [number, number], y: number, over: number): boolean {
  return a.points[a.points.length - 1].frame >= span[0] && a.points[0].frame <= span[1] && y - a.apexY >= over;
}

/**
 * The tracked hoops at the height of the others (see {@link trackedGoals}): within 3 rim widths of a straight line
 * through the heights, over time (span centres), of those within 3 rim widths of their median. A panning camera's
 * hoops stay at about one height, and rims read on lines of the floor sit far under them; but the path re-anchored on
 * the tracked rims is summed over the whole game and can drift up or down: on pan-2006 its rims sit from 94 px at the
 * start to 168 px at the end, and the last one, 49 px under the median of the whole game (3 rim widths: 48), was dropped
 * with the flight that ended in it. The median alone is kept with fewer than 3 hoops at it. Measured: the median of
 * the hoops tracked nearest in time instead (7 of them) let floor lines in, which come several at a time.
 */
export function levelWithTheOthers<T extends { h: Pick<HoopEstimate, 'y' | 'w'>; span: [number, number] }>(goals: T[]): T[] {
  const ys = goals.map((o) => o.h.y).sort((a, b) => a - b);
  const midY = ys[ys.length >> 1];
  const level = goals.filter((o) => Math.abs(o.h.y - midY) <= 3 * o.h.w);
  if (level.length < 3) return level;
  const t = (g: T) => (g.span[0] + g.span[1]) / 2;
  const mt = level.reduce((a, g) => a + t(g), 0) / level.length;
  const my = level.reduce((a, g) => a + g.h.y, 0) / level.length;
  const stt = level.reduce((a, g) => a + (t(g) - mt) ** 2, 0);
  const slope = stt > 0 ? level.reduce((a, g) => a + (t(g) - mt) * (g.h.y - my), 0) / stt : 0;
  return goals.filter((o) => Math.abs(o.h.y - (my + slope * (t(o) - mt))) <= 3 * o.h.w);
}

/**
 * Places a fixed camera's target rim on its net (`hoop-appearance.ts#netTop`) when the rim runs
 * found do not span it: from the baseline, behind the board, the board's coloured lower edge hides
 * most of the rim or merges with it, so the rim pieces found are a fragment of the rim or lie on the
 * edge beside it, while the net hanging under the rim is in full view and as wide as the rim. The
 * net is searched on up to 5 sampled frames around the rim expected from the ball size; it must be
 * found (box-edge score ≥ {@link NET_TOP_MIN_SCORE}) on most of them at one place, 0.75–1.7 times
 * the rim width the ball size gives (the flights' ball is smaller than at the rim in these views:
 * the shooters stand farther from the camera than the hoop). The rim is then moved onto the net's
 * top edge (its centre {@link RIM_ABOVE_NET_TOP} rim widths above it) when the found rim is off its
 * centre by more than a quarter of its width, or narrower or wider by more than a quarter;
 * otherwise it stays as found. The caller keeps the move only when the court read from the moved
 * rim puts the camera behind the board: in other views (behind the shooter, corner) a net's top
 * edge is not the rim's centre line, and the rules measured there keep the rim as found.
 */
export function placeOnNet(
  h: HoopEstimate,
  samples: Array<{ index: number; rgb: Uint8Array }>,
  path: CameraPath,
  dims: { width: number; height: number },
): HoopEstimate & { besideNet?: boolean } {
  const wBall = 2 * RIM_OVER_BALL * h.ballR;
  const wExp = Math.max(h.w, wBall);
  const pick = samples.length <= 5 ? samples : [0, 1, 2, 3, 4].map((k) => samples[Math.round((k * (samples.length - 1)) / 4)]);
  const found: NetTop[] = [];
  for (const smp of pick) {
    // a sample past the path's last frame is read where the stabilised frame has it (offset 0, no zoom)
    const inPath = smp.index < path.ox.length;
    const z = inPath ? zoomAt(path, smp.index) : 1;
    const rim = inPath ? toPicture(path, smp.index, h.x, h.y) : { x: h.x, y: h.y };
    const n = netTop({ rgb: smp.rgb, width: dims.width, height: dims.height }, { ...rim, w: wExp * z });
    if (n && n.score >= NET_TOP_MIN_SCORE) found.push({ ...n, ...(inPath ? toStable(path, smp.index, n.x, n.y) : { x: n.x, y: n.y }), w: n.w / z });
  }
  if (found.length < Math.max(2, Math.ceil(0.6 * pick.length))) return h;
  const nx = median(found.map((n) => n.x));
  const ny = median(found.map((n) => n.y));
  const nw = median(found.map((n) => n.w));
  const agree = found.filter((n) => Math.abs(n.x - nx) < 0.15 * nw && Math.abs(n.y - ny) < 0.15 * nw).length;
  if (agree < Math.max(2, Math.ceil(0.6 * pick.length))) return h;
  if (nw < 0.75 * wBall || nw > 1.7 * wBall) return h;
  const ry = ny - RIM_ABOVE_NET_TOP * nw;
  const off = Math.abs(h.x - nx) > 0.25 * nw || Math.abs(Math.log(h.w / nw)) > Math.log(1.25) || Math.abs(h.y - ry) > 0.35 * nw;
  if (!off) return h;
  // The net hangs centred under its rim in every view: a rim found beside the net's centre or below its top edge is
  // not the rim (the board's lower edge running away from it, seen from behind the board).
  const besideNet = Math.abs(h.x - nx) > NET_BESIDE * nw || h.y > ny + NET_BESIDE * nw;
  return { ...h, x: nx, y: ry, w: nw, besideNet };
}

/**
 * Whether the target is a rim seen whole by appearance: a rim candidate right at it (within a quarter of its
 * width), well seen (score ≥ {@link WHOLE_RIM_MIN_SCORE}: the orange run with a net under it and a board above
 * it) and at least as wide as the "net" found near it. Such a rim is not the board's lower edge or a fragment
 * of the rim hidden behind the board (which are narrower than the net hanging under the rim), so it is not
 * moved for lying beside that net: the box found is something else. Seen on a corner view (seed 943): the rim
 * found at its true place (score 0.96, 22 px wide, true 22.5) was moved 0.9 net widths up onto the top edge
 * of the board's painted square (17.7 px wide), 1.4 rim widths off the rim, and 6 of 11 made/missed calls went
 * wrong. The baseline rims this move is for were a fragment (net 2.05–2.16 times as wide as the rim found,
 * seeds 942 and 953) or no rim at all (cases-21, held-101).
 */
export function wholeRimSeen(target: { x: number; y: number; w: number }, net: { w: number }, rims: RimCandidate[]): boolean {
  return rims.some(
    (r) => r.score >= WHOLE_RIM_MIN_SCORE && r.w >= net.w && readAt(r, target),
  );
}

/** A rim candidate right at the target: within a quarter of its width, across and up or down. */
function readAt(r: RimCandidate, target: { x: number; y: number; w: number }): boolean {
  return Math.abs(r.x - target.x) < 0.25 * target.w && Math.abs(r.y - target.y) < 0.25 * target.w;
}

/**
 * Whether the target is a rim read (a rim candidate right at it, within a quarter of its width) that lies more than
 * {@link RIM_UNDER_NET_TOP} net widths under the top edge of the "net" `placeOnNet` found: a net hangs from its rim, so
 * a box whose top is that far over a rim read is something above the rim, the top of the board's painted square (run
 * version 31). Measured over every clip where a net moved the target: the rims moved right lay from 0.56 net widths
 * over the net's top to 0.65 under it, and that one (the end-to-end clip `game`) was a place known from flights, no
 * rim read; the two moved wrong were rim reads 0.83 (the darkened copy of the scripted augment clip with moving
 * players, read weakly: 3 of its 4 shots called wrong) and 0.90 (seed 943, already kept by {@link wholeRimSeen})
 * under it.
 */
export function netAboveRimRead(target: { x: number; y: number; w: number }, net: { y: number; w: number }, rims: RimCandidate[]): boolean {
  const read = rims.some((r) => readAt(r, target));
  const netTopY = net.y + RIM_ABOVE_NET_TOP * net.w;
  return read && target.y - netTopY > RIM_UNDER_NET_TOP * net.w;
}

/** How far under a net's top edge (net widths) a rim read may lie and still be the rim the net hangs from (see {@link netAboveRimRead}). */
export const RIM_UNDER_NET_TOP = 0.5;

/** Least appearance score of a rim seen whole at the target (see {@link wholeRimSeen}); the hoop choice trusts a rim from 0.6 too. */
export const WHOLE_RIM_MIN_SCORE = 0.6;

/** A rim found more than this many net widths beside its net's centre, or below its top edge, is not the rim (see {@link placeOnNet}). */
export const NET_BESIDE = 0.2;

/** Least box-edge score of a net under a rim (`netTop`): true nets score 0.72–0.77 on the baseline views measured, the rest ≤ 0.5. */
export const NET_TOP_MIN_SCORE = 0.6;
/**
 * How far (rim widths of the wider rim) two rims of one fixed camera may sit apart vertically beyond what their
 * different sizes allow (see {@link levelWithTarget}): the camera's roll and the rim's measured centre.
 */
export const LEVEL_SLACK = 1.5;

/**
 * How much a rim's image height may change per pixel of image width, both ways (see {@link levelWithTarget}):
 * |3.05 m − camera height| / 0.45 m, ≤ 12 for a camera from the floor up to 8.4 m high.
 */
export const LEVEL_PER_WIDTH = 12;

/**
 * Whether a second hoop of a fixed camera can stand at a rim's height, seen from the camera that sees the target.
 * Every rim is 3.05 m up and 0.45 m wide: through a level pinhole camera its centre sits above the horizon by
 * (3.05 m − camera height) / 0.45 m times its image width, the same factor for every rim of the court. Two rims of
 * about the same image width are at about the same depth and so level in the image; a wider or narrower one may
 * sit higher or lower, by at most {@link LEVEL_PER_WIDTH} times the difference in width (+ {@link LEVEL_SLACK} rim
 * widths). Measured on a baseline view (cases-25): a "rim" as wide as the target (0.047 against 0.049 of the frame
 * width) 0.54 frame heights under it — a red shoe on the floor where dribbles and bounce passes end — took six
 * rebounds and dribbles as shots; the person test cannot drop it (nobody stands under a point at the frame's bottom).
 */
export function levelWithTarget(target: HoopEstimate, h: HoopEstimate): boolean {
  return Math.abs(h.y - target.y) <= LEVEL_PER_WIDTH * Math.abs(h.w - target.w) + LEVEL_SLACK * Math.max(h.w, target.w);
}

/**
 * The other goals of a fixed camera besides its target: hoops found from flights (quality ≥ 2) far from the target
 * (≥ 6 rim widths), with a rim seen there, not at head height (`belowHeadHeight`), and level with the target as a
 * rim must be ({@link levelWithTarget}).
 */
export function otherGoals(target: HoopEstimate, estimates: HoopEstimate[], rims: RimCandidate[], shotLike: Arc[], persons: PersonBox[][]): HoopEstimate[] {
  const goals: HoopEstimate[] = [target];
  for (const h of estimates) {
    if (h === target || h.quality < 2) continue;
    if (goals.some((g) => Math.hypot(g.x - h.x, g.y - h.y) < 6 * Math.max(g.w, h.w))) continue;
    const seen = rims.some((r) => rimAt(r, h));
    if (seen && !belowHeadHeight(hoopPlausibility(h, shotLike, persons)) && levelWithTarget(target, h)) goals.push(h);
  }
  return goals.slice(1);
}

/** Least appearance score of a rim found on the sampled frames (`persistentRims`) for it to be used at all. */
export const RIM_MIN_SCORE = 0.45;

/** A rim scoring under {@link RIM_MIN_SCORE} but at least this is offered to the hoop choice when flights come down into it. */
export const WEAK_RIM_MIN_SCORE = 0.3;

/** How many shot-like flights must come down into such a weak rim (`flightSupport`). */
export const WEAK_RIM_FLIGHTS = 3;

/**
 * Rims under the appearance cut whose place the flights confirm: {@link WEAK_RIM_MIN_SCORE} ≤ score <
 * {@link RIM_MIN_SCORE} with ≥ {@link WEAK_RIM_FLIGHTS} shot-like flights coming down into them. They are offered to
 * `chooseTarget` only (which weighs them by their score and support like any rim). Measured on a baseline view
 * (cases-24): the rim, at its true place, scored 0.44 on the sampled frames (the board's lower edge runs beside it)
 * and 10 flights came down into it; without it the target was a flight-end cluster 1.3 rim widths below and left of
 * the rim, where the balls leaving the net end, and five of nine calls were wrong.
 */
export function weakRimsFlightsReach(rims: RimCandidate[], shotLike: Arc[]): RimCandidate[] {
  return rims.filter((r) => r.score < RIM_MIN_SCORE && r.score >= WEAK_RIM_MIN_SCORE && flightSupport(shotLike, r.x, r.y, r.w).n >= WEAK_RIM_FLIGHTS);
}

/** Court x (metres from the basket towards centre court) of the backboard's face: a camera at a smaller x is behind the board. */
const BOARD_X_M = -0.375;
/** The rim's centre above its net's top edge, in rim widths (baseline views from behind the board: 0.13–0.22). */
export const RIM_ABOVE_NET_TOP = 0.17;

/** A rim found by appearance at a hoop estimate (about the same place and size: within `reach` of its widths, half to twice as wide). */
function rimAt(r: RimCandidate, h: HoopEstimate, reach = 1.5): boolean {
  return Math.abs(r.x - h.x) < reach * h.w && Math.abs(r.y - h.y) < reach * h.w && r.w > 0.5 * h.w && r.w < 2 * h.w;
}

/**
 * How far (in its widths, across and up or down) a rim read may be from a hoop known from flights for `chooseTarget`
 * to take it as that hoop's rim, positioning it (run version 29; 1.5 before). A hoop known from a few flights sits
 * where their ends cluster, and a weak or narrow rim read makes the estimate wider than the rim: the CRF 35 copy of
 * the scripted augment clip with moving players had its rim read 1.53 of the estimate's widths beside it and lost 4
 * of 6 shots. Rim reads that are no hoop lie within 2 widths of estimates too (a backboard's corner, the net's
 * bottom), but the best fitting read near an estimate (score, size, distance) is still its rim: no other clip of the
 * measured sets changes (synthetic, development, scripted, real, transformed and end-to-end clips).
 */
export const NEAR_RIM = 2;

/**
 * A weak rim read (score under {@link WHOLE_RIM_MIN_SCORE}) narrower than this share of the width a flight-found hoop's
 * ball gives is a lit piece of the rim, not the rim: the hoop takes the rim read's place and keeps the ball's width
 * (run version 32). The darkened copy of the scripted augment clip with moving players read its rim 8.8 px wide
 * (0.58 of the ball's 15.3; true 18.9): the rim zone a flight must reach was half as wide, and an air ball passing
 * it was lost. The nearest read under it that is the rim's true width: `game-13`, 0.75 (score 0.58, 12.7 px for the
 * ball's 16.9), which loses a call when it takes the ball's width.
 */
export const LIT_PIECE_OF_RIM = 0.65;

/** Whether a rim read near a flight-found hoop is a lit piece of the rim (see {@link LIT_PIECE_OF_RIM}). */
export function litPieceOfRim(r: RimCandidate, h: HoopEstimate): boolean {
  return r.score < WHOLE_RIM_MIN_SCORE && r.w < LIT_PIECE_OF_RIM * h.w;
}

function actionTime(a: ActionRecord): number {
  return a.type === 'shot' ? a.release_t : a.t;
}

function medianR(arcs: Arc[]): number {
  const v = arcs.map((a) => a.r).sort((a, b) => a - b);
  return v.length ? v[v.length >> 1] : 4;
}

/**
 * Names the shooter (the player at the ball when it was released), the rebounder after a miss
 * (the player at the ball where its next flight or carry ends) and the assister of a made
 * field goal (the teammate whose pass reached the shooter within 5 s before the release).
 */
function attributeShots(
  shots: ShotDetection[],
  actions: ShotAction[],
  players: PlayerTrack[],
  arcs: Arc[],
  fps: number,
  timeScale: number,
): Array<PassAction | ReboundAction> {
  const out: Array<PassAction | ReboundAction> = [];
  const shotArcs = new Set(shots.map((s) => s.arc));
  const passes = detectPasses(arcs, shotArcs, players, fps);
  const teamOf = new Map(players.map((p) => [p.id, p.team]));
  for (const p of passes) {
    out.push({
      type: 'pass',
      t: round(p.startFrame / fps, 3),
      end_t: round(p.endFrame / fps, 3),
      from_track: p.fromTrack,
      to_track: p.toTrack,
      confidence: 0.5,
    });
  }
  const rad = Math.round(0.4 * fps);
  shots.forEach((s, i) => {
    const a = actions[i];
    const shooter = playerNear(players, s.releaseFrame, s.releaseX, s.releaseY, Math.round(0.7 * fps), 2);
    a.shooter_track = shooter?.id ?? null;
    if (s.made && shooter && !a.is_free_throw) {
      const window = Math.round(5 * fps);
      const pass = [...passes]
        .reverse()
        .find((p) => p.toTrack === shooter.id && p.endFrame <= s.releaseFrame && p.endFrame >= s.releaseFrame - window);
      if (pass && pass.fromTrack !== shooter.id && (teamOf.get(pass.fromTrack) ?? null) === shooter.team) a.assister_track = pass.fromTrack;
    }
    if (s.made === false) {
      const limit = s.endFrame + Math.round((3 / timeScale) * fps);
      const next = arcs
        .filter((x) => x.points[0].frame >= s.rimFrame && x.points[0].frame <= limit && !shotArcs.has(x))
        .sort((x, y) => x.points[0].frame - y.points[0].frame);
      let reb: PlayerTrack | null = null;
      let at = -1;
      for (const x of next) {
        const e = x.points[x.points.length - 1];
        reb = playerNear(players, e.frame, e.x, e.y, rad, 0.8);
        if (reb) {
          at = e.frame;
          break;
        }
      }
      a.rebounder_track = reb?.id ?? null;
      if (reb) {
        const shooterTeam = shooter?.team ?? null;
        out.push({
          type: 'rebound',
          t: round(at / fps, 3),
          shot_id: a.id,
          track: reb.id,
          offensive: shooterTeam === null || reb.team === null ? null : reb.team === shooterTeam,
          confidence: 0.5,
        });
      }
    }
  });
  return out;
}

function clusterRecord(t: PlayerTrack, path: CameraPath, fps: number, dims: { width: number; height: number }): ClusterRecord {
  const mid = t.obs.reduce((best, o) => (o.y1 - o.y0 > best.y1 - best.y0 ? o : best), t.obs[0]);
  const f = mid.frame;
  const [a, b] = [toPicture(path, f, mid.x0, mid.y0), toPicture(path, f, mid.x1, mid.y1)];
  const box: [number, number, number, number] = [
    round(Math.max(0, a.x / dims.width)),
    round(Math.max(0, a.y / dims.height)),
    round(Math.min(1, b.x / dims.width)),
    round(Math.min(1, b.y / dims.height)),
  ];
  return {
    track_id: t.id,
    team: t.team,
    jersey_rgb: t.rgb.map((v) => Math.round(v)) as [number, number, number],
    jersey_number: null,
    t_start: round(t.obs[0].frame / fps, 3),
    t_end: round(t.obs[t.obs.length - 1].frame / fps, 3),
    frames: t.obs.length,
    thumb_t: round(f / fps, 3),
    thumb_box: box,
    confidence: round(Math.min(1, t.obs.length / (2 * fps)), 3),
  };
}

/** Whether a ball at `q` is at a rim centred on (x, y), `w` wide: within 1.2 widths across, from 1 width above to 0.8 below. */
function atRim(q: { x: number; y: number }, x: number, y: number, w: number): boolean {
  const dx = (q.x - x) / w;
  const dy = (q.y - y) / w;
  return Math.abs(dx) < 1.2 && dy > -1.0 && dy < 0.8;
}

/**
 * Flights that come down through (or are headed into) the rim zone of a candidate hoop; and the median ball radius on them near the hoop.
 * A flight that ends falling above the rim level, within `reach` rim widths across, is followed on its parabola (≤ 20 frames);
 * with `followLost` > 0 (a panning camera's tracked rim, {@link TRACKED_FOLLOW_S}), so is a flight whose last sighting is its
 * highest (lost at or before its apex), for up to `followLost` frames — with `gravity` (the clip's, c / r in px per frame² per
 * px of ball radius) from where and how fast its last sightings say it moves ({@link motionAtLast}), not on its own parabola.
 */
export function flightSupport(arcs: Arc[], x: number, y: number, w: number, reach = 3, followLost = 0, board = false, gravity = 0): { n: number; r: number } {
  const rs: number[] = [];
  let n = 0;
  for (const a of arcs) {
    const p = a.points;
    const last = p[p.length - 1];
    const vyEnd = vyAt(a, last.frame);
    if (a.apexY > y - 0.3 * w) continue;
    let hit = false;
    for (const q of p) {
      if (q.frame < a.apexFrame) continue;
      if (atRim(q, x, y, w)) {
        hit = true;
        break;
      }
    }
    const lostAtApex = followLost > 0 && last.frame === a.apexFrame;
    if (!hit && (vyEnd > 0 || lostAtApex) && last.y < y && Math.abs(last.x - x) < reach * w) {
      const follow = lostAtApex ? Math.max(20, followLost) : 20;
      const c = gravity * a.r;
      const m = lostAtApex && gravity > 0 ? motionAtLast(a, c) : null;
      // where the ball is k frames after its last sighting
      const at = (k: number) => (m ? { x: m.x + m.vx * k, y: m.y + m.vy * k + c * k * k } : arcAt(a.fit, last.frame + k));
      for (let k = 1; k <= follow; k++) {
        const q = at(k);
        if (q.y >= y - 0.3 * w) {
          hit = Math.abs(q.x - x) < 1.2 * w;
          break;
        }
      }
    }
    if (!hit && board) hit = stopsOverRim(a, x, y, w) >= 0;
    if (!hit) continue;
    n++;
    for (const q of p) if (Math.hypot(q.x - x, q.y - y) < 3 * w) rs.push(q.r);
  }
  rs.sort((a, b) => a - b);
  return { n, r: rs.length ? rs[rs.length >> 1] : 0 };
}

/**
 * Picks the target hoop among hoops found from flight end points and rims found by appearance
 * (`arcs` are the shot-like flights: thrown upwards, or falling in from the top of the frame).
 * Flights are the primary evidence (they work when the rim is washed out); a visible rim with
 * its net and backboard confirms and positions a hoop, finds it when nobody shoots, and lets
 * weak flight evidence without a visible hoop (passes caught overhead) be rejected.
 */
export function chooseTarget(fromArcs: HoopEstimate[], rims: RimCandidate[], arcs: Arc[], persons: PersonBox[][] = [], bounceWithin = 0): HoopEstimate | null {
  // shotsIn: the flights coming down into the candidate that count against a rim no flight reaches (NO_FLIGHT_RIM_LOSES_TO)
  let best: { h: HoopEstimate; score: number; shotsIn: number } | null = null;
  const passable: HoopEstimate[] = [];
  for (const h of fromArcs) {
    const sup = flightSupport(arcs, h.x, h.y, h.w);
    const near = rims
      .filter((r) => rimAt(r, h, NEAR_RIM))
      .map((r) => ({ r, fit: r.score - Math.abs(Math.log(r.w / h.w)) - 0.3 * (Math.hypot(r.x - h.x, r.y - h.y) / h.w) }))
      .sort((a, b) => b.fit - a.fit)[0]?.r;
    // known from one flight alone, a candidate needs that flight's full quality, or a flight that is clearly a shot
    if (!near && h.quality < 0.95 && sup.n < 2 && !loneShot(h, sup.n, arcs)) continue;
    const cand = near ? { ...h, x: near.x, y: near.y, w: litPieceOfRim(near, h) ? h.w : near.w, confidence: Math.max(h.confidence, near.score) } : h;
    const score = 0.6 * Math.min(5, sup.n) + 0.3 * h.quality + (near ? 2.5 * near.score : 0);
    if (tooWideForItsBalls(cand.w, sup.r)) continue;
    const pl = hoopPlausibility(cand, arcs, persons);
    // a rim is 3.05 m up: a candidate the players under it reach above, or one known from flights alone that they cover, is no rim
    if (belowHeadHeight(pl) || (!near && insidePlayers(pl))) continue;
    passable.push(cand);
    // the flights that count against a rim no flight reaches are shots: one of them peaked well over this candidate
    // an even score goes to the higher candidate (run version 33): a hoop is above where its balls land, not below
    const higherTie = best !== null && score === best.score && cand.y < best.h.y;
    if (!best || score > best.score || higherTie) best = { h: cand, score, shotsIn: Math.max(0, ...pl.rises) >= NO_FLIGHT_RIM_SHOT_RISE ? sup.n : 0 };
  }
  if (best) {
    const above = hoopAboveLanding(best.h, passable, arcs, bounceWithin);
    if (above) best = { ...best, h: above };
  }
  for (const r of rims) {
    const sup = flightSupport(arcs, r.x, r.y, r.w);
    const expectedW = sup.n && sup.r ? 2 * RIM_OVER_BALL * sup.r : r.w;
    const sizeFit = Math.abs(Math.log(r.w / expectedW));
    const sizeOk = sizeFit < Math.log(1.8);
    if (r.score < 0.6 && !(sizeOk && sup.n > 0)) continue;
    // a rim no flight comes down into is the hoop of a scene where nobody shoots at it, not of one where flights come down elsewhere
    if (sup.n === 0 && best && best.shotsIn >= NO_FLIGHT_RIM_LOSES_TO) continue;
    // …nor one beside a shot's candidate and far too small to be a rim at its depth (a logo on its glass)
    if (sup.n === 0 && best && best.shotsIn > 0 && Math.hypot(r.x - best.h.x, r.y - best.h.y) < SAME_BOARD * best.h.w && r.w < MIN_RIM_OVER_SHOTS_BALL * 2 * RIM_OVER_BALL * best.h.ballR) continue;
    // Flights that end just beside a visible rim (behind an opaque board, seen from the baseline) point at that rim.
    const beside = fromArcs.filter((h) => Math.hypot(h.x - r.x, h.y - r.y) < 2.5 * r.w && h.w < 1.5 * r.w);
    const inherited = r.score >= 0.6 && sup.n >= Math.max(0, ...beside.map((h) => h.support)) ? 0.3 * Math.max(0, ...beside.map((h) => h.quality)) : 0;
    const score = (sizeOk ? 0.6 * Math.min(5, sup.n) : -0.5) + 2.5 * r.score - 2 * sizeFit + inherited;
    if (best && score <= best.score) continue;
    const pl = hoopPlausibility(r, arcs, persons);
    if (belowHeadHeight(pl)) continue;
    best = {
      shotsIn: sup.n,
      h: {
        x: r.x,
        y: r.y,
        w: r.w,
        ballR: sizeOk && sup.r ? sup.r : r.w / (2 * RIM_OVER_BALL),
        support: sizeOk ? sup.n : 0,
        quality: 0,
        confidence: r.score,
      },
      score,
    };
  }
  return best?.h ?? null;
}

/** The least quality of a hoop known from one flight alone that {@link loneShot} lets through (0.95 otherwise). */
export const LONE_SHOT_QUALITY = 0.6;
/** How high (rim widths) that flight must peak over the candidate for {@link loneShot}. */
export const LONE_SHOT_RISE = 2;

/**
 * A candidate known from one flight alone whose quality falls short only on the ball's look (run version 57): the flight
 * peaks ≥ {@link LONE_SHOT_RISE} rim widths over it — a shot, not a pass caught overhead (those peak under 1 width) — and
 * its quality is ≥ {@link LONE_SHOT_QUALITY}. The quality multiplies the track's length, the ball's appearance score and
 * the rise; in a dim or heavily compressed clip the ball scores 0.5–0.65 where 0.7 counts in full, and the one-shot
 * real `FreeThrow`'s darkened and CRF-35 copies (0.75 and 0.93) lost their shot, as did `clip_003` played 1.5× fast.
 */
export function loneShot(h: HoopEstimate, flights: number, arcs: Arc[]): boolean {
  return flights === 1 && h.quality >= LONE_SHOT_QUALITY && Math.max(0, ...hoopPlausibility(h, arcs).rises) >= LONE_SHOT_RISE;
}

/**
 * How much wider a hoop candidate may be than the rim the balls coming down into it give (2 · `RIM_OVER_BALL` times their
 * median radius: a 0.45 m rim is 1.9 balls across), run version 51. Where balls land on the floor — a one-player drill's
 * dribbles, the bounces under a basket — their ends spread over a patch several balls wide, and the flight-end estimate
 * there is as wide: on a PQ copy of the real `VID_IN_out` (mapped with the Möbius curve's knee at 0.5 or 0.7 of white)
 * ten dribbles put a "hoop" on the court's red line, 51.7 px wide for balls of 4.8 px radius (2.9 times a rim), and it
 * beat the rim read above (0.94, one flight into it): 1 and 2 of 4 shots right, 4 of 4 with this bound. The hoops chosen
 * on every still-camera clip measured (tuning, seen, held-out and real sets, the fresh tripod games and the 90
 * transformed copies of the real clips, run version 49) are 0.54–1.63 times the rim their balls give.
 */
export const MAX_RIM_OVER_ITS_BALLS = 2;

/** A candidate `w` wide is far wider than the rim the balls coming down into it give (median radius `ballR`; see {@link MAX_RIM_OVER_ITS_BALLS}). */
export function tooWideForItsBalls(w: number, ballR: number): boolean {
  return ballR > 0 && w > MAX_RIM_OVER_ITS_BALLS * 2 * RIM_OVER_BALL * ballR;
}

/**
 * Flights coming down into the chosen candidate that a rim read no flight comes down into does not beat (run version
 * 25). Two, not one: the scripted clip `bank` (seed 103) with moving players has its rim read whole (score 1.0) but
 * no flight into it (the shot's track is lost at its apex against the board), and a rebound's flight of quality 0.6 —
 * one flight, let through at a lower quality bound — would take the hoop from it.
 */
export const NO_FLIGHT_RIM_LOSES_TO = 2;
/**
 * …and one of those flights peaked at least this many rim widths over the candidate (`hoopPlausibility`'s `rises`;
 * run version 28): they are shots, not passes. The end-to-end clip with no shots (seed 4) has its rim read (0.77) and
 * no flight into it, and two passes caught at chest height, peaking 0.75 rim widths over their end, took the hoop
 * and made a shot of a pass; the shots of the 25 fps `45degree-2x` peak 2.15 over theirs.
 */
export const NO_FLIGHT_RIM_SHOT_RISE = 1.5;

/**
 * The least width, as a share of the rim a shot's ball gives (2 · `RIM_OVER_BALL` times its radius), of a rim read no
 * flight comes down into, within {@link SAME_BOARD} of that shot's candidate's widths, that may take the hoop from it
 * (run version 57). Beside a shot's hoop a read is at its depth, where a rim is about as wide as the balls coming down
 * there give (the hoops chosen on every still-camera clip measured: 0.54–1.63 times it); the real `clip_003` made
 * hand-held read an orange logo on its glass as a rim 12 px wide, 0.23 times the 53 px its shot's ball gives, and it
 * took the hoop from the shot's (one shot does not beat a rim read: {@link NO_FLIGHT_RIM_LOSES_TO}). A far rim at
 * another depth (a clip's other end) may be that small; it is not beside the shot's hoop.
 */
export const MIN_RIM_OVER_SHOTS_BALL = 0.4;
/** How near a shot's candidate (its widths) a rim read is taken for a read of the same board (see {@link MIN_RIM_OVER_SHOTS_BALL}). */
export const SAME_BOARD = 2.5;

/** Flights that pass a candidate on their way down to the one below it, enough to say the lower one is where they land (see {@link hoopAboveLanding}). */
export const FALLS_THROUGH_MIN = 2;

/** How soon (seconds of play) after a ball came down into a hoop its bounce on the floor below may start: the drop from 3.05 m takes 0.8 s. */
export const BOUNCE_WITHIN_S = 1.5;
/** How far sideways (rim widths) of a hoop the floor its ball bounces on after falling from it may be (see {@link hoopAboveLanding}). */
export const BOUNCE_ASIDE = 3;

/**
 * The hoop a chosen candidate `low` is the landing spot of, if any: a candidate among `others`
 * at least 3 rim widths straight above it (within 1.5 widths sideways) that ≥ {@link FALLS_THROUGH_MIN}
 * flights pass on their way down before they reach `low`, or that every flight coming down to `low`
 * passed first (run version 26: a clip of one shot whose ball dropped through the net on to the
 * floor, the real `FreeThrow` upscaled to 1080p or turned 3°, had one flight end at the rim and the
 * same ball's fall end on the floor, one flight each, and the floor came first). A ball that drops through a net falls on to
 * the floor below it, and one that bounces there ends more flights there; with both candidates
 * supported by more flights than the count saturates at, the landing spot could win on the shape of
 * its ends (the scripted clip `makes-and-misses`, seed 111, with off-ball players moving: the floor
 * 0.52 of the frame below the rim, 7 flights against the rim's 10). A ball never falls from the floor up
 * through a rim, so the one above is the hoop.
 *
 * Since run version 57 also (with `bounceWithin` > 0, in frames) when every flight coming down to `low` is a bounce after
 * a ball came down into the upper one: its track starts at or below `low`'s level no later than `bounceWithin` frames
 * after a flight into the upper one ended, which may then be up to {@link BOUNCE_ASIDE} widths aside. A ball's fall
 * through the net is no shot-like flight, but its bounce on the floor is (it rises well over where it comes down), and
 * it drifts aside: the real `FreeThrow` made hand-held (strong shake) had its rim unread and the bounce 1.9 rim widths
 * aside, two flights of one track against the shot's one into the rim.
 */
export function hoopAboveLanding(low: HoopEstimate, others: HoopEstimate[], arcs: Arc[], bounceWithin = 0): HoopEstimate | null {
  for (const u of others) {
    const w = Math.max(u.w, low.w);
    if (u === low || Math.abs(u.x - low.x) >= BOUNCE_ASIDE * w || low.y - u.y <= 3 * w) continue;
    const straightAbove = Math.abs(u.x - low.x) < 1.5 * w;
    // where flights coming down into `u` end (frames): a bounce under it starts soon after one
    const into = arcs.flatMap((a) => {
      const last = a.points[a.points.length - 1];
      return last.frame > a.apexFrame && atRim(last, u.x, u.y, u.w) ? [last.frame] : [];
    });
    let through = 0;
    let landing = 0;
    let bounced = 0;
    for (const a of arcs) {
      if (!a.points.some((q) => q.frame >= a.apexFrame && atRim(q, low.x, low.y, low.w))) continue;
      landing++;
      const start = a.trackPoints[0];
      if (start.y >= low.y - 0.5 * low.w && into.some((f) => start.frame >= f && start.frame - f <= bounceWithin)) bounced++;
      if (!straightAbove) continue;
      const passes = a.points.findIndex((q) => q.frame >= a.apexFrame && Math.abs(q.x - u.x) < 1.2 * u.w && Math.abs(q.y - u.y) < u.w);
      if (passes < 0) continue;
      const lands = a.points.findIndex((q, k) => k > passes && atRim(q, low.x, low.y, low.w));
      if (lands >= 0) through++;
    }
    if (through >= FALLS_THROUGH_MIN || (through > 0 && through === landing) || (bounced > 0 && bounced === landing)) return u;
  }
  return null;
}

/** Calm-scene threshold for a free throw when the court geometry is not read (see `sceneCalm`). */
export const FREE_THROW_CALM = 0.05;

/**
 * A free throw is taken from a standstill while everybody else waits: in the second before the
 * release the scene is much calmer than the clip's typical play. Compares the moving pixels
 * away from the shooter with the median over the clip (needs a few players in view).
 */
export function looksLikeFreeThrow(
  s: ShotDetection,
  features: FrameFeatures[],
  motion: MotionTotals,
  hoop: HoopEstimate,
  path: CameraPath,
  fps: number,
): boolean {
  return sceneCalm(s, features, motion, hoop, path, fps) < FREE_THROW_CALM;
}

/**
 * Unpacks the extraction's packed runs for the finishing stage one run at a time, letting each run's packed arrays go
 * once it is unpacked (its slot in `runs` is emptied): a long game's features are not held twice.
 */
export function unpackForFinish(runs: Array<PackedFeatures | null>): FrameFeatures[] {
  const out: FrameFeatures[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (!run) continue;
    runs[i] = null;
    for (const f of unpackFeatures([run])) out.push(f);
  }
  return out;
}

/**
 * Whether a frame carries a picture of its own: a frame that repeats the one before it gets no blobs and no motion
 * (`frame-features.ts#computeRun`). In a calm scene that is a still frame; in a clip that repeats its frames (a slowed
 * clip made by frame duplication, a 24 fps film in a 30 fps file) it is a copy that says nothing about what moved.
 */
export function ownPicture(f: Pick<FrameFeatures, 'blobs' | 'motion'>): boolean {
  if (f.blobs.length) return true;
  const m = f.motion;
  for (let k = 0; k < m.length; k++) if (m[k]) return true;
  return false;
}

/**
 * Share of frames at which a clip switches between a picture of its own and a repeat above which it repeats its
 * frames. Measured on the real clips' copies: a clip slowed to half speed switches at 0.85–0.99 of its frames; the
 * originals, their 25 and 60 fps copies and the synthetic games at 0.001–0.08, whose repeats come in runs (a still
 * scene before a free throw, a frozen last frame). A 24 fps film in a 30 fps file switches at 0.4.
 */
export const REPEATING_CLIP_SWITCHES = 0.3;

/** Per-frame moving-pixel totals of a clip and their median (computed once per clip by the caller of {@link sceneCalm}). */
export interface MotionTotals {
  total: Float64Array;
  median: number;
  /**
   * Whether each frame counts in the averages over time: every frame of a clip, but for the repeats of a clip that
   * repeats its frames ({@link REPEATING_CLIP_SWITCHES}). Counted as still frames, the repeats of a slowed clip
   * halved its scene's motion and its nets' swing.
   */
  pictured: Uint8Array;
}

export function motionTotals(features: FrameFeatures[]): MotionTotals {
  const n = features.length;
  const total = new Float64Array(n);
  const own = new Uint8Array(n);
  let switches = 0;
  for (let f = 0; f < n; f++) {
    const m = features[f].motion;
    let s = 0;
    for (let k = 0; k < m.length; k++) s += m[k];
    total[f] = s;
    own[f] = ownPicture(features[f]) ? 1 : 0;
    if (f > 0 && own[f] !== own[f - 1]) switches++;
  }
  const pictured = n && switches / n >= REPEATING_CLIP_SWITCHES ? own : new Uint8Array(n).fill(1);
  const counted = Array.from(total).filter((_, f) => pictured[f]).sort((a, b) => a - b);
  return { total, median: counted[counted.length >> 1] ?? 0, pictured };
}

/**
 * Moving pixels away from the shooter in the second before the release, relative to the
 * clip's median per frame (Infinity when it cannot be measured).
 */
export function sceneCalm(
  s: Pick<ShotDetection, 'releaseFrame' | 'releaseX' | 'releaseY'>,
  features: FrameFeatures[],
  motion: MotionTotals,
  hoop: Pick<HoopEstimate, 'w'>,
  path: CameraPath,
  fps: number,
): number {
  const { total, median, pictured } = motion;
  if (median <= 0) return Infinity;
  const f0 = Math.max(0, s.releaseFrame - Math.round(1.2 * fps));
  const f1 = Math.max(0, s.releaseFrame - Math.round(0.15 * fps));
  if (f1 - f0 < fps / 2) return Infinity;
  const rad = 2.5 * hoop.w;
  let sum = 0;
  let n = 0;
  for (let f = f0; f < f1; f++) {
    if (!pictured[f]) continue;
    n++;
    const ft = features[f];
    const { x: rx, y: ry } = toPicture(path, f, s.releaseX, s.releaseY);
    let near = 0;
    for (let gy = 0; gy < ft.gridH; gy++) {
      for (let gx = 0; gx < ft.gridW; gx++) {
        const v = ft.motion[gy * ft.gridW + gx];
        if (!v) continue;
        if (Math.abs((gx + 0.5) * GRID - rx) < rad && Math.abs((gy + 0.5) * GRID - ry) < 2 * rad) near += v;
      }
    }
    sum += total[f] - near;
  }
  return n ? sum / n / median : Infinity;
}

function hoopRecords(
  goals: HoopEstimate[],
  scoredOn: Set<number>,
  path: CameraPath,
  frames: number,
  fps: number,
  dims: { width: number; height: number },
  spans: Array<[number, number]> = [],
): HoopRecord[] {
  const moving = path.ox.some((v) => v !== 0) || path.oy.some((v) => v !== 0) || path.zoom !== undefined;
  const step = moving ? Math.max(1, Math.round(fps)) : Math.max(1, frames - 1);
  return goals.map((h, i) => {
    const [f0, f1] = spans[i] ?? [0, frames - 1];
    const samples = [];
    for (let f = f0; f <= f1; f += step) samples.push(hoopSample(h, path, f, fps, dims));
    if (f1 > f0 && (f1 - f0) % step !== 0) samples.push(hoopSample(h, path, f1, fps, dims));
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
      is_target: i === 0 || scoredOn.has(i),
      confidence: round(h.confidence, 3),
    };
  });
}

function hoopSample(h: HoopEstimate, path: CameraPath, f: number, fps: number, dims: { width: number; height: number }) {
  const [x, y] = pictureNormed(path, f, h.x, h.y, dims);
  return {
    t: round(f / fps, 3),
    x,
    y,
    w: round((h.w * zoomAt(path, f)) / dims.width),
  };
}

function shotAction(
  s: ShotDetection,
  index: number,
  hoop: HoopEstimate,
  hoopId: number,
  path: CameraPath,
  fps: number,
  dims: { width: number; height: number },
  total: number,
  isFt: boolean,
): ShotAction {
  const base = 2;
  const rf = s.releaseFrame;
  const isThree: boolean | null = null;
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
    shot_image: pictureNormed(path, rf, s.releaseX, s.releaseY, dims),
    shot_world: null,
    hoop_image: pictureNormed(path, rf, hoop.x, hoop.y, dims),
    hoop_id: hoopId,
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
    .map((p) => {
      const [x, y] = pictureNormed(path, p.frame, p.x, p.y, dims);
      return {
        t: round(p.frame / fps, 3),
        x,
        y,
        r: round((p.r * zoomAt(path, p.frame)) / dims.width),
        confidence: round(p.conf, 3),
        source: 'motion' as const,
      };
    });
}
