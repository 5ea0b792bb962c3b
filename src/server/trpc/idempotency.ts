import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestFingerprint } from '../domain/idempotency/idempotency';
import type { Context } from './context';
import type { OrgAuth } from './procedures';

/** Response headers that belong to the stored response (not per-request ones like Request-Id). */
const REPLAYED_HEADERS = ['X-Service-Cost-Cents', 'X-Service-Balance-Cents'];

/**
 * Runs `run` at most once per `Idempotency-Key` (DESIGN §4): the first request with a key
 * runs and its response is stored for 24 h; the same key and body replay it with
 * `Idempotent-Replayed: true`. Requests without the header just run. A failed request is
 * not stored, so it can be retried with the same key.
 */
export async function idempotent<T>(ctx: Context & { auth: OrgAuth }, body: unknown, run: () => Promise<T>): Promise<T> {
  const key = ctx.req.headers.get('idempotency-key');
  if (key === null) return run();
  const scope = { organizationId: ctx.auth.organizationId, key };
  const fingerprint = requestFingerprint(ctx.req.method, new URL(ctx.req.url).pathname, body);
  const claim = await claimIdempotencyKey(ctx.db, { ...scope, fingerprint });
  if (claim.kind === 'replay') {
    ctx.res.status = claim.response.status;
    for (const [name, value] of Object.entries(claim.response.headers)) ctx.res.headers.set(name, value);
    ctx.res.headers.set('Idempotent-Replayed', 'true');
    return claim.response.body as T;
  }
  try {
    const data = await run();
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = ctx.res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await completeIdempotencyKey(ctx.db, { ...scope, response: { status: ctx.res.status ?? 200, body: data, headers } });
    return data;
  } catch (err) {
    await releaseIdempotencyKey(ctx.db, scope);
    throw err;
  }
}
