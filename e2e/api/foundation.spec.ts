import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, test } from '@playwright/test';
import { createOrg, expectError, swishCli } from '../helpers';

test.describe('authentication', () => {
  test('every /v1 endpoint answers 401 without a valid key, with the right code', async ({ request }) => {
    const org = await createOrg();
    const endpoints = ['/v1/balance', '/v1/sessions', '/v1/usage', '/v1/sessions/sess_01abcdefghjkmnpqrstvwxyz01'];
    for (const path of endpoints) {
      const e = await expectError(await request.get(path), 401, 'api_key_missing');
      expect(e.type).toBe('authentication_error');
      await expectError(await request.get(path, { headers: { Authorization: 'Bearer nope' } }), 401, 'api_key_invalid');
      await expectError(
        await request.get(path, { headers: { Authorization: `Bearer swish_prod_${'x'.repeat(32)}` } }),
        401,
        'api_key_invalid',
      );
      await expectError(await request.get(path, { headers: { Authorization: `Bearer ${org.staging}` } }), 401, 'api_key_wrong_environment');
    }
    await expectError(await request.post('/v1/sessions', { data: {} }), 401, 'api_key_missing');
  });

  test('a revoked key stops working at once', async ({ request }) => {
    const org = await createOrg();
    expect((await request.get('/v1/balance', { headers: org.auth })).status()).toBe(200);
    await swishCli(['keys:revoke', org.prodKeyId]);
    await expectError(await request.get('/v1/balance', { headers: org.auth }), 401, 'api_key_revoked');
  });
});

test.describe('errors', () => {
  test('unknown routes, wrong methods, bad bodies and unknown fields get the spec body', async ({ request }) => {
    const org = await createOrg();
    await expectError(await request.get('/v1/nothing-here', { headers: org.auth }), 404, 'route_missing');
    const wrong = await request.delete('/v1/balance', { headers: org.auth });
    await expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers()['allow']).toBe('GET, HEAD');
    // HEAD wherever GET is: its status and headers, no body
    const head = await request.head('/v1/balance', { headers: org.auth });
    expect(head.status()).toBe(200);
    expect(head.headers()['x-ratelimit-limit']).toBeDefined();
    expect((await head.body()).length).toBe(0);
    expect((await request.head('/v1/sessions/sess_nope', { headers: org.auth })).status()).toBe(404);
    expect((await request.head('/v1/balance')).status()).toBe(401);
    await expectError(
      await request.post('/v1/sessions', { headers: { ...org.auth, 'Content-Type': 'application/json' }, data: '{"source": ' }),
      400,
      'body_invalid',
    );
    await expectError(
      await request.post('/v1/sessions', { headers: { ...org.auth, 'Content-Type': 'text/plain' }, data: 'hello' }),
      400,
      'body_invalid',
    );
    await expectError(
      await request.post('/v1/sessions', { headers: { ...org.auth, 'Content-Type': 'application/json' }, data: '[1,2]' }),
      400,
      'body_invalid',
    );
    const big = JSON.stringify({ source: { url: 'https://example.com/a.mp4' }, metadata: { a: 'x'.repeat(1024 * 1024) } });
    await expectError(await request.post('/v1/sessions', { headers: { ...org.auth, 'Content-Type': 'application/json' }, data: big }), 413, 'body_too_large');
    await expectError(
      await request.post('/v1/sessions', { headers: org.auth, data: { source: { url: 'https://example.com/a.mp4' }, colour: 'red' } }),
      400,
      'parameter_invalid',
      'colour',
    );
    await expectError(await request.get('/v1/balance?foo=1', { headers: org.auth }), 400, 'parameter_invalid', 'foo');
  });
});

test.describe('rate limit', () => {
  test('the 61st request in a minute gets 429 with Retry-After; headers on every response', async ({ request }) => {
    const org = await createOrg();
    let last;
    for (let i = 1; i <= 60; i++) {
      last = await request.get('/v1/balance', { headers: org.auth });
      expect(last.status()).toBe(200);
      expect(last.headers()['x-ratelimit-limit']).toBe('60');
      expect(last.headers()['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(Number(last.headers()['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    const limited = await request.get('/v1/balance', { headers: org.auth });
    const e = await expectError(limited, 429, 'rate_limited');
    expect(e.type).toBe('rate_limit_error');
    const retryAfter = Number(limited.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // another key of another organization is not affected
    const other = await createOrg();
    expect((await request.get('/v1/balance', { headers: other.auth })).status()).toBe(200);
  });
});

test.describe('balance, health, OpenAPI and the CLI', () => {
  test('orgs:create prints keys that work against /v1/balance', async ({ request }) => {
    const org = await swishCli(['orgs:create', '--name', 'Demo', '--grant-cents', '5000']);
    expect(org.keys.production.secret).toMatch(/^swish_prod_/);
    const res = await request.get('/v1/balance', { headers: { Authorization: `Bearer ${org.keys.production.secret}` } });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'balance', currency: 'usd', available_cents: 5000, held_cents: 0, credit_cents: 5000, rate_cents_per_hour: 500 });
    await swishCli(['credits:grant', '--org', org.id, '--cents', '250', '--reason', 'goodwill']);
    const after = await (await request.get('/v1/balance', { headers: { Authorization: `Bearer ${org.keys.production.secret}` } })).json();
    expect(after.credit_cents).toBe(5250);
    const list = await swishCli(['orgs:list']);
    expect(list.find((o: { id: string }) => o.id === org.id)).toMatchObject({ available_cents: 5250, active_keys: 2 });
    await swishCli(['keys:revoke', org.keys.staging.id]);
    expect((await swishCli(['orgs:list'])).find((o: { id: string }) => o.id === org.id)).toMatchObject({ active_keys: 1 });
  });

  test('members:add gives a signed-up dashboard account a role in an organization made with orgs:create', async ({ request, baseURL }) => {
    const org = await swishCli(['orgs:create', '--name', 'Operator Made']);
    const email = `owner-${Date.now()}@example.com`;
    const signUp = await request.post('/api/auth/sign-up/email', { data: { name: 'Owen Owner', email, password: 'correct horse battery' }, headers: { origin: baseURL! } });
    expect(signUp.status()).toBe(200);
    const added = await swishCli(['members:add', '--org', org.id, '--email', email]);
    expect(added).toMatchObject({ organization: org.id, email, role: 'owner', previous_role: null });
    // the account now acts for that organization in the dashboard (its cookie is in this request context)
    const me = await request.get('/api/trpc/dashboard.me');
    expect(me.status()).toBe(200);
    expect((await me.json()).result.data.active).toMatchObject({ id: org.id, role: 'owner' });
    // starter credit comes with an account's first organization only, not with every one it creates
    const made = [];
    for (const name of ['Second Org', 'Third Org']) {
      const res = await request.post('/api/auth/organization/create', { data: { name, slug: `${name.toLowerCase().replace(' ', '-')}-${Date.now()}` }, headers: { origin: baseURL! } });
      expect(res.status(), await res.text()).toBe(200);
      made.push((await res.json()).id as string);
    }
    // (the operator's organization was made by the CLI: the first one this account creates is credited)
    const balances = await Promise.all(made.map(async (id) => (await swishCli(['balance', '--org', id])).credit_cents));
    expect(balances).toEqual([1000, 0]);
    // even an owner cannot delete the organization (its ledger, sessions and keys stay): a clean refusal
    const del = await request.post('/api/auth/organization/delete', { data: { organizationId: org.id }, headers: { origin: baseURL! } });
    expect(del.status()).toBeGreaterThanOrEqual(400);
    expect(del.status()).toBeLessThan(500);
    expect((await swishCli(['orgs:list'])).some((o: { id: string }) => o.id === org.id)).toBe(true);

    // pages are never framed by another site nor content-sniffed
    const page = await request.get('/sessions');
    expect(page.headers()['x-frame-options']).toBe('DENY');
    expect(page.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers()['x-content-type-options']).toBe('nosniff');

    // the dashboard's door takes cookie-signed mutations from its own pages only
    const create = (headers: Record<string, string>, data: unknown) => request.post('/api/trpc/dashboard.groups.create', { headers, data: data as object });
    const forged = await create({ origin: 'http://localhost:1', 'content-type': 'application/json' }, { name: 'csrf' });
    expect(forged.status()).toBe(403);
    // refused in the shape of every other error of this door
    expect((await forged.json()).error).toMatchObject({ code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403, api: { status: 403, body: { error: { code: 'forbidden' } } } } });
    const form = await request.post('/api/trpc/dashboard.groups.create', { headers: { origin: baseURL! }, multipart: { name: 'csrf' } });
    expect(form.status()).toBe(400);
    expect((await form.json()).error).toMatchObject({ code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, api: { body: { error: { code: 'body_invalid' } } } } });
    expect((await create({ origin: baseURL!, 'content-type': 'application/json' }, { name: 'Varsity' })).status()).toBe(200);
    // input that is not JSON is the client's error, not an internal one; a foreign group is refused
    const bad = await request.get('/api/trpc/dashboard.sessions.list?input=%7Bbad');
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.data.api.body.error.code).toBe('body_invalid');
    const foreign = await request.get(`/api/trpc/dashboard.sessions.list?input=${encodeURIComponent(JSON.stringify({ group: 'grp_nope' }))}`);
    expect(foreign.status()).toBe(400);
    expect((await foreign.json()).error).toMatchObject({ data: { httpStatus: 400, code: 'BAD_REQUEST' }, message: "No such group: 'grp_nope'." });
    // an email nobody signed up with: a clear error, exit status 1
    await expect(swishCli(['members:add', '--org', org.id, '--email', 'nobody@example.com'])).rejects.toThrow(/No account uses nobody@example.com/);
  });

  test('health reports the database', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  test('the OpenAPI document is valid and tells the truth', async ({ request }) => {
    const res = await request.get('/v1/openapi.json');
    expect(res.headers()['request-id']).toMatch(/^req_/);
    const doc = await res.json();
    await SwaggerParser.validate(structuredClone(doc));
    const create = doc.paths['/sessions'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '402', '409', '429']));
    expect(create.responses['200']).toBeUndefined();
    expect(create.responses['201'].headers['X-Service-Cost-Cents'].schema.type).toBe('integer');
    // every query and path parameter says what it is; no model of a body the API never sends
    for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ name: string; description?: string }> }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) for (const p of op.parameters ?? []) expect(p.description, `${method} ${path} ${p.name}`).toBeTruthy();
    }
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
    expect(doc.components.schemas.InsufficientCreditsError.properties.error.required).toEqual(
      expect.arrayContaining(['needed_cents', 'available_cents']),
    );
    expect(doc.paths['/balance'].get.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    for (const path of ['/sessions', '/sessions/{id}', '/sessions/{id}/shots', '/sessions/{id}/highlights', '/sessions/{id}/players', '/usage', '/balance']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const page = await request.get('/docs/api');
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain('/v1/openapi.json');
  });
});
