import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';
import { SESSION_STATUSES, ZSession } from '../../schemas/session';

export const listSessionsMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/sessions',
    protect: true,
    tags: ['Sessions'],
    summary: 'List sessions',
    description: 'Full sessions (embedded lists included), newest first.',
  },
};

export const ZListSessionsRequest = z
  .object({
    ...listParamsShape,
    status: z.enum(SESSION_STATUSES).optional().describe('Only sessions in this state.'),
    group: z.string().max(64).optional().describe('Only sessions of this group (`grp_…`).'),
  })
  .strict()
  .superRefine(oneCursor);

export const ZListSessionsResponse = listEnvelope(ZSession);
