import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOrg } from '../../../test/db';
import { startTestS3Server, type TestS3Server } from '../../../test/s3-server';
import { renderSyntheticGame } from '../../analysis/synth/render';
import { and, eq } from 'drizzle-orm';
import { inngestSteps } from '../../db/schema';
import { playerDetails } from '../../domain/dashboard/session-summaries';
import { createSession } from '../../domain/sessions/create-session';
import { loadSession } from '../../domain/sessions/lifecycle';
import { getSession } from '../../domain/sessions/read-sessions';
import { ffprobePath } from '../../media/ffmpeg';
import { serveMedia } from '../../media/serve';
import { getMediaStorage, setMediaStorage } from '../../media/storage';
import { inngest } from '../client';
import { startTestInngest, type TestInngest } from '../engine/testing';
import { notifySessionSubmitted } from '../notify';
import { processSession } from './process-session';
import { renderSessionRenditions } from './render-session-renditions';

/**
 * The whole pipeline once with media in S3-compatible storage: `SWISH_S3_*` point at a local
 * S3 server (SigV4-checking), a synthetic game is submitted by URL and processed by the real
 * `process-session` function on the embedded engine; every media URL of the processed
 * Session is a presigned S3 URL that downloads and probes as the right video, but for the
 * highlights' smaller renditions, made on demand: the app's URL, which makes the rendition in
 * the bucket and redirects to its presigned URL.
 */

const run = promisify(execFile);
let s3: TestS3Server;
let jobs: TestInngest;
let dir: string;
let source: Server;
let sourceUrl: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-s3-pipeline-'));
  s3 = await startTestS3Server();
  Object.assign(process.env, s3.env('swish'), { SWISH_ALLOW_PRIVATE_SOURCES: '1', DATA_DIR: join(dir, 'data') });
  setMediaStorage(undefined); // read from the environment again
  await renderSyntheticGame({ seed: 3, width: 640, height: 360, script: [{ kind: 'swish' }, { kind: 'air_ball' }, { kind: 'bank_in' }] }, join(dir, 'game.mp4'));
  const game = await readFile(join(dir, 'game.mp4'));
  source = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(game.length) });
    res.end(game);
  });
  await new Promise<void>((ok) => source.listen(0, '127.0.0.1', ok));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/game.mp4`;
  jobs = await startTestInngest({ client: inngest, functions: [processSession, renderSessionRenditions] });
}, 300_000);

afterAll(async () => {
  await jobs?.stop();
  source?.closeAllConnections();
  source?.close();
  await s3?.stop();
  process.env = savedEnv;
  setMediaStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function probe(url: string, name: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const file = join(dir, name);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file]);
  const info = JSON.parse(stdout) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { duration: string } };
  const video = info.streams.find((s) => s.codec_type === 'video')!;
  return { codec: video.codec_name, width: video.width!, height: video.height!, duration: Number(info.format.duration) };
}

describe('processing with media in S3-compatible storage', () => {
  it('processes a game and every media URL is a presigned S3 URL that downloads as the right video', async () => {
    expect(getMediaStorage().kind).toBe('s3');
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    const { session } = await createSession(db, { organizationId: org.id, apiKeyId: null, input: { source: { url: sourceUrl }, duration_seconds: 60 } });
    await notifySessionSubmitted(session.id, org.id);

    const deadline = Date.now() + 280_000;
    let s = await getSession(db, { organizationId: org.id, id: session.id });
    while (s.status !== 'processed' && s.status !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      s = await getSession(db, { organizationId: org.id, id: session.id });
    }
    expect(s.status, JSON.stringify(s.error)).toBe('processed');

    const presigned = (url: string | null) => {
      expect(url).toBeTruthy();
      const u = new URL(url!);
      expect(u.origin).toBe(s3.endpoint);
      expect(u.pathname.startsWith(`/${s3.bucket}/swish/sessions/${session.id}/`)).toBe(true);
      expect(u.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      return url!;
    };

    const video = s.video as unknown as Record<string, string | null>;
    expect(video).toMatchObject({ width: 640, height: 360, '1080p': null, '720p': null });
    const r360 = await probe(presigned(video['360p']), 'r360.mp4');
    expect([r360.codec, r360.width, r360.height]).toEqual(['h264', 640, 360]);
    const original = await fetch(presigned(video.url));
    expect(Buffer.from(await original.arrayBuffer()).equals(await readFile(join(dir, 'game.mp4')))).toBe(true);
    const poster = await fetch(presigned(video.preview_url));
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    await poster.arrayBuffer();
    // seeking works on a presigned URL: a range answers 206
    const range = await fetch(presigned(video['360p']), { headers: { Range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect((await range.arrayBuffer()).byteLength).toBe(100);

    const highlights = s.highlights.data as unknown as Array<{ id: string; length_seconds: number; video: Record<string, string | null>; preview: Record<string, string | null> }>;
    expect(highlights.length).toBeGreaterThanOrEqual(2);
    for (const h of highlights) {
      const vertical = await probe(presigned(h.video.default), `${h.id}-v.mp4`);
      expect(vertical.codec).toBe('h264');
      expect(Math.abs(vertical.width / vertical.height - 9 / 16)).toBeLessThan(0.02);
      expect(Math.abs(vertical.duration - h.length_seconds)).toBeLessThan(0.3);
      const horizontal = await probe(presigned(h.video.horizontal), `${h.id}-h.mp4`);
      expect([horizontal.width, horizontal.height]).toEqual([640, 360]);
      expect(h.video['720p']).toBeNull();
      // a smaller rendition is made on its first request: its URL is the app's, which encodes it
      // from the horizontal clip in the bucket, stores it there and redirects to it
      const appUrl = new URL(h.video['144p']!);
      expect(appUrl.pathname).toBe(`/media/sessions/${session.id}/highlights/${h.id}/144p.mp4`);
      const redirect = await serveMedia(new Request(appUrl));
      expect(redirect.status).toBe(302);
      expect((await probe(presigned(redirect.headers.get('location')), `${h.id}-144.mp4`)).height).toBe(144);
      expect(await getMediaStorage().exists(`sessions/${session.id}/highlights/${h.id}/144p.mp4`)).toBe(true);
      for (const name of ['default', 'horizontal']) {
        const jpeg = await fetch(presigned(h.preview[name]));
        expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
        await jpeg.arrayBuffer();
      }
    }

    // the renditions were made by their own run, started before the analysis step ended (beside it), once
    const ofSession = (runs: Awaited<ReturnType<typeof jobs.engine.listRuns>>) =>
      runs.filter((r) => (r.event as { data: { session_id?: string } }).data.session_id === session.id);
    const [parent] = ofSession(await jobs.engine.listRuns(`${inngest.id}-process-session`));
    const children = ofSession(await jobs.engine.listRuns(`${inngest.id}-render-session-renditions`));
    expect(children.map((c) => c.status)).toEqual(['completed']);
    const analyseId = createHash('sha1').update('analyse').digest('hex');
    const [analysed] = await db.select().from(inngestSteps).where(and(eq(inngestSteps.runId, parent.id), eq(inngestSteps.stepId, analyseId)));
    expect(new Date(children[0].createdAt).getTime()).toBeLessThan(analysed.completedAt.getTime());
    const timings = (await loadSession(db, session.id))!.timings;
    expect(timings.renditions).toBeGreaterThan(0);

    const artifacts = s.artifacts as unknown as Record<string, string>;
    for (const name of ['actions', 'balls', 'hoops', 'clusters']) {
      const res = await fetch(presigned(artifacts[name]));
      expect(res.status).toBe(200);
      expect((await res.text()).length).toBeGreaterThan(0);
    }

    // the dashboard's picture of each player: a 120×160 JPEG in the bucket, and their clothes' colour
    const details = await playerDetails(db, { organizationId: org.id, id: session.id });
    expect(Object.keys(details).sort()).toEqual(s.players.data.map((p) => p.id).sort());
    expect(s.players.data.length).toBeGreaterThanOrEqual(2);
    for (const [id, d] of Object.entries(details)) {
      expect(d.colour).toMatch(/^#[0-9a-f]{6}$/);
      const picture = await probe(presigned(d.thumbnail), `${id}.jpg`);
      expect([picture.codec, picture.width, picture.height]).toEqual(['mjpeg', 120, 160]);
    }
  }, 300_000);
});
