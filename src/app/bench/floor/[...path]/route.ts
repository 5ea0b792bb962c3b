import { authenticateApiKey } from '@/server/domain/api-keys/api-keys';
import { isAppError } from '@/server/domain/errors';
import { createSession } from '@/server/domain/sessions/create-session';
import { getSession, listSessions } from '@/server/domain/sessions/read-sessions';
import { getDb } from '@/server/db/client';

export const dynamic = 'force-dynamic';

/**
 * The floor of this stack for `npm run bench:api`: plain route handlers that authenticate
 * the key and run the same domain functions (the same SQL, the same JSON) as the /v1
 * procedures, without tRPC, trpc-to-openapi, rate limiting or idempotency. Served only
 * when SWISH_BENCH_FLOOR=1; 404 otherwise.
 */
async function handle(req: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (process.env.SWISH_BENCH_FLOOR !== '1') return new Response('Not found', { status: 404 });
  const db = getDb();
  try {
    const key = await authenticateApiKey(db, req.headers.get('authorization'));
    const [resource, id] = (await params).path;
    if (resource !== 'sessions') return new Response('Not found', { status: 404 });
    if (req.method === 'POST') {
      const created = await createSession(db, { organizationId: key.organizationId, apiKeyId: key.id, input: await req.json() });
      return Response.json(created.session, { status: 201 });
    }
    if (id) return Response.json(await getSession(db, { organizationId: key.organizationId, id }));
    const url = new URL(req.url);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    return Response.json(await listSessions(db, { organizationId: key.organizationId, params: { limit } }));
  } catch (err) {
    if (isAppError(err)) return Response.json(err.toBody(), { status: err.status });
    throw err;
  }
}

export { handle as GET, handle as POST };
