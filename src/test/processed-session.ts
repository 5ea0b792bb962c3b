import { deriveSession, pointSystemOf } from '../server/analysis/derive';
import type { ActionRecord, ClusterRecord, ShotAction } from '../server/analysis/types';
import type { Database } from '../server/db/client';
import { createSession } from '../server/domain/sessions/create-session';
import { completeSession, loadSession, markProcessing } from '../server/domain/sessions/lifecycle';
import { buildSessionRows } from '../server/jobs/pipeline/rows';

export function shotAction(over: Partial<ShotAction> & Pick<ShotAction, 'id' | 'release_t'>): ShotAction {
  return {
    type: 'shot', index: 0, rim_t: over.release_t + 1, end_t: over.release_t + 1.5, made: true, made_confidence: 0.9,
    is_free_throw: false, is_three_point: false, points: 2, kind: 'swish', shooter_track: 1, assister_track: null,
    rebounder_track: null, shot_image: [0.4, 0.6], shot_world: [0.5, 0.3], hoop_image: [0.5, 0.2], hoop_id: 0,
    excitement: 0.5, confidence: 0.9, ...over,
  };
}

export const cluster = (track_id: number, team: 0 | 1 | null, jersey: string | null = null): ClusterRecord => ({
  track_id, team, jersey_rgb: [255, 255, 255], jersey_number: jersey, t_start: 0, t_end: 60, frames: 100, thumb_t: 1,
  thumb_box: [0, 0, 0.1, 0.3], confidence: 0.8,
});

/**
 * A processed session made the way the pipeline makes one, minus the video: submitted with
 * `options` (a real hold), marked processing, then completed with the rows derived from the
 * given analyser actions under the stored point system (settled, `session.processed` recorded).
 */
export async function makeProcessedSession(
  db: Database,
  opts: { organizationId: string; options?: Record<string, unknown>; actions: ActionRecord[]; clusters: ClusterRecord[]; durationSeconds?: number },
) {
  const durationSeconds = opts.durationSeconds ?? 120;
  const { session } = await createSession(db, {
    organizationId: opts.organizationId,
    apiKeyId: null,
    input: { source: { url: 'https://videos.example/game.mp4' }, duration_seconds: durationSeconds, options: opts.options as never },
  });
  await markProcessing(db, session.id);
  const stored = (await loadSession(db, session.id))!;
  const derived = deriveSession({ actions: opts.actions, clusters: opts.clusters }, { pointSystem: pointSystemOf(stored.options) });
  const { rows } = buildSessionRows(derived, { durationSeconds, balls: [] });
  await completeSession(db, {
    sessionId: session.id,
    durationSeconds,
    runVersion: 1,
    media: { width: 640, height: 360, fps: 30, video: {}, artifacts: { actions: null, balls: null, hoops: null, clusters: null } },
    rows,
  });
  return session.id;
}
