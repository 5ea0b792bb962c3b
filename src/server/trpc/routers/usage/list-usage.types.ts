import { z } from 'zod';
import type { SwishMeta } from '../../init';
import { listEnvelope, listParamsShape, oneCursor } from '../../schemas/list';

export const listUsageMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/usage',
    protect: true,
    tags: ['Billing'],
    summary: 'List usage events',
    description: 'One usage event per billable job, newest first: `held` at submit, then `settled` for the measured seconds or `voided` on failure.',
  },
};

/** The last second of year 9999: a date beyond it is no Unix time in seconds (often one in milliseconds). */
const LAST_UNIX_SECOND = 253_402_300_799;
const unixSeconds = (description: string) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(LAST_UNIX_SECOND, { message: `must be Unix seconds (at most ${LAST_UNIX_SECOND}, the end of year 9999), not milliseconds` })
    .optional()
    .describe(description);

export const ZListUsageRequest = z
  .object({
    ...listParamsShape,
    status: z.enum(['held', 'settled', 'voided']).optional().describe('Only usage events in this status.'),
    api_key: z.string().max(64).optional().describe('Only jobs submitted with this API key (`key_…`).'),
    'created[gte]': unixSeconds('Created at or after (Unix seconds).'),
    'created[lte]': unixSeconds('Created at or before (Unix seconds).'),
  })
  .strict()
  .superRefine(oneCursor);

export const ZUsageEvent = z
  .object({
    id: z.string(),
    object: z.literal('usage_event'),
    created: z.number().int(),
    session: z.string(),
    group: z.string(),
    api_key: z.string().nullable().describe('The key that submitted the job; null for dashboard submissions.'),
    sku: z.string(),
    status: z.enum(['held', 'settled', 'voided']),
    run_version: z.number().int(),
    held_seconds: z.number().int(),
    quantity_seconds: z.number().int(),
    rate_cents_per_hour: z.number().int(),
    cost_cents: z.number().int(),
    settled_at: z.number().int().nullable(),
    voided_at: z.number().int().nullable(),
  })
  .meta({ id: 'UsageEvent' });

export const ZListUsageResponse = listEnvelope(ZUsageEvent);
