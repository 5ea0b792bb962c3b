import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highlightRows, makeSessionWithVideo } from '../../../test/session-with-video';
import { events, highlights } from '../../db/schema';
import { inngest } from '../../jobs/client';
import { startTestInngest, type TestInngest } from '../../jobs/engine/testing';
import { cutManualHighlight } from '../../jobs/functions/cut-manual-highlight';
import { notifyHighlightRequested } from '../../jobs/notify';
import { probeVideo } from '../../media/ffmpeg';
import { LocalMediaStorage, setMediaStorage } from '../../media/storage';
import { getSession, listSessionHighlights } from '../sessions/read-sessions';
import { createManualHighlight, deleteManualHighlight, listManualHighlights, nearestShot } from './manual-highlights';
import { until as pollUntil } from '../../../test/until';

/** Polls `probe` every 200 ms until it is truthy (default 90_000 ms). */
const until = <T>(what: string, probe: Parameters<typeof pollUntil<T>>[1], timeoutMs = 90_000) => pollUntil<T>(what, probe, { timeoutMs, intervalMs: 200 });

/**
 * Manual highlights end to end: a processed session with a real video, the real
 * `cut-manual-highlight` function on the embedded engine, real ffmpeg cuts.
 */

let jobs: TestInngest;
let dir: string;
let storage: LocalMediaStorage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-manual-hl-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
  setMediaStorage(storage);
  jobs = await startTestInngest({ client: inngest, functions: [cutManualHighlight] });
});

afterAll(async () => {
  await jobs?.stop();
  setMediaStorage(undefined);
  await rm(dir, { recursive: true, force: true });
});


describe('nearestShot', () => {
  const list = [
    { id: 'a', startSeconds: 2, endSeconds: 4 },
    { id: 'b', startSeconds: 9, endSeconds: 11 },
    { id: 'c', startSeconds: 20, endSeconds: null },
  ];
  it('picks the overlapping shot whose middle is nearest the window middle, or none', () => {
    expect(nearestShot(list, 3, 12)?.id).toBe('b');
    expect(nearestShot(list, 0, 8)?.id).toBe('a');
    expect(nearestShot(list, 19.5, 25)?.id).toBe('c');
    expect(nearestShot(list, 12, 18)).toBeNull();
  });
});

describe('manual highlights', () => {
  it('cuts a marked window with every rendition, attaches it to the nearest shot, and shows it in the Session only when ready', async () => {
    const { db, org, sessionId, shotIds, playerIds } = await makeSessionWithVideo({
      seconds: 12,
      shots: [
        { start: 1, end: 2.5, made: true, scorer: 0 },
        { start: 7, end: 8.5, made: true, scorer: 1 },
      ],
    });
    const eventsBefore = (await db.select({ n: count() }).from(events).where(eq(events.sessionId, sessionId)))[0].n;

    const hl = await createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds: 5.5, endSeconds: 9.5 });
    expect(hl).toMatchObject({ status: 'processing', start_seconds: 5.5, length_seconds: 4, shot: null });
    // not in the public Session until cut
    expect((await getSession(db, { organizationId: org.id, id: sessionId })).highlights.total_count).toBe(0);

    await notifyHighlightRequested({ id: hl.id, sessionId }, org.id);
    const ready = await until('the clip cut', async () => (await listManualHighlights(db, { organizationId: org.id, sessionId })).find((h) => h.status === 'ready'));
    expect(ready).toMatchObject({ id: hl.id, shot: shotIds[1], player: playerIds[1] });
    expect(ready.length_seconds).toBeGreaterThan(3.8);
    expect(ready.length_seconds).toBeLessThan(4.2);

    const session = await getSession(db, { organizationId: org.id, id: sessionId });
    expect(session.highlights.total_count).toBe(1);
    const api = session.highlights.data[0];
    expect(api).toMatchObject({ id: hl.id, is_manual: true, is_lowlight: false, shot: shotIds[1], shot_index: 1, player: playerIds[1] });
    for (const name of ['default', 'horizontal', '360p', '240p', '144p'] as const) expect(api.video[name], name).toContain('/media/');
    expect(api.video['1080p']).toBeNull(); // never upscaled from a 360p source
    expect(api.preview.default).toContain('/media/');
    const [row] = await db.select().from(highlights).where(eq(highlights.id, hl.id));
    const vertical = await probeVideo(storage.localPath(row.video.default!));
    expect(vertical.height).toBeGreaterThan(vertical.width);
    expect(vertical.durationSeconds).toBeCloseTo(4, 0);
    expect((await listSessionHighlights(db, { organizationId: org.id, sessionId, params: {} })).data.map((h) => h.id)).toEqual([hl.id]);

    // no event, no charge: the session stays as it was
    const eventsAfter = (await db.select({ n: count() }).from(events).where(eq(events.sessionId, sessionId)))[0].n;
    expect(eventsAfter).toBe(eventsBefore);
    expect(session.status).toBe('processed');
  }, 120_000);

  it('a window with no shot is a highlight without a shot; deleting removes the row and its files', async () => {
    const { db, org, sessionId } = await makeSessionWithVideo({ seconds: 8, audio: false, shots: [{ start: 6, end: 7, made: false }] });
    const hl = await createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds: 0.5, endSeconds: 3 });
    await notifyHighlightRequested({ id: hl.id, sessionId }, org.id);
    await until('the clip cut', async () => (await highlightRows(db, sessionId)).find((h) => h.id === hl.id && h.status === 'ready'));
    const api = (await getSession(db, { organizationId: org.id, id: sessionId })).highlights.data[0];
    expect(api).toMatchObject({ id: hl.id, shot: null, shot_index: null, player: null, is_manual: true });
    const [row] = await highlightRows(db, sessionId);
    expect(await storage.exists(row.video.default!)).toBe(true);

    await deleteManualHighlight(db, { organizationId: org.id, sessionId, highlightId: hl.id });
    expect(await highlightRows(db, sessionId)).toEqual([]);
    expect(await storage.exists(row.video.default!)).toBe(false);
    await expect(deleteManualHighlight(db, { organizationId: org.id, sessionId, highlightId: hl.id })).rejects.toMatchObject({ code: 'resource_missing' });
  }, 120_000);

  it('a clip that cannot be cut ends `failed` after the retries and never enters the Session', async () => {
    const { db, org, sessionId, originalKey } = await makeSessionWithVideo({ seconds: 6, shots: [] });
    const hl = await createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds: 1, endSeconds: 3 });
    await storage.delete(originalKey); // the source is gone: ffmpeg fails on every attempt
    await notifyHighlightRequested({ id: hl.id, sessionId }, org.id);
    const failed = await until('the highlight failed', async () => (await listManualHighlights(db, { organizationId: org.id, sessionId })).find((h) => h.status === 'failed'));
    expect(failed.id).toBe(hl.id);
    expect((await getSession(db, { organizationId: org.id, id: sessionId })).highlights.total_count).toBe(0);
  }, 120_000);

  it('validates the window against the video and the limits; automatic highlights and other organizations are out of reach', async () => {
    const { db, org, sessionId, shotIds } = await makeSessionWithVideo({ seconds: 90, shots: [{ start: 1, end: 2, made: true }] });
    const mark = (startSeconds: number, endSeconds: number) => createManualHighlight(db, { organizationId: org.id, sessionId, startSeconds, endSeconds });
    await expect(mark(5, 5)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'end_seconds' });
    await expect(mark(80, 91)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'end_seconds', message: expect.stringContaining('past the end') });
    await expect(mark(10, 71)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'end_seconds', message: expect.stringContaining('60') });
    await expect(mark(10, 10.5)).rejects.toMatchObject({ code: 'parameter_invalid' });
    await expect(mark(-1, 3)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'start_seconds' });
    const other = await makeSessionWithVideo({ seconds: 5, shots: [] });
    await expect(createManualHighlight(db, { organizationId: other.org.id, sessionId, startSeconds: 1, endSeconds: 3 })).rejects.toMatchObject({
      code: 'resource_missing',
      status: 404,
    });
    const auto = 'hl_' + shotIds[0].slice(5);
    await db.insert(highlights).values({ id: auto, sessionId, shotId: shotIds[0], lengthSeconds: 5 });
    await expect(deleteManualHighlight(db, { organizationId: org.id, sessionId, highlightId: auto })).rejects.toMatchObject({ code: 'parameter_invalid' });
  }, 60_000);
});
