import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Outbound-request guard (DESIGN §4): sources and webhook URLs must be https and resolve
 * only to public addresses — no private, loopback, link-local, CGNAT, multicast or cloud
 * metadata ranges — checked on the DNS answer the connection uses, and again on every redirect.
 * This file holds the rules; `outbound.ts` is the client that applies them when it connects.
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

const V4_BLOCKED: Array<[number, number]> = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as Array<[string, number]>
).map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [(ipv4ToInt(base) & mask) >>> 0, mask];
});

function isBlockedV4Int(n: number): boolean {
  return V4_BLOCKED.some(([base, mask]) => ((n & mask) >>> 0) === base);
}

/** The eight 16-bit groups of an IPv6 address (zone id ignored, embedded IPv4 allowed); null if malformed. */
function ipv6Groups(ip: string): number[] | null {
  const a = ip.replace(/%.*$/, '').toLowerCase();
  let tail: number[] = [];
  let head = a;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (v4) {
    if (isIP(v4[1]) !== 4) return null;
    const n = ipv4ToInt(v4[1]);
    tail = [n >>> 16, n & 0xffff];
    head = a.slice(0, -v4[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const left = parse(halves[0]);
  const right = halves.length === 2 ? [...parse(halves[1]), ...tail] : [];
  const all = halves.length === 2 ? left : [...left, ...tail];
  const fill = 8 - all.length - right.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const groups = [...all, ...new Array(halves.length === 2 ? fill : 0).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

/**
 * True for addresses a server-side fetch must never reach: private, loopback, link-local,
 * CGNAT, multicast, reserved and documentation ranges, and IPv6 forms that carry such an
 * IPv4 address (IPv4-mapped `::ffff:a.b.c.d` in any spelling, IPv4-compatible, IPv4-translated,
 * 6to4) or can reach one (NAT64, Teredo). Anything that is not an IP address is blocked.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip.replace(/%.*$/, ''));
  if (family === 4) return isBlockedV4Int(ipv4ToInt(ip));
  if (family !== 6) return true;
  const g = ipv6Groups(ip);
  if (!g) return true;
  const v4At = (i: number) => ((g[i] << 16) | g[i + 1]) >>> 0;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 7) && g[7] <= 1) return true; // :: and ::1
  if (zeros(0, 5) && g[5] === 0xffff) return isBlockedV4Int(v4At(6)); // IPv4-mapped
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return isBlockedV4Int(v4At(6)); // IPv4-translated
  if (zeros(0, 6)) return true; // IPv4-compatible (deprecated)
  if (g[0] === 0x2002) return isBlockedV4Int(v4At(1)); // 6to4 carries an IPv4 address
  if (g[0] === 0x64 && g[1] === 0xff9b) return true; // NAT64 (well-known and local-use) can reach private v4
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x100 && zeros(1, 4)) return true; // discard-only
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

const PRIVATE_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal|metadata\.google\.internal)\.?$/i;

/**
 * The checks that need no DNS: an absolute https URL (http too when private sources are
 * allowed), no credentials, no private host name, no blocked literal address. Throws
 * UnsafeUrlError with a message fit for the client. The host's DNS answer is checked when a
 * connection is opened (`outbound.ts`), so the check and the connection use one answer.
 */
export function checkUrl(raw: string | URL): URL {
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
  if (PRIVATE_NAMES.test(host) || (isIP(host) && isBlockedAddress(host))) {
    throw new UnsafeUrlError('The URL points to a private host.');
  }
  return url;
}

/** Checks a resolver's answer for `host`; throws UnsafeUrlError unless every address is public. */
export function checkAnswer(host: string, addresses: ReadonlyArray<{ address: string }>): void {
  if (addresses.length === 0) throw new UnsafeUrlError(`The host ${host} could not be resolved.`);
  if (addresses.some((a) => isBlockedAddress(a.address))) {
    throw new UnsafeUrlError('The URL resolves to a private or reserved address.');
  }
}

/**
 * Parses and checks a URL given by a client (a webhook endpoint's url), resolving its host
 * once to give an early, clear error. Requests never rely on this answer: the outbound
 * client checks the address it connects to (see `outbound.ts`).
 */
export async function assertSafeUrl(raw: string): Promise<URL> {
  const url = checkUrl(raw);
  if (privateSourcesAllowed()) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return url;
  const addresses = await lookup(host, { all: true }).catch(() => {
    throw new UnsafeUrlError(`The host ${host} could not be resolved.`);
  });
  checkAnswer(host, addresses);
  return url;
}
