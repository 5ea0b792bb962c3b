import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { newId } from '@/server/domain/ids';
import { createContext } from '@/server/trpc/context';
import { appRouter } from '@/server/trpc/routers';

export const dynamic = 'force-dynamic';

/** The dashboard's door: the same procedures as /v1, over tRPC's own protocol. */
function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createContext({ door: 'dashboard', req, requestId: newId('request') }),
  });
}

export { handler as GET, handler as POST };
