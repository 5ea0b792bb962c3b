import { router } from '../../init';
import { listEventsRoute } from './list-events';
import { redeliverEventRoute } from './redeliver-event';

export const eventsRouter = router({ list: listEventsRoute, redeliver: redeliverEventRoute });
