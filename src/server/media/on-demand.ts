import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { logger } from '../logger';
import { encodeHighlightRendition } from './clips';
import { mediaKeys, onDemandHighlightRendition, type MediaStorage } from './storage';

/**
 * Highlight renditions made on their first request (just-in-time encoding, as video
 * platforms do for the renditions of an asset): a session is `processed` once each highlight
 * has its `default` and `horizontal` clips and previews; a `480p`…`144p` rendition is encoded
 * from the stored `horizontal` clip the first time its URL is fetched, stored at its key and
 * served from storage ever after. See the media README, "Highlight renditions on demand".
 */

/** Longest an on-demand encode may take before the request gets an error (a 10 s clip takes about a second). */
const RENDER_TIMEOUT_MS = 120_000;

const inflight = new Map<string, Promise<boolean>>();
/** Keys known to exist, so a bucket is not asked again on every request (bounded; cleared when full). */
const made = new Set<string>();
const MADE_CACHE_SIZE = 50_000;
let running = 0;
const waiting: Array<() => void> = [];

/** Encodes attempted by this process (tests read it to check that concurrent requests share one). */
export const onDemandStats = { attempts: 0 };

/** At most `SWISH_ON_DEMAND_CONCURRENCY` encodes at once (default 2, one per core); the others queue in order. */
function concurrency(): number {
  const n = Number(process.env.SWISH_ON_DEMAND_CONCURRENCY ?? 2);
  return Number.isInteger(n) && n >= 1 ? n : 2;
}

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= concurrency()) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Makes sure the on-demand rendition stored at `key` exists, encoding it now if it does not.
 * Returns false when `key` is not an on-demand rendition or cannot be made (its highlight's
 * horizontal clip is gone, or the rendition would not be below it). Requests for the same key
 * share one encode; a failed encode rejects every waiting request and the next one retries.
 */
export function ensureOnDemandRendition(storage: MediaStorage, key: string): Promise<boolean> {
  const parts = onDemandHighlightRendition(key);
  if (!parts) return Promise.resolve(false);
  if (made.has(key)) return Promise.resolve(true);
  const pending = inflight.get(key);
  if (pending) return pending;
  const run = (async () => {
    if (await storage.exists(key)) return true;
    return withSlot(async () => {
      if (await storage.exists(key)) return true;
      const horizontalKey = mediaKeys.highlightVideo(parts.sessionId, parts.highlightId, 'horizontal');
      const work = await mkdtemp(join(tmpdir(), 'swish-on-demand-'));
      try {
        // local disk: read in place; a bucket: fetched into the scratch directory first
        let horizontalFile = storage.localPath?.(horizontalKey);
        if (!horizontalFile) {
          const horizontal = await storage.get(horizontalKey);
          if (!horizontal) return false;
          horizontalFile = join(work, 'horizontal.mp4');
          await pipeline(horizontal.stream, createWriteStream(horizontalFile));
        } else if (!(await storage.exists(horizontalKey))) return false;
        const output = join(work, 'rendition.mp4');
        const t0 = performance.now();
        onDemandStats.attempts++;
        const encoded = await encodeHighlightRendition({ horizontalFile, shortSide: parts.shortSide, output, signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) });
        if (!encoded) return false;
        // the session may have been deleted meanwhile: then nothing is stored
        if (!(await storage.exists(horizontalKey))) return false;
        await storage.putFile(key, output, 'video/mp4', { move: true });
        logger.info({ key, ms: Math.round(performance.now() - t0) }, 'highlight rendition made on demand');
        return true;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
  })();
  inflight.set(key, run);
  const forget = () => inflight.delete(key);
  run.then((exists) => {
    forget();
    if (!exists) return;
    if (made.size >= MADE_CACHE_SIZE) made.clear();
    made.add(key);
  }, forget);
  return run;
}
