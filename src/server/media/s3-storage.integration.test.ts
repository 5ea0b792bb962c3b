import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '@/test/s3-server';
import { serveMedia } from './serve';
import { presignS3GetUrl, S3MediaStorage } from './storage';
import { signMediaUrl } from './urls';

// S3MediaStorage against a real S3 API over HTTP (a local S3 emulator that checks SigV4
// signatures and presigned-URL expiry), through @aws-sdk/client-s3.

let s3: TestS3Server;
let storage: S3MediaStorage;
let dir: string;

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  s3 = await startTestS3Server();
  storage = new S3MediaStorage(s3.config('swish/'));
  dir = await mkdtemp(join(tmpdir(), 'swish-s3-storage-test-'));
});
afterAll(async () => {
  await s3?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('S3MediaStorage on an S3-compatible server', () => {
  it('puts bytes and reads them back with size, type and modification time', async () => {
    await storage.put('sessions/sess_a/artifacts/actions.jsonl', '{"t":1}\n{"t":2}\n');
    const info = await storage.stat('sessions/sess_a/artifacts/actions.jsonl');
    expect(info).toMatchObject({ size: 16, contentType: 'application/x-ndjson' });
    expect(Math.abs(info!.modified.getTime() - Date.now())).toBeLessThan(60_000);
    const got = await storage.get('sessions/sess_a/artifacts/actions.jsonl');
    expect((await readAll(got!.stream)).toString()).toBe('{"t":1}\n{"t":2}\n');
    expect(got!.info.size).toBe(16);

    // replaced, not appended
    await storage.put('sessions/sess_a/artifacts/actions.jsonl', Buffer.from('x'));
    expect((await storage.stat('sessions/sess_a/artifacts/actions.jsonl'))!.size).toBe(1);
  });

  it('streams a file up, and removes it with { move: true }', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const file = join(dir, 'clip.mp4');
    await writeFile(file, bytes);
    await storage.putFile('sessions/sess_a/720p.mp4', file);
    expect((await stat(file)).size).toBe(bytes.length);
    await storage.putFile('sessions/sess_a/360p.mp4', file, undefined, { move: true });
    await expect(stat(file)).rejects.toThrow(/ENOENT/);

    for (const key of ['sessions/sess_a/720p.mp4', 'sessions/sess_a/360p.mp4']) {
      expect(await storage.stat(key)).toMatchObject({ size: bytes.length, contentType: 'video/mp4' });
      const got = await storage.get(key);
      expect((await readAll(got!.stream)).equals(bytes)).toBe(true);
    }
    // a byte range: the bytes of the range, and the size of the whole object
    const part = await storage.get('sessions/sess_a/720p.mp4', { start: 1000, end: 1999 });
    expect((await readAll(part!.stream)).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect(part!.info.size).toBe(bytes.length);
  });

  it('keeps objects under the configured prefix', async () => {
    const unprefixed = new S3MediaStorage(s3.config(''));
    expect(await unprefixed.exists('swish/sessions/sess_a/720p.mp4')).toBe(true);
    expect(await unprefixed.exists('sessions/sess_a/720p.mp4')).toBe(false);
  });

  it('answers null for missing objects', async () => {
    expect(await storage.stat('sessions/sess_none/720p.mp4')).toBeNull();
    expect(await storage.exists('sessions/sess_none/720p.mp4')).toBe(false);
    expect(await storage.get('sessions/sess_none/720p.mp4')).toBeNull();
    expect(() => storage.url('../etc/passwd')).toThrow(/invalid media key/);
  });

  it('deletes an object and everything under its prefix, not its namesakes', async () => {
    await storage.put('sessions/sess_b/preview.jpg', 'a');
    await storage.put('sessions/sess_b/highlights/hl_1/default.mp4', 'b');
    await storage.put('sessions/sess_b/highlights/hl_1/horizontal.mp4', 'c');
    await storage.put('sessions/sess_bb/preview.jpg', 'd');
    await storage.put('sessions/sess_b', 'e'); // an object named like the prefix itself

    expect(await storage.delete('sessions/sess_b/highlights/hl_1')).toBe(2);
    expect(await storage.exists('sessions/sess_b/preview.jpg')).toBe(true);
    expect(await storage.delete('sessions/sess_b')).toBe(2);
    expect(await storage.exists('sessions/sess_b/preview.jpg')).toBe(false);
    expect(await storage.exists('sessions/sess_b')).toBe(false);
    expect(await storage.exists('sessions/sess_bb/preview.jpg')).toBe(true);
    expect(await storage.delete('sessions/sess_nothing')).toBe(0);
  });
});

describe('presigned URLs on an S3-compatible server', () => {
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = randomBytes(200_000);
    await storage.put('sessions/sess_c/1080p.mp4', bytes);
  });

  it('download the object and answer a Range with 206', async () => {
    const url = storage.url('sessions/sess_c/1080p.mp4');
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/swish/sessions/sess_c/1080p.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(url, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);


    // an exact short-lived URL works the same
    const exact = await fetch(storage.url('sessions/sess_c/1080p.mp4', 120, { exact: true }));
    expect(exact.status).toBe(200);
    await exact.arrayBuffer();
  });

  it('are refused when tampered with, signed with another secret, or expired', async () => {
    const url = new URL(storage.url('sessions/sess_c/1080p.mp4'));
    const expectRefused = async (u: string | URL, code: string) => {
      const res = await fetch(u);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(`<Code>${code}</Code>`);
    };

    const sig = url.searchParams.get('X-Amz-Signature')!;
    const flipped = new URL(url);
    flipped.searchParams.set('X-Amz-Signature', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    await expectRefused(flipped, 'SignatureDoesNotMatch');

    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('1080p', '720p');
    await expectRefused(otherKey, 'SignatureDoesNotMatch');

    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', String(Number(url.searchParams.get('X-Amz-Expires')) + 3600));
    await expectRefused(longer, 'SignatureDoesNotMatch');

    await expectRefused(presignS3GetUrl({ ...s3.config(), secretAccessKey: 'not-the-secret' }, 'swish/sessions/sess_c/1080p.mp4', 3600), 'SignatureDoesNotMatch');

    const expired = presignS3GetUrl(s3.config(), 'swish/sessions/sess_c/1080p.mp4', 60, new Date(Date.now() - 3600_000));
    await expectRefused(expired, 'AccessDenied');
    // the same signing a moment ago is accepted: only the time differs
    const fresh = await fetch(presignS3GetUrl(s3.config(), 'swish/sessions/sess_c/1080p.mp4', 60, new Date(Date.now() - 1000)));
    expect(fresh.status).toBe(200);
    await fresh.arrayBuffer();
  });

  it('are what a local /media URL signed before a switch to S3 redirects to', async () => {
    const local = signMediaUrl('sessions/sess_c/1080p.mp4', 3600)!;
    const res = await serveMedia(new Request(local), storage);
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/swish/sessions/sess_c/1080p.mp4?`)).toBe(true);
    const got = await fetch(location);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
