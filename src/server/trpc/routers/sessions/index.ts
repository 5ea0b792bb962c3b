import { router } from '../../init';
import { createCorrectionRoute, listCorrectionsRoute, undoCorrectionRoute } from './corrections';
import { createSessionRoute } from './create-session';
import { getSessionRoute } from './get-session';
import { listHighlightsRoute, listPlayersRoute, listShotsRoute } from './list-session-children';
import { listSessionsRoute } from './list-sessions';

export const sessionsRouter = router({
  create: createSessionRoute,
  get: getSessionRoute,
  list: listSessionsRoute,
  highlights: listHighlightsRoute,
  shots: listShotsRoute,
  players: listPlayersRoute,
  corrections: router({ create: createCorrectionRoute, list: listCorrectionsRoute, undo: undoCorrectionRoute }),
});
