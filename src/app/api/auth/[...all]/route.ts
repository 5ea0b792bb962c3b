import { getAuth } from '@/server/auth/auth';
import { readRequestBody } from '@/server/domain/net/read-limited';
import { logger } from '@/server/logger';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** The largest body an auth endpoint takes (sign-up, invitations: a few hundred bytes of JSON). */
const MAX_AUTH_BODY = 64 * 1024;

/**
 * better-auth's endpoints (sign-up, sign-in, organizations, members, invitations). The body is
 * read here first, within a limit: better-auth would read any length, and a client that hangs up
 * mid-body would surface as better-auth's and Next's error logs rather than as what it is.
 */
async function handler(req: Request) {
  if (!req.body) return getAuth().handler(req);
  const { bytes, truncated, cut } = await readRequestBody(req, MAX_AUTH_BODY);
  if (cut) {
    logger.info({ path: new URL(req.url).pathname }, 'the client closed the connection before sending the whole body');
    return new Response(null, { status: 400 });
  }
  if (truncated) return Response.json({ message: 'The request body is too large.', code: 'BODY_TOO_LARGE' }, { status: 413 });
  return getAuth().handler(new Request(req, { body: new Uint8Array(bytes) }));
}

export { handler as GET, handler as POST };
