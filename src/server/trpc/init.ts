import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { toApiError } from './api-error';

export interface SwishMeta extends OpenApiMeta {
  /** Success status of the REST door (default 200), reflected in the OpenAPI document. */
  successStatus?: 200 | 201;
  /** Error statuses the operation can return beyond 400/401/429/500 (for the OpenAPI document). */
  errorStatuses?: Array<402 | 404 | 409 | 413>;
  /** Response headers the operation sets, name → description (for the OpenAPI document). */
  responseHeaderDocs?: Record<string, string>;
  /** Idempotency-Key is honoured on this operation. */
  idempotent?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<SwishMeta>()
  .create({
    errorFormatter({ shape, error }) {
      return { ...shape, data: { ...shape.data, stack: undefined, api: toApiError(error) } };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
