import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { SwishMeta } from './init';
import { restOperations } from './operations';
import { appRouter } from './routers';

type Json = Record<string, any>;

const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message'],
      properties: {
        type: {
          type: 'string',
          enum: ['invalid_request_error', 'authentication_error', 'permission_error', 'insufficient_credits', 'rate_limit_error', 'api_error'],
        },
        code: { type: 'string', description: 'Machine-readable code, e.g. `parameter_invalid`, `api_key_revoked`, `resource_missing`.' },
        message: { type: 'string', description: 'A human-readable explanation.' },
        param: { type: 'string', description: 'The request field concerned, as a dotted path (`source.url`).' },
      },
    },
  },
};

const INSUFFICIENT_CREDITS_SCHEMA: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message', 'needed_cents', 'available_cents'],
      properties: {
        type: { type: 'string', enum: ['insufficient_credits'] },
        code: { type: 'string', enum: ['insufficient_credits'] },
        message: { type: 'string' },
        needed_cents: { type: 'integer', description: 'Cents the hold needs.' },
        available_cents: { type: 'integer', description: 'Cents available now.' },
      },
    },
  },
};

const int = (description: string) => ({ description, schema: { type: 'integer' } });
const COMMON_HEADERS: Json = {
  'Request-Id': { description: 'Unique id of this request; quote it to support.', schema: { type: 'string' } },
  'X-RateLimit-Limit': int('Requests allowed per rolling minute for this API key.'),
  'X-RateLimit-Remaining': int('Requests left in the current window.'),
  'X-RateLimit-Reset': int('Unix seconds when the window has room again.'),
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`parameter_invalid`, `parameter_missing`, `body_invalid`, `idempotency_key_reused`).',
  401: 'Missing, invalid, revoked or wrong-environment API key.',
  402: 'The balance cannot cover the hold.',
  404: 'No such resource in this organization (`resource_missing`).',
  409: 'Conflict (`upload_not_finished`, `no_group`, `idempotency_key_in_use`, `resource_limit_reached`, `session_not_processed`, `correction_conflict`).',
  413: 'The request body is larger than 1 MiB.',
  429: 'More than the allowed requests per minute for this API key.',
  500: 'Internal error (`api_error`); nothing internal is exposed.',
};

function errorResponse(status: number): Json {
  const headers: Json = status === 429 ? { ...COMMON_HEADERS, 'Retry-After': int('Seconds to wait before retrying.') } : { ...COMMON_HEADERS };
  return {
    description: ERROR_DESCRIPTIONS[status],
    headers,
    content: { 'application/json': { schema: { $ref: status === 402 ? '#/components/schemas/InsufficientCreditsError' : '#/components/schemas/Error' } } },
  };
}

function metaByOperation(): Map<string, SwishMeta> {
  return new Map(restOperations().map((op) => [`${op.method.toLowerCase()} ${op.path}`, op.meta]));
}

let cached: Json | undefined;

/**
 * The OpenAPI 3 document of `/v1`, generated from the procedures and then corrected so it
 * tells the truth: the real success status (201 on create), the spec's error body instead
 * of the library's, the 402 fields, and the headers every response carries.
 */
export function openApiDocument(baseUrl: string): Json {
  if (!cached) {
    const doc = generateOpenApiDocument(appRouter, {
      title: 'Swish API',
      version: '1.0.0',
      description:
        'Basketball game-video analysis: submit a game, get highlights, shots, players with box scores and team totals. Money is integer cents; times are Unix seconds. Authenticate with `Authorization: Bearer swish_prod_…`.',
      baseUrl: '/v1',
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `swish_prod_…` or `swish_stg_…`.' } },
    }) as Json;
    const metas = metaByOperation();
    for (const [path, item] of Object.entries(doc.paths ?? {}) as Array<[string, Json]>) {
      for (const [method, op] of Object.entries(item) as Array<[string, Json]>) {
        const meta = metas.get(`${method} ${path}`);
        const success = op.responses?.['200'];
        const responses: Json = {};
        if (success) {
          success.headers = { ...COMMON_HEADERS };
          for (const [name, description] of Object.entries(meta?.responseHeaderDocs ?? {})) {
            success.headers[name] = { description, schema: { type: 'string' } };
          }
          responses[String(meta?.successStatus ?? 200)] = success;
        }
        for (const status of [400, 401, ...(meta?.errorStatuses ?? []), 429, 500].sort()) responses[status] = errorResponse(status);
        op.responses = responses;
        if (meta?.idempotent) {
          op.parameters = [
            ...(op.parameters ?? []),
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Up to 255 characters. The same key with the same body within 24 h replays the first response (`Idempotent-Replayed: true`).',
              schema: { type: 'string', maxLength: 255 },
            },
          ];
        }
      }
    }
    doc.components = doc.components ?? {};
    doc.components.schemas = { ...(doc.components.schemas ?? {}), Error: ERROR_SCHEMA, InsufficientCreditsError: INSUFFICIENT_CREDITS_SCHEMA };
    doc.security = [{ bearerAuth: [] }];
    cached = doc;
  }
  return { ...cached, servers: [{ url: `${baseUrl.replace(/\/$/, '')}/v1` }] };
}
