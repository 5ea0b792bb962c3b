import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/pagination';

const cursor = (description: string) => z.string().min(1).max(64).optional().describe(description);

/** `limit`, `starting_after`, `ending_before` — the paging parameters of every list (DESIGN §4). */
export const listParamsShape = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .describe(`Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
  starting_after: cursor('Cursor: the id of the last item of the previous page; returns the items after it.'),
  ending_before: cursor('Cursor: the id of the first item of the next page; returns the items before it. Not with `starting_after`.'),
};

/** Rejects `starting_after` together with `ending_before`. */
export function oneCursor<T extends { starting_after?: string; ending_before?: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.starting_after && value.ending_before) {
    ctx.addIssue({ code: 'custom', message: 'Send starting_after or ending_before, not both.', path: ['ending_before'] });
  }
}

export function listEnvelope<T extends z.ZodTypeAny>(item: T, opts: { embedded?: boolean } = {}) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    total_count: z.number().int(),
    ...(opts.embedded ? { url: z.string().describe('The endpoint that pages the full set.') } : {}),
  });
}
