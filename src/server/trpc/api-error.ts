import { TRPCError } from '@trpc/server';
import type { ZodError } from 'zod';
import { AppError, ERROR_CODES, isAppError, type ApiErrorBody } from '../domain/errors';

export interface ApiErrorResult {
  status: number;
  body: ApiErrorBody;
  headers?: Record<string, string>;
}

function isZodError(err: unknown): err is ZodError {
  return err instanceof Error && err.name === 'ZodError' && Array.isArray((err as ZodError).issues);
}

/** First zod issue → `parameter_invalid`/`parameter_missing` with a dotted `param` path. */
export function zodToAppError(err: ZodError): AppError {
  const issue = err.issues[0];
  let path = issue.path.map(String);
  let message = issue.message;
  let code: 'parameter_invalid' | 'parameter_missing' = 'parameter_invalid';
  if (issue.code === 'invalid_key') {
    // a record's key: the key check's own message, about the record (an empty key made `metadata.`)
    const key = path.pop() ?? '';
    const inner = issue.issues[0]?.message ?? 'Invalid key.';
    message = `Invalid ${path.join('.') || 'key'}: ${inner.replace(/\.$/, '')} (key ${JSON.stringify(key.length > 48 ? `${key.slice(0, 45)}…` : key)}).`;
  } else if (issue.code === 'invalid_union' && issue.errors.every((branch) => branch.length === 1 && branch[0].code === 'invalid_value')) {
    // a choice of literals (`point_system`: 1 or 2): name them instead of "invalid input"
    const values = issue.errors.flatMap((branch) => (branch[0].code === 'invalid_value' ? branch[0].values : []));
    message = `Invalid ${path.join('.')}: expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}.`;
  } else if (issue.code === 'invalid_type' && /received NaN/.test(issue.message)) {
    message = `Invalid ${path.join('.')}: expected a number, sent once.`;
  } else if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    path = [...path, key];
    message = `Unknown parameter: ${path.join('.')}.`;
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    code = 'parameter_missing';
    message = `Missing required parameter: ${path.join('.')}.`;
  } else if (path.length) {
    message = `Invalid ${path.join('.')}: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}${/[.!?]$/.test(issue.message) ? '' : '.'}`;
  }
  return new AppError(code, { message, ...(path.length ? { param: path.join('.') } : {}) });
}

/**
 * Maps anything a procedure threw to the public error (status, spec body, headers). Both
 * doors use it: the REST door sends it as the response, the dashboard reads it from the
 * tRPC error's `data.api`.
 */
export function toApiError(error: TRPCError): ApiErrorResult {
  const cause = error.cause;
  let app: AppError;
  if (isAppError(cause)) app = cause;
  else if (isZodError(cause)) app = zodToAppError(cause);
  else if (error.code === 'PARSE_ERROR') app = new AppError('body_invalid', { message: 'The request body is not valid JSON.' });
  else if (error.code === 'NOT_FOUND') app = new AppError('route_missing', { message: 'Unrecognized request URL.' });
  else if (error.code === 'PAYLOAD_TOO_LARGE') app = new AppError('body_too_large', { message: 'The request body is larger than 1 MiB.' });
  else if (error.code === 'UNSUPPORTED_MEDIA_TYPE') app = new AppError('body_invalid', { message: 'The request body must be JSON (Content-Type: application/json).' });
  else if (error.code === 'METHOD_NOT_SUPPORTED') app = new AppError('method_not_allowed', { message: 'Method not allowed.' });
  else app = new AppError('internal_error', { message: 'An internal error occurred. It has been logged; quote the Request-Id if you contact support.' });
  return { status: ERROR_CODES[app.code].status, body: app.toBody(), headers: app.headers };
}

/** Wraps a domain error for tRPC; the formatter turns it back into the public error. */
export function toTRPCError(err: unknown): TRPCError {
  if (err instanceof TRPCError) return err;
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err instanceof Error ? err : new Error(String(err)) });
}
