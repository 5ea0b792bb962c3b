import { listEvents } from '../../../domain/events/events';
import { adminProcedure } from '../../procedures';
import { listEventsMeta, ZListEventsRequest, ZListEventsResponse } from './list-events.types';
import { syncOutput } from '../../sync-output';

export const listEventsRoute = adminProcedure
  .meta(listEventsMeta)
  .input(ZListEventsRequest)
  .output(syncOutput(ZListEventsResponse))
  .query(({ ctx, input }) => listEvents(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
