import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { highlights, sessions } from '../../db/schema';
import { failManualHighlight, finishManualHighlight } from '../../domain/highlights/manual-highlights';
import { renderHighlightClip, type FocusPoint, type HighlightClipResult } from '../../media/clips';
import { probeVideo } from '../../media/ffmpeg';
import { getMediaStorage, mediaKeys } from '../../media/storage';
import { inngest } from '../client';
import { highlightRequested } from '../events';
import { jobSignal, localSource, workDir } from '../pipeline/steps';

/** Ball positions inside the window from the session's `balls` artifact (4 a second), so the vertical crop follows the ball. */
async function ballFocus(key: string | null | undefined, start: number, end: number): Promise<FocusPoint[]> {
  if (!key) return [];
  try {
    const obj = await getMediaStorage().get(key);
    if (!obj) return [];
    let text = '';
    for await (const chunk of obj.stream) text += chunk.toString();
    const points: FocusPoint[] = [];
    let last = -Infinity;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const b = JSON.parse(line) as { t?: number; x?: number; y?: number };
      if (typeof b.t !== 'number' || typeof b.x !== 'number' || typeof b.y !== 'number') continue;
      if (b.t < start || b.t > end || b.t - last < 0.25) continue;
      points.push({ t: b.t, x: b.x, y: b.y });
      last = b.t;
    }
    return points;
  } catch {
    return [];
  }
}

/**
 * Cuts a manual highlight with the same renditions as automatic ones (`renderHighlightClip`),
 * attaches it to the nearest shot and marks it ready. It never charges and never records an
 * Event: the session stays `processed`, and `GET /v1/sessions/{id}` simply shows the new
 * highlight. A highlight deleted while it was being cut has its files removed.
 */
export const cutManualHighlight = inngest.createFunction(
  {
    id: 'cut-manual-highlight',
    triggers: [{ event: highlightRequested }],
    idempotency: 'event.data.highlight_id',
    concurrency: [{ limit: 1 }],
    retries: 2,
    onFailure: async ({ event, step }) => {
      await step.run('mark-failed', () => failManualHighlight(getDb(), event.data.event.data.highlight_id as string));
    },
  },
  async ({ event, step }) => {
    const { highlight_id: highlightId, session_id: sessionId } = event.data;
    const cut = (await step.run('cut', async () => {
      const db = getDb();
      const [row] = await db.select().from(highlights).where(eq(highlights.id, highlightId));
      const [session] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
      if (!row || row.status !== 'processing' || !session?.video.original) return null;
      const storage = getMediaStorage();
      try {
        const input = await localSource(sessionId, session.video.original);
        const probe = await probeVideo(input);
        const start = row.startSeconds ?? 0;
        const end = start + row.lengthSeconds;
        return await renderHighlightClip({
          sessionId,
          input,
          probe,
          storage,
          signal: jobSignal(),
          clip: { highlightId, start, end, focus: await ballFocus(session.artifacts.balls, start, end) },
        });
      } finally {
        if (!storage.localPath) await rm(workDir(sessionId), { recursive: true, force: true });
      }
    })) as HighlightClipResult | null;
    if (!cut) return { status: 'skipped' };
    const kept = await step.run('finish', async () => {
      const ok = await finishManualHighlight(getDb(), { highlightId, clip: cut });
      if (!ok) await getMediaStorage().delete(mediaKeys.highlightPrefix(sessionId, highlightId));
      return ok;
    });
    return { status: kept ? 'ready' : 'deleted' };
  },
);
