import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { claimIdempotencyKey, completeIdempotencyKey, purgeExpiredIdempotencyKeys, releaseIdempotencyKey, requestFingerprint, type IdempotencyClaim } from './idempotency';

const claimedAt = (claim: IdempotencyClaim) => {
  if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
  return claim.claimedAt;
};

describe('idempotency keys', () => {
  it('fingerprints ignore key order but not values', () => {
    expect(requestFingerprint('POST', '/v1/sessions', { a: 1, b: { c: 2, d: 3 } })).toBe(requestFingerprint('post', '/v1/Sessions', { b: { d: 3, c: 2 }, a: 1 }));
    expect(requestFingerprint('POST', '/v1/sessions', { a: 1 })).not.toBe(requestFingerprint('POST', '/v1/sessions', { a: 2 }));
  });

  it('treats an expired key as unused and the purge removes it', async () => {
    const { db, org } = await makeOrg();
    const scope = { organizationId: org.id, key: 'k1' };
    const claim = await claimIdempotencyKey(db, { ...scope, fingerprint: 'f1' });
    await completeIdempotencyKey(db, { ...scope, claimedAt: claimedAt(claim), response: { status: 201, body: { ok: true }, headers: {} } });
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f1' })).toMatchObject({ kind: 'replay', response: { status: 201, body: { ok: true } } });
    await db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(idempotencyKeys.organizationId, org.id), eq(idempotencyKeys.key, 'k1')));
    expect(await purgeExpiredIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, org.id))).toHaveLength(0);
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f2' })).toMatchObject({ kind: 'claimed' });
  });

  it('lets a request take over a key abandoned by a crashed one', async () => {
    const { db, org } = await makeOrg();
    const scope = { organizationId: org.id, key: 'k2' };
    await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' });
    await expect(claimIdempotencyKey(db, { ...scope, fingerprint: 'f' })).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(and(eq(idempotencyKeys.organizationId, org.id), eq(idempotencyKeys.key, 'k2')));
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' })).toMatchObject({ kind: 'claimed' });
  });

  it('a claim taken over as abandoned cannot store its response: its transaction rolls back', async () => {
    const { db, org } = await makeOrg();
    const scope = { organizationId: org.id, key: 'k3' };
    const slow = claimedAt(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' }));
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(and(eq(idempotencyKeys.organizationId, org.id), eq(idempotencyKeys.key, 'k3')));
    const retry = claimedAt(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' }));
    expect(retry).not.toBe(slow);
    // the slow request finishes now: its change and its response in one transaction
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(idempotencyKeys).values({ organizationId: org.id, key: 'k3-change', fingerprint: 'x', expiresAt: new Date(Date.now() + 60_000) });
        await completeIdempotencyKey(tx, { ...scope, claimedAt: slow, response: { status: 201, body: { from: 'slow' }, headers: {} } });
      }),
    ).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    const rows = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, org.id));
    expect(rows.map((r) => r.key)).toEqual(['k3']); // the slow one's change rolled back
    expect(rows[0].responseStatus).toBeNull(); // the key is still the retry's
    await completeIdempotencyKey(db, { ...scope, claimedAt: retry, response: { status: 201, body: { from: 'retry' }, headers: {} } });
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' })).toMatchObject({ kind: 'replay', response: { body: { from: 'retry' } } });
  });

  it('never releases a key whose response is stored', async () => {
    const { db, org } = await makeOrg();
    const scope = { organizationId: org.id, key: 'k4' };
    const claim = claimedAt(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' }));
    await completeIdempotencyKey(db, { ...scope, claimedAt: claim, response: { status: 201, body: { n: 1 }, headers: {} } });
    await releaseIdempotencyKey(db, scope);
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' })).toMatchObject({ kind: 'replay', response: { body: { n: 1 } } });
  });
});
