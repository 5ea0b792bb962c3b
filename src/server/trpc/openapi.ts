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

/** A header (or any value) of the document: its description and type. */
const header = (description: string, type = 'string') => ({ description, schema: { type } });
const int = (description: string) => header(description, 'integer');
const COMMON_HEADERS: Json = {
  'Request-Id': header('Unique id of this request; quote it to support.'),
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

function operationsByKey() {
  return new Map(restOperations().map((op) => [`${op.method.toLowerCase()} ${op.path}`, op]));
}

/**
 * The `.describe()` text of an input field: the generator leaves query parameters without one,
 * so the reference would not say what `limit`'s default is or what a cursor names.
 */
function fieldDescription(input: unknown, name: string): string | undefined {
  const shape = (input as { shape?: Record<string, { description?: string }> } | undefined)?.shape;
  return shape?.[name]?.description;
}

const tusVersion = { name: 'Tus-Resumable', in: 'header', required: true, description: 'Always `1.0.0`.', schema: { type: 'string', enum: ['1.0.0'] } };
const uploadId = { name: 'id', in: 'path', required: true, description: 'The upload id (`up_…`), the last segment of the `Location` the creation answered.', schema: { type: 'string' } };
const UPLOAD_SCHEMA: Json = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Prefix `up_`; submit it as `source.upload_id` once `complete`.' },
    object: { type: 'string', enum: ['upload'] },
    status: { type: 'string', enum: ['uploading', 'complete', 'expired'], description: '`expired`: timed out unfinished (24 h) or terminated.' },
    size: { type: 'integer', description: 'Bytes.' },
    offset: { type: 'integer', description: 'Bytes received.' },
    filename: { type: ['string', 'null'] },
    created: { type: 'integer', description: 'Unix seconds.' },
    expires_at: { type: ['integer', 'null'], description: 'Unix seconds when an unfinished upload expires; null once complete.' },
  },
  required: ['id', 'object', 'status', 'size', 'offset', 'filename', 'created', 'expires_at'],
};

/**
 * `/v1/uploads` speaks tus 1.0.0, not JSON procedures, so the generator does not see it: its
 * operations are written here (the README's "Uploads (tus)" has a walk-through).
 */
function uploadPaths(): Json {
  const errors = { 401: errorResponse(401), 404: errorResponse(404), 429: errorResponse(429) };
  return {
    '/uploads': {
      post: {
        operationId: 'uploads-create',
        tags: ['Uploads'],
        summary: 'Create a resumable upload (tus)',
        description:
          'tus 1.0.0 creation (also creation-with-upload and creation-defer-length). Send the bytes with PATCH to the `Location`, resume from the offset HEAD reports, then submit the upload id as `source.upload_id`. Unfinished uploads expire after 24 h.',
        parameters: [
          tusVersion,
          { name: 'Upload-Length', in: 'header', required: false, description: 'Total size in bytes (or `Upload-Defer-Length: 1`).', schema: { type: 'integer' } },
          { name: 'Upload-Metadata', in: 'header', required: false, description: '`filename <base64>` (and other tus metadata).', schema: { type: 'string' } },
        ],
        responses: { 201: { description: 'Created.', headers: { Location: header('`/v1/uploads/up_…`'), 'Upload-Expires': header('When an unfinished upload expires.') } }, 400: errorResponse(400), 413: errorResponse(413), ...errors },
      },
    },
    '/uploads/{id}': {
      get: {
        operationId: 'uploads-get',
        tags: ['Uploads'],
        summary: 'Retrieve an upload',
        description: 'The upload as JSON (send `Accept: application/json`).',
        parameters: [uploadId],
        responses: { 200: { description: 'The upload.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Upload' } } } }, ...errors },
      },
      head: {
        operationId: 'uploads-offset',
        tags: ['Uploads'],
        summary: 'The offset to resume from (tus)',
        parameters: [tusVersion, uploadId],
        responses: { 200: { description: 'No body.', headers: { 'Upload-Offset': int('Bytes received.'), 'Upload-Length': int('Total bytes.') } }, 410: { description: 'Expired or terminated.' }, ...errors },
      },
      patch: {
        operationId: 'uploads-append',
        tags: ['Uploads'],
        summary: 'Send bytes (tus)',
        description: 'Body `application/offset+octet-stream` from `Upload-Offset`. Not counted by the rate limit.',
        parameters: [
          tusVersion,
          uploadId,
          { name: 'Upload-Offset', in: 'header', required: true, description: 'Where these bytes start; must equal the offset received so far (409 otherwise).', schema: { type: 'integer' } },
          { name: 'Upload-Checksum', in: 'header', required: false, description: '`sha1 <base64>` of this chunk (460 on mismatch).', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: {
          204: { description: 'Received.', headers: { 'Upload-Offset': int('The new offset.') } },
          409: { description: 'Wrong `Upload-Offset`.' },
          410: { description: 'Expired or terminated.' },
          460: { description: 'Checksum mismatch.' },
          ...errors,
        },
      },
      delete: {
        operationId: 'uploads-terminate',
        tags: ['Uploads'],
        summary: 'Terminate an unfinished upload (tus)',
        parameters: [tusVersion, uploadId],
        responses: { 204: { description: 'Terminated; its bytes are deleted.' }, ...errors },
      },
    },
  };
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
    const operations = operationsByKey();
    for (const [path, item] of Object.entries(doc.paths ?? {}) as Array<[string, Json]>) {
      for (const [method, op] of Object.entries(item) as Array<[string, Json]>) {
        const operation = operations.get(`${method} ${path}`);
        const meta = operation?.meta;
        for (const param of (op.parameters ?? []) as Json[]) {
          const description = param.description ?? fieldDescription(operation?.input, param.name);
          if (description) param.description = description;
        }
        const success = op.responses?.['200'];
        const responses: Json = {};
        if (success) {
          success.headers = { ...COMMON_HEADERS };
          for (const [name, description] of Object.entries(meta?.responseHeaderDocs ?? {})) {
            // the money headers carry integer cents (SPEC §4.1)
            success.headers[name] = /-Cents$/i.test(name) ? int(description) : header(description);
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
    // the library's own error models (`error.BAD_REQUEST` …) describe a body the API never sends
    const own = Object.entries(doc.components.schemas ?? {}).filter(([name]) => !name.startsWith('error.'));
    doc.components.schemas = { ...Object.fromEntries(own), Upload: UPLOAD_SCHEMA, Error: ERROR_SCHEMA, InsufficientCreditsError: INSUFFICIENT_CREDITS_SCHEMA };
    doc.paths = { ...doc.paths, ...uploadPaths() };
    doc.security = [{ bearerAuth: [] }];
    cached = doc;
  }
  return { ...cached, servers: [{ url: `${baseUrl.replace(/\/$/, '')}/v1` }] };
}
