import { router } from '../../init';
import { meRoute } from './account';
import { createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute } from './api-keys';
import { checkoutRoute, getAutoRechargeRoute, listTopupsRoute, requestTopupRoute, statementRoute, updateAutoRechargeRoute } from './billing';
import { createGroupRoute, listGroupsRoute, renameGroupRoute } from './groups';
import { createManualHighlightRoute, deleteManualHighlightRoute, listManualHighlightsRoute } from './highlights';
import { listMembersRoute } from './members';
import {
  createReelRoute,
  createReelShareRoute,
  deleteReelRoute,
  getReelRoute,
  listReelSharesRoute,
  listReelsRoute,
  revokeReelShareRoute,
} from './reels';
import { getSessionSummaryRoute, listSessionSummariesRoute, playerDetailsRoute, updateSessionRoute } from './sessions';
import { getUploadRoute, sampleGameStatusRoute, startSampleGameRoute } from './uploads';

/**
 * Dashboard-only procedures (no `openapi` meta: they never appear under /v1). Everything
 * else the dashboard shows comes from the public procedures (sessions, balance, usage,
 * events, webhooks), called through the dashboard door.
 */
export const dashboardRouter = router({
  me: meRoute,
  groups: router({ list: listGroupsRoute, create: createGroupRoute, rename: renameGroupRoute }),
  members: router({ list: listMembersRoute }),
  billing: router({
    topups: listTopupsRoute,
    requestTopup: requestTopupRoute,
    statement: statementRoute,
    checkout: checkoutRoute,
    autoRecharge: getAutoRechargeRoute,
    updateAutoRecharge: updateAutoRechargeRoute,
  }),
  apiKeys: router({ list: listApiKeysRoute, create: createApiKeyRoute, revoke: revokeApiKeyRoute }),
  sessions: router({ list: listSessionSummariesRoute, get: getSessionSummaryRoute, update: updateSessionRoute, playerDetails: playerDetailsRoute }),
  uploads: router({ get: getUploadRoute }),
  highlights: router({ list: listManualHighlightsRoute, create: createManualHighlightRoute, delete: deleteManualHighlightRoute }),
  reels: router({
    list: listReelsRoute,
    get: getReelRoute,
    create: createReelRoute,
    delete: deleteReelRoute,
    shares: listReelSharesRoute,
    share: createReelShareRoute,
    revokeShare: revokeReelShareRoute,
  }),
  sampleGame: router({ start: startSampleGameRoute, status: sampleGameStatusRoute }),
});
