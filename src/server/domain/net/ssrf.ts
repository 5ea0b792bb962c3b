import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Outbound-request guard (DESIGN §4): sources and webhook URLs must be https and resolve
 * only to public addresses — no private, loopback, link-local, CGNAT, multicast or cloud
 * metadata ranges — checked after DNS resolution and again on every redirect.
 * `SWISH_ALLOW_PRIVATE_SOURCES=1` lifts the address check and allows http (tests only).
 */

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

export function privateSourcesAllowed(): boolean {
  return process.env.SWISH_ALLOW_PRIVATE_SOURCES === '1';
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** True for addresses a server-side fetch must never reach. */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    const n = ipv4ToInt(ip);
    return V4_BLOCKED.some(([base, bits]) => {
      const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
      return (n & mask) === (ipv4ToInt(base) & mask);
    });
  }
  if (family === 6) {
    const a = ip.toLowerCase();
    if (a === '::' || a === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    if (mapped) return isBlockedAddress(mapped[1]);
    if (/^f[cd]/.test(a)) return true; // unique local fc00::/7
    if (/^fe[89ab]/.test(a)) return true; // link-local fe80::/10
    if (/^ff/.test(a)) return true; // multicast
    if (a.startsWith('64:ff9b:')) return true; // NAT64 can reach private v4
    if (a.startsWith('2001:db8:')) return true; // documentation
    return false;
  }
  return true;
}

/**
 * Parses and checks a URL for an outbound request. Throws UnsafeUrlError with a message
 * fit for the client. Returns the parsed URL.
 */
export async function assertSafeUrl(raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('The URL is not a valid absolute URL.');
  }
  const allowPrivate = privateSourcesAllowed();
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new UnsafeUrlError('The URL must use https.');
  }
  if (url.username || url.password) throw new UnsafeUrlError('The URL must not contain credentials.');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^(localhost|.*\.localhost|.*\.local|.*\.internal|metadata\.google\.internal)$/i.test(host)) {
    throw new UnsafeUrlError('The URL points to a private host.');
  }
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true }).catch(() => {
    throw new UnsafeUrlError(`The host ${host} could not be resolved.`);
  });
  if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address))) {
    throw new UnsafeUrlError('The URL resolves to a private or reserved address.');
  }
  return url;
}

/**
 * fetch() that refuses unsafe URLs and follows at most `maxRedirects` redirects itself,
 * checking each hop. Bounded in time by `timeoutMs` (headers; the caller bounds the body).
 */
export async function safeFetch(
  raw: string,
  init: RequestInit & { timeoutMs?: number; maxRedirects?: number } = {},
): Promise<Response> {
  const { timeoutMs = 15_000, maxRedirects = 5, ...rest } = init;
  let current = raw;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const url = await assertSafeUrl(current);
    const signal = rest.signal ? AbortSignal.any([rest.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const res = await fetch(url, { ...rest, redirect: 'manual', signal });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      current = new URL(res.headers.get('location')!, url).toString();
      continue;
    }
    return res;
  }
  throw new UnsafeUrlError('Too many redirects.');
}
