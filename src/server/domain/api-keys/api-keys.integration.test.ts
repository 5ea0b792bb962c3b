import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { authenticateApiKey, createApiKey, revokeApiKey } from './api-keys';
import { AppError } from '../errors';

async function authError(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('API keys', () => {
  it('issues prefixed keys, stores only a hash, and authenticates them', async () => {
    const { db, org, prodKey, stagingKey } = await makeOrg();
    expect(prodKey.secret).toMatch(/^swish_prod_[A-Za-z0-9]{32}$/);
    expect(stagingKey.secret).toMatch(/^swish_stg_[A-Za-z0-9]{32}$/);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, prodKey.id));
    expect(JSON.stringify(row)).not.toContain(prodKey.secret);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);

    const key = await authenticateApiKey(db, `Bearer ${prodKey.secret}`, 'production');
    expect(key).toMatchObject({ id: prodKey.id, organizationId: org.id, environment: 'production' });
    const [used] = await db.select().from(apiKeys).where(eq(apiKeys.id, prodKey.id));
    expect(used.lastUsedAt).toBeInstanceOf(Date);
  });

  it('answers each failure with its own 401 code', async () => {
    const { db, prodKey, stagingKey } = await makeOrg();
    expect((await authError(authenticateApiKey(db, undefined, 'production'))).code).toBe('api_key_missing');
    expect((await authError(authenticateApiKey(db, 'Basic abc', 'production'))).code).toBe('api_key_missing');
    expect((await authError(authenticateApiKey(db, 'Bearer not-a-key', 'production'))).code).toBe('api_key_invalid');
    // the messages tell an empty Bearer and a key copied short from the other cases
    expect(await authError(authenticateApiKey(db, 'Bearer ', 'production'))).toMatchObject({ code: 'api_key_missing', message: expect.stringContaining('holds no API key') });
    expect((await authError(authenticateApiKey(db, `Bearer ${prodKey.secret.slice(0, -3)}`, 'production'))).message).toContain('was it copied whole');
    expect((await authError(authenticateApiKey(db, `Bearer swish_prod_${'A'.repeat(32)}`, 'production'))).code).toBe('api_key_invalid');
    expect((await authError(authenticateApiKey(db, `Bearer ${stagingKey.secret}`, 'production'))).code).toBe('api_key_wrong_environment');
    expect((await authError(authenticateApiKey(db, `Bearer ${prodKey.secret}`, 'staging'))).code).toBe('api_key_wrong_environment');
    await revokeApiKey(db, { keyId: prodKey.id });
    const revoked = await authError(authenticateApiKey(db, `Bearer ${prodKey.secret}`, 'production'));
    expect(revoked.code).toBe('api_key_revoked');
    expect(revoked.status).toBe(401);
  });

  it('scopes revocation to the organization when one is given', async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const err = await authError(revokeApiKey(a.db, { keyId: b.prodKey.id, organizationId: a.org.id }));
    expect(err.code).toBe('resource_missing');
    await expect(authenticateApiKey(b.db, `Bearer ${b.prodKey.secret}`, 'production')).resolves.toMatchObject({ id: b.prodKey.id });
  });

  it('creates keys without a rate limit only when asked', async () => {
    const { db, org } = await makeOrg();
    const limited = await createApiKey(db, { organizationId: org.id, environment: 'production' });
    const unlimited = await createApiKey(db, { organizationId: org.id, environment: 'production', rateLimitPerMinute: null });
    expect(limited.rateLimitPerMinute).toBe(60);
    expect(unlimited.rateLimitPerMinute).toBeNull();
  });
});
