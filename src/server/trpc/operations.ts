import type { SwishMeta } from './init';
import { appRouter } from './routers';

export interface RestOperation {
  method: string;
  path: string;
  meta: SwishMeta;
}

let cache: RestOperation[] | undefined;

/** Every procedure exposed under /v1, with its meta. */
export function restOperations(): RestOperation[] {
  if (!cache) {
    cache = [];
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: SwishMeta } }>;
    for (const proc of Object.values(procedures)) {
      const meta = proc._def.meta;
      if (meta?.openapi) cache.push({ method: meta.openapi.method, path: meta.openapi.path, meta });
    }
  }
  return cache;
}
