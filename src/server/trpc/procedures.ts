import { authenticateApiKey } from '../domain/api-keys/api-keys';
import { AppError } from '../domain/errors';
import { consumeRateLimit, rateLimitError, rateLimitHeaders } from '../domain/rate-limit/rate-limit';
import { middleware, publicProcedure } from './init';

export interface OrgAuth {
  organizationId: string;
  /** The API key of a REST request; null for dashboard requests. */
  apiKeyId: string | null;
}

/**
 * Resolves the organization a request acts for. REST: the bearer API key, then the
 * per-key rolling-minute rate limit (headers on every response). Dashboard: the signed-in
 * member's active organization — not available until dashboard sign-in exists, so that
 * door answers 401 for now.
 */
const orgAuth = middleware(async ({ ctx, next }) => {
  if (ctx.door !== 'rest') {
    throw new AppError('not_signed_in', { message: 'Sign in to the dashboard first.' });
  }
  const key = await authenticateApiKey(ctx.db, ctx.req.headers.get('authorization'));
  if (key.rateLimitPerMinute !== null) {
    const state = await consumeRateLimit(ctx.db, `api_key:${key.id}`, key.rateLimitPerMinute);
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) ctx.res.headers.set(name, value);
    if (!state.allowed) throw rateLimitError(state);
  }
  const auth: OrgAuth = { organizationId: key.organizationId, apiKeyId: key.id };
  return next({ ctx: { auth } });
});

export const orgProcedure = publicProcedure.use(orgAuth);
