import { getBalance } from '../../../domain/billing/credits';
import { adminProcedure } from '../../procedures';
import { getBalanceMeta, ZBalance, ZGetBalanceRequest } from './get-balance.types';
import { syncOutput } from '../../sync-output';

export const getBalanceRoute = adminProcedure
  .meta(getBalanceMeta)
  .input(ZGetBalanceRequest)
  .output(syncOutput(ZBalance))
  .query(({ ctx }) => getBalance(ctx.db, ctx.auth.organizationId));
