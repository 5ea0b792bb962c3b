import { describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { newId } from '../ids';
import { consumeRateLimit } from './rate-limit';

describe('rolling-minute rate limit in PostgreSQL', () => {
  it('admits 60 requests, rejects the 61st, and tells when to retry', async () => {
    const db = getDb();
    const key = newId('apiKey');
    const t0 = Date.now();
    for (let i = 0; i < 60; i++) {
      const s = await consumeRateLimit(db, key, 60, t0 + i * 100);
      expect(s.allowed).toBe(true);
      expect(s.remaining).toBe(59 - i);
    }
    const rejected = await consumeRateLimit(db, key, 60, t0 + 6_000);
    expect(rejected.allowed).toBe(false);
    expect(rejected.remaining).toBe(0);
    expect(rejected.retryAfter).toBe(54);
    expect(rejected.reset).toBe(Math.ceil((t0 + 60_000) / 1000));
  });

  it('slides: requests leave the window one by one', async () => {
    const db = getDb();
    const key = newId('apiKey');
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await consumeRateLimit(db, key, 3, t0 + i * 1_000);
    expect((await consumeRateLimit(db, key, 3, t0 + 59_000)).allowed).toBe(false);
    // the first request (t0) left the window; exactly one slot is free
    expect((await consumeRateLimit(db, key, 3, t0 + 60_001)).allowed).toBe(true);
    expect((await consumeRateLimit(db, key, 3, t0 + 60_002)).allowed).toBe(false);
  });

  it('never admits more than the limit under concurrent requests', async () => {
    const db = getDb();
    const key = newId('apiKey');
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 80 }, () => consumeRateLimit(db, key, 60, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
  });

  it('keeps keys apart', async () => {
    const db = getDb();
    const a = newId('apiKey');
    const b = newId('apiKey');
    expect((await consumeRateLimit(db, a, 1)).allowed).toBe(true);
    expect((await consumeRateLimit(db, a, 1)).allowed).toBe(false);
    expect((await consumeRateLimit(db, b, 1)).allowed).toBe(true);
  });
});
