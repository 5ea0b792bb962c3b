import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { extname, join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { deriveSession, pointSystemOf } from '../../analysis/derive';
import { analyseInSubprocess, readArtifacts } from '../../analysis/subprocess';
import type { AnalysisOptions } from '../../analysis/types';
import type { Database } from '../../db/client';
import { uploads } from '../../db/schema';
import { maxVideoHeight, maxVideoSeconds } from '../../domain/sessions/limits';
import { endStage, loadSession, measuredOf, recordProgress } from '../../domain/sessions/lifecycle';
import { MediaToolError, probeVideo, type VideoProbe } from '../../media/ffmpeg';
import { shiftProcessNiceness } from '../../media/ffmpeg-progress';
import { shutdownSignal } from '../../shutdown';
import { originalExtension, renderSessionMedia, type SessionMediaKeys } from '../../media/renditions';
import { getMediaStorage, mediaKeys } from '../../media/storage';
import { buildSessionRows } from './rows';
import { fetchSource, ProcessingFailure } from './source';

/** No progress for this long fails the job with `timeout` (SWISH_JOB_TIMEOUT, seconds; default 2 h). */
export const jobTimeoutSeconds = () => Number(process.env.SWISH_JOB_TIMEOUT ?? 7200);

/** The signal of a job step without a watchdog (a manual highlight, a reel): the job timeout, or the process's stop. */
export const jobSignal = (): AbortSignal => AbortSignal.any([AbortSignal.timeout(jobTimeoutSeconds() * 1000), shutdownSignal()]);

export function workDir(sessionId: string): string {
  return resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data', 'work', sessionId);
}

/**
 * A watchdog for one long step: aborts when `beat()` has not been called for the job
 * timeout, and records dashboard progress (throttled) on each beat. It also aborts when the
 * process stops (`shutdownSignal`), with a `ShuttingDown` that is no processing failure: the
 * run resumes at the next start.
 */
export function watchdog(db: Database, sessionId: string, stage: string, opts: { recordProgress?: boolean } = {}) {
  const controller = new AbortController();
  const stopping = shutdownSignal();
  const limit = jobTimeoutSeconds() * 1000;
  let timer = setTimeout(() => controller.abort(new ProcessingFailure('timeout', `No progress for ${jobTimeoutSeconds()} s.`)), limit);
  let lastWrite = 0;
  return {
    signal: AbortSignal.any([controller.signal, stopping]),
    beat(progress: number) {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new ProcessingFailure('timeout', `No progress for ${jobTimeoutSeconds()} s.`)), limit);
      if (opts.recordProgress !== false && Date.now() - lastWrite > 2000) {
        lastWrite = Date.now();
        void recordProgress(db, sessionId, stage, progress).catch(() => {});
      }
    },
    done() {
      clearTimeout(timer);
    },
    /** The timeout failure when the watchdog fired, the `ShuttingDown` when the process stops, else the original error. */
    reason(err: unknown) {
      if (controller.signal.aborted) return controller.signal.reason as ProcessingFailure;
      return stopping.aborted ? stopping.reason : err;
    },
  };
}

/**
 * Runs a long stage under a watchdog: `progress` maps the stage's 0–1 progress onto the
 * session's 0–100 (`range`); a stage silent for the job timeout is aborted and fails as `timeout`.
 */
export async function watched<T>(
  db: Database,
  sessionId: string,
  stage: string,
  range: [number, number],
  run: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
): Promise<T> {
  const dog = watchdog(db, sessionId, stage);
  try {
    return await run(dog.signal, (f) => dog.beat(range[0] + f * (range[1] - range[0])));
  } catch (err) {
    throw dog.reason(err);
  } finally {
    dog.done();
  }
}

export interface SourceStepResult {
  originalKey: string;
  probe: VideoProbe;
}

/**
 * Step 1–2: brings the source into storage as the session's `original` and probes it.
 * Throws ProcessingFailure for source problems and limits.
 */
export async function fetchAndProbe(db: Database, sessionId: string): Promise<SourceStepResult> {
  const session = await loadSession(db, sessionId);
  if (!session) throw new ProcessingFailure('unknown', 'The session no longer exists.');
  const dir = workDir(sessionId);
  await mkdir(dir, { recursive: true });
  let local: string;
  if (session.sourceType === 'upload') {
    const [up] = await db.select().from(uploads).where(eq(uploads.id, session.uploadId!));
    const storage = getMediaStorage();
    if (!up?.storageKey || !(await storage.exists(up.storageKey))) throw new ProcessingFailure('source_unavailable', 'The uploaded file is gone.');
    local = join(dir, `source${extname(up.filename ?? '') || '.mp4'}`);
    await materialise(up.storageKey, local);
  } else {
    local = join(dir, 'source.download');
    const dog = watchdog(db, sessionId, 'downloading');
    try {
      await Promise.race([
        fetchSource({ type: session.sourceType, url: session.sourceUrl! }, local, () => dog.beat(2)),
        new Promise((_, reject) => dog.signal.addEventListener('abort', () => reject(dog.signal.reason))),
      ]);
    } finally {
      dog.done();
    }
  }
  let probe: VideoProbe;
  try {
    probe = await probeVideo(local);
  } catch (err) {
    if (err instanceof MediaToolError) throw new ProcessingFailure('source_invalid', await notAVideo(local));
    throw err;
  }
  if (!(probe.durationSeconds > 0) || !probe.width || !probe.height) {
    throw new ProcessingFailure('source_invalid', 'The source has no decodable video frames.');
  }
  const measured = measuredOf(probe);
  if (probe.durationSeconds > maxVideoSeconds()) {
    throw new ProcessingFailure('video_too_large', `The video is ${Math.round(probe.durationSeconds)} s long; the limit is ${maxVideoSeconds()} s.`, measured);
  }
  if (Math.min(probe.width, probe.height) > maxVideoHeight()) {
    throw new ProcessingFailure('video_too_large', `The video is ${Math.min(probe.width, probe.height)}p; the limit is ${maxVideoHeight()}p.`, measured);
  }
  // named after its container (original.avi, .mkv, .webm …), so it is served with its own type
  const originalKey = mediaKeys.sessionOriginal(sessionId, await originalExtension(local, probe));
  await getMediaStorage().putFile(originalKey, local, undefined, { move: false });
  return { originalKey, probe };
}

/** Why a source that ffprobe refused is no video, as far as its first bytes tell. */
export async function notAVideo(path: string): Promise<string> {
  const head = await open(path)
    .then(async (file) => {
      try {
        const { buffer, bytesRead } = await file.read(Buffer.alloc(512), 0, 512, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    })
    .catch(() => Buffer.alloc(0));
  if (head.length === 0) return 'The source is empty (0 bytes).';
  const text = head.toString('latin1').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.includes('<head')) {
    return 'The source is a web page, not a video file: link to the video itself (or upload it).';
  }
  return 'The source is not a video that can be decoded.';
}

/**
 * A local file of a stored object: the file itself on local storage, a download otherwise.
 * The copy is written under a temporary name and renamed into place, so two steps running
 * at once (the analysis and the session renditions) never read a half-written file.
 */
export async function materialise(key: string, dest: string): Promise<string> {
  const storage = getMediaStorage();
  const part = `${dest}.${randomBytes(6).toString('hex')}.part`;
  try {
    if (storage.localPath) {
      await copyFile(storage.localPath(key), part);
    } else {
      const obj = await storage.get(key);
      if (!obj) throw new ProcessingFailure('source_unavailable', 'The stored source is gone.');
      await pipeline(obj.stream, createWriteStream(part));
    }
    await rename(part, dest);
  } finally {
    await rm(part, { force: true });
  }
  return dest;
}

/**
 * The session's source as a local file for ffmpeg: reused when a previous step of the run left it
 * whole (its size is the stored object's: `materialise` renames a copy into place only once it is
 * complete), so the analysis, the clips and the player pictures download a large game once.
 */
export async function localSource(sessionId: string, originalKey: string): Promise<string> {
  const storage = getMediaStorage();
  if (storage.localPath) return storage.localPath(originalKey);
  const dir = workDir(sessionId);
  await mkdir(dir, { recursive: true });
  const dest = join(dir, `original${extname(originalKey)}`);
  const [have, stored] = await Promise.all([stat(dest).catch(() => null), storage.stat(originalKey)]);
  if (have && stored && have.size === stored.size) return dest;
  return materialise(originalKey, dest);
}

/**
 * How many `nice` steps below normal the session renditions' encoder runs while the analysis
 * runs: the analysis keeps the CPU it needs. 9, so that x264's helper threads, which lower
 * themselves 10 below the encoder, land on 19 exactly (not capped) and come back to their
 * own 10 when the encoder is shifted back.
 */
export const RENDITIONS_NICENESS = 9;

/**
 * The session renditions, made while the analysis runs (they do not depend on it). While the
 * analysis runs the encoder is niced (`RENDITIONS_NICENESS` steps, from its start), so it
 * takes the share of the cores the analyser leaves idle; once the analysis has ended (its
 * time is in `sessions.timings`) every thread of it is shifted back to normal priority, so that on a busy host it is not left
 * behind every other process while the session waits for it (best effort: lowering a
 * niceness needs the right to). It leaves the session's progress and liveness to the stage
 * it runs beside. It stops — returning null — when the session is no longer processing (the
 * analysis failed it), and fails as `timeout` when the encoder is silent for the job
 * timeout. Idempotent: the keys are fixed per session.
 */
export async function renderRenditionsBesideAnalysis(db: Database, sessionId: string, originalKey: string): Promise<SessionMediaKeys | null> {
  const session = await loadSession(db, sessionId);
  if (session?.status !== 'processing') return null;
  const analysed = (row: typeof session) => row.timings.analyse !== undefined;
  let niced = !analysed(session);
  let encoder: number | undefined;
  const t0 = performance.now();
  const dog = watchdog(db, sessionId, 'rendering', { recordProgress: false });
  const ended = new AbortController();
  const poll = setInterval(() => {
    void loadSession(db, sessionId).then(
      (row) => {
        if (row?.status !== 'processing') ended.abort(new Error('the session is no longer processing'));
        else if (niced && analysed(row) && encoder !== undefined) niced = !shiftProcessNiceness(encoder, -RENDITIONS_NICENESS);
      },
      () => {},
    );
  }, 3000);
  try {
    const input = await localSource(sessionId, originalKey);
    const probe = await probeVideo(input, { signal: dog.signal });
    return await renderSessionMedia({
      sessionId,
      input,
      probe,
      storage: getMediaStorage(),
      signal: AbortSignal.any([dog.signal, ended.signal]),
      onProgress: (f) => dog.beat(f),
      niceness: niced ? RENDITIONS_NICENESS : 0,
      onEncoderSpawn: (pid) => (encoder = pid),
      originalKey, // stored by the source step: not a second copy
    });
  } catch (err) {
    if (ended.signal.aborted && !dog.signal.aborted) return null;
    throw dog.reason(err);
  } finally {
    clearInterval(poll);
    dog.done();
    await endStage(db, sessionId, 'renditions', performance.now() - t0, { park: false }).catch(() => {});
  }
}

/**
 * Step 3–4: analyses the video, stores the four artifacts, and derives the rows (with
 * fresh ids) and clip windows. Throws ProcessingFailure for `no_hoops` / `no_court` / `no_shots`.
 */
export async function analyseAndDerive(db: Database, sessionId: string, originalKey: string, durationSeconds: number) {
  const session = (await loadSession(db, sessionId))!;
  const o = session.options as Record<string, unknown>;
  const options: AnalysisOptions = {
    sessionType: o.session_type as AnalysisOptions['sessionType'],
    cameraSetup: o.camera_setup as AnalysisOptions['cameraSetup'],
    hasJerseys: o.has_jerseys as boolean | undefined,
    numPlayers: o.num_players as number | undefined,
    pointSystem: o.point_system as number | undefined,
  };
  const out = join(workDir(sessionId), 'artifacts');
  await rm(out, { recursive: true, force: true });
  const input = await localSource(sessionId, originalKey);
  const result = await watched(db, sessionId, 'analysing', [5, 65], (signal, onProgress) =>
    analyseInSubprocess(input, out, options, { signal, onProgress }),
  );
  const storage = getMediaStorage();
  const artifacts = {} as Record<'actions' | 'balls' | 'hoops' | 'clusters', string>;
  for (const name of ['actions', 'balls', 'hoops', 'clusters'] as const) {
    artifacts[name] = mediaKeys.sessionArtifact(sessionId, name);
    await storage.putFile(artifacts[name], result.files[name], 'application/x-ndjson');
  }
  if (result.outcome !== 'ok') {
    const messages = { no_hoops: 'No basketball hoop was found in this video.', no_court: 'No basketball court was found in this video.', no_shots: 'No shot attempts were found in this video.' };
    throw new ProcessingFailure(result.outcome, messages[result.outcome]);
  }
  const { actions, clusters, balls } = await readArtifacts(result.files);
  const derived = deriveSession({ actions, clusters }, { pointSystem: pointSystemOf(o) });
  if (derived.shots.length === 0) throw new ProcessingFailure('no_shots', 'No shot attempts were found in this video.');
  // a file cut short decodes fewer seconds than its container names: those are what it holds
  const measured = result.decodedSeconds !== null ? Math.min(durationSeconds, result.decodedSeconds) : durationSeconds;
  const built = buildSessionRows(derived, { durationSeconds: measured, balls, scenes: result.scenes });
  await recordProgress(db, sessionId, 'rendering', 66);
  return { runVersion: result.runVersion, artifacts, measuredSeconds: measured, ...built };
}
