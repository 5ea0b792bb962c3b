import { z } from 'zod';
import { createGroup, listGroups, renameGroup } from '../../../domain/groups/groups';
import { adminProcedure, orgProcedure } from '../../procedures';

export const listGroupsRoute = orgProcedure.query(({ ctx }) => listGroups(ctx.db, ctx.auth.organizationId));

export const createGroupRoute = adminProcedure
  .input(z.object({ name: z.string().max(200) }).strict())
  .mutation(({ ctx, input }) => createGroup(ctx.db, { organizationId: ctx.auth.organizationId, name: input.name }));

export const renameGroupRoute = adminProcedure
  .input(z.object({ id: z.string().max(64), name: z.string().max(200) }).strict())
  .mutation(({ ctx, input }) => renameGroup(ctx.db, { organizationId: ctx.auth.organizationId, ...input }));
