import { router } from '../init';
import { balanceRouter } from './balance';
import { dashboardRouter } from './dashboard';
import { eventsRouter } from './events';
import { sessionsRouter } from './sessions';
import { usageRouter } from './usage';
import { webhooksRouter } from './webhooks';

export const appRouter = router({
  balance: balanceRouter,
  dashboard: dashboardRouter,
  events: eventsRouter,
  sessions: sessionsRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
