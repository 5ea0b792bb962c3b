import { z } from 'zod';

/** True when a value already serialises to the same JSON as what the schema's parse would return. */
export type OutputCheck = (value: unknown) => boolean;

// The part of zod 4's internal definition this module reads (`schema._zod.def`).
interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; format?: string; value?: unknown; inclusive?: boolean; maximum?: number; minimum?: number; length?: unknown; when?: unknown } } }[];
  coerce?: boolean;
  /** a string format (`z.email()`, …) */
  format?: string;
  shape?: Record<string, Node>;
  catchall?: Node;
  element?: Node;
  innerType?: Node;
  keyType?: Node;
  valueType?: Node;
  mode?: string;
  /** a union's options */
  options?: Node[];
}
interface Node {
  _zod: { def: Def; values?: Set<unknown>; optin?: string; optout?: string };
}

const compiled = new WeakMap<object, OutputCheck | null>();

/**
 * A check that tells, without copying, whether `value` is already what `schema.parse` would return
 * (the same keys in the same order, the same values: the same JSON), or `null` when the schema
 * uses something this module does not know. (Symbol keys, which JSON never shows, are not looked
 * at.)
 *
 * Every response passes its procedure's output schema (the allowlist: nothing a row has beyond the
 * public object leaves). zod's parse builds a copy of the whole response to do that: on a page of
 * 100 sessions, 1.7 MB of JSON, the copy and its garbage cost about as much as serialising it. A
 * serialiser builds its objects in the schema's shape, so the copy is almost always equal to what
 * it copied. This check walks the value and answers yes only when the parse would succeed and
 * return an equal value; everything else (an unknown key, a wrong type, another key order, an
 * object that is not plain) answers no, and the caller runs the full parse, which strips or throws
 * as before. A "yes" is therefore never wider than zod's own check.
 *
 * Known: objects (strip mode, no catch-all, no refinements), arrays, records with string keys,
 * strings, numbers (finite; `int()`; bounds), booleans, literals, enums, nullable and optional,
 * unions of options of different JSON kinds, with the length checks `max`/`min`/`length`. Any
 * other type, check or option (coercion, defaults, transforms, pipes, unions of one kind, formats,
 * refinements) makes the whole schema `null`, and it is parsed as before.
 */
export function compileOutputCheck(schema: z.ZodType): OutputCheck | null {
  return compile(schema as unknown as Node);
}

function compile(node: Node): OutputCheck | null {
  if (compiled.has(node)) return compiled.get(node) ?? null;
  compiled.set(node, null); // a schema that reaches itself (z.lazy) stays unknown
  const check = build(node);
  compiled.set(node, check);
  return check;
}

function build(node: Node): OutputCheck | null {
  const def = node._zod.def;
  if (def.coerce) return null;
  const limits = lengthLimits(def);
  switch (def.type) {
    case 'string':
      return limits && hasOnlyChecks(def, LENGTH_CHECKS) && !def.format
        ? (v) => typeof v === 'string' && limits(v.length)
        : null;
    case 'number':
      return numberCheck(def);
    case 'boolean':
      return hasOnlyChecks(def, []) ? (v) => typeof v === 'boolean' : null;
    case 'literal':
    case 'enum': {
      const values = node._zod.values;
      if (!values || !hasOnlyChecks(def, [])) return null;
      return (v) => values.has(v);
    }
    case 'nullable': {
      const inner = def.innerType && compile(def.innerType);
      return inner && hasOnlyChecks(def, []) ? (v) => v === null || inner(v) : null;
    }
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner && hasOnlyChecks(def, []) ? (v) => v === undefined || inner(v) : null;
    }
    case 'array': {
      const element = def.element && compile(def.element);
      if (!element || !limits || !hasOnlyChecks(def, LENGTH_CHECKS)) return null;
      return (v) => {
        if (!Array.isArray(v) || !limits(v.length)) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !element(v[i])) return false;
        return true;
      };
    }
    case 'record':
      return recordCheck(def);
    case 'object':
      return objectCheck(def);
    case 'union':
      return unionCheck(def);
    default:
      return null;
  }
}

/** The JSON kind a schema's values have, for {@link unionCheck}; null for one it cannot name. */
function kindOf(node: Node): string | null {
  const t = node._zod.def.type;
  if (t === 'string' || t === 'number' || t === 'boolean' || t === 'array') return t;
  if (t === 'object' || t === 'record') return 'object';
  return null;
}

/**
 * A union whose options are each of another JSON kind (a string or an array of them): zod's parse tries the options in
 * order and returns the first success, and only the option of the value's own kind can succeed, so its check is the
 * union's. Options that share a kind (two objects: an earlier one could succeed by stripping) are left to the parse.
 */
function unionCheck(def: Def): OutputCheck | null {
  const options = def.options ?? [];
  const kinds = options.map(kindOf);
  if (!options.length || kinds.some((k) => k === null) || new Set(kinds).size !== kinds.length || !hasOnlyChecks(def, [])) return null;
  const checks = options.map(compile);
  if (checks.some((c) => c === null)) return null;
  return (v) => checks.some((c) => c!(v));
}

const LENGTH_CHECKS = ['max_length', 'min_length', 'length_equals'];

/** zod's own condition on its length checks (run on values that have a length), which every string and array meets. */
const LENGTH_WHEN = (z.string().max(1) as unknown as Node)._zod.def.checks![0]!._zod.def.when;

function hasOnlyChecks(def: Def, allowed: string[]): boolean {
  return (def.checks ?? []).every((c) => {
    const { check, when } = c._zod.def;
    return allowed.includes(check) && (when === undefined || (when === LENGTH_WHEN && LENGTH_CHECKS.includes(check)));
  });
}

/** The length checks of a string or array as one test; `null` when one of them is not plain. */
function lengthLimits(def: Def): ((length: number) => boolean) | null {
  let min = 0;
  let max = Infinity;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'max_length' && typeof d.maximum === 'number') max = Math.min(max, d.maximum);
    else if (d.check === 'min_length' && typeof d.minimum === 'number') min = Math.max(min, d.minimum);
    else if (d.check === 'length_equals') {
      if (typeof d.length !== 'number') return null;
      min = Math.max(min, d.length);
      max = Math.min(max, d.length);
    } else if (LENGTH_CHECKS.includes(d.check)) return null;
  }
  return (length) => length >= min && length <= max;
}

function numberCheck(def: Def): OutputCheck | null {
  let integer = false;
  let low = -Infinity;
  let lowInclusive = true;
  let high = Infinity;
  let highInclusive = true;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.when !== undefined) return null;
    if (d.check === 'number_format' && d.format === 'safeint') integer = true;
    else if (d.check === 'greater_than' && typeof d.value === 'number') {
      if (d.value > low || (d.value === low && !d.inclusive)) [low, lowInclusive] = [d.value, d.inclusive === true];
    } else if (d.check === 'less_than' && typeof d.value === 'number') {
      if (d.value < high || (d.value === high && !d.inclusive)) [high, highInclusive] = [d.value, d.inclusive === true];
    } else return null;
  }
  return (v) =>
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (!integer || Number.isSafeInteger(v)) &&
    (lowInclusive ? v >= low : v > low) &&
    (highInclusive ? v <= high : v < high);
}

/** A plain object (what `{}` and `JSON.parse` make), whose own enumerable keys `for…in` sees. */
function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function recordCheck(def: Def): OutputCheck | null {
  if (!def.keyType || !def.valueType || (def.mode !== undefined && def.mode !== 'strict') || !hasOnlyChecks(def, [])) return null;
  if (def.keyType._zod.def.type !== 'string') return null;
  const key = compile(def.keyType);
  const value = compile(def.valueType);
  if (!key || !value) return null;
  return (v) => {
    if (!isPlainRecord(v)) return false;
    for (const k in v) {
      if (k === '__proto__' || !key(k) || !value(v[k])) return false;
    }
    return true;
  };
}

function objectCheck(def: Def): OutputCheck | null {
  if (!def.shape || def.catchall !== undefined || !hasOnlyChecks(def, [])) return null;
  const keys = Object.keys(def.shape);
  const checks: OutputCheck[] = [];
  const optional: boolean[] = [];
  for (const k of keys) {
    const field = def.shape[k]!;
    const check = compile(field);
    if (!check || k === '__proto__') return null;
    checks.push(check);
    // Optional in and out (`.optional()`): an absent key is left absent by the parse.
    const { optin, optout } = field._zod;
    if (optin !== undefined && (optin !== 'optional' || optout !== 'optional')) return null;
    optional.push(optin === 'optional');
  }
  const n = keys.length;
  return (v) => {
    if (!isPlainRecord(v)) return false;
    // The value's keys must be the schema's, in the schema's order (the parse builds its copy in
    // that order), with only optional ones left out: anything else is a key the parse would strip.
    let j = 0;
    for (const k in v) {
      while (j < n && keys[j] !== k) {
        if (!optional[j]) return false;
        j++;
      }
      if (j === n || !checks[j]!(v[k])) return false;
      j++;
    }
    for (; j < n; j++) if (!optional[j]) return false;
    return true;
  };
}
