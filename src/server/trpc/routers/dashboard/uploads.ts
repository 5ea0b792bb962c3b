import { z } from 'zod';
import { getUpload } from '../../../domain/uploads/uploads';
import { sampleGameStatus, startSampleGame } from '../../../domain/uploads/sample-game';
import { notifySessionSubmitted } from '../../../jobs/notify';
import { orgProcedure } from '../../procedures';

export const getUploadRoute = orgProcedure
  .input(z.object({ id: z.string().max(64) }).strict())
  .query(({ ctx, input }) => getUpload(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));

/** "Try a sample game": renders a synthetic game in the background and submits it as an upload. */
export const startSampleGameRoute = orgProcedure.mutation(({ ctx }) =>
  startSampleGame(ctx.db, {
    organizationId: ctx.auth.organizationId,
    onSubmitted: (sessionId) => notifySessionSubmitted(sessionId, ctx.auth.organizationId),
  }),
);

export const sampleGameStatusRoute = orgProcedure
  .input(z.object({ upload: z.string().max(64) }).strict())
  .query(({ ctx, input }) => sampleGameStatus(ctx.db, { organizationId: ctx.auth.organizationId, uploadId: input.upload }));
