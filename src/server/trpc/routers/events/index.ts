import { router } from '../../init';
import { listEventsRoute } from './list-events';

export const eventsRouter = router({ list: listEventsRoute });
