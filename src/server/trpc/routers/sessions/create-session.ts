import { createSession } from '../../../domain/sessions/create-session';
import { idempotent } from '../../idempotency';
import { orgProcedure } from '../../procedures';
import { createSessionMeta, ZCreateSessionRequest, ZCreateSessionResponse } from './create-session.types';
import { notifySessionSubmitted } from '../../../jobs/notify';
import { syncOutput } from '../../sync-output';

export const createSessionRoute = orgProcedure
  .meta(createSessionMeta)
  .input(ZCreateSessionRequest)
  .output(syncOutput(ZCreateSessionResponse))
  .mutation(({ ctx, input }) =>
    idempotent(ctx, input, async () => {
      const created = await createSession(ctx.db, { organizationId: ctx.auth.organizationId, apiKeyId: ctx.auth.apiKeyId, input });
      await notifySessionSubmitted(created.session.id, ctx.auth.organizationId);
      ctx.res.status = 201;
      ctx.res.headers.set('X-Service-Cost-Cents', String(created.heldCents));
      ctx.res.headers.set('X-Service-Balance-Cents', String(created.availableAfter));
      return created.session;
    }),
  );
