import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { uploads } from '../../db/schema';
import { logger } from '../../logger';
import { contentTypeForKey, getMediaStorage } from '../../media/storage';
import { getBalance } from '../billing/credits';
import { costCents } from '../billing/money';
import { sessionForUpload } from '../dashboard/session-summaries';
import { AppError } from '../errors';
import { newId } from '../ids';
import { createSession } from '../sessions/create-session';
import { createUploadRecord, getUploadRow, markUploadComplete, markUploadExpired, uploadStorageKey } from './uploads';

/** A short synthetic game: long enough to show every feature, short enough to process in a minute or two. */
export const SAMPLE_GAME = { seconds: 60, width: 640, height: 360 } as const;

const failures = new Map<string, string>();

export interface SampleGameStatus {
  upload_id: string;
  state: 'rendering' | 'submitted' | 'failed';
  session_id: string | null;
  error: string | null;
}

/**
 * "Try a sample game": renders a synthetic game with the analyser's generator (in the
 * background, so the request returns at once) into media storage as an upload of the
 * organization, then submits it through `createSession` like any upload — the same hold,
 * pipeline, events and webhooks. `onSubmitted` starts processing (the caller's job queue).
 */
export async function startSampleGame(
  db: Database,
  opts: { organizationId: string; onSubmitted: (sessionId: string) => Promise<void>; seed?: number },
): Promise<SampleGameStatus> {
  const [org] = await db.query.organizations.findMany({ where: (o, { eq: e }) => e(o.id, opts.organizationId), limit: 1 });
  const balance = await getBalance(db, opts.organizationId);
  const needed = costCents(SAMPLE_GAME.seconds, org?.rateCentsPerHour ?? balance.rate_cents_per_hour);
  if (balance.available_cents < needed) {
    throw new AppError('insufficient_credits', {
      message: `The sample game needs ${needed}¢ of credit; ${balance.available_cents}¢ is available.`,
      extra: { needed_cents: needed, available_cents: balance.available_cents },
    });
  }
  const uploadId = newId('upload');
  const filename = 'sample-game.mp4';
  await createUploadRecord(db, { id: uploadId, organizationId: opts.organizationId, sizeBytes: 0, filename });
  void renderAndSubmit(db, { ...opts, uploadId, filename }).catch((err) => {
    logger.error({ err, upload: uploadId }, 'sample game failed');
    failures.set(uploadId, err instanceof AppError ? err.message : 'The sample game could not be rendered.');
    void markUploadExpired(db, uploadId).catch(() => {});
  });
  return { upload_id: uploadId, state: 'rendering', session_id: null, error: null };
}

/**
 * Renders with the synthetic game generator's CLI in a child process: rendering is CPU work
 * that must not block the server's event loop (and the generator is not part of the web
 * bundle). Returns the video's length in seconds.
 */
function renderInSubprocess(opts: { seed: number; out: string }): Promise<number> {
  const script = resolve(/*turbopackIgnore: true*/ process.cwd(), 'src', 'server', 'analysis', 'synth', 'cli.ts');
  const args = ['--seed', String(opts.seed), '--seconds', String(SAMPLE_GAME.seconds), '--width', String(SAMPLE_GAME.width), '--height', String(SAMPLE_GAME.height), '--out', opts.out];
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
    child.on('error', fail);
    child.on('close', async (code) => {
      if (code !== 0) return fail(new Error(`synthetic game render failed (exit ${code}): ${stderr.trim()}`));
      try {
        const truth = JSON.parse(await readFile(opts.out.replace(/\.mp4$/, '.json'), 'utf8'));
        ok(Number(truth.clips?.[0]?.media?.duration_s) || SAMPLE_GAME.seconds);
      } catch (err) {
        fail(err);
      }
    });
  });
}

async function renderAndSubmit(
  db: Database,
  opts: { organizationId: string; uploadId: string; filename: string; seed?: number; onSubmitted: (sessionId: string) => Promise<void> },
) {
  const dir = join(/*turbopackIgnore: true*/ tmpdir(), 'swish-sample', opts.uploadId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, opts.filename);
  try {
    const durationSeconds = await renderInSubprocess({ seed: opts.seed ?? 7, out: file });
    const { size } = await stat(file);
    const key = uploadStorageKey(opts.uploadId, opts.filename);
    await getMediaStorage().putFile(key, file, contentTypeForKey(key), { move: true });
    await db.update(uploads).set({ sizeBytes: size }).where(eq(uploads.id, opts.uploadId));
    await markUploadComplete(db, { id: opts.uploadId, storageKey: key });
    const created = await createSession(db, {
      organizationId: opts.organizationId,
      apiKeyId: null,
      input: {
        source: { type: 'upload', upload_id: opts.uploadId },
        duration_seconds: Math.max(1, Math.ceil(durationSeconds)),
        metadata: { name: 'Sample game', sample: 'true' },
        options: { session_type: '3v3', camera_setup: 'stationary' },
      },
    });
    await opts.onSubmitted(created.session.id);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where a sample game is: still rendering, submitted (with its session), or failed. */
export async function sampleGameStatus(db: Database, opts: { organizationId: string; uploadId: string }): Promise<SampleGameStatus> {
  const row = await getUploadRow(db, { organizationId: opts.organizationId, id: opts.uploadId });
  const sessionId = row.status === 'complete' ? await sessionForUpload(db, { organizationId: opts.organizationId, uploadId: row.id }) : null;
  const error = failures.get(row.id) ?? (row.status === 'expired' ? 'The sample game could not be rendered.' : null);
  return {
    upload_id: row.id,
    state: sessionId ? 'submitted' : error ? 'failed' : 'rendering',
    session_id: sessionId,
    error,
  };
}
