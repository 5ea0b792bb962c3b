import { z } from 'zod';
import { updateSessionDetails } from '../../../domain/dashboard/session-edits';
import { getSessionSummary, listSessionSummaries, playerDetails } from '../../../domain/dashboard/session-summaries';
import { listParamsShape, oneCursor } from '../../schemas/list';
import { SESSION_STATUSES } from '../../schemas/session';
import { orgProcedure } from '../../procedures';

/** The dashboard's sessions list: light rows with the live `stage`/`progress` (dashboard-only fields). */
export const listSessionSummariesRoute = orgProcedure
  .input(
    z
      .object({
        ...listParamsShape,
        status: z.enum(SESSION_STATUSES).optional(),
        group: z.string().max(64).optional(),
        q: z.string().max(200).optional(),
      })
      .strict()
      .superRefine(oneCursor),
  )
  .query(({ ctx, input }) => listSessionSummaries(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));

export const getSessionSummaryRoute = orgProcedure
  .input(z.object({ id: z.string().max(64) }).strict())
  .query(({ ctx, input }) => getSessionSummary(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));

/** Each player's number ("Player N"), colour and picture, for the dashboard to tell unnamed players apart (not in the public Player). */
export const playerDetailsRoute = orgProcedure
  .input(z.object({ id: z.string().max(64) }).strict())
  .query(({ ctx, input }) => playerDetails(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));

/** A coach renames a session, edits its metadata or moves it to another group. */
export const updateSessionRoute = orgProcedure
  .input(
    z
      .object({
        id: z.string().max(64),
        name: z.string().max(500).nullable().optional(),
        metadata: z.record(z.string(), z.string()).optional(),
        group: z.string().max(64).optional(),
      })
      .strict(),
  )
  .mutation(async ({ ctx, input }) => {
    await updateSessionDetails(ctx.db, { organizationId: ctx.auth.organizationId, ...input });
    return getSessionSummary(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id });
  });
