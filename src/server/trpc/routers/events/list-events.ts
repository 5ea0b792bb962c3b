import { listEvents } from '../../../domain/events/events';
import { orgProcedure } from '../../procedures';
import { listEventsMeta, ZListEventsRequest, ZListEventsResponse } from './list-events.types';

export const listEventsRoute = orgProcedure
  .meta(listEventsMeta)
  .input(ZListEventsRequest)
  .output(ZListEventsResponse)
  .query(({ ctx, input }) => listEvents(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
