import { router } from '../init';
import { balanceRouter } from './balance';
import { sessionsRouter } from './sessions';
import { usageRouter } from './usage';

export const appRouter = router({
  balance: balanceRouter,
  sessions: sessionsRouter,
  usage: usageRouter,
});

export type AppRouter = typeof appRouter;
