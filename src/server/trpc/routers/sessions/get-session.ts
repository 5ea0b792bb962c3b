import { getSession } from '../../../domain/sessions/read-sessions';
import { orgProcedure } from '../../procedures';
import { getSessionMeta, ZGetSessionRequest, ZGetSessionResponse } from './get-session.types';
import { syncOutput } from '../../sync-output';

export const getSessionRoute = orgProcedure
  .meta(getSessionMeta)
  .input(ZGetSessionRequest)
  .output(syncOutput(ZGetSessionResponse))
  .query(({ ctx, input }) => getSession(ctx.db, { organizationId: ctx.auth.organizationId, id: input.id }));
