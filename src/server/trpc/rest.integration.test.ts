import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../logger';
import { handleRestRequest } from './rest';

/** A POST whose body stream sends a first piece, then fails with `failure` (what Node gives when the client hangs up). */
function cutPost(failure: Error) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"source":'));
      controller.error(failure);
    },
  });
  return new Request('http://localhost/v1/sessions', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'content-type': 'application/json', 'content-length': '5000' },
  } as RequestInit);
}

describe('REST door: request bodies that do not arrive', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a client that hangs up mid-body gets 400 body_invalid and is logged as information, not as an error', async () => {
    const errors = vi.spyOn(logger, 'error');
    const infos = vi.spyOn(logger, 'info');
    const res = await handleRestRequest(cutPost(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'body_invalid' });
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(errors).not.toHaveBeenCalled();
    expect(infos).toHaveBeenCalledWith(expect.objectContaining({ method: 'POST', path: '/sessions' }), expect.stringContaining('closed the connection'));
  });

  it('any other failure while reading is still a logged 500', async () => {
    const errors = vi.spyOn(logger, 'error');
    const res = await handleRestRequest(cutPost(new Error('disk on fire')));
    expect(res.status).toBe(500);
    expect((await res.json()).error.code).toBe('internal_error');
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ err: expect.objectContaining({ message: 'disk on fire' }) }), 'unhandled error in the REST door');
  });
});
