import { authenticateApiKey } from '../domain/api-keys/api-keys';
import { AppError } from '../domain/errors';
import { resolveMembership } from '../domain/members/members';
import { consumeRateLimit, rateLimitError, rateLimitHeaders } from '../domain/rate-limit/rate-limit';
import type { Database } from '../db/client';
import { signedInUser } from './auth';

export interface RequestOrganization {
  organizationId: string;
  apiKeyId: string | null;
  userId: string | null;
}

/**
 * The organization a non-tRPC request (the tus upload endpoints) acts for: the bearer API
 * key when an `Authorization` header is sent (REST door), otherwise the dashboard's session
 * cookie and the member's active organization. `rateLimit` applies the key's per-minute
 * limit (upload creation; the chunks of an upload are not counted). Throws the spec's 401s.
 */
export async function organizationForRequest(
  db: Database,
  req: Request,
  opts: { rateLimit: boolean; responseHeaders: Headers },
): Promise<RequestOrganization> {
  const authorization = req.headers.get('authorization');
  if (authorization) {
    const key = await authenticateApiKey(db, authorization);
    if (opts.rateLimit && key.rateLimitPerMinute !== null) {
      const state = await consumeRateLimit(db, `api_key:${key.id}`, key.rateLimitPerMinute);
      for (const [name, value] of Object.entries(rateLimitHeaders(state))) opts.responseHeaders.set(name, value);
      if (!state.allowed) throw rateLimitError(state);
    }
    return { organizationId: key.organizationId, apiKeyId: key.id, userId: null };
  }
  const user = req.headers.get('cookie') ? await signedInUser(req.headers) : null;
  if (!user) {
    throw new AppError('api_key_missing', { message: 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.' });
  }
  const membership = await resolveMembership(db, { userId: user.userId, activeOrganizationId: user.activeOrganizationId });
  return { organizationId: membership.organizationId, apiKeyId: null, userId: user.userId };
}
