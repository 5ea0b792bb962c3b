import type { DerivedSession } from '../../analysis/derive';
import { newId } from '../../domain/ids';
import type { CompletedRows } from '../../domain/sessions/lifecycle';
import type { PlayerMoment } from '../../media/player-thumbnails';

/** Seconds of play kept before the release and after the ball reaches the rim in a highlight. */
export const CLIP_LEAD_SECONDS = 3;
export const CLIP_TAIL_SECONDS = 2;

export interface ClipSpec {
  highlightId: string;
  start: number;
  end: number;
  /** Normalised action points at source times (ball positions), for the vertical crop path. */
  focus: Array<{ t: number; x: number; y: number }>;
  /** The key moment for the previews: when the ball reaches the rim. */
  previewAt: number;
}

/**
 * Turns a derivation into database rows with fresh ids (shots, one highlight per shot,
 * players, totals), the clip windows to cut and the moments to picture each player at. Runs once, inside a memoised step, so a
 * retried pipeline reuses the same ids. A video cut together from several recordings (`scenes`, the analyser's) keeps
 * each highlight within the recording of its shot: a clip does not run on into another camera's picture.
 */
export function buildSessionRows(
  derived: DerivedSession,
  opts: { durationSeconds: number; balls: Array<{ t: number; x: number; y: number }>; hoop?: [number, number] | null; scenes?: Array<[number, number]> | null },
): { rows: CompletedRows; clips: ClipSpec[]; moments: PlayerMoment[] } {
  const playerIdByTrack = new Map(derived.players.map((p) => [p.track, newId('player')]));
  const pid = (track: number | null) => (track === null ? null : (playerIdByTrack.get(track) ?? null));
  const players = derived.players.map((p, i) => ({
    id: playerIdByTrack.get(p.track)!,
    teamId: p.teamId,
    jersey: p.jersey,
    stats: p.stats,
    number: i + 1,
    colour: p.colour,
  }));
  const moments = derived.players.flatMap((p) => (p.seen ? [{ playerId: playerIdByTrack.get(p.track)!, ...p.seen }] : []));
  const shots: CompletedRows['shots'] = [];
  const highlights: CompletedRows['highlights'] = [];
  const clips: ClipSpec[] = [];
  for (const s of derived.shots) {
    const shotId = newId('shot');
    const highlightId = newId('highlight');
    const scene = opts.scenes?.find(([from, to]) => s.startSeconds >= from && s.startSeconds < to);
    const start = Math.max(0, scene?.[0] ?? 0, s.startSeconds - CLIP_LEAD_SECONDS);
    const end = Math.min(opts.durationSeconds, scene?.[1] ?? Infinity, Math.max(s.endSeconds, s.rimSeconds) + CLIP_TAIL_SECONDS);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    shots.push({
      id: shotId,
      index: s.index,
      startSeconds: s.startSeconds,
      endSeconds: s.endSeconds,
      made: s.made,
      points: s.points,
      type: s.type,
      isThreePoint: s.isThreePoint,
      isFreeThrow: s.isFreeThrow,
      isFouled: s.isFouled,
      shotImageNormed: s.shotImageNormed,
      shotWorldNormed: s.shotWorldNormed,
      hoopImageNormed: s.hoopImageNormed,
      excitementScore: s.excitementScore,
      scorerId: pid(s.scorerTrack),
      assisterId: pid(s.assisterTrack),
      rebounderId: pid(s.rebounderTrack),
      highlightId,
    });
    highlights.push({
      id: highlightId,
      shotId,
      shotIndex: s.index,
      lengthSeconds: round(end - start),
      isLowlight: s.made === false,
      isManual: false,
      playerId: pid(s.scorerTrack),
      video: {},
      preview: {},
    });
    const inWindow = opts.balls.filter((b) => b.t >= start && b.t <= end);
    const step = Math.max(1, Math.floor(inWindow.length / ((end - start) * 4)));
    const focus = inWindow.filter((_, i) => i % step === 0).map((b) => ({ t: round(b.t), x: b.x, y: b.y }));
    if (focus.length === 0 && s.shotImageNormed) focus.push({ t: s.startSeconds, x: s.shotImageNormed[0], y: s.shotImageNormed[1] });
    clips.push({ highlightId, start: round(start), end: round(end), focus, previewAt: Math.min(end, s.rimSeconds) });
  }
  return { rows: { players, shots, highlights, totals: derived.totals }, clips, moments };
}
