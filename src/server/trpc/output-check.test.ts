import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileOutputCheck } from './output-check';
import { appRouter } from './routers';

// zod 4's internal definition, as far as these tests build values from it.
interface Node {
  _zod: { def: Record<string, unknown> & { type: string; checks?: { _zod: { def: Record<string, unknown> } }[] }; values?: Set<unknown>; optin?: string };
}

function checkDefs(node: Node) {
  return (node._zod.def.checks ?? []).map((c) => c._zod.def);
}

/** Values the schema accepts unchanged, for the kinds of schema the check knows. */
function valid(node: Node): fc.Arbitrary<unknown> {
  const def = node._zod.def;
  const checks = checkDefs(node);
  const maxLength = Math.min(3, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum as number));
  switch (def.type) {
    case 'string':
      return fc.string({ maxLength: Math.min(12, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum as number)) });
    case 'number': {
      const integer = checks.some((c) => c.format === 'safeint');
      const low = checks.find((c) => c.check === 'greater_than');
      const high = checks.find((c) => c.check === 'less_than');
      const min = low ? (low.value as number) + (low.inclusive ? 0 : 1) : -1e6;
      const max = high ? (high.value as number) - (high.inclusive ? 0 : 1) : 1e9;
      return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'literal':
    case 'enum':
      return fc.constantFrom(...node._zod.values!);
    case 'nullable':
      return fc.option(valid(def.innerType as Node), { nil: null });
    case 'optional':
      return fc.option(valid(def.innerType as Node), { nil: undefined });
    case 'array': {
      const minLength = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum as number));
      return fc.array(valid(def.element as Node), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__'), valid(def.valueType as Node), { maxKeys: 3 });
    case 'union':
      return fc.oneof(...(def.options as Node[]).map(valid));
    case 'object': {
      const shape = def.shape as Record<string, Node>;
      const requiredKeys = Object.keys(shape).filter((k) => shape[k]!._zod.optin !== 'optional');
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, valid(v)])), { requiredKeys });
    }
    default:
      throw new Error(`no values for a ${def.type} schema`);
  }
}

/** Every object and array inside a value, with the value itself. */
function containers(value: unknown, out: object[] = []): object[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

class Row {}
const ODD_VALUES = [null, undefined, 1.5, -1, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, 'x', 'x'.repeat(600), true, [], {}, new Date(0)];

/** A valid value changed in one place: a key added, dropped or moved, a value replaced, a class instance. */
const mutated = (node: Node) =>
  fc.tuple(valid(node), fc.nat(), fc.nat(), fc.constantFrom('extra', 'drop', 'reorder', 'replace', 'instance')).map(([value, at, pick, kind]) => {
    const copy: unknown = structuredClone(value);
    const all = containers(copy);
    if (all.length === 0) return ODD_VALUES[pick % ODD_VALUES.length];
    const target = all[at % all.length] as Record<string, unknown>;
    const keys = Object.keys(target);
    const key = keys[pick % Math.max(1, keys.length)];
    if (kind === 'extra' && !Array.isArray(target)) target.internal_secret = 'leak';
    else if (kind === 'drop' && key !== undefined && !Array.isArray(target)) delete target[key];
    else if (kind === 'reorder' && !Array.isArray(target)) {
      const entries = Object.entries(target).reverse();
      for (const k of keys) delete target[k];
      for (const [k, v] of entries) target[k] = v;
    } else if (kind === 'instance' && !Array.isArray(target)) Object.setPrototypeOf(target, Row.prototype);
    else if (key !== undefined) target[key] = ODD_VALUES[(pick >> 4) % ODD_VALUES.length];
    return copy;
  });

/** What the full parse gives: its JSON, or that it throws. */
function parsed(schema: z.ZodType, value: unknown): string | Error {
  try {
    return JSON.stringify(schema.parse(value));
  } catch (error) {
    return error as Error;
  }
}

const procedureOutputs = Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { output?: z.ZodType } }>)
  .map((p) => p._def.output)
  .filter((o): o is z.ZodType => o !== undefined);
const outputs = [...new Set(procedureOutputs)];

describe('compileOutputCheck', () => {
  it('knows every procedure output schema, so no response is copied to be checked', () => {
    expect(procedureOutputs.length).toBeGreaterThanOrEqual(20);
    expect(outputs.filter((o) => compileOutputCheck(o) === null)).toEqual([]);
  });

  it.each(outputs.map((o, i) => [z.globalRegistry.get(o)?.id ?? `output ${i}`, o] as const))(
    '%s: says yes to what the serialisers build, and only to what the parse returns unchanged',
    (_name, schema) => {
      const check = compileOutputCheck(schema)!;
      fc.assert(
        fc.property(valid(schema as unknown as Node), (value) => {
          expect(check(value)).toBe(true);
          expect(parsed(schema, value)).toBe(JSON.stringify(value));
        }),
        { numRuns: 60 },
      );
      fc.assert(
        fc.property(mutated(schema as unknown as Node), (value) => {
          // A yes hands the value on instead of the parse's result: they must be the same JSON.
          if (check(value)) expect(parsed(schema, value)).toBe(JSON.stringify(value));
        }),
        { numRuns: 300 },
      );
    },
  );

  it('says no to a key the allowlist strips, a wrong value, another key order or a class instance', () => {
    const check = compileOutputCheck(z.object({ id: z.string().max(4), n: z.number().int().gte(0), tags: z.array(z.string()).max(2), note: z.string().optional() }))!;
    expect(check({ id: 'a', n: 1, tags: [] })).toBe(true);
    expect(check({ id: 'a', n: 1, tags: ['x'], note: undefined })).toBe(true);
    expect(check({ id: 'a', n: 1, tags: [], secret: 'x' })).toBe(false);
    expect(check({ n: 1, id: 'a', tags: [] })).toBe(false);
    expect(check({ id: 'a', n: 1.5, tags: [] })).toBe(false);
    expect(check({ id: 'a', n: -1, tags: [] })).toBe(false);
    expect(check({ id: 'abcde', n: 1, tags: [] })).toBe(false);
    expect(check({ id: 'a', n: 1, tags: ['x', 'y', 'z'] })).toBe(false);
    expect(check({ id: 'a', n: 1 })).toBe(false);
    expect(check(Object.assign(new Row(), { id: 'a', n: 1, tags: [] }))).toBe(false);
    expect(check({ id: 'a', n: 1, tags: [], note: null })).toBe(false);
  });

  it('checks a union of options of different kinds by the option of the value’s kind', () => {
    const check = compileOutputCheck(z.object({ remove: z.union([z.string().max(3), z.array(z.string().max(3)).min(1)]).optional() }))!;
    expect(check({ remove: 'abc' })).toBe(true);
    expect(check({ remove: ['a', 'b'] })).toBe(true);
    expect(check({})).toBe(true);
    expect(check({ remove: 'abcd' })).toBe(false);
    expect(check({ remove: [] })).toBe(false);
    expect(check({ remove: 3 })).toBe(false);
    expect(check({ remove: ['abcd'] })).toBe(false);
    // and says yes only where the parse returns the value unchanged
    const schema = z.union([z.number().int(), z.array(z.number())]);
    const loose = compileOutputCheck(schema)!;
    for (const v of [1, [1, 2], 1.5, 'x', [], null]) expect(loose(v)).toBe(schema.safeParse(v).success && JSON.stringify(schema.parse(v)) === JSON.stringify(v));
  });

  it('leaves schemas with parts it does not know to the parse', () => {
    for (const schema of [
      z.string().email(),
      z.string().regex(/a/),
      z.number().multipleOf(2),
      z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      z.union([z.string(), z.string().max(2)]),
      z.union([z.string(), z.string().email()]),
      z.string().default('a'),
      z.string().transform((s) => s.length),
      z.object({ a: z.string() }).refine(() => true),
      z.looseObject({ a: z.string() }),
      z.object({ a: z.string().nullish().default(null) }),
      z.coerce.number(),
      z.record(z.enum(['a', 'b']), z.string()),
      z.object({ when: z.date() }),
    ]) {
      expect(compileOutputCheck(schema)).toBeNull();
    }
  });
});
