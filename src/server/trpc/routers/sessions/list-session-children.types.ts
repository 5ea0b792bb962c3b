import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';
import { ZHighlight, ZPlayer, ZShot } from '../../schemas/session';

const childMeta = (kind: 'highlights' | 'shots' | 'players', summary: string): SwishMeta => ({
  openapi: {
    method: 'GET',
    path: `/sessions/{id}/${kind}`,
    protect: true,
    tags: ['Sessions'],
    summary,
    description: `Pages through all ${kind} of a session, in the order of the session's embedded list.`,
  },
  errorStatuses: [404],
});

export const listHighlightsMeta = childMeta('highlights', 'List a session’s highlights');
export const listShotsMeta = childMeta('shots', 'List a session’s shots');
export const listPlayersMeta = childMeta('players', 'List a session’s players');

export const ZListSessionChildrenRequest = z
  .object({ id: z.string().max(64).describe('A session id (`sess_…`).'), ...listParamsShape })
  .strict()
  .superRefine(oneCursor);

export const ZListHighlightsResponse = listEnvelope(ZHighlight, { embedded: true });
export const ZListShotsResponse = listEnvelope(ZShot, { embedded: true });
export const ZListPlayersResponse = listEnvelope(ZPlayer, { embedded: true });
