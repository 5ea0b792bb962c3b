import { listSessionHighlights, listSessionPlayers, listSessionShots } from '../../../domain/sessions/read-sessions';
import { orgProcedure } from '../../procedures';
import {
  listHighlightsMeta,
  listPlayersMeta,
  listShotsMeta,
  ZListHighlightsResponse,
  ZListPlayersResponse,
  ZListSessionChildrenRequest,
  ZListShotsResponse,
} from './list-session-children.types';
import { syncOutput } from '../../sync-output';

const base = orgProcedure.input(ZListSessionChildrenRequest);

export const listHighlightsRoute = base
  .meta(listHighlightsMeta)
  .output(syncOutput(ZListHighlightsResponse))
  .query(({ ctx, input: { id, ...params } }) =>
    listSessionHighlights(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: id, params }),
  );

export const listShotsRoute = base
  .meta(listShotsMeta)
  .output(syncOutput(ZListShotsResponse))
  .query(({ ctx, input: { id, ...params } }) =>
    listSessionShots(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: id, params }),
  );

export const listPlayersRoute = base
  .meta(listPlayersMeta)
  .output(syncOutput(ZListPlayersResponse))
  .query(({ ctx, input: { id, ...params } }) =>
    listSessionPlayers(ctx.db, { organizationId: ctx.auth.organizationId, sessionId: id, params }),
  );
