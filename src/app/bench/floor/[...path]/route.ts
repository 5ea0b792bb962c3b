import { authenticateApiKey } from '@/server/domain/api-keys/api-keys';
import { isAppError } from '@/server/domain/errors';
import { costHeaders, createSession } from '@/server/domain/sessions/create-session';
import { getSession, listSessions } from '@/server/domain/sessions/read-sessions';
import { getDb } from '@/server/db/client';
import { claimIdempotencyKey, completeIdempotencyKey, requestFingerprint } from '@/server/domain/idempotency/idempotency';
import { notifySessionSubmitted } from '@/server/jobs/notify';

export const dynamic = 'force-dynamic';

/**
 * The floor of this stack for `npm run bench:api`: plain route handlers that authenticate
 * the key and run the same domain functions (the same SQL, the same JSON) as the /v1
 * procedures — for POST the Idempotency-Key claimed and its response stored, the session
 * created and its event sent — without tRPC, trpc-to-openapi, input and output validation,
 * rate limiting or the error mapping. Served only when SWISH_BENCH_FLOOR=1; 404 otherwise.
 */
async function handle(req: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (process.env.SWISH_BENCH_FLOOR !== '1') return new Response('Not found', { status: 404 });
  const db = getDb();
  try {
    const key = await authenticateApiKey(db, req.headers.get('authorization'));
    const [resource, id] = (await params).path;
    if (resource !== 'sessions') return new Response('Not found', { status: 404 });
    if (req.method === 'POST') {
      const input = await req.json();
      const idempotencyKey = req.headers.get('idempotency-key');
      const scope = { organizationId: key.organizationId, key: idempotencyKey ?? '' };
      let claimedAt: string | undefined;
      if (idempotencyKey !== null) {
        const claim = await claimIdempotencyKey(db, { ...scope, fingerprint: requestFingerprint('POST', new URL(req.url).pathname, input) });
        if (claim.kind === 'replay') return Response.json(claim.response.body, { status: claim.response.status, headers: { 'Idempotent-Replayed': 'true' } });
        claimedAt = claim.claimedAt;
      }
      const created = await createSession(db, {
        organizationId: key.organizationId,
        apiKeyId: key.id,
        input,
        beforeCommit: async (tx, c) => {
          if (claimedAt !== undefined) await completeIdempotencyKey(tx, { ...scope, claimedAt, response: { status: 201, body: c.session, headers: costHeaders(c) } });
        },
      });
      await notifySessionSubmitted(created.session.id, key.organizationId);
      return Response.json(created.session, { status: 201, headers: costHeaders(created) });
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
