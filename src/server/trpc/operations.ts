import type { SwishMeta } from './init';
import { appRouter } from './routers';

export interface RestOperation {
  method: string;
  path: string;
  meta: SwishMeta;
  /** The procedure's input schema (a zod object for every REST operation). */
  input?: unknown;
}

let cache: RestOperation[] | undefined;

/** Every procedure exposed under /v1, with its meta. */
export function restOperations(): RestOperation[] {
  if (!cache) {
    cache = [];
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: SwishMeta; inputs?: unknown[] } }>;
    for (const proc of Object.values(procedures)) {
      const meta = proc._def.meta;
      if (meta?.openapi) cache.push({ method: meta.openapi.method, path: meta.openapi.path, meta, input: proc._def.inputs?.[0] });
    }
  }
  return cache;
}
