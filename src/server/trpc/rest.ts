import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { AppError, ERROR_CODES, type ApiErrorBody } from '../domain/errors';
import { newId } from '../domain/ids';
import { readRequestBody } from '../domain/net/read-limited';
import { logger } from '../logger';
import { toApiError } from './api-error';
import { createContext, type Context, type ResponseParts } from './context';
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

/**
 * Reads the body, refusing more than MAX_BODY_BYTES. `cut`: the client closed the connection
 * before the body was all there (the stream fails with `aborted`), which is the client's doing,
 * not a fault of the service.
 */
async function readBody(req: Request): Promise<{ text: string; tooLarge: boolean; cut: boolean }> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return { text: '', tooLarge: true, cut: false };
  const { bytes, truncated, cut } = await readRequestBody(req, MAX_BODY_BYTES);
  return { text: truncated ? '' : bytes.toString('utf8'), tooLarge: truncated, cut };
}

/** One call through trpc-to-openapi: what its handler reads, and what the context needs. */
interface RestCall {
  /** The incoming request: its headers, method and URL are the context's. */
  req: Request;
  /** The path under /v1, with its query string. */
  path: string;
  /** The parsed JSON body (methods with a body). */
  body: unknown;
  requestId: string;
  res: ResponseParts;
}

interface LibraryResponse {
  status: number;
  headers: Headers;
  body: string;
}

const JSON_HEADERS = new Headers({ 'content-type': 'application/json' });
const calls = new WeakMap<object, RestCall>();
type NodeHandler = ReturnType<typeof createOpenApiNodeHttpHandler>;
let openApi: NodeHandler | undefined;

/**
 * trpc-to-openapi's handler, created once. (Its fetch adapter creates one per request, and each
 * builds the table of every procedure's route again.)
 */
function openApiHandler(): NodeHandler {
  openApi ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }: { req: object }) => {
      const call = calls.get(req)!;
      return createContext({ door: 'rest', req: call.req, requestId: call.requestId, res: call.res });
    },
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) => ({ status: errors.length ? undefined : (ctx?.res.status ?? 200) }),
    onError: ({ error, path: procedure, ctx }: { error: TRPCError; path?: string; ctx?: Context }) => {
      if (toApiError(error).status >= 500) logger.error({ err: error.cause ?? error, requestId: ctx?.requestId, procedure }, 'unhandled error in procedure');
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);
  return openApi;
}

/**
 * Runs a call through the library as its fetch adapter does — the request seen through a proxy
 * that answers the path under /v1 and the body already parsed (the door has read and checked
 * it, so it is not serialised and parsed again), a response object that collects what the
 * library sets — but with its handler made once.
 */
function callOpenApi(call: RestCall): Promise<LibraryResponse> {
  const headers = BODY_METHODS.has(call.req.method.toUpperCase()) ? JSON_HEADERS : call.req.headers;
  const req = new Proxy(call.req, {
    get: (target, prop) => {
      if (prop === 'url') return call.path;
      if (prop === 'body') return call.body;
      if (prop === 'headers') return headers;
      return Reflect.get(target, prop, target);
    },
  });
  calls.set(req, call);
  return new Promise((resolve, reject) => {
    const out: LibraryResponse = { status: 200, headers: new Headers(), body: '' };
    const res = {
      setHeader: (name: string, value: string | string[]) => {
        if (typeof value === 'string') out.headers.set(name, value);
        else for (const v of value) out.headers.append(name, v);
      },
      get statusCode() {
        return out.status;
      },
      set statusCode(code: number) {
        out.status = code;
      },
      end: (body?: string) => resolve({ ...out, body: body ?? '' }),
    };
    (openApiHandler() as unknown as (req: unknown, res: unknown) => Promise<void>)(req, res).catch(reject);
  });
}

/**
 * The REST door: `/v1/...` served by trpc-to-openapi from the same procedures the
 * dashboard calls. Around the library it adds what the public contract needs and the
 * library does not do: `Request-Id` on every response, the 1 MiB body limit, JSON-only
 * bodies, 404 vs 405, and every error rewritten into the spec's body
 * `{ error: { type, code, message, param? } }`.
 */
export async function handleRestRequest(req: Request): Promise<Response> {
  const response = await restResponse(req);
  // HEAD: the GET answer's status and headers, without its body
  return req.method.toUpperCase() === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

async function restResponse(req: Request): Promise<Response> {
  const requestId = newId('request');
  const res: ResponseParts = { headers: new Headers({ 'Request-Id': requestId }) };
  try {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/v1/i, '') || '/';
    // HEAD is GET without the body (RFC 9110): the same checks, status and headers
    const requested = req.method.toUpperCase();
    const head = requested === 'HEAD';
    const method = head ? 'GET' : requested;

    const candidates = restRoutes().filter((r) => r.pattern.test(path));
    if (candidates.length === 0) {
      return errorResponse(new AppError('route_missing', { message: `Unrecognized request URL (${requested} ${url.pathname}).` }), res.headers);
    }
    if (!candidates.some((r) => r.method === method)) {
      const methods = new Set(candidates.map((r) => r.method));
      if (methods.has('GET')) methods.add('HEAD');
      const allow = [...methods].join(', ');
      return errorResponse(
        new AppError('method_not_allowed', { message: `${requested} is not allowed on ${url.pathname}; use ${allow}.`, headers: { Allow: allow } }),
        res.headers,
      );
    }

    let body: unknown;
    if (BODY_METHODS.has(method)) {
      const { text, tooLarge, cut } = await readBody(req);
      if (tooLarge) return errorResponse(new AppError('body_too_large', { message: 'The request body is larger than 1 MiB.' }), res.headers);
      if (cut) {
        // nobody reads this answer; nothing was done, and an operator need not look
        logger.info({ requestId, method, path }, 'the client closed the connection before sending the whole body');
        return errorResponse(new AppError('body_invalid', { message: 'The request body ended before it was complete.' }), res.headers);
      }
      if (text.trim() === '') body = {};
      else {
        const type = req.headers.get('content-type') ?? '';
        if (!/^application\/json\b/i.test(type)) {
          return errorResponse(
            new AppError('body_invalid', { message: 'The request body must be JSON, sent with `Content-Type: application/json`.' }),
            res.headers,
          );
        }
        try {
          body = JSON.parse(text);
        } catch {
          return errorResponse(new AppError('body_invalid', { message: 'The request body is not valid JSON.' }), res.headers);
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          return errorResponse(new AppError('body_invalid', { message: 'The request body must be a JSON object.' }), res.headers);
        }
      }
    }

    const response = await callOpenApi({ req: head ? new Request(req, { method: 'GET' }) : req, path: path + url.search, body, requestId, res });
    const headers = response.headers;
    res.headers.forEach((v, k) => headers.set(k, v));
    if (response.status < 400) {
      // The body whole, not a stream of it: a stream is piped chunk by chunk, which on a page
      // of 100 sessions (1.7 MB) cost about a fifth of the throughput (bench:api).
      return new Response(response.body, { status: response.status, headers });
    }
    const shape = JSON.parse(response.body) as { data?: { api?: { status: number; body: ApiErrorBody; headers?: Record<string, string> } } };
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
