import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { consumeRateLimit } from '../domain/rate-limit/rate-limit';
import { publicBaseUrl } from '../media/urls';
import { getAuth } from './auth';
import { AUTH_RATE_LIMIT_PREFIX, pruneAuthWindows, sharedAuthRateLimit } from './rate-limit-storage';

/** A sign-in attempt through better-auth's HTTP handler, as the app's route serves it. */
function signIn(ip: string) {
  return getAuth().handler(
    new Request(`${publicBaseUrl()}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicBaseUrl(), 'x-forwarded-for': ip },
      body: JSON.stringify({ email: `nobody-${randomInt(1e9)}@example.com`, password: 'wrong password' }),
    }),
  );
}

async function windowHits(key: string): Promise<number> {
  const rows = await getDb().execute<{ n: number }>(sql`select cardinality(hits) as n from rate_limit_windows where key = ${key}`);
  return rows.length ? Number(rows[0].n) : 0;
}

describe('the sign-in rate limit', () => {
  it('refuses the 4th attempt in 10 s from one address with 429 and a retry time; another address is not affected', async () => {
    const ip = `203.0.113.${randomInt(1, 255)}`;
    await getDb().execute(sql`delete from rate_limit_windows where key = ${`${AUTH_RATE_LIMIT_PREFIX}${ip}|/sign-in/email`}`);
    for (let i = 0; i < 3; i++) expect((await signIn(ip)).status).toBe(401);
    const refused = await signIn(ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('x-retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('x-retry-after'))).toBeLessThanOrEqual(10);
    // the attempts are counted in PostgreSQL, the refused one not
    expect(await windowHits(`${AUTH_RATE_LIMIT_PREFIX}${ip}|/sign-in/email`)).toBe(3);
    expect((await signIn(`198.51.100.${randomInt(1, 255)}`)).status).toBe(401);
  });

  it('counts the attempts every instance saw: three taken by another instance leave none for this one', async () => {
    const ip = `192.0.2.${randomInt(1, 255)}`;
    const key = `${ip}|/sign-in/email`;
    await getDb().execute(sql`delete from rate_limit_windows where key = ${AUTH_RATE_LIMIT_PREFIX + key}`);
    // another instance: its own storage object (and, in its own process, its own memory), the same database
    const other = sharedAuthRateLimit(getDb);
    for (let i = 0; i < 3; i++) expect(await other.consume(key, { window: 10, max: 3 })).toEqual({ allowed: true, retryAfter: null });
    expect((await signIn(ip)).status).toBe(429);
  });

  it('forgets an address an hour after its last attempt, and never touches the API keys’ windows', async () => {
    const db = getDb();
    const now = Date.now();
    const stale = `${AUTH_RATE_LIMIT_PREFIX}stale-${randomInt(1e9)}|/sign-in/email`;
    const recent = `${AUTH_RATE_LIMIT_PREFIX}recent-${randomInt(1e9)}|/sign-in/email`;
    const apiKey = `api_key:prune-${randomInt(1e9)}`;
    await consumeRateLimit(db, stale, 3, now - 2 * 3600_000, 10_000);
    await consumeRateLimit(db, recent, 3, now - 60_000, 10_000);
    await consumeRateLimit(db, apiKey, 60, now - 2 * 3600_000);
    await pruneAuthWindows(db, now - 3600_000);
    expect(await windowHits(stale)).toBe(0);
    expect(await windowHits(recent)).toBe(1);
    expect(await windowHits(apiKey)).toBe(1);
  });
});
