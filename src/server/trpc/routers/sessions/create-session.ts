import { costHeaders, createSession } from '../../../domain/sessions/create-session';
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
    idempotent(ctx, input, async (record) => {
      const created = await createSession(ctx.db, {
        organizationId: ctx.auth.organizationId,
        apiKeyId: ctx.auth.apiKeyId,
        input,
        beforeCommit: (tx, c) => record(tx, { status: 201, body: c.session, headers: costHeaders(c) }),
      });
      await notifySessionSubmitted(created.session.id, ctx.auth.organizationId);
      ctx.res.status = 201;
      for (const [name, value] of Object.entries(costHeaders(created))) ctx.res.headers.set(name, value);
      return created.session;
    }),
  );
