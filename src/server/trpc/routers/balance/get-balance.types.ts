import { z } from 'zod';
import type { SwishMeta } from '../../init';

export const getBalanceMeta: SwishMeta = {
  openapi: {
    method: 'GET',
    path: '/balance',
    protect: true,
    tags: ['Billing'],
    summary: 'Retrieve the credit balance',
    description:
      'Prepaid credit in cents. `available_cents` = `credit_cents` − `held_cents`; new sessions are checked against it. Grants expire one year after purchase; `soonest_expiry` is the next time the balance shrinks by expiry (null when nothing expires).',
  },
};

export const ZGetBalanceRequest = z.object({}).strict();

export const ZBalance = z
  .object({
    object: z.literal('balance'),
    currency: z.literal('usd'),
    available_cents: z.number().int(),
    held_cents: z.number().int(),
    credit_cents: z.number().int(),
    rate_cents_per_hour: z.number().int(),
    soonest_expiry: z.number().int().nullable(),
  })
  .meta({ id: 'Balance' });

export type TBalance = z.infer<typeof ZBalance>;
