import { z } from 'zod';
import { createReel, deleteReel, failReel, getReel, listReels, REEL_MAX_CLIPS } from '../../../domain/reels/reels';
import { createReelShare, listReelShares, revokeReelShare, SHARE_MAX_DAYS } from '../../../domain/reels/shares';
import { notifyReelRequested } from '../../../jobs/notify';
import { orgProcedure } from '../../procedures';

const id = z.string().max(64);

export const listReelsRoute = orgProcedure
  .input(z.object({ session: id }).strict())
  .query(({ ctx, input }) => listReels(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: input.session }));

export const getReelRoute = orgProcedure
  .input(z.object({ reel: id }).strict())
  .query(({ ctx, input }) => getReel(ctx.db, { organizationId: ctx.auth.organizationId, reelId: input.reel }));

/** Builds a reel (a player's made shots, the best N plays by excitement, or picked clips) and queues its rendering. */
export const createReelRoute = orgProcedure
  .input(
    z
      .object({
        session: id,
        kind: z.enum(['player_makes', 'team_best', 'picked']),
        orientation: z.enum(['vertical', 'horizontal']).default('vertical'),
        title: z.string().max(120).nullable().optional(),
        player: id.optional(),
        team: z.number().int().min(0).max(20).nullable().optional(),
        limit: z.number().int().min(1).max(REEL_MAX_CLIPS).optional(),
        highlights: z.array(id).max(REEL_MAX_CLIPS).optional(),
      })
      .strict(),
  )
  .mutation(async ({ ctx, input }) => {
    const reel = await createReel(ctx.db, {
      organizationId: ctx.auth.organizationId,
      sessionId: input.session,
      kind: input.kind,
      orientation: input.orientation,
      title: input.title,
      player: input.player,
      team: input.team,
      limit: input.limit,
      highlights: input.highlights,
      userId: ctx.auth.userId,
    });
    try {
      await notifyReelRequested(reel.id, ctx.auth.organizationId);
    } catch (err) {
      await failReel(ctx.db, reel.id, 'The reel could not be queued; try again.');
      throw err;
    }
    return reel;
  });

export const deleteReelRoute = orgProcedure
  .input(z.object({ reel: id }).strict())
  .mutation(async ({ ctx, input }) => {
    await deleteReel(ctx.db, { organizationId: ctx.auth.organizationId, reelId: input.reel });
    return { id: input.reel, deleted: true as const };
  });

export const listReelSharesRoute = orgProcedure
  .input(z.object({ reel: id }).strict())
  .query(({ ctx, input }) => listReelShares(ctx.db, { organizationId: ctx.auth.organizationId, reelId: input.reel }));

/** A new share link; the response's `url` is the only time the link is shown. */
export const createReelShareRoute = orgProcedure
  .input(z.object({ reel: id, expires_in_days: z.number().int().min(1).max(SHARE_MAX_DAYS).optional() }).strict())
  .mutation(({ ctx, input }) =>
    createReelShare(ctx.db, { organizationId: ctx.auth.organizationId, reelId: input.reel, expiresInDays: input.expires_in_days, userId: ctx.auth.userId }),
  );

export const revokeReelShareRoute = orgProcedure
  .input(z.object({ share: id }).strict())
  .mutation(({ ctx, input }) => revokeReelShare(ctx.db, { organizationId: ctx.auth.organizationId, shareId: input.share }));
