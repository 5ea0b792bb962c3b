import { router } from '../../init';
import { listUsageRoute } from './list-usage';

export const usageRouter = router({ list: listUsageRoute });
