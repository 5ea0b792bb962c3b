import type { z } from 'zod';
import { compileOutputCheck } from './output-check';

const synchronous = new WeakSet<object>();

/**
 * A procedure's output schema, checked by zod's synchronous parse.
 *
 * tRPC validates an output through the schema's `parseAsync`, and zod 4 runs its compiled
 * object parser (code generated once per object shape) only in synchronous parses, so every
 * response was checked by the generic interpreter instead. On `GET /v1/sessions?limit=100`
 * (100 sessions with 3,000 embedded shots, highlights and players: 1.7 MB of JSON) that took
 * more CPU than serialising the page. The check stays in full (it is also the allowlist that
 * strips whatever a row has beyond the public object): `parseAsync` of the schema is pointed at
 * its synchronous parse. None of the output schemas has an asynchronous refinement; one added
 * later would throw "Encountered Promise during synchronous parse" in every test that reaches
 * it. The schema object itself is changed, not a clone, so that its OpenAPI component id stays.
 *
 * Before the parse, `compileOutputCheck`'s check looks at the value without copying it: a value
 * that is already what the parse would return (the serialisers build the schema's shape) is
 * handed on as it is, and only one that is not (a key the allowlist strips, a wrong value) goes
 * through the parse, which strips or throws as before.
 */
export function syncOutput<T extends z.ZodType>(schema: T): T {
  if (!synchronous.has(schema)) {
    const exact = compileOutputCheck(schema);
    schema.parseAsync = exact
      ? async (data, params) => (exact(data) ? (data as z.output<T>) : schema.parse(data, params))
      : async (data, params) => schema.parse(data, params);
    synchronous.add(schema);
  }
  return schema;
}

/** True when `schema` went through `syncOutput`. */
export function isSyncOutput(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && synchronous.has(schema);
}
