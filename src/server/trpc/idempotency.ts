import type { Tx } from '../db/client';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
  type StoredResponse,
} from '../domain/idempotency/idempotency';
import type { Context } from './context';
import type { OrgAuth } from './procedures';

/**
 * Stores the response of an idempotent request inside the transaction that makes its change
 * (`tx`), so the two commit together. Response headers other than the ones given are
 * per-request (Request-Id, rate limits) and are not stored.
 */
export type RecordResponse = (tx: Tx, response: StoredResponse) => Promise<void>;

/**
 * Runs `run` at most once per `Idempotency-Key` (DESIGN §4): the first request with a key
 * runs and its response is stored for 24 h; the same key and body replay it with
 * `Idempotent-Replayed: true`. Requests without the header just run.
 *
 * `run` gets `record`, to call inside the transaction of its change: the change and the stored
 * response commit together (Stripe's "atomic phase"). A request that dies after its commit
 * leaves a key that replays it; a request that failed before leaves no key, and can be retried
 * with the same one. (Storing the response in a statement after the commit would leave a
 * window in which a failure released the key of a change already made, and the retry would
 * make it, and charge for it, twice.)
 */
export async function idempotent<T>(ctx: Context & { auth: OrgAuth }, body: unknown, run: (record: RecordResponse) => Promise<T>): Promise<T> {
  const key = ctx.req.headers.get('idempotency-key');
  if (key === null) return run(async () => {});
  const scope = { organizationId: ctx.auth.organizationId, key };
  const fingerprint = requestFingerprint(ctx.req.method, new URL(ctx.req.url).pathname, body);
  const claim = await claimIdempotencyKey(ctx.db, { ...scope, fingerprint });
  if (claim.kind === 'replay') {
    ctx.res.status = claim.response.status;
    for (const [name, value] of Object.entries(claim.response.headers)) ctx.res.headers.set(name, value);
    ctx.res.headers.set('Idempotent-Replayed', 'true');
    return claim.response.body as T;
  }
  let recorded = false;
  try {
    const data = await run(async (tx, response) => {
      await completeIdempotencyKey(tx, { ...scope, claimedAt: claim.claimedAt, response });
      recorded = true;
    });
    if (!recorded) throw new Error('an idempotent procedure returned without recording its response in its transaction');
    return data;
  } catch (err) {
    // only an unrecorded claim is released: a stored response belongs to a committed change
    await releaseIdempotencyKey(ctx.db, scope);
    throw err;
  }
}
