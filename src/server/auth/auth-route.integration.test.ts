import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/api/auth/[...all]/route';
import { logger } from '../logger';

const url = 'http://localhost:3000/api/auth/sign-up/email';
const headers = { 'content-type': 'application/json', origin: 'http://localhost:3000' };

/** A POST whose body sends a first piece, then fails as Node's stream does when the client hangs up. */
function cutPost() {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":'));
      controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    },
  });
  return new Request(url, { method: 'POST', body, duplex: 'half', headers } as RequestInit);
}

describe('the auth endpoints read the body themselves', () => {
  afterEach(() => vi.restoreAllMocks());

  it('pass a whole body on to better-auth (a sign-up creates the account)', async () => {
    const email = `route-${Math.random().toString(36).slice(2)}@example.com`;
    const res = await POST(new Request(url, { method: 'POST', headers, body: JSON.stringify({ name: 'Route', email, password: 'correct horse battery' }) }));
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ email });
  });

  it('answer a client that hangs up mid-body with 400 and an info line, not an error', async () => {
    const errors = vi.spyOn(logger, 'error');
    const infos = vi.spyOn(logger, 'info');
    const res = await POST(cutPost());
    expect(res.status).toBe(400);
    expect(errors).not.toHaveBeenCalled();
    expect(infos).toHaveBeenCalledWith({ path: '/api/auth/sign-up/email' }, expect.stringContaining('closed the connection'));
  });

  it('refuse a body over 64 KiB with 413 before better-auth reads it', async () => {
    const res = await POST(new Request(url, { method: 'POST', headers, body: JSON.stringify({ name: 'x'.repeat(70_000) }) }));
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('BODY_TOO_LARGE');
  });
});
