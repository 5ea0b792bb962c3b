import { z } from 'zod';
import { createManualHighlight, deleteManualHighlight, failManualHighlight, listManualHighlights } from '../../../domain/highlights/manual-highlights';
import { notifyHighlightRequested } from '../../../jobs/notify';
import { orgProcedure } from '../../procedures';

const id = z.string().max(64);

/** The session's manual highlights with their state (`processing`, `ready`, `failed`); the public Session lists ready ones only. */
export const listManualHighlightsRoute = orgProcedure
  .input(z.object({ session: id }).strict())
  .query(({ ctx, input }) => listManualHighlights(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: input.session }));

/** A coach marks a moment (in/out on the video's timeline); the clip is cut by `cut-manual-highlight`. */
export const createManualHighlightRoute = orgProcedure
  .input(z.object({ session: id, start_seconds: z.number().finite().min(0), end_seconds: z.number().finite().min(0) }).strict())
  .mutation(async ({ ctx, input }) => {
    const created = await createManualHighlight(ctx.db, {
      organizationId: ctx.auth.organizationId,
      sessionId: input.session,
      startSeconds: input.start_seconds,
      endSeconds: input.end_seconds,
      userId: ctx.auth.userId,
    });
    try {
      await notifyHighlightRequested({ id: created.id, sessionId: input.session }, ctx.auth.organizationId);
    } catch (err) {
      await failManualHighlight(ctx.db, created.id);
      throw err;
    }
    return created;
  });

export const deleteManualHighlightRoute = orgProcedure
  .input(z.object({ session: id, highlight: id }).strict())
  .mutation(async ({ ctx, input }) => {
    await deleteManualHighlight(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: input.session, highlightId: input.highlight });
    return { id: input.highlight, deleted: true as const };
  });
