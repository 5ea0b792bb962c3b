import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Wire-level helpers of Inngest's SDK protocol: request signing, key hashing, run ids.
 * The SDK verifies `x-inngest-signature: t=<unix seconds>&s=<hex HMAC-SHA256>` over the
 * canonical JSON (RFC 8785) of the body followed by the timestamp, keyed with the signing
 * key minus its `signkey-<env>-` prefix.
 */

/** RFC 8785 canonical JSON: sorted keys, no whitespace. The engine sends bodies in this form so the signature covers exactly what the SDK re-canonicalises. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

const stripPrefix = (key: string) => key.replace(/^signkey-[\w]+-/, '');

/** The `x-inngest-signature` header value for `body` (already canonical JSON). */
export function signBody(body: string, signingKey: string, nowMs = Date.now()): string {
  const t = Math.round(nowMs / 1000).toString();
  const s = createHmac('sha256', stripPrefix(signingKey)).update(body).update(t).digest('hex');
  return `t=${t}&s=${s}`;
}

/** The bearer token the SDK sends to `/fn/register`: the signing key's hex bytes hashed with SHA-256, prefix kept. */
export function hashSigningKey(signingKey: string): string {
  const prefix = /^signkey-[\w]+-/.exec(signingKey)?.[0] ?? '';
  return `${prefix}${createHash('sha256').update(Buffer.from(stripPrefix(signingKey), 'hex')).digest('hex')}`;
}

/** Constant-time string comparison for keys and tokens. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A fresh signing key in Inngest's format (`signkey-<env>-<64 hex>`), for the embedded engine's own use. */
export function newSigningKey(env = 'embedded'): string {
  return `signkey-${env}-${randomBytes(32).toString('hex')}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (time-sortable, 26 chars), the id format Inngest uses for runs and events. */
export function ulid(nowMs = Date.now()): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (const b of randomBytes(16)) rand += CROCKFORD[b % 32];
  return time + rand;
}

/** The SDK's step-id hashing (SHA-1 hex), for tests and tools that look up memoised steps by their readable id. */
export function hashStepId(id: string): string {
  return createHash('sha1').update(id).digest('hex');
}
