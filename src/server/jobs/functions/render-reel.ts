import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NonRetriableError } from 'inngest';
import { getDb } from '../../db/client';
import { failReel, finishReel, startReelRender } from '../../domain/reels/reels';
import { renderReel } from '../../media/reel';
import { getMediaStorage, mediaKeys } from '../../media/storage';
import { inngest } from '../client';
import { reelRequested } from '../events';
import { jobSignal, materialise } from '../pipeline/steps';

/**
 * Renders a reel: the vertical (`default`) or `horizontal` rendition of each chosen
 * highlight, concatenated and re-encoded into one MP4 with a poster (`renderReel`). Clips
 * deleted since the reel was created are left out; a reel with none left fails; a reel
 * deleted while it rendered has its files removed. Shares the CPU with session processing,
 * so one reel renders at a time.
 */
export const renderReelFunction = inngest.createFunction(
  {
    id: 'render-reel',
    triggers: [{ event: reelRequested }],
    idempotency: 'event.data.reel_id',
    concurrency: [{ limit: 1 }],
    retries: 2,
    onFailure: async ({ event, error, step }) => {
      await step.run('mark-failed', () => failReel(getDb(), event.data.event.data.reel_id as string, `Rendering failed: ${error.message}`));
    },
  },
  async ({ event, step }) => {
    const reelId = event.data.reel_id;
    const media = await step.run('render', async () => {
      const db = getDb();
      const started = await startReelRender(db, reelId);
      if (!started) return null;
      const keys = started.clipKeys.filter((k): k is string => Boolean(k));
      if (keys.length === 0) throw new NonRetriableError('None of the reel’s clips exist any more.');
      const storage = getMediaStorage();
      const work = await mkdtemp(join(tmpdir(), 'swish-reel-clips-'));
      try {
        const files: string[] = [];
        for (const [i, key] of keys.entries()) {
          if (storage.localPath) files.push(storage.localPath(key));
          else {
            await mkdir(work, { recursive: true });
            files.push(await materialise(key, join(work, `${i}.mp4`)));
          }
        }
        return await renderReel({ reelId, clips: files, storage, signal: jobSignal() });
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
    if (!media) return { status: 'skipped' };
    const kept = await step.run('finish', async () => {
      const ok = await finishReel(getDb(), reelId, media);
      if (!ok) await getMediaStorage().delete(mediaKeys.reelPrefix(reelId));
      return ok;
    });
    return kept ? { status: 'ready', durationSeconds: media.durationSeconds } : { status: 'deleted' };
  },
);
