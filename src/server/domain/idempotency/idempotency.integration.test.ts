import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { claimIdempotencyKey, completeIdempotencyKey, purgeExpiredIdempotencyKeys, requestFingerprint } from './idempotency';

describe('idempotency keys', () => {
  it('fingerprints ignore key order but not values', () => {
    expect(requestFingerprint('POST', '/v1/sessions', { a: 1, b: { c: 2, d: 3 } })).toBe(requestFingerprint('post', '/v1/Sessions', { b: { d: 3, c: 2 }, a: 1 }));
    expect(requestFingerprint('POST', '/v1/sessions', { a: 1 })).not.toBe(requestFingerprint('POST', '/v1/sessions', { a: 2 }));
  });

  it('treats an expired key as unused and the purge removes it', async () => {
    const { db, org } = await makeOrg();
    const scope = { organizationId: org.id, key: 'k1' };
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f1' })).toEqual({ kind: 'claimed' });
    await completeIdempotencyKey(db, { ...scope, response: { status: 201, body: { ok: true }, headers: {} } });
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f1' })).toMatchObject({ kind: 'replay', response: { status: 201, body: { ok: true } } });
    await db
      .update(idempotencyKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(idempotencyKeys.organizationId, org.id), eq(idempotencyKeys.key, 'k1')));
    expect(await purgeExpiredIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.organizationId, org.id))).toHaveLength(0);
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f2' })).toEqual({ kind: 'claimed' });
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
    expect(await claimIdempotencyKey(db, { ...scope, fingerprint: 'f' })).toEqual({ kind: 'claimed' });
  });
});
