import { listSessions } from '../../../domain/sessions/read-sessions';
import { orgProcedure } from '../../procedures';
import { listSessionsMeta, ZListSessionsRequest, ZListSessionsResponse } from './list-sessions.types';

export const listSessionsRoute = orgProcedure
  .meta(listSessionsMeta)
  .input(ZListSessionsRequest)
  .output(ZListSessionsResponse)
  .query(({ ctx, input }) => listSessions(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
