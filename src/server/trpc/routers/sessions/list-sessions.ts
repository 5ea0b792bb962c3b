import { listSessions } from '../../../domain/sessions/read-sessions';
import { orgProcedure } from '../../procedures';
import { listSessionsMeta, ZListSessionsRequest, ZListSessionsResponse } from './list-sessions.types';
import { syncOutput } from '../../sync-output';

export const listSessionsRoute = orgProcedure
  .meta(listSessionsMeta)
  .input(ZListSessionsRequest)
  .output(syncOutput(ZListSessionsResponse))
  .query(({ ctx, input }) => listSessions(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
