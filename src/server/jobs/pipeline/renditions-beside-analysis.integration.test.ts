import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOrg } from '../../../test/db';
import { createSession } from '../../domain/sessions/create-session';
import { beginStage, endStage, failSession, loadSession, markProcessing } from '../../domain/sessions/lifecycle';
import { runFfmpeg } from '../../media/ffmpeg';
import { LocalMediaStorage, mediaKeys, setMediaStorage } from '../../media/storage';
import { makeTestVideo } from '../../media/test-videos';
import { renderRenditionsBesideAnalysis, RENDITIONS_NICENESS } from './steps';

/**
 * The session renditions made beside the analysis (`render-session-renditions`): at a lower
 * CPU priority, without taking the session's liveness from the analysis, and stopped when the
 * analysis fails the session.
 */

let dir: string;
let storage: LocalMediaStorage;
const savedDataDir = process.env.DATA_DIR;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-renditions-beside-'));
  process.env.DATA_DIR = join(dir, 'data');
  storage = new LocalMediaStorage(join(dir, 'media'));
  setMediaStorage(storage);
  await makeTestVideo({ path: join(dir, 'short.mp4'), width: 1280, height: 720, seconds: 2, audio: true });
  // a minute of 1080p made cheaply: 4 s encoded once, then repeated by stream copy
  await makeTestVideo({ path: join(dir, 'loop.mp4'), width: 1920, height: 1080, seconds: 4, audio: false });
  await runFfmpeg(['-stream_loop', '14', '-i', join(dir, 'loop.mp4'), '-c', 'copy', join(dir, 'long.mp4')]);
}, 300_000);

afterAll(async () => {
  setMediaStorage(undefined);
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  await rm(dir, { recursive: true, force: true });
});

/** A processing session whose `original` is `file`, its analysis stage running (heartbeat set). */
async function processingSession(file: string) {
  const { db, org } = await makeOrg({ grantCents: 10_000 });
  const { session } = await createSession(db, { organizationId: org.id, apiKeyId: null, input: { source: { url: 'https://example.com/game.mp4' }, duration_seconds: 60 } });
  expect(await markProcessing(db, session.id)).toBe(true);
  await beginStage(db, session.id);
  const originalKey = mediaKeys.sessionOriginal(session.id, 'mp4');
  await storage.putFile(originalKey, file, 'video/mp4', { move: false });
  return { db, sessionId: session.id, originalKey };
}

/**
 * `nice` of every thread of the running ffmpeg processes whose command line mentions `needle`,
 * keyed by thread id and start time (a thread id freed by an ended thread can be given to a new
 * one), and which of them are the processes' main threads.
 */
function ffmpegNiceness(needle: string): { threads: Map<string, number>; main: number[] } {
  const threads = new Map<string, number>();
  const main: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      // ffmpeg itself: not the `nice` launcher it is started through, before it becomes ffmpeg
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'ffmpeg') continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]; // field 22
        const nice = getPriority(Number(tid));
        threads.set(`${tid}@${startTime}`, nice);
        if (tid === pid) main.push(nice);
      }
    } catch {
      // ended meanwhile
    }
  }
  return { threads, main };
}

describe('session renditions beside the analysis', () => {
  it('renders the renditions and records their time without parking the running analysis', async () => {
    const { db, sessionId, originalKey } = await processingSession(join(dir, 'short.mp4'));
    const keys = await renderRenditionsBesideAnalysis(db, sessionId, originalKey);
    expect(keys).toMatchObject({ '720p': mediaKeys.sessionRendition(sessionId, '720p'), '360p': mediaKeys.sessionRendition(sessionId, '360p'), '1080p': null });
    expect(await storage.exists(keys!['360p']!)).toBe(true);
    const row = (await loadSession(db, sessionId))!;
    expect(row.timings.renditions).toBeGreaterThan(0);
    expect(row.heartbeatAt).not.toBeNull(); // still the analysis's liveness
  }, 60_000);

  it('does nothing for a session that is no longer processing', async () => {
    const { db, sessionId, originalKey } = await processingSession(join(dir, 'short.mp4'));
    await failSession(db, { sessionId, code: 'no_shots' });
    expect(await renderRenditionsBesideAnalysis(db, sessionId, originalKey)).toBeNull();
    expect(await storage.exists(mediaKeys.sessionRendition(sessionId, '360p'))).toBe(false);
  }, 60_000);

  it('encodes at a lower priority from its start while the analysis runs, at normal priority after it, and stops when the session fails', async () => {
    const { db, sessionId, originalKey } = await processingSession(join(dir, 'long.mp4'));
    const rendering = renderRenditionsBesideAnalysis(db, sessionId, originalKey);
    const normal = getPriority(); // ours: the encoder's priority is relative to it
    let during = ffmpegNiceness(sessionId);
    for (let i = 0; i < 100 && during.threads.size < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      during = ffmpegNiceness(sessionId);
    }
    // lowered from its start: no thread of it ever seen at normal priority; x264's helper
    // threads lower themselves 10 further (19)
    expect(during.main).toEqual([normal + RENDITIONS_NICENESS]);
    expect(during.threads.size).toBeGreaterThan(1);
    for (const nice of during.threads.values()) expect(nice).toBeGreaterThanOrEqual(normal + RENDITIONS_NICENESS);
    // threads whose niceness is settled: x264's helpers lower themselves after they start, so a
    // helper sampled in between would read one step off after the shift (seen once in a full run)
    await new Promise((r) => setTimeout(r, 300));
    const settled = ffmpegNiceness(sessionId).threads;
    for (const [thread, nice] of during.threads) if (settled.get(thread) !== nice) during.threads.delete(thread);
    // the analysis ends: every thread of the encoder is shifted back, keeping x264's offsets
    await endStage(db, sessionId, 'analyse', 1000);
    let after = ffmpegNiceness(sessionId);
    for (let i = 0; i < 100 && after.main[0] !== normal; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = ffmpegNiceness(sessionId);
    }
    expect(after.main).toEqual([normal]);
    let compared = 0;
    for (const [thread, nice] of after.threads) {
      const before = during.threads.get(thread);
      if (before === undefined) continue; // started since
      expect(nice).toBe(before - RENDITIONS_NICENESS);
      compared++;
    }
    expect(compared).toBeGreaterThan(1);
    await failSession(db, { sessionId, code: 'no_hoops' });
    expect(await rendering).toBeNull(); // null: stopped by the session's status, not finished
    // the encoder was sent SIGTERM and exits
    for (let i = 0; i < 100 && ffmpegNiceness(sessionId).threads.size; i++) await new Promise((r) => setTimeout(r, 100));
    expect(ffmpegNiceness(sessionId).threads.size).toBe(0);
    expect(await storage.exists(mediaKeys.sessionRendition(sessionId, '1080p'))).toBe(false);
  }, 120_000);
});
