import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InFlightRequests } from './in-flight';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real HTTP server whose handler waits for `release()`; `closed` resolves when the response closes. */
async function serve(opts: { answerFirst?: boolean } = {}) {
  const requests = new InFlightRequests();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const handlerStarted = new Promise<void>((resolve) => (started = resolve));
  let closed!: () => void;
  const responseClosed = new Promise<void>((resolve) => (closed = resolve));
  server = createServer((req, res) => {
    res.once('close', () => closed());
    const work = (async () => {
      if (opts.answerFirst) res.writeHead(200, { 'content-type': 'text/plain' }).write('part of the answer');
      started();
      await released;
      if (!res.destroyed) res.end('done');
    })();
    requests.track(res, work);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { requests, release, handlerStarted, responseClosed, port };
}

describe('InFlightRequests', () => {
  it('counts a request until its response has been sent', async () => {
    const s = await serve();
    const req = request({ port: s.port, path: '/' });
    req.end();
    await s.handlerStarted;
    expect(s.requests.count).toBe(1);
    s.release();
    const [res] = (await once(req, 'response')) as [NodeJS.ReadableStream];
    res.resume();
    await once(res, 'end');
    await s.responseClosed;
    expect(s.requests.count).toBe(0);
  });

  it('keeps counting a request whose client hung up until its handler settles', async () => {
    // Seen in a profiling run: a load generator closed its connections mid-request at its end,
    // the server's SIGTERM then counted nothing in flight and stopped the database under the
    // handlers still querying it (`write CONNECTION_CLOSED`).
    const s = await serve();
    const req = request({ port: s.port, path: '/' });
    req.on('error', () => {});
    req.end();
    await s.handlerStarted;
    req.destroy();
    await s.responseClosed;
    expect(s.requests.count).toBe(1);
    s.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.requests.count).toBe(0);
  });

  it('does not wait for a handler whose client hung up while the answer was being written', async () => {
    // Next.js's handler never settles when the client aborts during the body (seen at the end of
    // every bench:api run: the stop then waited its whole grace period for nine such requests).
    const s = await serve({ answerFirst: true });
    const req = request({ port: s.port, path: '/' });
    req.on('error', () => {});
    req.end();
    await s.handlerStarted;
    expect(s.requests.count).toBe(1);
    req.destroy();
    await s.responseClosed;
    expect(s.requests.count).toBe(0);
    s.release();
  });
});
