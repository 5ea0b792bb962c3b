import { listMembers, listPendingInvitations } from '../../../domain/members/members';
import { adminProcedure } from '../../procedures';

/** Members and pending invitations; inviting, role changes and removal go through better-auth's organization endpoints. */
export const listMembersRoute = adminProcedure.query(async ({ ctx }) => ({
  members: await listMembers(ctx.db, ctx.auth.organizationId),
  invitations: await listPendingInvitations(ctx.db, ctx.auth.organizationId),
}));
