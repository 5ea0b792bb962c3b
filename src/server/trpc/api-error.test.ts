import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors';
import { toApiError, zodToAppError } from './api-error';

describe('toApiError', () => {
  it('hides unexpected errors behind a 500 api_error without internals', () => {
    const boom = new Error('relation "sessions" does not exist at select * from sessions');
    const res = toApiError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: boom }));
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toMatch(/relation|select|sessions/);
  });

  it('keeps domain errors with their status, param, extra fields and headers', () => {
    const err = new AppError('insufficient_credits', { message: 'no', extra: { needed_cents: 5, available_cents: 1 } });
    const res = toApiError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err }));
    expect(res).toMatchObject({ status: 402, body: { error: { type: 'insufficient_credits', code: 'insufficient_credits', needed_cents: 5, available_cents: 1 } } });
    const limited = new AppError('rate_limited', { message: 'slow down', headers: { 'Retry-After': '3' } });
    expect(toApiError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: limited }))).toMatchObject({ status: 429, headers: { 'Retry-After': '3' } });
  });

  it('maps zod issues to a dotted param', () => {
    const schema = z.object({ source: z.object({ url: z.string() }).strict(), metadata: z.record(z.string(), z.string()).optional() }).strict();
    const issue = (input: unknown) => zodToAppError(schema.safeParse(input).error!);
    expect(issue({ source: { url: 5 } })).toMatchObject({ code: 'parameter_invalid', param: 'source.url' });
    expect(issue({ source: {} })).toMatchObject({ code: 'parameter_missing', param: 'source.url' });
    expect(issue({ source: { url: 'x', y: 1 } })).toMatchObject({ code: 'parameter_invalid', param: 'source.y' });
    expect(issue({ source: { url: 'x' }, metadata: { a: 1 } })).toMatchObject({ param: 'metadata.a' });
  });

  it('says what is wrong with a record key, a choice of values and a repeated number', () => {
    const schema = z
      .object({
        metadata: z.record(z.string().min(1, 'Metadata keys are not empty.').max(40, 'Metadata keys are at most 40 characters.'), z.string()).optional(),
        point_system: z.union([z.literal(1), z.literal(2)]).optional(),
        limit: z.coerce.number().int().optional(),
      })
      .strict();
    const issue = (input: unknown) => zodToAppError(schema.safeParse(input).error!);
    expect(issue({ metadata: { ['k'.repeat(41)]: 'v' } })).toMatchObject({ param: 'metadata', message: expect.stringMatching(/^Invalid metadata: Metadata keys are at most 40 characters \(key "k+"\)\.$/) });
    expect(issue({ metadata: { '': 'v' } })).toMatchObject({ param: 'metadata', message: 'Invalid metadata: Metadata keys are not empty (key "").' });
    expect(issue({ point_system: 3 })).toMatchObject({ param: 'point_system', message: 'Invalid point_system: expected one of 1, 2.' });
    expect(issue({ limit: ['5', '6'] })).toMatchObject({ param: 'limit', message: 'Invalid limit: expected a number, sent once.' });
  });
});
