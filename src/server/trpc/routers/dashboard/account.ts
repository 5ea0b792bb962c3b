import { primaryRole } from '../../../auth/roles';
import { listMemberships } from '../../../domain/members/members';
import { signedInProcedure } from '../../procedures';

/**
 * Who is signed in, their organizations and the one the dashboard acts for (the session's
 * active organization, else the first). No organization yet → the dashboard shows onboarding.
 */
export const meRoute = signedInProcedure.query(async ({ ctx }) => {
  const memberships = await listMemberships(ctx.db, ctx.user.userId);
  const active = memberships.find((m) => m.organizationId === ctx.user.activeOrganizationId) ?? memberships[0] ?? null;
  return {
    user: { id: ctx.user.userId, name: ctx.user.name, email: ctx.user.email },
    organizations: memberships.map((m) => ({ id: m.organizationId, name: m.organizationName, role: primaryRole(m.role) })),
    active: active ? { id: active.organizationId, name: active.organizationName, role: primaryRole(active.role) } : null,
  };
});
