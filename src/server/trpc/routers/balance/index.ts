import { router } from '../../init';
import { getBalanceRoute } from './get-balance';

export const balanceRouter = router({
  get: getBalanceRoute,
});
