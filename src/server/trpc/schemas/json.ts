import { z } from 'zod';

/**
 * A JSON-body field that must arrive with its own JSON type. trpc-to-openapi switches
 * number and boolean schemas of every REST input to coercion (right for query strings,
 * wrong for JSON bodies: `"yes"` would become `true`). A pipe is left alone by it, so body
 * numbers and booleans are declared through this wrapper. The OpenAPI document shows the
 * inner schema unchanged.
 */
export function strictJson<T extends z.ZodType>(schema: T) {
  return schema.pipe(z.custom<z.output<T>>(() => true));
}
