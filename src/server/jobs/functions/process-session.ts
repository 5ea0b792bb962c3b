import { rm } from 'node:fs/promises';
import { NonRetriableError } from 'inngest';
import { getDb } from '../../db/client';
import { autoRechargeDue } from '../../domain/billing/auto-recharge';
import { logger } from '../../logger';
import { beginStage, completeSession, endStage, failSession, markProcessing, measuredOf, recordProgress, type MeasuredVideo } from '../../domain/sessions/lifecycle';
import { renderHighlightClips } from '../../media/clips';
import { renderPlayerThumbnails } from '../../media/player-thumbnails';
import { getMediaStorage } from '../../media/storage';
import { inngest } from '../client';
import { autoRechargeRequested, eventRecorded, sessionSubmitted } from '../events';
import { analyseAndDerive, fetchAndProbe, jobSignal, localSource, watched, workDir, type SourceStepResult } from '../pipeline/steps';
import { renderSessionRenditions, type RenditionsOutcome } from './render-session-renditions';
import { ProcessingFailure } from '../pipeline/source';

type Outcome<T> = { ok: true; value: T } | { ok: false; code: ProcessingFailure['code']; message: string; measured?: MeasuredVideo };

/**
 * Runs a stage under the job timeout's watch and records its wall time; a known failure
 * becomes a value (memoised), anything else is retried by Inngest.
 */
async function attempt<T>(sessionId: string, stage: string, fn: () => Promise<T>): Promise<Outcome<T>> {
  const t0 = performance.now();
  await beginStage(getDb(), sessionId);
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof ProcessingFailure) return { ok: false, code: err.code, message: err.message, ...(err.measured ? { measured: err.measured } : {}) };
    throw err;
  } finally {
    await endStage(getDb(), sessionId, stage, performance.now() - t0).catch(() => {});
  }
}

/**
 * The session pipeline (DESIGN §5): source → probe → analyse → derive (with the session
 * renditions made meanwhile in their own run) → highlight clips → player pictures → settle → event. Each stage is a memoised step, so a crash or retry
 * resumes after the last finished one; settlement and failure are idempotent
 * transactions, so nothing is charged or recorded twice. A known failure (source, limits,
 * no hoop/shots, timeout) fails the session at once; an unexpected error is retried, then
 * fails the session as `unknown` (onFailure).
 */
export const processSession = inngest.createFunction(
  {
    id: 'process-session',
    triggers: [{ event: sessionSubmitted }],
    idempotency: 'event.data.session_id',
    concurrency: [{ limit: Number(process.env.SWISH_PROCESSING_CONCURRENCY ?? 1) }],
    retries: 3,
    onFailure: async ({ event, error, step }) => {
      const sessionId = event.data.event.data.session_id as string;
      // the customer sees the generic message; the cause (stderr, paths) stays in the logs
      logger.error({ sessionId, err: error }, 'processing failed after its retries');
      const failed = await step.run('fail-unknown', () => failSession(getDb(), { sessionId, code: 'unknown' }));
      if (failed) await step.sendEvent('fan-out-failed', eventRecorded.create({ event_id: failed.eventId, organization_id: event.data.event.data.organization_id as string }));
    },
  },
  async ({ event, step }) => {
    const { session_id: sessionId, organization_id: organizationId } = event.data;
    const db = getDb();

    // a failure after the probe keeps what it measured (length, size): the session says it
    const fail = async (code: ProcessingFailure['code'], message: string, measured?: MeasuredVideo) => {
      const failed = await step.run('fail', () => failSession(db, { sessionId, code, message, measured }));
      if (failed) await step.sendEvent('fan-out-failed', eventRecorded.create({ event_id: failed.eventId, organization_id: organizationId }));
      await step.run('cleanup-after-failure', () => rm(workDir(sessionId), { recursive: true, force: true }));
      return { status: 'failed', code };
    };

    const started = await step.run('start', () => markProcessing(db, sessionId));
    if (!started) return { status: 'skipped' };

    const source = (await step.run('source', () =>
      attempt(sessionId, 'source', async () => {
        await recordProgress(db, sessionId, 'downloading', 1);
        return fetchAndProbe(db, sessionId);
      }),
    )) as Outcome<SourceStepResult>;
    if (!source.ok) return fail(source.code, source.message, source.measured);
    const { originalKey, probe } = source.value;
    const measured = measuredOf(probe);

    // The session renditions do not depend on the analysis: they are made meanwhile, in their
    // own run at a lower CPU priority (the cores the analyser leaves idle, then those the
    // clips leave), and awaited before the settlement. A failed analysis or clip stage fails
    // the session without waiting; the renditions run then stops by itself.
    const renditionsRun = step.invoke('renditions', {
      function: renderSessionRenditions,
      data: { session_id: sessionId, original_key: originalKey },
    }) as Promise<RenditionsOutcome>;
    renditionsRun.catch(() => {}); // awaited below, or abandoned with a failed session
    const analysis = (await step.run('analyse', () =>
      attempt(sessionId, 'analyse', () => analyseAndDerive(db, sessionId, originalKey, probe.durationSeconds)),
    )) as Outcome<Awaited<ReturnType<typeof analyseAndDerive>>>;
    if (!analysis.ok) return fail(analysis.code, analysis.message, measured);
    const { rows, clips, moments, artifacts, runVersion, measuredSeconds } = analysis.value;

    const cut = (await step.run('clips', () =>
      attempt(sessionId, 'clips', async () => {
        const input = await localSource(sessionId, originalKey);
        return watched(db, sessionId, 'cutting highlights', [80, 99], (signal, onProgress) =>
          renderHighlightClips({ sessionId, input, probe, clips, storage: getMediaStorage(), signal, onProgress }),
        );
      }),
    )) as Outcome<Awaited<ReturnType<typeof renderHighlightClips>>>;
    if (!cut.ok) return fail(cut.code, cut.message, measured);

    // a picture of each player, for the dashboard to tell unnamed players apart. Best effort: a
    // player without one is shown by their colour, and no picture fails a session (an `analyse`
    // step memoised before pictures existed has no moments)
    const pictures = await step.run('player-pictures', async () => {
      if (!moments?.length) return {};
      const signal = jobSignal();
      const t0 = performance.now();
      try {
        const input = await localSource(sessionId, originalKey);
        return await renderPlayerThumbnails({ sessionId, input, probe, moments, storage: getMediaStorage(), signal });
      } catch (err) {
        if (signal.aborted) throw err;
        logger.warn({ sessionId, err }, 'player pictures failed');
        return {};
      } finally {
        await endStage(db, sessionId, 'pictures', performance.now() - t0).catch(() => {});
      }
    });

    const renditions = await renditionsRun;
    if (!renditions.ok) return fail(renditions.code, renditions.message, measured);
    if (!renditions.value) throw new NonRetriableError(`session ${sessionId}: the renditions stopped although the session is processing`);
    const video = renditions.value;

    const completed = await step.run('settle', async () => {
      const t0 = performance.now();
      const byId = new Map(cut.value.map((c) => [c.highlightId, c]));
      const done = await completeSession(db, {
        sessionId,
        // the seconds of video the analyser decoded (SPEC: charged per second of video processed);
        // an `analyse` step memoised by a run begun before that field existed has none
        durationSeconds: measuredSeconds ?? probe.durationSeconds,
        runVersion,
        media: { width: probe.width, height: probe.height, fps: probe.fps, video: { ...video, original: originalKey }, artifacts },
        rows: {
          ...rows,
          players: rows.players.map((p) => ({ ...p, thumbnailKey: (pictures as Record<string, string>)[p.id] ?? null })),
          highlights: rows.highlights.map((h) => {
            const media = byId.get(h.id!);
            return media ? { ...h, video: media.video, preview: media.preview, lengthSeconds: media.lengthSeconds ?? h.lengthSeconds } : h;
          }),
        },
      });
      await endStage(db, sessionId, 'settle', performance.now() - t0);
      return done;
    });
    if (!completed) throw new NonRetriableError(`session ${sessionId} could not be completed (already failed?)`);
    await step.sendEvent('fan-out-processed', eventRecorded.create({ event_id: completed.eventId, organization_id: organizationId }));
    // only a settlement that left the balance below the threshold asks (the hourly rate limit must not be spent on others)
    if (await step.run('auto-recharge-due', () => autoRechargeDue(db, organizationId))) {
      await step.sendEvent('auto-recharge', autoRechargeRequested.create({ organization_id: organizationId }));
    }
    await step.run('cleanup', () => rm(workDir(sessionId), { recursive: true, force: true }));
    return { status: 'processed', costCents: completed.costCents };
  },
);
