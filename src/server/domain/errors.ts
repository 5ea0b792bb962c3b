/**
 * The one error type below the transport. Domain code throws `AppError(code, …)`; the
 * tRPC layer maps each code to its HTTP status and public error `type` with the table
 * below, so an expected outcome never turns into a 500.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'insufficient_credits'
  | 'rate_limit_error'
  | 'api_error';

export const ERROR_CODES = {
  /** A field has a wrong type, is out of range or is unknown. */
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  /** A required field is absent. */
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  /** The body is not valid JSON, or not JSON at all. */
  body_invalid: { status: 400, type: 'invalid_request_error' },
  /** The same Idempotency-Key was sent with another request. */
  idempotency_key_reused: { status: 400, type: 'invalid_request_error' },
  api_key_missing: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  api_key_revoked: { status: 401, type: 'authentication_error' },
  api_key_wrong_environment: { status: 401, type: 'authentication_error' },
  /** A dashboard request without a signed-in member of the organization. */
  not_signed_in: { status: 401, type: 'authentication_error' },
  /** The signed-in member's role does not allow the action. */
  forbidden: { status: 403, type: 'permission_error' },
  insufficient_credits: { status: 402, type: 'insufficient_credits' },
  /** Unknown id, or an id of another organization (existence is never leaked). */
  resource_missing: { status: 404, type: 'invalid_request_error' },
  route_missing: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  /** A request with the same Idempotency-Key is still being processed. */
  idempotency_key_in_use: { status: 409, type: 'invalid_request_error' },
  upload_not_finished: { status: 409, type: 'invalid_request_error' },
  /** The reel is not rendered (yet, or it failed): it cannot be shared. */
  reel_not_ready: { status: 409, type: 'invalid_request_error' },
  no_group: { status: 409, type: 'invalid_request_error' },
  /** A correction, manual highlight or reel of a session that is not `processed` (yet). */
  session_not_processed: { status: 409, type: 'invalid_request_error' },
  /** An undo of a correction whose shots or players a later correction changed, or one undone already. */
  correction_conflict: { status: 409, type: 'invalid_request_error' },
  /** A limit of the organization was reached (e.g. webhook endpoints). */
  resource_limit_reached: { status: 409, type: 'invalid_request_error' },
  /** Card payments (Stripe) are not configured on this deployment, or no card is saved yet. */
  payment_provider_missing: { status: 409, type: 'invalid_request_error' },
  /** The payment provider refused or failed the request. */
  payment_failed: { status: 502, type: 'api_error' },
  body_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  internal_error: { status: 500, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: ErrorType }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorBody {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    [extra: string]: unknown;
  };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  /** Extra fields of the error body, e.g. `needed_cents` on 402. */
  readonly extra?: Record<string, unknown>;
  /** Extra response headers, e.g. `Retry-After` on 429, `Allow` on 405. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { message: string; param?: string; extra?: Record<string, unknown>; headers?: Record<string, string> },
  ) {
    super(opts.message);
    this.name = 'AppError';
    this.code = code;
    this.param = opts.param;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toBody(): ApiErrorBody {
    const { type } = ERROR_CODES[this.code];
    return {
      error: {
        type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...this.extra,
      },
    };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof Error && err.name === 'AppError' && 'code' in err && (err as AppError).code in ERROR_CODES;
}

export const notFound = (what: string, param = 'id') =>
  new AppError('resource_missing', { message: `No such ${what}.`, param });
