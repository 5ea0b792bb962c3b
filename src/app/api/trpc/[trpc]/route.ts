import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { newId } from '@/server/domain/ids';
import { logger } from '@/server/logger';
import { toApiError } from '@/server/trpc/api-error';
import { createContext } from '@/server/trpc/context';
import { appRouter } from '@/server/trpc/routers';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * The dashboard's door: the same procedures as /v1, over tRPC's own protocol, signed in by
 * the better-auth session cookie. An error answers with the public error's HTTP status
 * (401, 403, 402, 404 …, not tRPC's generic 500) and its body in `error.data.api`.
 */
function handler(req: Request) {
  const requestId = newId('request');
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
