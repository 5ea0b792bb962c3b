import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createOrg, expectError } from '../helpers';

/** tus 1.0.0 at /v1/uploads (DESIGN §4), black-box over HTTP with an API key. */

const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const bytes = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));

test('OPTIONS advertises the extensions, the checksum algorithm and the size limit', async ({ request }) => {
  const res = await request.fetch('/v1/uploads', { method: 'OPTIONS' });
  expect(res.status()).toBeLessThan(300);
  const ext = res.headers()['tus-extension'];
  for (const e of ['creation', 'creation-with-upload', 'expiration', 'termination', 'checksum']) expect(ext).toContain(e);
  expect(res.headers()['tus-checksum-algorithm']).toBe('sha1');
  expect(res.headers()['tus-version']).toContain('1.0.0');
});

test('create, resume, checksum, finish, read as JSON, then submit a session from it', async ({ request }) => {
  const org = await createOrg();
  const file = bytes(300_000);
  const created = await request.post('/v1/uploads', {
    headers: { ...org.auth, ...TUS, 'Upload-Length': String(file.length), 'Upload-Metadata': `filename ${b64('game 1.mp4')},filetype ${b64('video/mp4')}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const location = created.headers()['location'];
  expect(location).toMatch(/^\/v1\/uploads\/up_[0-9a-z]{26}$/);
  expect(created.headers()['upload-expires']).toBeTruthy();
  const id = location.split('/').pop()!;

  const head0 = await request.head(location, { headers: { ...org.auth, ...TUS } });
  expect(head0.status()).toBe(200);
  expect(head0.headers()['upload-offset']).toBe('0');
  expect(head0.headers()['upload-length']).toBe(String(file.length));

  const part1 = file.subarray(0, 100_000);
  const patch = (offset: number, body: Buffer, extra: Record<string, string> = {}) =>
    request.patch(location, { headers: { ...org.auth, ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', ...extra }, data: body });
  const p1 = await patch(0, part1, { 'Upload-Checksum': `sha1 ${createHash('sha1').update(part1).digest('base64')}` });
  expect(p1.status(), await p1.text()).toBe(204);
  expect(p1.headers()['upload-offset']).toBe('100000');

  // a corrupted chunk is refused and nothing is written
  const bad = await patch(100_000, file.subarray(100_000, 200_000), { 'Upload-Checksum': `sha1 ${createHash('sha1').update('other').digest('base64')}` });
  expect(bad.status()).toBe(460);
  const unsupported = await patch(100_000, file.subarray(100_000, 200_000), { 'Upload-Checksum': 'md5 AAAA' });
  expect(unsupported.status()).toBe(400);
  // a wrong offset is a conflict
  expect((await patch(5, file.subarray(5, 10))).status()).toBe(409);

  const json1 = await request.get(location, { headers: { ...org.auth, Accept: 'application/json' } });
  expect(json1.status()).toBe(200);
  const u1 = await json1.json();
  expect(u1).toMatchObject({ id, object: 'upload', status: 'uploading', size: file.length, offset: 100_000, filename: 'game 1.mp4' });
  expect(u1.expires_at - u1.created).toBeGreaterThanOrEqual(24 * 3600 - 5);

  // not finished yet: a session cannot use it
  await expectError(await request.post('/v1/sessions', { headers: org.auth, data: { source: { upload_id: id }, duration_seconds: 60 } }), 409, 'upload_not_finished', 'source.upload_id');

  const head1 = await request.head(location, { headers: { ...org.auth, ...TUS } });
  expect(head1.headers()['upload-offset']).toBe('100000');
  const p2 = await patch(100_000, file.subarray(100_000));
  expect(p2.status()).toBe(204);
  expect(p2.headers()['upload-offset']).toBe(String(file.length));

  const u2 = await (await request.get(location, { headers: { ...org.auth, Accept: 'application/json' } })).json();
  expect(u2).toMatchObject({ status: 'complete', offset: file.length, expires_at: null });
  // a finished upload still answers HEAD (clients that resume find it done) and cannot be terminated
  const head2 = await request.head(location, { headers: { ...org.auth, ...TUS } });
  expect(head2.headers()['upload-offset']).toBe(String(file.length));
  expect((await request.delete(location, { headers: { ...org.auth, ...TUS } })).status()).toBe(400);

  const session = await request.post('/v1/sessions', { headers: org.auth, data: { source: { upload_id: id }, duration_seconds: 60 } });
  expect(session.status(), await session.text()).toBe(201);
  expect((await session.json()).source.type).toBe('upload');
});

test('creation-with-upload finishes a small file in one request', async ({ request }) => {
  const org = await createOrg();
  const file = bytes(5_000, 7);
  const res = await request.post('/v1/uploads', {
    headers: { ...org.auth, ...TUS, 'Upload-Length': String(file.length), 'Content-Type': 'application/offset+octet-stream' },
    data: file,
  });
  expect(res.status(), await res.text()).toBe(201);
  expect(res.headers()['upload-offset']).toBe(String(file.length));
  const u = await (await request.get(res.headers()['location'], { headers: { ...org.auth, Accept: 'application/json' } })).json();
  expect(u.status).toBe('complete');
});

test('termination: a deleted upload is gone (410) and cannot be used', async ({ request }) => {
  const org = await createOrg();
  const created = await request.post('/v1/uploads', { headers: { ...org.auth, ...TUS, 'Upload-Length': '1000' } });
  const location = created.headers()['location'];
  expect((await request.delete(location, { headers: { ...org.auth, ...TUS } })).status()).toBe(204);
  expect((await request.head(location, { headers: { ...org.auth, ...TUS } })).status()).toBe(410);
  const u = await (await request.get(location, { headers: { ...org.auth, Accept: 'application/json' } })).json();
  expect(u.status).toBe('expired');
  await expectError(await request.post('/v1/sessions', { headers: org.auth, data: { source: { upload_id: u.id } } }), 409, 'upload_not_finished');
});

test('errors: no key 401, too large 413, another organization 404, unknown id 404, wrong method 405', async ({ request }) => {
  const org = await createOrg();
  const other = await createOrg();
  await expectError(await request.post('/v1/uploads', { headers: { ...TUS, 'Upload-Length': '10' } }), 401, 'api_key_missing');
  await expectError(await request.post('/v1/uploads', { headers: { ...TUS, Authorization: 'Bearer swish_prod_nope', 'Upload-Length': '10' } }), 401, 'api_key_invalid');
  await expectError(await request.post('/v1/uploads', { headers: { ...org.auth, ...TUS, 'Upload-Length': String(21 * 1024 ** 3) } }), 413, 'body_too_large', 'Upload-Length');
  await expectError(await request.post('/v1/uploads', { headers: { ...org.auth, ...TUS, 'Upload-Length': '0' } }), 400, 'parameter_invalid', 'Upload-Length');
  const created = await request.post('/v1/uploads', { headers: { ...org.auth, ...TUS, 'Upload-Length': '10' } });
  const location = created.headers()['location'];
  await expectError(await request.get(location, { headers: other.auth }), 404, 'resource_missing', 'id');
  expect((await request.head(location, { headers: { ...other.auth, ...TUS } })).status()).toBe(404);
  await expectError(await request.get('/v1/uploads/up_00000000000000000000000000', { headers: org.auth }), 404, 'resource_missing');
  const wrong = await request.put('/v1/uploads', { headers: org.auth });
  await expectError(wrong, 405, 'method_not_allowed');
  expect(wrong.headers()['allow']).toContain('POST');
});
