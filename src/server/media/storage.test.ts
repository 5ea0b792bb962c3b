import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertValidKey,
  contentTypeForKey,
  InvalidMediaKeyError,
  LocalMediaStorage,
  mediaKeys,
  presignS3GetUrl,
  s3ConfigFromEnv,
  S3MediaStorage,
} from './storage';

let dir: string;
let storage: LocalMediaStorage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swish-storage-'));
  storage = new LocalMediaStorage(join(dir, 'media'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('media keys', () => {
  it('accepts the layout the pipeline uses', () => {
    for (const key of [
      mediaKeys.sessionRendition('sess_01abc', '720p'),
      mediaKeys.sessionOriginal('sess_01abc', 'mp4'),
      mediaKeys.sessionPreview('sess_01abc'),
      mediaKeys.sessionArtifact('sess_01abc', 'actions'),
      mediaKeys.highlightVideo('sess_01abc', 'hl_01x', 'default'),
      mediaKeys.highlightPreview('sess_01abc', 'hl_01x', 'horizontal'),
    ]) {
      expect(() => assertValidKey(key)).not.toThrow();
    }
  });

  it.each([
    '',
    '../etc/passwd',
    'sessions/../../etc/passwd',
    'sessions/./x.mp4',
    '/abs/path.mp4',
    'sessions//x.mp4',
    'sessions/x.mp4/',
    'sessions\\..\\x',
    'sessions/.hidden',
    'sessions/a b.mp4',
    'sessions/%2e%2e/x',
    'x'.repeat(600),
  ])('rejects %j', (key) => {
    expect(() => assertValidKey(key)).toThrow(InvalidMediaKeyError);
    expect(() => storage.localPath(key)).toThrow(InvalidMediaKeyError);
  });

  it('maps extensions to content types', () => {
    expect(contentTypeForKey('a/b.mp4')).toBe('video/mp4');
    expect(contentTypeForKey('a/b.jpg')).toBe('image/jpeg');
    expect(contentTypeForKey('a/actions.jsonl')).toBe('application/x-ndjson');
    expect(contentTypeForKey('a/b')).toBe('application/octet-stream');
  });
});

describe('LocalMediaStorage', () => {
  it('puts, stats, reads ranges and deletes by prefix', async () => {
    await storage.put('sessions/sess_1/artifacts/actions.jsonl', '{"a":1}\n{"a":2}\n');
    await storage.put('sessions/sess_1/preview.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    await storage.put('sessions/sess_10/preview.jpg', Buffer.from([1]));
    const info = await storage.stat('sessions/sess_1/artifacts/actions.jsonl');
    expect(info).toMatchObject({ size: 16, contentType: 'application/x-ndjson' });
    expect(await storage.exists('sessions/sess_1/missing.mp4')).toBe(false);
    expect(await storage.stat('sessions/sess_1/preview.jpg/x')).toBeNull();

    const part = await storage.get('sessions/sess_1/artifacts/actions.jsonl', { start: 8, end: 14 });
    expect(await text(part!.stream)).toBe('{"a":2}');
    const whole = await storage.get('sessions/sess_1/artifacts/actions.jsonl');
    expect(await text(whole!.stream)).toBe('{"a":1}\n{"a":2}\n');
    expect(await storage.get('sessions/nope.mp4')).toBeNull();

    expect(await storage.delete('sessions/sess_1')).toBe(2);
    expect(await storage.exists('sessions/sess_1/preview.jpg')).toBe(false);
    // A sibling whose name merely starts with the prefix is kept.
    expect(await storage.exists('sessions/sess_10/preview.jpg')).toBe(true);
    expect(await storage.delete('sessions/sess_1')).toBe(0);
  });

  it('writes atomically: readers see the old or the new object, never a partial one, and no temp files remain', async () => {
    const key = 'sessions/sess_atomic/720p.mp4';
    const a = Buffer.alloc(4 << 20, 'a');
    const b = Buffer.alloc(4 << 20, 'b');
    await storage.put(key, a);
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        const buf = await readFile(storage.localPath(key));
        seen.add(`${buf.length}:${buf[0]}:${buf[buf.length - 1]}`);
      }
    })();
    for (let i = 0; i < 10; i++) await storage.put(key, i % 2 ? a : b);
    stop = true;
    await reader;
    for (const s of seen) expect([`${4 << 20}:97:97`, `${4 << 20}:98:98`]).toContain(s);
    expect((await readdir(join(storage.root, 'sessions/sess_atomic'))).sort()).toEqual(['720p.mp4']);
  });

  it('putFile copies, or moves with { move: true }', async () => {
    const src = join(dir, 'src.bin');
    await writeFile(src, 'hello');
    await storage.putFile('sessions/sess_2/original.mp4', src);
    expect(await readFile(src, 'utf8')).toBe('hello');
    await storage.putFile('sessions/sess_2/720p.mp4', src, 'video/mp4', { move: true });
    await expect(readFile(src)).rejects.toThrow();
    expect(await readFile(storage.localPath('sessions/sess_2/720p.mp4'), 'utf8')).toBe('hello');
  });

  it('signs local URLs with the /media route', () => {
    process.env.SWISH_SECRET ??= 'test-secret';
    const url = new URL(storage.url('sessions/sess_2/720p.mp4'));
    expect(url.pathname).toBe('/media/sessions/sess_2/720p.mp4');
    expect(url.searchParams.get('signature')).toBeTruthy();
    expect(() => storage.url('../x')).toThrow(InvalidMediaKeyError);
  });
});

describe('S3 mode', () => {
  it('presigns GET URLs exactly like the AWS SigV4 documentation example', () => {
    const url = presignS3GetUrl(
      {
        bucket: 'examplebucket',
        region: 'us-east-1',
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        forcePathStyle: false,
      },
      'test.txt',
      86400,
      new Date('2013-05-24T00:00:00Z'),
    );
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('uses path style and the prefix for self-hosted endpoints', () => {
    const cfg = s3ConfigFromEnv({
      SWISH_S3_BUCKET: 'media',
      SWISH_S3_ENDPOINT: 'http://minio:9000',
      SWISH_S3_ACCESS_KEY_ID: 'id',
      SWISH_S3_SECRET_ACCESS_KEY: 'secret',
      SWISH_S3_FORCE_PATH_STYLE: 'true',
      SWISH_S3_PREFIX: 'swish',
    })!;
    expect(cfg).toMatchObject({ bucket: 'media', region: 'us-east-1', forcePathStyle: true, prefix: 'swish/' });
    const url = new URL(new S3MediaStorage(cfg).url('sessions/sess_1/720p.mp4', 3600));
    expect(url.origin).toBe('http://minio:9000');
    expect(url.pathname).toBe('/media/swish/sessions/sess_1/720p.mp4');
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(3600);
    expect(s3ConfigFromEnv({})).toBeNull();
    expect(() => s3ConfigFromEnv({ SWISH_S3_BUCKET: 'b' })).toThrow(/ACCESS_KEY/);
  });

});
