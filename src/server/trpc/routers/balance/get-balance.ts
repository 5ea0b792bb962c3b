import { getBalance } from '../../../domain/billing/credits';
import { orgProcedure } from '../../procedures';
import { getBalanceMeta, ZBalance, ZGetBalanceRequest } from './get-balance.types';

export const getBalanceRoute = orgProcedure
  .meta(getBalanceMeta)
  .input(ZGetBalanceRequest)
  .output(ZBalance)
  .query(({ ctx }) => getBalance(ctx.db, ctx.auth.organizationId));
