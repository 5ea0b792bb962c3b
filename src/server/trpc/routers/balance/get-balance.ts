import { getBalance } from '../../../domain/billing/credits';
import { adminProcedure } from '../../procedures';
import { getBalanceMeta, ZBalance, ZGetBalanceRequest } from './get-balance.types';

export const getBalanceRoute = adminProcedure
  .meta(getBalanceMeta)
  .input(ZGetBalanceRequest)
  .output(ZBalance)
  .query(({ ctx }) => getBalance(ctx.db, ctx.auth.organizationId));
