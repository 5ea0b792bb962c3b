import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { AppError, ERROR_CODES, type ApiErrorBody } from '../domain/errors';
import { newId } from '../domain/ids';
import { readLimited } from '../domain/net/read-limited';
import { logger } from '../logger';
import { toApiError } from './api-error';
import { createContext, type ResponseParts } from './context';
import { restOperations } from './operations';
import { appRouter } from './routers';

/** Largest accepted request body (DESIGN: bodies over 1 MiB → 413). */
export const MAX_BODY_BYTES = 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Route {
  method: string;
  pattern: RegExp;
}

let routes: Route[] | undefined;

/** (method, path pattern) of every REST operation, for telling 404 from 405 apart. */
function restRoutes(): Route[] {
  routes ??= restOperations().map(({ method, path }) => ({
    method,
    pattern: new RegExp('^' + path.replace(/\/+$/, '').replace(/\{[^}]+\}/g, '[^/]+') + '/?$', 'i'),
  }));
  return routes;
}

function json(status: number, body: unknown, headers: Headers): Response {
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers });
}

function errorResponse(err: AppError, headers: Headers): Response {
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  return json(ERROR_CODES[err.code].status, err.toBody(), headers);
}

/** Reads the body, refusing more than MAX_BODY_BYTES. */
async function readBody(req: Request): Promise<{ text: string; tooLarge: boolean }> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return { text: '', tooLarge: true };
  if (!req.body) return { text: '', tooLarge: false };
  const { bytes, truncated } = await readLimited(req.body, MAX_BODY_BYTES);
  return { text: truncated ? '' : bytes.toString('utf8'), tooLarge: truncated };
}

/**
 * The REST door: `/v1/...` served by trpc-to-openapi from the same procedures the
 * dashboard calls. Around the library it adds what the public contract needs and the
 * library does not do: `Request-Id` on every response, the 1 MiB body limit, JSON-only
 * bodies, 404 vs 405, and every error rewritten into the spec's body
 * `{ error: { type, code, message, param? } }`.
 */
export async function handleRestRequest(req: Request): Promise<Response> {
  const requestId = newId('request');
  const res: ResponseParts = { headers: new Headers({ 'Request-Id': requestId }) };
  try {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/v1/i, '') || '/';
    const method = req.method.toUpperCase();

    const candidates = restRoutes().filter((r) => r.pattern.test(path));
    if (candidates.length === 0) {
      return errorResponse(new AppError('route_missing', { message: `Unrecognized request URL (${method} ${url.pathname}).` }), res.headers);
    }
    if (!candidates.some((r) => r.method === method)) {
      const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
      return errorResponse(
        new AppError('method_not_allowed', { message: `${method} is not allowed on ${url.pathname}; use ${allow}.`, headers: { Allow: allow } }),
        res.headers,
      );
    }

    let forward = req;
    if (BODY_METHODS.has(method)) {
      const { text, tooLarge } = await readBody(req);
      if (tooLarge) return errorResponse(new AppError('body_too_large', { message: 'The request body is larger than 1 MiB.' }), res.headers);
      let body = text;
      if (body.trim() === '') body = '{}';
      else {
        const type = req.headers.get('content-type') ?? '';
        if (!/^application\/json\b/i.test(type)) {
          return errorResponse(
            new AppError('body_invalid', { message: 'The request body must be JSON, sent with `Content-Type: application/json`.' }),
            res.headers,
          );
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          return errorResponse(new AppError('body_invalid', { message: 'The request body is not valid JSON.' }), res.headers);
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return errorResponse(new AppError('body_invalid', { message: 'The request body must be a JSON object.' }), res.headers);
        }
      }
      const headers = new Headers(req.headers);
      headers.set('content-type', 'application/json');
      headers.delete('content-length');
      forward = new Request(req.url, { method, headers, body });
    }

    const response = await createOpenApiFetchHandler({
      endpoint: '/v1',
      router: appRouter,
      req: forward,
      createContext: () => createContext({ door: 'rest', req: forward, requestId, res }),
      responseMeta: ({ errors }) => ({ status: errors.length ? undefined : (res.status ?? 200) }),
      onError: ({ error, path: procedure }) => {
        if (toApiError(error).status >= 500) logger.error({ err: error.cause ?? error, requestId, procedure }, 'unhandled error in procedure');
      },
    } as Parameters<typeof createOpenApiFetchHandler>[0]);

    const headers = new Headers(response.headers);
    res.headers.forEach((v, k) => headers.set(k, v));
    if (response.status < 400) {
      // The body whole, not the library's stream of it: a stream is piped chunk by chunk, which
      // on a page of 100 sessions (1.7 MB) cost about a fifth of the throughput (bench:api).
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    }
    const shape = (await response.json()) as { data?: { api?: { status: number; body: ApiErrorBody; headers?: Record<string, string> } } };
    const api = shape.data?.api;
    if (!api) {
      logger.error({ requestId, status: response.status, shape }, 'error response without a mapped error');
      return errorResponse(new AppError('internal_error', { message: 'An internal error occurred.' }), res.headers);
    }
    for (const [k, v] of Object.entries(api.headers ?? {})) headers.set(k, v);
    return json(api.status, api.body, headers);
  } catch (err) {
    logger.error({ err, requestId }, 'unhandled error in the REST door');
    return errorResponse(
      new AppError('internal_error', { message: 'An internal error occurred. It has been logged; quote the Request-Id if you contact support.' }),
      res.headers,
    );
  }
}
