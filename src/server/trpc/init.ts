import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { AppError } from '../domain/errors';
import { toApiError } from './api-error';

export interface SwishMeta extends OpenApiMeta {
  /** Success status of the REST door (default 200), reflected in the OpenAPI document. */
  successStatus?: 200 | 201;
  /** Error statuses the operation can return beyond 400/401/429/500 (for the OpenAPI document). */
  errorStatuses?: Array<402 | 404 | 409 | 413>;
  /** Response headers the operation sets, name → description (for the OpenAPI document). */
  responseHeaderDocs?: Record<string, string>;
  /** Idempotency-Key is honoured on this operation. */
  idempotent?: boolean;
}

/** tRPC's name of each status the public errors use (`data.code` of the dashboard door's errors). */
export const TRPC_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

const t = initTRPC
  .context<Context>()
  .meta<SwishMeta>()
  .create({
    errorFormatter({ shape, error }) {
      // tRPC's own fields tell the same story as the public error (its status, its message),
      // not a 500 and a dump of zod issues for every failure
      const api = toApiError(error);
      return { ...shape, message: api.body.error.message, data: { ...shape.data, code: TRPC_CODES[api.status] ?? shape.data.code, httpStatus: api.status, stack: undefined, api } };
    },
  });

/**
 * Where in an input a string — a value or a key — holds a NUL character (`metadata.k`,
 * `starting_after`), or a key is `__proto__`; null when none does. PostgreSQL's text and jsonb
 * cannot store a NUL, so such an input would fail at the database as an internal error, and a
 * `__proto__` key would vanish silently in parsing: both are refused as bad parameters.
 */
export function unstorablePath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return [...path, k.replaceAll('\u0000', '\\u0000')].join('.');
    // a key no object can hold as its own (it would set the prototype): refused like a NUL
    if (k === '__proto__') return [...path, k].join('.');
    const found = unstorablePath(v, [...path, k]);
    if (found !== null) return found;
  }
  return null;
}

const rejectUnstorable = t.middleware(async ({ getRawInput, next }) => {
  let raw: unknown;
  try {
    raw = await getRawInput();
  } catch {
    // a body or `input` that is not JSON: the client's mistake, not an internal error
    throw new AppError('body_invalid', { message: 'The input is not valid JSON.' });
  }
  const param = unstorablePath(raw);
  if (param !== null) {
    const message = param.endsWith('__proto__') ? '`__proto__` cannot be used as a key.' : `${param || 'The input'} must not contain a NUL character (\\u0000).`;
    throw new AppError('parameter_invalid', { message, param: param || undefined });
  }
  return next();
});

export const router = t.router;
export const middleware = t.middleware;
/** Every procedure: an input that is not JSON, or holds a NUL or a `__proto__` key, is refused before anything else (see {@link unstorablePath}). */
export const publicProcedure = t.procedure.use(rejectUnstorable);
export const createCallerFactory = t.createCallerFactory;
