import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

let secret: Buffer | undefined;

/**
 * Key for signing media URLs: SWISH_SECRET when set (required when several instances
 * serve media), otherwise a random key kept in DATA_DIR so URLs survive restarts.
 */
function signingKey(): Buffer {
  if (secret) return secret;
  if (process.env.SWISH_SECRET) {
    secret = Buffer.from(process.env.SWISH_SECRET);
    return secret;
  }
  const dir = resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data');
  const file = join(dir, 'media-signing.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  secret = Buffer.from(readFileSync(file, 'utf8').trim());
  return secret;
}

export function publicBaseUrl(): string {
  return (process.env.SWISH_PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}

function signature(key: string, expires: number): string {
  return createHmac('sha256', signingKey()).update(`${key}\n${expires}`).digest('base64url');
}

/** How long a signed media URL lives by default (SWISH_MEDIA_URL_TTL, seconds; default a day). */
export const mediaUrlTtlSeconds = () => Number(process.env.SWISH_MEDIA_URL_TTL ?? 86_400);

/**
 * An absolute, expiring URL for a stored media object. Expiry is rounded up to the hour so
 * repeated reads within an hour return the same URL (cache-friendly), unless `exact`.
 */
export function signMediaUrl(
  key: string | null | undefined,
  ttlSeconds = mediaUrlTtlSeconds(),
  opts: { exact?: boolean } = {},
): string | null {
  if (!key) return null;
  const expires = opts.exact ? Math.ceil(Date.now() / 1000 + ttlSeconds) : Math.ceil((Date.now() / 1000 + ttlSeconds) / 3600) * 3600;
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${publicBaseUrl()}/media/${path}?expires=${expires}&signature=${signature(key, expires)}`;
}

/** Checks a media URL's signature and expiry. */
export function verifyMediaSignature(key: string, expires: number, sig: string, now = Date.now() / 1000): boolean {
  if (!Number.isInteger(expires) || expires < now) return false;
  const expected = Buffer.from(signature(key, expires));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The object key a `/media/<key>` path names (its segments URL-decoded), or null for another path or a bad encoding. */
export function mediaKeyOfPath(pathname: string): string | null {
  const prefix = '/media/';
  if (!pathname.startsWith(prefix)) return null;
  try {
    return pathname.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}

const MEDIA_URL = /^https?:\/\/[^/?#]+(\/media\/[^?#]+)\?expires=\d+&signature=[\w-]+$/;

/**
 * A recorded object (an event's Session) with each of its media URLs signed again from now,
 * on the current public origin: a snapshot keeps the URLs it was recorded with, which expire
 * after SWISH_MEDIA_URL_TTL, while the event log keeps events for 30 days and a webhook is
 * retried for 3. Only URLs of the `/media/<key>?expires=…&signature=…` form are touched; the
 * rest of the object is returned as it is (a copy where something changed).
 */
export function withFreshMediaUrls<T>(value: T): T {
  if (typeof value === 'string') {
    if (!value.includes('/media/')) return value;
    const path = MEDIA_URL.exec(value)?.[1];
    const key = path ? mediaKeyOfPath(path) : null;
    return (key ? (signMediaUrl(key) ?? value) : value) as T;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const fresh = withFreshMediaUrls(v);
      if (fresh !== v) (out ??= [...value])[i] = fresh;
    });
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value)) {
      const fresh = withFreshMediaUrls(v);
      if (fresh !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = fresh;
    }
    return (out ?? value) as T;
  }
  return value;
}
