/**
 * The subset of CEL that Inngest expressions use in practice: `event.data.x == async.data.x`,
 * `event.data.amount > 100 && event.data.plan != 'free'`, `event.data.organization_id`.
 * Grammar: `||`, `&&`, `!`, comparisons (`== != < <= > >=`), parentheses, member access
 * (`a.b`, `a['b']`), string/number/bool/null literals. Anything else is a parse error, so
 * an expression the engine cannot evaluate fails when the app syncs, not silently at run time.
 * Evaluation never executes code: it walks the parsed tree over plain JSON values.
 */

type Node =
  | { t: 'lit'; v: unknown }
  | { t: 'ident'; name: string }
  | { t: 'member'; obj: Node; prop: string }
  | { t: 'not'; arg: Node }
  | { t: 'bin'; op: string; l: Node; r: Node };

type Token = { k: 'num' | 'str' | 'ident' | 'op' | 'end'; v: string; pos: number };

export class ExpressionError extends Error {
  constructor(message: string, readonly expression: string) {
    super(`${message} in expression ${JSON.stringify(expression)}`);
    this.name = 'ExpressionError';
  }
}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '.', '[', ']'];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) {
          const e = src[j + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          j += 2;
        } else s += src[j++];
      }
      if (j >= src.length) throw new ExpressionError(`unterminated string at ${i}`, src);
      out.push({ k: 'str', v: s, pos: i });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num && (c !== '-' || out.length === 0 || out[out.length - 1].k === 'op')) {
      out.push({ k: 'num', v: num[0], pos: i });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      out.push({ k: 'ident', v: id[0], pos: i });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`unsupported character ${JSON.stringify(c)} at ${i}`, src);
    out.push({ k: 'op', v: op, pos: i });
    i += op.length;
  }
  out.push({ k: 'end', v: '', pos: src.length });
  return out;
}

function parse(src: string): Node {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const isOp = (v: string) => peek().k === 'op' && peek().v === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`expected ${v} at ${peek().pos}`, src);
    p++;
  };
  const or = (): Node => {
    let l = and();
    while (isOp('||')) {
      p++;
      l = { t: 'bin', op: '||', l, r: and() };
    }
    return l;
  };
  const and = (): Node => {
    let l = cmp();
    while (isOp('&&')) {
      p++;
      l = { t: 'bin', op: '&&', l, r: cmp() };
    }
    return l;
  };
  const cmp = (): Node => {
    const l = unary();
    const tok = peek();
    if (tok.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(tok.v)) {
      p++;
      return { t: 'bin', op: tok.v, l, r: unary() };
    }
    return l;
  };
  const unary = (): Node => {
    if (isOp('!')) {
      p++;
      return { t: 'not', arg: unary() };
    }
    return postfix();
  };
  const postfix = (): Node => {
    let n = primary();
    for (;;) {
      if (isOp('.')) {
        p++;
        const tok = peek();
        if (tok.k !== 'ident') throw new ExpressionError(`expected a field name at ${tok.pos}`, src);
        p++;
        if (isOp('(')) throw new ExpressionError(`function calls (${tok.v}) are not supported`, src);
        n = { t: 'member', obj: n, prop: tok.v };
      } else if (isOp('[')) {
        p++;
        const tok = peek();
        if (tok.k !== 'str' && tok.k !== 'num') throw new ExpressionError(`expected a literal index at ${tok.pos}`, src);
        p++;
        expect(']');
        n = { t: 'member', obj: n, prop: tok.v };
      } else return n;
    }
  };
  const primary = (): Node => {
    const tok = peek();
    p++;
    if (tok.k === 'num') return { t: 'lit', v: Number(tok.v) };
    if (tok.k === 'str') return { t: 'lit', v: tok.v };
    if (tok.k === 'ident') {
      if (tok.v === 'true') return { t: 'lit', v: true };
      if (tok.v === 'false') return { t: 'lit', v: false };
      if (tok.v === 'null') return { t: 'lit', v: null };
      if (isOp('(')) throw new ExpressionError(`function calls (${tok.v}) are not supported`, src);
      return { t: 'ident', name: tok.v };
    }
    if (tok.k === 'op' && tok.v === '(') {
      const n = or();
      expect(')');
      return n;
    }
    throw new ExpressionError(`unexpected ${tok.k === 'end' ? 'end' : JSON.stringify(tok.v)} at ${tok.pos}`, src);
  };
  const node = or();
  if (peek().k !== 'end') throw new ExpressionError(`unexpected ${JSON.stringify(peek().v)} at ${peek().pos}`, src);
  return node;
}

function evaluate(n: Node, scope: Record<string, unknown>): unknown {
  switch (n.t) {
    case 'lit':
      return n.v;
    case 'ident':
      return scope[n.name];
    case 'member': {
      const o = evaluate(n.obj, scope);
      if (o === null || typeof o !== 'object') return undefined;
      return Object.prototype.hasOwnProperty.call(o, n.prop) ? (o as Record<string, unknown>)[n.prop] : undefined;
    }
    case 'not':
      return !truthy(evaluate(n.arg, scope));
    case 'bin': {
      if (n.op === '&&') return truthy(evaluate(n.l, scope)) && truthy(evaluate(n.r, scope));
      if (n.op === '||') return truthy(evaluate(n.l, scope)) || truthy(evaluate(n.r, scope));
      const l = evaluate(n.l, scope);
      const r = evaluate(n.r, scope);
      switch (n.op) {
        case '==':
          return equal(l, r);
        case '!=':
          return !equal(l, r);
        default:
          if (!((typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string'))) return false;
          if (n.op === '<') return l < r;
          if (n.op === '<=') return l <= r;
          if (n.op === '>') return l > r;
          return l >= r;
      }
    }
  }
}

const truthy = (v: unknown) => v === true;

function equal(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A parsed expression: parse once at sync, evaluate per event. */
export interface CompiledExpression {
  source: string;
  /** The expression's value (for keys). */
  value(scope: Record<string, unknown>): unknown;
  /** True only when the expression evaluates to boolean true (for `if` filters). */
  test(scope: Record<string, unknown>): boolean;
}

const cache = new Map<string, CompiledExpression>();

/** Parses `source`, throwing an ExpressionError naming the expression when it is outside the supported subset. */
export function compileExpression(source: string): CompiledExpression {
  const hit = cache.get(source);
  if (hit) return hit;
  const ast = parse(source);
  const compiled: CompiledExpression = {
    source,
    value: (scope) => evaluate(ast, scope),
    test: (scope) => truthy(evaluate(ast, scope)),
  };
  if (cache.size > 1000) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

/** Evaluates a key expression (concurrency, rate limit, idempotency) to the string the engine groups by. */
export function evaluateKey(source: string, scope: Record<string, unknown>): string {
  const v = compileExpression(source).value(scope);
  return v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}
