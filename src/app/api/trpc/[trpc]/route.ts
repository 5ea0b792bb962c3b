import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError } from '@/server/domain/errors';
import { newId } from '@/server/domain/ids';
import { logger } from '@/server/logger';
import { toApiError } from '@/server/trpc/api-error';
import { createContext } from '@/server/trpc/context';
import { TRPC_CODES } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/routers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * A cookie-signed mutation is taken only from the dashboard's own pages: a JSON body (a form
 * another page submits cannot send one without a CORS preflight, which is never granted) and,
 * when the browser names it, this site's own origin. A page on another port of the same host,
 * which the Lax cookie does not stop, is refused too.
 */
function crossSiteRefusal(req: Request, requestId: string): Response | null {
  if (req.method !== 'POST') return null;
  const json = /^application\/json\b/i.test(req.headers.get('content-type') ?? '');
  const origin = req.headers.get('origin');
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  let sameSite = true;
  if (origin !== null) {
    try {
      const from = new URL(origin);
      sameSite = from.host === host || (!!process.env.SWISH_PUBLIC_URL && from.origin === new URL(process.env.SWISH_PUBLIC_URL).origin);
    } catch {
      sameSite = false;
    }
  }
  if (json && sameSite) return null;
  const error = json
    ? new AppError('forbidden', { message: 'Cross-site request refused: dashboard calls come from its own pages.' })
    : new AppError('body_invalid', { message: 'The request body must be JSON (Content-Type: application/json).' });
  const { status, body } = toApiError(new TRPCError({ code: 'BAD_REQUEST', cause: error }));
  // `data` as the error formatter in trpc/init.ts gives every other error of this door; the JSON-RPC code is tRPC's
  // for the status (the formatter leaves other errors the code they were thrown with)
  const data = { code: TRPC_CODES[status], httpStatus: status, api: { status, body } };
  const code = TRPC_ERROR_CODES_BY_KEY[data.code as TRPC_ERROR_CODE_KEY];
  return Response.json({ error: { message: body.error.message, code, data } }, { status, headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store' } });
}

/**
 * The dashboard's door: the same procedures as /v1, over tRPC's own protocol, signed in by
 * the better-auth session cookie. An error answers with the public error's HTTP status
 * (401, 403, 402, 404 …, not tRPC's generic 500) and its body in `error.data.api`.
 */
function handler(req: Request) {
  const requestId = newId('request');
  const refused = crossSiteRefusal(req, requestId);
  if (refused) return refused;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext({ door: 'dashboard', req, requestId }),
    onError: ({ error, path }) => {
      if (toApiError(error).status >= 500) logger.error({ err: error.cause ?? error, path, requestId }, 'dashboard request failed');
    },
    responseMeta: ({ errors }) => {
      const headers = new Headers({ 'Request-Id': requestId, 'Cache-Control': 'no-store' });
      if (errors.length === 0) return { headers };
      const statuses = errors.map((e) => toApiError(e).status);
      // a batch with mixed outcomes keeps tRPC's own status (207); one status when they agree
      return statuses.every((s) => s === statuses[0]) ? { status: statuses[0], headers } : { headers };
    },
  });
}

export { handler as GET, handler as POST };
