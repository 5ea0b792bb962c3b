import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSource, ProcessingFailure, resolveVideoFromPage } from './source';

const page = 'https://league.example/matches/42';

describe('resolveVideoFromPage', () => {
  it('prefers JSON-LD VideoObject.contentUrl, also inside @graph', () => {
    const html = `<html><head>
      <meta property="og:video" content="https://cdn.example/og.mp4">
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"VideoObject","contentUrl":"https://cdn.example/game.mp4"}]}</script>
      </head><body><video src="/v.mp4"></video></body></html>`;
    expect(resolveVideoFromPage(html, page)).toBe('https://cdn.example/game.mp4');
  });

  it('falls back to og:video:secure_url, then og:video', () => {
    const html = `<meta property="og:video" content="https://cdn.example/plain.mp4"><meta property="og:video:secure_url" content="https://cdn.example/secure.mp4?a=1&amp;b=2">`;
    expect(resolveVideoFromPage(html, page)).toBe('https://cdn.example/secure.mp4?a=1&b=2');
    expect(resolveVideoFromPage(`<meta content='https://cdn.example/x.mp4' property='og:video'>`, page)).toBe('https://cdn.example/x.mp4');
  });

  it('falls back to the first <video> or <source>, resolving relative URLs', () => {
    expect(resolveVideoFromPage('<video controls><source src="/media/game.mp4" type="video/mp4"></video>', page)).toBe('https://league.example/media/game.mp4');
    expect(resolveVideoFromPage('<script type="application/ld+json">{ not json</script><video src="clip.mp4">', page)).toBe('https://league.example/matches/clip.mp4');
  });

  it('returns null when the page has no video', () => {
    expect(resolveVideoFromPage('<html><body><img src="a.png"></body></html>', page)).toBeNull();
  });
});

describe('fetchSource over real HTTP (platform links)', () => {
  const VIDEO = Buffer.alloc(64 * 1024, 7);
  let server: Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    dir = await mkdtemp(join(tmpdir(), 'swish-source-'));
    server = createServer((req, res) => {
      if (req.url === '/slow-video') {
        // a CDN link answering with the video itself, slower than a page may take
        res.writeHead(200, { 'content-type': 'video/mp4' });
        res.flushHeaders();
        let sent = 0;
        const tick = setInterval(() => {
          res.write(VIDEO.subarray(sent, sent + 16 * 1024));
          sent += 16 * 1024;
          if (sent >= VIDEO.length) {
            clearInterval(tick);
            res.end();
          }
        }, 600);
      } else if (req.url === '/trickling-page') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><head>');
        const tick = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(tick));
      } else if (req.url === '/silent') {
        // never answers
      } else if (req.url === '/match') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><head><meta property="og:video" content="/slow-video"></head></html>`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env.SWISH_ALLOW_PRIVATE_SOURCES;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads a link that answers with the video in full, even when it takes longer than a page may', async () => {
    const dest = join(dir, 'direct.mp4');
    const got = await fetchSource({ type: 'platform', url: `${base}/slow-video` }, dest, undefined, { pageTimeoutMs: 1000 });
    expect(got).toMatchObject({ bytes: VIDEO.length, contentType: 'video/mp4' });
    expect((await readFile(dest)).equals(VIDEO)).toBe(true);
  });

  it('resolves a match page to its video and downloads it', async () => {
    const dest = join(dir, 'page.mp4');
    const got = await fetchSource({ type: 'platform', url: `${base}/match` }, dest, undefined, { pageTimeoutMs: 1000 });
    expect(got.bytes).toBe(VIDEO.length);
  });

  it('gives up on a page that trickles or a link that never answers, as source_unavailable', async () => {
    for (const [path, message] of [
      ['/trickling-page', /page did not arrive within 1 s/],
      ['/silent', /did not answer within 1 s/],
    ] as const) {
      const err = await fetchSource({ type: 'platform', url: `${base}${path}` }, join(dir, 'x.mp4'), undefined, { pageTimeoutMs: 1000 }).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(ProcessingFailure);
      expect((err as ProcessingFailure).code).toBe('source_unavailable');
      expect((err as Error).message).toMatch(message);
    }
  });

  it('says why a link could not be reached: a closed port is a refused connection, not "fetch failed"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await fetchSource({ type: 'url', url: `http://127.0.0.1:${port}/game.mp4` }, join(dir, 'y.mp4')).catch((e: unknown) => e);
    expect((err as ProcessingFailure).code).toBe('source_unavailable');
    expect((err as Error).message).toBe('The source could not be reached: the server refused the connection.');
  });
});
