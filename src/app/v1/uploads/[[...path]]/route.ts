import { organizationForRequest } from '@/server/auth/request-organization';
import { getDb } from '@/server/db/client';
import { handleUploadRequest } from '@/server/domain/uploads/tus-door';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** tus resumable uploads (more specific than the /v1 catch-all, so Next routes them here). */
function handler(req: Request) {
  return handleUploadRequest(req, (r, opts) => organizationForRequest(getDb(), r, opts));
}

export {
  handler as GET,
  handler as HEAD,
  handler as POST,
  handler as PATCH,
  handler as PUT,
  handler as DELETE,
  handler as OPTIONS,
};
