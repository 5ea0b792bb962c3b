import { signedInUser } from '../auth/auth';
import { isAdminRole, primaryRole, type Role } from '../auth/roles';
import { authenticateApiKey } from '../domain/api-keys/api-keys';
import { AppError } from '../domain/errors';
import { resolveMembership } from '../domain/members/members';
import { consumeRateLimit, rateLimitError, rateLimitHeaders } from '../domain/rate-limit/rate-limit';
import { middleware, publicProcedure } from './init';

export interface OrgAuth {
  organizationId: string;
  /** The API key of a REST request; null for dashboard requests. */
  apiKeyId: string | null;
  /** The signed-in dashboard user; null for REST requests. */
  userId: string | null;
  /** The dashboard member's role; null for REST requests (an API key acts with an admin's rights). */
  role: Role | null;
}

const notSignedIn = () => new AppError('not_signed_in', { message: 'Sign in to the dashboard first.' });

/**
 * Resolves the organization a request acts for.
 * - REST (`/v1`): the bearer API key, then the per-key rolling-minute rate limit (headers
 *   on every response).
 * - Dashboard (`/api/trpc`): the better-auth session of the request's cookie, its active
 *   organization (or the user's first one) and the member's role in it. The organization is
 *   the very row API keys belong to, so both doors see the same sessions and credits.
 */
const orgAuth = middleware(async ({ ctx, next }) => {
  if (ctx.door === 'dashboard') {
    const user = await signedInUser(ctx.req.headers);
    if (!user) throw notSignedIn();
    const membership = await resolveMembership(ctx.db, { userId: user.userId, activeOrganizationId: user.activeOrganizationId });
    const auth: OrgAuth = { organizationId: membership.organizationId, apiKeyId: null, userId: user.userId, role: primaryRole(membership.role) };
    return next({ ctx: { auth } });
  }
  const key = await authenticateApiKey(ctx.db, ctx.req.headers.get('authorization'));
  if (key.rateLimitPerMinute !== null) {
    const state = await consumeRateLimit(ctx.db, `api_key:${key.id}`, key.rateLimitPerMinute);
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) ctx.res.headers.set(name, value);
    if (!state.allowed) throw rateLimitError(state);
  }
  const auth: OrgAuth = { organizationId: key.organizationId, apiKeyId: key.id, userId: null, role: null };
  return next({ ctx: { auth } });
});

/** Any member (dashboard) or any API key (REST): sessions, uploads. */
export const orgProcedure = publicProcedure.use(orgAuth);

/**
 * Billing, API keys, webhooks, events and members. Dashboard: owners and admins only
 * (coaches get 403 `forbidden`). REST: any valid API key, as before.
 */
export const adminProcedure = orgProcedure.use(({ ctx, next }) => {
  if (ctx.door === 'dashboard' && !isAdminRole(ctx.auth.role)) {
    throw new AppError('forbidden', { message: 'Only owners and admins of the organization can do this.' });
  }
  return next();
});

/** Dashboard-only: a signed-in user, whether or not they belong to an organization yet (onboarding, switcher). */
export const signedInProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (ctx.door !== 'dashboard') throw notSignedIn();
  const user = await signedInUser(ctx.req.headers);
  if (!user) throw notSignedIn();
  return next({ ctx: { user } });
});
