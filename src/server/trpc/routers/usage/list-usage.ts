import { listUsage } from '../../../domain/usage/list-usage';
import { adminProcedure } from '../../procedures';
import { listUsageMeta, ZListUsageRequest, ZListUsageResponse } from './list-usage.types';
import { syncOutput } from '../../sync-output';

export const listUsageRoute = adminProcedure
  .meta(listUsageMeta)
  .input(ZListUsageRequest)
  .output(syncOutput(ZListUsageResponse))
  .query(({ ctx, input }) => listUsage(ctx.db, { organizationId: ctx.auth.organizationId, params: input }));
