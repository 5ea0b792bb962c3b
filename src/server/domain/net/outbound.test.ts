import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundAgent, guardedLookup, outboundFetch, safeFetch, type Resolver } from './outbound';
import { UnsafeUrlError } from './ssrf';
import { sendWebhook } from '../webhooks/send';

/** A real HTTP server on a loopback port that records requests and the sockets they came on. */
async function server(handler: (req: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string }) {
  const requests: Array<{ url: string; host: string | undefined }> = [];
  const sockets = new Set<Socket>();
  const srv: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host });
    sockets.add(req.socket);
    req.resume();
    req.on('end', () => {
      const r = handler(req);
      res.writeHead(r.status, r.headers ?? {});
      res.end(r.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  return {
    port,
    requests,
    sockets,
    close: () => new Promise<void>((resolve) => { srv.closeAllConnections(); srv.close(() => resolve()); }),
  };
}

/** A resolver that answers from a script, one answer per call, and counts its calls. */
function scripted(answers: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    const n = calls.filter((h) => h === hostname).length;
    calls.push(hostname);
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = list[Math.min(n, list.length - 1)];
    return answer.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

/** Calls a lookup the way net.connect does and returns what it handed back. */
function callLookup(lookup: ReturnType<typeof guardedLookup>, host: string, all: boolean) {
  return new Promise<unknown>((resolve, reject) =>
    lookup(host, { all, family: 0 }, (err, address, family) => (err ? reject(err) : resolve(all ? address : { address, family }))),
  );
}

const PUBLIC = '93.184.216.34';

describe('guarded lookup (the answer checked is the answer connected to)', () => {
  it('resolves once per connection and hands back only the addresses it checked: public then private is refused the second time', async () => {
    const r = scripted({ 'rebind.test': [[PUBLIC], ['127.0.0.1']] });
    const lookup = guardedLookup(r.resolve, () => false);
    expect(await callLookup(lookup, 'rebind.test', true)).toEqual([{ address: PUBLIC, family: 4 }]);
    expect(r.calls).toEqual(['rebind.test']);
    await expect(callLookup(lookup, 'rebind.test', false)).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(r.calls).toEqual(['rebind.test', 'rebind.test']);
  });

  it('refuses an answer with any private address, even beside a public one', async () => {
    const r = scripted({ 'mixed.test': [[PUBLIC, '10.0.0.5']], 'mapped.test': [['::ffff:7f00:1']] });
    const lookup = guardedLookup(r.resolve, () => false);
    await expect(callLookup(lookup, 'mixed.test', true)).rejects.toThrow(/private or reserved/);
    await expect(callLookup(lookup, 'mapped.test', true)).rejects.toThrow(/private or reserved/);
  });

  it('passes the answer through when private addresses are allowed, filtered by the family asked for', async () => {
    const r = scripted({ 'dual.test': [['127.0.0.1', '::1']] });
    const lookup = guardedLookup(r.resolve, () => true);
    const v6 = await new Promise((resolve, reject) => lookup('dual.test', { family: 6 }, (err, address, family) => (err ? reject(err) : resolve({ address, family }))));
    expect(v6).toEqual({ address: '::1', family: 6 });
  });
});

describe('outbound client over real HTTP', () => {
  let target: Awaited<ReturnType<typeof server>>;
  let redirector: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    target = await server(() => ({ status: 200, body: 'secret' }));
    redirector = await server((req) => ({ status: 302, headers: { location: new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/' } }));
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
  });
  afterEach(() => {
    target.requests.length = 0;
    redirector.requests.length = 0;
    delete process.env.SWISH_ALLOW_PRIVATE_SOURCES;
  });

  it('never connects when the host resolves to a private address, and says why', async () => {
    const r = scripted({ 'evil.test': [['127.0.0.1']] });
    const agent = createOutboundAgent({ resolve: r.resolve, allowPrivate: () => false });
    await expect(outboundFetch(`http://evil.test:${target.port}/`, { agent })).rejects.toThrow(UnsafeUrlError);
    expect(target.requests).toHaveLength(0);
    const sent = await sendWebhook(`https://evil.test:${target.port}/hook`, { headers: {}, body: '{}', agent });
    expect(sent).toMatchObject({ status: null, body: null });
    expect(sent.error).toBe('Not sent: The URL resolves to a private or reserved address.');
    expect(target.requests).toHaveLength(0);
    await agent.close();
  });

  it('refuses private literal addresses, IPv6-mapped IPv4 included, before any connection', async () => {
    for (const url of [
      `https://127.0.0.1:${target.port}/`,
      `https://[::ffff:127.0.0.1]:${target.port}/`,
      `https://[::ffff:7f00:1]:${target.port}/`,
      `https://[0:0:0:0:0:ffff:7f00:1]:${target.port}/`,
      `https://0x7f000001:${target.port}/`,
      `https://127.1:${target.port}/`,
      `https://[::1]:${target.port}/`,
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.google.internal./',
    ]) {
      await expect(safeFetch(url), url).rejects.toThrow(/private/);
      const sent = await sendWebhook(url, { headers: {}, body: '{}' });
      expect(sent.error, url).toMatch(/^Not sent: .*private/);
    }
    expect(target.requests).toHaveLength(0);
  });

  it('checks every redirect hop at connection time: a redirect to a host resolving privately is not followed', async () => {
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1'; // http and the literal loopback first hop
    const r = scripted({ 'inside.test': [['127.0.0.1']] });
    const agent = createOutboundAgent({ resolve: r.resolve, allowPrivate: () => false });
    const to = encodeURIComponent(`http://inside.test:${target.port}/admin`);
    await expect(safeFetch(`http://127.0.0.1:${redirector.port}/r?to=${to}`, { agent })).rejects.toThrow(/private or reserved/);
    expect(redirector.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    expect(r.calls).toEqual(['inside.test']);
    await agent.close();
  });

  it('connects to the resolved address with the host name kept in Host, and reuses the connection (one lookup)', async () => {
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    const r = scripted({ 'receiver.test': [['127.0.0.1']] });
    const agent = createOutboundAgent({ resolve: r.resolve });
    const url = `http://receiver.test:${target.port}/hook`;
    for (let i = 0; i < 3; i++) {
      const sent = await sendWebhook(url, { headers: { 'content-type': 'application/json' }, body: '{}', agent });
      expect(sent).toMatchObject({ status: 200, error: null, body: 'secret' });
      await new Promise((resolve) => setImmediate(resolve)); // the connection goes back to the pool a turn after the body ends
    }
    expect(target.requests.map((q) => q.host)).toEqual(Array(3).fill(`receiver.test:${target.port}`));
    expect(r.calls).toEqual(['receiver.test']);
    expect(target.sockets.size).toBe(1);
    await agent.close();
  });

  it('gives up on a server that accepts the connection and never answers, or stalls mid-body', async () => {
    process.env.SWISH_ALLOW_PRIVATE_SOURCES = '1';
    const silent = createServer((req, res) => {
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        res.write('first bytes'); // then nothing more
      } // else: never a response
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const agent = createOutboundAgent({ headersTimeoutMs: 300, bodyIdleTimeoutMs: 300 });
    try {
      const noAnswer = await outboundFetch(`${base}/hang`, { agent }).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code);
      expect(noAnswer).toBe('UND_ERR_HEADERS_TIMEOUT');
      const res = await outboundFetch(`${base}/stall`, { agent });
      const stalled = await res.arrayBuffer().catch((e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.name);
      expect(stalled).toBe('UND_ERR_BODY_TIMEOUT');
    } finally {
      await agent.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
