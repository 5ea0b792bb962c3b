import { describe, expect, it, vi } from 'vitest';
import { POST as trpcPost } from '@/app/api/trpc/[trpc]/route';
import { logger } from '../logger';
import { getDb } from '../db/client';
import { createApiKey } from '../domain/api-keys/api-keys';
import { getBalance } from '../domain/billing/credits';
import { listGroups } from '../domain/groups/groups';
import { addMember } from '../domain/members/members';
import { createOrganization } from '../domain/organizations/organizations';
import { createContext } from '../trpc/context';
import { createCallerFactory } from '../trpc/init';
import { appRouter } from '../trpc/routers';
import { toApiError } from '../trpc/api-error';
import { TRPCError } from '@trpc/server';
import { getAuth } from './auth';

const createCaller = createCallerFactory(appRouter);

/** Signs a new user up through better-auth and returns the session cookie. */
async function signUp(name: string) {
  const email = `${name}-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await getAuth().api.signUpEmail({ body: { name, email, password: 'correct horse battery' }, asResponse: true });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { email, cookie, headers: new Headers({ cookie }) };
}

function dashboard(cookie: string | null) {
  const req = new Request('http://localhost/api/trpc/x', { headers: cookie ? { cookie } : {} });
  return createCaller(createContext({ door: 'dashboard', req, requestId: 'req_test' }));
}

function rest(secret: string) {
  const req = new Request('http://localhost/v1/x', { headers: { authorization: `Bearer ${secret}` } });
  return createCaller(createContext({ door: 'rest', req, requestId: 'req_test' }));
}

async function apiError(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return toApiError(err as TRPCError);
  }
  throw new Error('expected an error');
}

async function createOrg(headers: Headers, name: string) {
  const org = await getAuth().api.createOrganization({ headers, body: { name, slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}` } });
  return org!.id;
}

describe('dashboard door', () => {
  it('a new user creates an organization that is the API organization: prefixed id, default group, starter credit', async () => {
    process.env.SWISH_SIGNUP_CREDITS_CENTS = '1000';
    const owner = await signUp('owner');
    const me0 = await dashboard(owner.cookie).dashboard.me();
    expect(me0.active).toBeNull();
    expect(me0.user.id).toMatch(/^usr_/);

    const orgId = await createOrg(owner.headers, 'Lincoln High');
    expect(orgId).toMatch(/^org_[0-9a-z]{26}$/);
    const groups = await listGroups(getDb(), orgId);
    expect(groups).toHaveLength(1);
    expect(groups[0].is_default).toBe(true);
    expect((await getBalance(getDb(), orgId)).credit_cents).toBe(1000);

    const me = await dashboard(owner.cookie).dashboard.me();
    expect(me.active).toMatchObject({ id: orgId, role: 'owner' });
    // the same balance through both doors
    const key = await createApiKey(getDb(), { organizationId: orgId, environment: 'production' });
    expect(await dashboard(owner.cookie).balance.get({})).toEqual(await rest(key.secret).balance.get({}));
  });

  it('an organization made by the operator (API keys, no member) gets its dashboard owner with members:add', async () => {
    const org = await createOrganization(getDb(), { name: 'Operator Made', grantCents: 700 });
    const prod = org.keys.find((k) => k.environment === 'production')!;
    const s = await rest(prod.secret).sessions.create({ source: { url: 'https://videos.example.com/op.mp4' }, duration_seconds: 60 });
    const user = await signUp('later');
    expect((await dashboard(user.cookie).dashboard.me()).active).toBeNull();

    const added = await addMember(getDb(), { organizationId: org.id, email: user.email.toUpperCase(), role: 'owner' });
    expect(added).toMatchObject({ previousRole: null, member: { email: user.email, role: 'owner' } });
    expect((await dashboard(user.cookie).dashboard.me()).active).toMatchObject({ id: org.id, role: 'owner' });
    expect((await dashboard(user.cookie).dashboard.sessions.list({})).data.map((x) => x.id)).toEqual([s.id]);
    expect(await dashboard(user.cookie).balance.get({})).toEqual(await rest(prod.secret).balance.get({}));

    // again: the same membership with the new role
    expect(await addMember(getDb(), { organizationId: org.id, email: user.email, role: 'coach' })).toMatchObject({ previousRole: 'owner', member: { role: 'coach' } });
    expect((await dashboard(user.cookie).dashboard.me()).organizations).toHaveLength(1);
    expect((await apiError(dashboard(user.cookie).dashboard.apiKeys.list())).status).toBe(403);
    // nobody with that email, an unknown organization, a role that does not exist: nothing changes
    await expect(addMember(getDb(), { organizationId: org.id, email: 'nobody@example.com', role: 'owner' })).rejects.toMatchObject({ code: 'resource_missing', param: 'email' });
    await expect(addMember(getDb(), { organizationId: 'org_01m000000000000000000000', email: user.email, role: 'owner' })).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(addMember(getDb(), { organizationId: org.id, email: user.email, role: 'boss' as 'owner' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'role' });
    expect((await dashboard(user.cookie).dashboard.me()).active).toMatchObject({ id: org.id, role: 'coach' });
  });

  it('a mutation whose body the browser stops sending (tab closed) is a 400, not a logged failure', async () => {
    const user = await signUp('hangup');
    await createOrg(user.headers, 'Hangup');
    const errors = vi.spyOn(logger, 'error');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    const post = (body: BodyInit) =>
      trpcPost(
        new Request('http://localhost:3000/api/trpc/dashboard.groups.create', {
          method: 'POST',
          body,
          duplex: 'half',
          headers: { cookie: user.cookie, 'content-type': 'application/json', origin: 'http://localhost:3000', host: 'localhost:3000' },
        } as RequestInit),
      );
    expect((await post(body)).status).toBe(400);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    // the same call sent whole goes through: the cut one was refused for its body, not for who sent it
    expect((await post(JSON.stringify({ name: 'Juniors' }))).status).toBe(200);
  });

  it('an owner is removed only by an owner, with a message that says so; admins remove coaches', async () => {
    const owner = await signUp('owner-a');
    const orgId = await createOrg(owner.headers, 'Owners');
    const [owner2, admin, coach] = [await signUp('owner-b'), await signUp('admin'), await signUp('coach')];
    await addMember(getDb(), { organizationId: orgId, email: owner2.email, role: 'owner' });
    await addMember(getDb(), { organizationId: orgId, email: admin.email, role: 'admin' });
    await addMember(getDb(), { organizationId: orgId, email: coach.email, role: 'coach' });
    const remove = (by: { cookie: string }, memberIdOrEmail: string) =>
      getAuth().handler(
        new Request('http://localhost:3000/api/auth/organization/remove-member', {
          method: 'POST',
          headers: { cookie: by.cookie, 'content-type': 'application/json', origin: 'http://localhost:3000' },
          body: JSON.stringify({ memberIdOrEmail, organizationId: orgId }),
        }),
      );
    const roles = async () => (await dashboard(owner.cookie).dashboard.members.list()).members.map((m) => m.role).sort();
    const memberId = async (email: string) => (await dashboard(owner.cookie).dashboard.members.list()).members.find((m) => m.email === email)!.id;
    // an admin, by member id or by email: refused, and better-auth's "only owner" message is not what the admin sees
    for (const target of [await memberId(owner2.email), owner2.email]) {
      const res = await remove(admin, target);
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe('Only an owner can remove an owner.');
    }
    expect(await roles()).toEqual(['admin', 'coach', 'owner', 'owner']);
    expect((await remove(admin, coach.email)).status).toBe(200);
    expect((await remove(owner, owner2.email)).status).toBe(200);
    expect(await roles()).toEqual(['admin', 'owner']);
  });

  it('answers 401 without a session cookie and 403 before the user has an organization', async () => {
    expect((await apiError(dashboard(null).sessions.list({}))).body.error.code).toBe('not_signed_in');
    expect((await apiError(dashboard('better-auth.session_token=forged').sessions.list({}))).status).toBe(401);
    const lonely = await signUp('lonely');
    expect((await apiError(dashboard(lonely.cookie).sessions.list({}))).status).toBe(403);
  });

  it('coaches use sessions but not billing, keys, webhooks or members; admins do', async () => {
    const owner = await signUp('owner2');
    const orgId = await createOrg(owner.headers, 'Roles High');
    const coach = await signUp('coach');
    const admin = await signUp('admin');
    for (const [user, role] of [
      [coach, 'coach'],
      [admin, 'admin'],
    ] as const) {
      const inv = await getAuth().api.createInvitation({ headers: owner.headers, body: { email: user.email, role, organizationId: orgId } });
      await getAuth().api.acceptInvitation({ headers: user.headers, body: { invitationId: inv!.id } });
    }
    const c = dashboard(coach.cookie);
    expect((await c.dashboard.me()).active).toMatchObject({ id: orgId, role: 'coach' });
    expect((await c.sessions.list({})).object).toBe('list');
    expect((await c.dashboard.sessions.list({})).total_count).toBe(0);
    const adminOnly = [() => c.balance.get({}), () => c.usage.list({}), () => c.dashboard.apiKeys.list(), () => c.webhooks.list({}), () => c.events.list({}), () => c.dashboard.members.list()];
    for (const call of adminOnly) {
      const err = await apiError(call());
      expect(err.status).toBe(403);
      expect(err.body.error.code).toBe('forbidden');
    }
    const a = dashboard(admin.cookie);
    expect((await a.balance.get({})).object).toBe('balance');
    const created = await a.dashboard.apiKeys.create({ environment: 'staging', name: 'CI' });
    expect(created.secret).toMatch(/^swish_stg_/);
    const listed = await a.dashboard.apiKeys.list();
    expect(listed.find((k) => k.id === created.id)).not.toHaveProperty('secret');
    expect((await a.dashboard.apiKeys.revoke({ id: created.id })).revoked).not.toBeNull();
    expect((await a.dashboard.members.list()).members.map((m) => m.role).sort()).toEqual(['admin', 'coach', 'owner']);
  });

  it('never shows another organization: ids of other organizations are not found', async () => {
    const a = await signUp('a');
    const b = await signUp('b');
    const orgA = await createOrg(a.headers, 'Alpha');
    await createOrg(b.headers, 'Beta');
    const keyA = await createApiKey(getDb(), { organizationId: orgA, environment: 'production' });
    const created = await rest(keyA.secret).sessions.create({ source: { url: 'https://videos.example.com/g.mp4' }, duration_seconds: 60 });
    expect((await dashboard(a.cookie).sessions.get({ id: created.id })).id).toBe(created.id);
    const err = await apiError(dashboard(b.cookie).sessions.get({ id: created.id }));
    expect(err.status).toBe(404);
    expect((await apiError(dashboard(b.cookie).dashboard.sessions.update({ id: created.id, name: 'mine' }))).status).toBe(404);
    expect(await dashboard(a.cookie).dashboard.sessions.playerDetails({ id: created.id })).toEqual({}); // not processed yet: no players
    expect((await apiError(dashboard(b.cookie).dashboard.sessions.playerDetails({ id: created.id }))).status).toBe(404);
    const otherKey = (await dashboard(a.cookie).dashboard.apiKeys.list())[0];
    expect((await apiError(dashboard(b.cookie).dashboard.apiKeys.revoke({ id: otherKey.id }))).status).toBe(404);
    // switching to an organization one is not a member of is refused by better-auth, and the door ignores a stale active id
    await expect(getAuth().api.setActiveOrganization({ headers: b.headers, body: { organizationId: orgA } })).rejects.toThrow();
    expect((await dashboard(b.cookie).dashboard.sessions.list({})).total_count).toBe(0);
  });

  it('lists session summaries with search, and a coach renames a session; the public Session shows it', async () => {
    const owner = await signUp('searcher');
    const orgId = await createOrg(owner.headers, 'Search High');
    const key = await createApiKey(getDb(), { organizationId: orgId, environment: 'production' });
    await rest(key.secret).sessions.create({ source: { url: 'https://videos.example.com/1.mp4' }, duration_seconds: 60, metadata: { opponent: 'Eagles' } });
    const s2 = await rest(key.secret).sessions.create({
      source: { url: 'https://videos.example.com/2.mp4' },
      duration_seconds: 60,
      metadata: { opponent: 'Hawks' },
      options: { session_type: 'solo', point_system: 1 },
    });
    const d = dashboard(owner.cookie);
    const found = await d.dashboard.sessions.list({ q: 'hawk' });
    expect(found.data.map((s) => s.id)).toEqual([s2.id]);
    expect(found.data[0]).toMatchObject({ status: 'queued', progress: null, group: { name: 'Default' } });
    // what was filmed, as submitted, for the session page
    expect((await d.dashboard.sessions.get({ id: s2.id })).options).toEqual({ session_type: 'solo', point_system: 1, has_jerseys: false });
    expect((await d.dashboard.sessions.list({ q: '100%' })).total_count).toBe(0);
    expect((await d.dashboard.groups.list()).map((g) => [g.name, g.session_count])).toEqual([['Default', 2]]);
    await d.dashboard.sessions.update({ id: s2.id, name: 'Hawks home game' });
    expect((await rest(key.secret).sessions.get({ id: s2.id })).metadata).toEqual({ opponent: 'Hawks', name: 'Hawks home game' });
    // the public Session never carries the dashboard-only progress fields
    expect(Object.keys(await rest(key.secret).sessions.get({ id: s2.id }))).not.toContain('progress');
    expect(Object.keys(await rest(key.secret).sessions.get({ id: s2.id }))).not.toContain('options');
  });
});
