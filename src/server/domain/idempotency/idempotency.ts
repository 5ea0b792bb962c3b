import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { AppError } from '../errors';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** An in-flight marker older than this was left by a crashed request and may be taken over. */
const ABANDONED_AFTER_SECONDS = 120;

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** SHA-256 of method, path and the body as canonical JSON (key order does not matter). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path.toLowerCase()}\n${JSON.stringify(canonical(body ?? {}))}`)
    .digest('hex');
}

export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('parameter_invalid', {
      message: `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters long.`,
      param: 'Idempotency-Key',
    });
  }
}

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * `claimedAt` identifies this claim (the row's creation time, as PostgreSQL's text, to the
 * microsecond): the response is stored only while the key is still this claim's.
 */
export type IdempotencyClaim = { kind: 'claimed'; claimedAt: string } | { kind: 'replay'; response: StoredResponse };

/**
 * Claims `key` for this request, or returns the stored response to replay. Exactly one of
 * several concurrent requests with one key gets the claim (the insert is the arbiter); the
 * others get 409 `idempotency_key_in_use` while it runs. A different request under a used
 * key → 400 `idempotency_key_reused`. Expired keys count as unused.
 */
export async function claimIdempotencyKey(
  db: Database,
  opts: { organizationId: string; key: string; fingerprint: string },
): Promise<IdempotencyClaim> {
  validateIdempotencyKey(opts.key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        organizationId: opts.organizationId,
        key: opts.key,
        fingerprint: opts.fingerprint,
        expiresAt: sql`now() + make_interval(secs => ${IDEMPOTENCY_WINDOW_SECONDS})`,
      })
      .onConflictDoNothing()
      .returning({ claimedAt: sql<string>`${idempotencyKeys.createdAt}::text` });
    if (inserted.length) return { kind: 'claimed', claimedAt: inserted[0].claimedAt };

    const [row] = await db
      .select({
        fingerprint: idempotencyKeys.fingerprint,
        status: idempotencyKeys.responseStatus,
        body: idempotencyKeys.responseBody,
        headers: idempotencyKeys.responseHeaders,
        expired: sql<boolean>`${idempotencyKeys.expiresAt} <= now()`,
        abandoned: sql<boolean>`${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})`,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.organizationId, opts.organizationId), eq(idempotencyKeys.key, opts.key)));
    if (!row) continue; // released meanwhile: try the insert again
    if (row.expired || row.abandoned) {
      await dropIdempotencyKey(db, opts);
      continue;
    }
    if (row.fingerprint !== opts.fingerprint) {
      throw new AppError('idempotency_key_reused', {
        message: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        param: 'Idempotency-Key',
      });
    }
    if (row.status === null) {
      throw new AppError('idempotency_key_in_use', {
        message: 'A request with this Idempotency-Key is still being processed; retry in a moment.',
        param: 'Idempotency-Key',
      });
    }
    return { kind: 'replay', response: { status: row.status, body: row.body, headers: row.headers ?? {} } };
  }
  throw new AppError('idempotency_key_in_use', { message: 'This Idempotency-Key is busy; retry in a moment.', param: 'Idempotency-Key' });
}

/**
 * Stores the response of a claimed key for replays. Called inside the transaction that makes
 * the request's change, so the change and its stored response commit together: a request that
 * dies after its commit (or whose next statement fails) leaves a key that replays the change,
 * never one that lets a retry make it twice.
 */
export async function completeIdempotencyKey(
  db: DbOrTx,
  opts: { organizationId: string; key: string; claimedAt: string; response: StoredResponse },
): Promise<void> {
  const stored = await db
    .update(idempotencyKeys)
    .set({ responseStatus: opts.response.status, responseBody: opts.response.body, responseHeaders: opts.response.headers })
    .where(
      and(
        eq(idempotencyKeys.organizationId, opts.organizationId),
        eq(idempotencyKeys.key, opts.key),
        isNull(idempotencyKeys.responseStatus),
        sql`${idempotencyKeys.createdAt} = ${opts.claimedAt}::timestamptz`,
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (stored.length === 0) {
    // Taken over as abandoned (the request ran longer than ABANDONED_AFTER_SECONDS): the
    // other request owns the key now, and this one's transaction must not commit.
    throw new AppError('idempotency_key_in_use', {
      message: 'This request ran so long that a retry with the same Idempotency-Key took it over; this one changed nothing.',
      param: 'Idempotency-Key',
    });
  }
}

/**
 * Forgets a claim whose request failed, so the client can retry with the same key. A key whose
 * response is stored stays: its change committed, and a retry must replay it.
 */
export async function releaseIdempotencyKey(db: Database, opts: { organizationId: string; key: string }): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.organizationId, opts.organizationId), eq(idempotencyKeys.key, opts.key), isNull(idempotencyKeys.responseStatus)));
}

/** Forgets a key whatever its state: an expired one, or an in-flight marker left by a crash. */
async function dropIdempotencyKey(db: Database, opts: { organizationId: string; key: string }): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.organizationId, opts.organizationId), eq(idempotencyKeys.key, opts.key)));
}

/** Deletes keys past their 24 h window (run by a scheduled job). */
export async function purgeExpiredIdempotencyKeys(db: Database): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`)).returning({ key: idempotencyKeys.key });
  return rows.length;
}
