import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET, HEAD } from '@/app/media/[...key]/route';
import { serveMediaNode } from './node-door';
import { parseRange } from './serve';
import { LocalMediaStorage, setMediaStorage } from './storage';
import { signMediaUrl, withFreshMediaUrls } from './urls';

const SECRET = 'media-route-test-secret';
let dir: string;
const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
const key = 'sessions/sess_route/720p.mp4';

beforeAll(async () => {
  process.env.SWISH_SECRET = SECRET;
  process.env.SWISH_PUBLIC_URL = 'http://media.test';
  dir = await mkdtemp(join(tmpdir(), 'swish-route-'));
  const storage = new LocalMediaStorage(join(dir, 'media'));
  setMediaStorage(storage);
  await storage.put(key, body);
  await storage.put('sessions/sess_route/artifacts/balls.jsonl', '{"t":0}\n');
  await storage.put('sessions/sess_route/preview.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
});
afterAll(async () => {
  setMediaStorage(undefined);
  await rm(dir, { recursive: true, force: true });
});

const request = (url: string, init: RequestInit = {}) => new Request(url, init);
const signed = (k: string) => signMediaUrl(k)!;
function signWith(k: string, expires: number) {
  const sig = createHmac('sha256', SECRET).update(`${k}\n${expires}`).digest('base64url');
  return `http://media.test/media/${k}?expires=${expires}&signature=${sig}`;
}

describe('GET /media/[...key]', () => {
  it('serves the whole object with type, length, ranges and bounded caching', async () => {
    const res = await GET(request(signed(key)));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    const maxAge = Number(/private, max-age=(\d+)/.exec(res.headers.get('cache-control')!)![1]);
    const expires = Number(new URL(signed(key)).searchParams.get('expires'));
    expect(maxAge).toBeLessThanOrEqual(expires - Date.now() / 1000 + 1);
    expect(maxAge).toBeGreaterThan(0);
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('answers a Range request with 206 and Content-Range', async () => {
    const res = await GET(request(signed(key), { headers: { Range: 'bytes=100-199' } }));
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(100, 200))).toBe(true);

    const open = await GET(request(signed(key), { headers: { Range: 'bytes=990-' } }));
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect((await open.arrayBuffer()).byteLength).toBe(10);

    const suffix = await GET(request(signed(key), { headers: { Range: 'bytes=-5' } }));
    expect(suffix.headers.get('content-range')).toBe('bytes 995-999/1000');
    expect(Buffer.from(await suffix.arrayBuffer()).equals(body.subarray(995))).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const res = await GET(request(signed(key), { headers: { Range: 'bytes=5000-6000' } }));
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('serves JSONL and JPEG with their types', async () => {
    const jsonl = await GET(request(signed('sessions/sess_route/artifacts/balls.jsonl')));
    expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await jsonl.text()).toBe('{"t":0}\n');
    const jpg = await GET(request(signed('sessions/sess_route/preview.jpg')));
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses a bad or missing signature with 403 JSON', async () => {
    const url = new URL(signed(key));
    // one character changed (a signature that already starts with 'x' gets a 'y': base64url has both)
    const genuine = url.searchParams.get('signature')!;
    url.searchParams.set('signature', (genuine[0] === 'x' ? 'y' : 'x') + genuine.slice(1));
    const res = await GET(request(url.toString()));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { type: 'authentication_error', code: 'media_signature_invalid' } });

    const unsigned = await GET(request(`http://media.test/media/${key}`));
    expect(unsigned.status).toBe(403);

    // A signature for one key does not open another.
    const other = new URL(signed('sessions/sess_route/preview.jpg'));
    const swapped = await GET(request(`http://media.test/media/${key}${other.search}`));
    expect(swapped.status).toBe(403);
  });

  it('refuses an expired URL with 403', async () => {
    const res = await GET(request(signWith(key, Math.floor(Date.now() / 1000) - 10)));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'media_url_expired' } });
  });

  it('answers 404 for a missing object and for traversal attempts', async () => {
    expect((await GET(request(signed('sessions/sess_route/none.mp4')))).status).toBe(404);
    const res = await GET(request(`http://media.test/media/sessions/%2e%2e/%2e%2e/etc/passwd?expires=9999999999&signature=x`));
    expect(res.status).toBe(404);
  });

  it('HEAD gives the headers without a body', async () => {
    const res = await HEAD(request(signed(key), { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.body).toBeNull();
    const ranged = await HEAD(request(signed(key), { method: 'HEAD', headers: { Range: 'bytes=0-9' } }));
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it('honours If-None-Match and a stale If-Range', async () => {
    const first = await GET(request(signed(key)));
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    expect((await GET(request(signed(key), { headers: { 'If-None-Match': etag } }))).status).toBe(304);
    const stale = await GET(request(signed(key), { headers: { Range: 'bytes=0-9', 'If-Range': '"old"' } }));
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });
});

describe('parseRange', () => {
  it.each([
    [null, null],
    ['bytes=0-0', { start: 0, end: 0 }],
    ['bytes=10-', { start: 10, end: 99 }],
    ['bytes=50-500', { start: 50, end: 99 }],
    ['bytes=-1000', { start: 0, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-2', null],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
  ])('%j on 100 bytes → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});

describe('the media door on the Node server (what clients get on the wire)', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => void serveMediaNode(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** One raw HTTP exchange: the headers as sent, and the body. */
  const exchange = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  const path = (k: string) => {
    const u = new URL(signed(k));
    return u.pathname + u.search;
  };

  // a player probes the size with HEAD and seeks with ranges; Safari needs the length on a 206
  it('sends Content-Length on HEAD, on the whole object and on a range, never a chunked body', async () => {
    const head = await exchange(path(key), 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.body.length).toBe(0);

    const whole = await exchange(path(key));
    expect(whole.headers['content-length']).toBe('1000');
    expect(whole.headers['transfer-encoding']).toBeUndefined();
    expect(whole.body.equals(body)).toBe(true);

    const part = await exchange(path(key), 'GET', { Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.headers['content-length']).toBe('100');
    expect(part.headers['transfer-encoding']).toBeUndefined();
    expect(part.body.equals(body.subarray(100, 200))).toBe(true);
  });

  it('answers errors in the API shape, and other methods with 405 and Allow', async () => {
    const bad = await exchange('/media/sessions/sess_route/720p.mp4?expires=1&signature=x');
    expect(bad.status).toBe(403);
    expect(JSON.parse(bad.body.toString()).error.code).toBe('media_signature_invalid');
    const post = await exchange(path(key), 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(post.body.toString()).error.code).toBe('method_not_allowed');
  });
});

describe('media URLs of a recorded snapshot', () => {
  // an event keeps the Session it was recorded with for 30 days; its links expired after a day
  it('are signed again from now, on the current origin; nothing else changes', async () => {
    const stale = signWith(key, 1_000).replace('http://media.test', 'http://old-host.test');
    const snapshot = {
      object: { id: 'sess_route', video: { url: stale, preview_url: null }, note: 'see /media/ later', highlights: { data: [{ video: { default: stale } }] } },
    };
    const fresh = withFreshMediaUrls(snapshot);
    const url = fresh.object.video.url;
    expect(url.startsWith('http://media.test/media/sessions/sess_route/720p.mp4?expires=')).toBe(true);
    expect(Number(new URL(url).searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000);
    expect((await GET(request(url))).status).toBe(200);
    expect(fresh.object.highlights.data[0].video.default).toBe(url);
    expect(fresh.object.note).toBe('see /media/ later');
    expect(fresh.object.id).toBe('sess_route');
    // the recorded object itself is left as it was
    expect(snapshot.object.video.url).toBe(stale);
  });
});
