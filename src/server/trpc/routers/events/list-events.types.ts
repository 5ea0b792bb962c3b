import { z } from 'zod';
import { EVENT_TYPES } from '../../../domain/events/events';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';
import { ZSession } from '../../schemas/session';

export const listEventsMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/events',
    protect: true,
    tags: ['Events'],
    summary: 'List events',
    description:
      'Every event emitted for the organization, newest first — the same objects webhooks deliver (the event id is the `webhook-id`). Use it to catch up after missed deliveries. `data.object` is the Session as it was when the event was emitted; coach corrections emit no new event — `GET /v1/sessions/{id}` shows the corrected state.',
  },
};

export const ZListEventsRequest = z
  .object({
    ...listParamsShape,
    type: z.enum(EVENT_TYPES).optional().describe('Only events of this type.'),
    session: z.string().max(64).optional().describe('Only events of this session (`sess_…`).'),
  })
  .strict()
  .superRefine(oneCursor);

export const ZEvent = z
  .object({
    id: z.string(),
    object: z.literal('event'),
    type: z.enum(EVENT_TYPES),
    created: z.number().int(),
    data: z.object({ object: ZSession }),
  })
  .meta({ id: 'Event' });

export const ZListEventsResponse = listEnvelope(ZEvent);
