import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { makeOrg } from '../../test/db';
import { getBalance } from '../domain/billing/credits';
import { createSession } from '../domain/sessions/create-session';
import { createContext } from './context';
import { idempotent } from './idempotency';
import type { OrgAuth } from './procedures';

/** The context of a POST /v1/sessions with an Idempotency-Key, as the REST door makes it. */
function restContext(organizationId: string, key: string) {
  const req = new Request('http://localhost/v1/sessions', { method: 'POST', headers: { 'idempotency-key': key } });
  const auth: OrgAuth = { organizationId, apiKeyId: null, userId: null, role: null };
  return { ...createContext({ door: 'rest', req, requestId: 'req_test' }), auth };
}

const input = { source: { url: 'https://videos.example.com/g.mp4' }, duration_seconds: 600 };

describe('idempotent()', () => {
  it('a request that fails after its change committed is replayed by a retry, never made twice', async () => {
    // Before, the response was stored in a statement after the session's commit, and any
    // failure there released the key: the retry created a second session and a second hold.
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    const submit = (failAfterCommit: boolean) =>
      idempotent(restContext(org.id, 'retry-me'), input, async (record) => {
        const created = await createSession(db, {
          organizationId: org.id,
          apiKeyId: null,
          input,
          beforeCommit: (tx, c) => record(tx, { status: 201, body: c.session, headers: { 'X-Service-Cost-Cents': String(c.heldCents) } }),
        });
        if (failAfterCommit) throw new Error('the connection dropped after the commit');
        return created.session;
      });
    await expect(submit(true)).rejects.toThrow('the connection dropped');
    const retryCtx = restContext(org.id, 'retry-me');
    const replayed = await idempotent(retryCtx, input, async () => {
      throw new Error('must not run again');
    });
    expect(retryCtx.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retryCtx.res.headers.get('X-Service-Cost-Cents')).toBe('84'); // 600 s at 500 cents/h, rounded up
    const [{ n }] = await db.select({ n: count() }).from(sessions).where(eq(sessions.organizationId, org.id));
    expect(n).toBe(1);
    expect((replayed as { id: string }).id).toMatch(/^sess_/);
    expect((await getBalance(db, org.id)).held_cents).toBe(84);
  });

  it('a request that fails before its change commits leaves no key: the retry runs', async () => {
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    await expect(
      idempotent(restContext(org.id, 'k'), input, async (record) =>
        createSession(db, {
          organizationId: org.id,
          apiKeyId: null,
          input,
          beforeCommit: async (tx, c) => {
            await record(tx, { status: 201, body: c.session, headers: {} });
            throw new Error('failed inside the transaction');
          },
        }),
      ),
    ).rejects.toThrow('failed inside the transaction');
    const created = await idempotent(restContext(org.id, 'k'), input, async (record) =>
      createSession(db, { organizationId: org.id, apiKeyId: null, input, beforeCommit: (tx, c) => record(tx, { status: 201, body: c.session, headers: {} }) }),
    );
    expect(created.session.status).toBe('queued');
    const [{ n }] = await db.select({ n: count() }).from(sessions).where(eq(sessions.organizationId, org.id));
    expect(n).toBe(1);
  });

  it('refuses a procedure that returns without recording its response', async () => {
    const { org } = await makeOrg();
    await expect(idempotent(restContext(org.id, 'k'), {}, async () => 'done')).rejects.toThrow('without recording its response');
  });
});
