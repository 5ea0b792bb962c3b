import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { checkAnswer, checkUrl, privateSourcesAllowed, UnsafeUrlError } from './ssrf';

/**
 * The one HTTP client for requests to URLs that come from outside (sources, their
 * redirects, platform pages, webhook deliveries). Its connections resolve the host once,
 * check every address of that answer (ssrf.ts rules) and connect only to those addresses:
 * a DNS-rebinding host that answers a public address to a check and a private one to the
 * connection has no second answer to give. TLS (SNI, certificate) and `Host` still use the
 * host name. Connections are kept alive per origin and reused, so a receiver that gets many
 * deliveries costs one handshake per connection, not one per delivery; a reused connection
 * goes to an address that was checked when it was opened.
 */

/** Resolves a host name to all its addresses (the shape of `dns.promises.lookup(host, { all: true })`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect`: resolves with `resolve`, rejects the whole
 * answer if any address is private or reserved (unless `allowPrivate()`, by default
 * `SWISH_ALLOW_PRIVATE_SOURCES=1` read at each lookup), and hands back only the addresses
 * it checked. Literal IP hosts never reach a lookup: `checkUrl` checks those.
 */
export function guardedLookup(resolve: Resolver = systemResolver, allowPrivate: () => boolean = privateSourcesAllowed) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answer) => {
        if (!allowPrivate()) checkAnswer(hostname, answer);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family === 4 || family === 6 ? answer.filter((a) => a.family === family) : answer;
        if (usable.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          throw err;
        }
        if (options.all) callback(null, usable.map(({ address, family }) => ({ address, family })));
        else callback(null, usable[0].address, usable[0].family);
      },
    ).catch((err: NodeJS.ErrnoException) => callback(err, options.all ? [] : '', undefined));
  };
}

export interface OutboundAgentOptions {
  /** How host names are resolved (default: the system resolver, as `fetch` would). */
  resolve?: Resolver;
  /** Whether private and reserved addresses may be reached (default: `SWISH_ALLOW_PRIVATE_SOURCES=1`). */
  allowPrivate?: () => boolean;
  /** Idle keep-alive connections are closed after this (default 10 s). */
  keepAliveTimeoutMs?: number;
  /** Connections per origin at most (default 16). */
  connectionsPerOrigin?: number;
  /** A server that sends no response headers within this is given up (default `SWISH_OUTBOUND_IDLE_SECONDS`, 60 s). */
  headersTimeoutMs?: number;
  /** A body that stalls this long between two chunks is given up (default the same). */
  bodyIdleTimeoutMs?: number;
}

/**
 * How long an outbound exchange may sit idle (`SWISH_OUTBOUND_IDLE_SECONDS`, default 60): no
 * response headers yet, or no byte of the body since the last. A source that accepts the
 * connection and then says nothing used to hold a processing slot — every organization's —
 * for undici's default 5 minutes, and one that stalls mid-body for the download's whole hour.
 */
export function outboundIdleMs(env: Record<string, string | undefined> = process.env): number {
  const raw = Number(env.SWISH_OUTBOUND_IDLE_SECONDS ?? 60);
  return (Number.isFinite(raw) && raw > 0 ? raw : 60) * 1000;
}

/** An undici Agent whose every connection goes through `guardedLookup`. */
export function createOutboundAgent(opts: OutboundAgentOptions = {}): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(opts.resolve, opts.allowPrivate) as never },
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: opts.connectionsPerOrigin ?? 16,
    headersTimeout: opts.headersTimeoutMs ?? outboundIdleMs(),
    bodyTimeout: opts.bodyIdleTimeoutMs ?? outboundIdleMs(),
  });
}

let shared: Agent | undefined;
/** The process's outbound agent (one keep-alive pool per origin). */
export function outboundAgent(): Agent {
  shared ??= createOutboundAgent();
  return shared;
}

export type OutboundInit = RequestInit & { agent?: Agent };

/**
 * `fetch` through the outbound agent, for a URL that passed `checkUrl`. An address refused
 * at connection time rejects with the UnsafeUrlError itself (not fetch's "fetch failed").
 */
export async function outboundFetch(url: URL | string, init: OutboundInit = {}): Promise<Response> {
  const { agent, ...rest } = init;
  try {
    const res = await undiciFetch(url, { ...(rest as UndiciRequestInit), dispatcher: agent ?? outboundAgent() });
    return res as unknown as Response;
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof UnsafeUrlError) throw cause;
    throw err;
  }
}

/**
 * A GET/HEAD that refuses unsafe URLs and follows at most `maxRedirects` redirects itself,
 * checking each hop (its URL now, its address when connecting). Bounded in time by
 * `timeoutMs` (headers; the caller bounds the body).
 */
export async function safeFetch(
  raw: string,
  init: OutboundInit & { timeoutMs?: number; maxRedirects?: number } = {},
): Promise<Response> {
  const { timeoutMs = 15_000, maxRedirects = 5, ...rest } = init;
  let current = raw;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const url = checkUrl(current);
    const signal = rest.signal ? AbortSignal.any([rest.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const res = await outboundFetch(url, { ...rest, redirect: 'manual', signal });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      current = new URL(res.headers.get('location')!, url).toString();
      continue;
    }
    return res;
  }
  throw new UnsafeUrlError('Too many redirects.');
}
