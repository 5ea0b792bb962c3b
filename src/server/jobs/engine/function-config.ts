import { compileExpression } from './expression';
import { nextCronTime, parseDuration } from './time';

/**
 * Turns the function configs the SDK sends at sync (its `FunctionConfig`) into what the
 * engine runs, and rejects every option the engine does not implement. Rejection happens
 * at sync, so `npm start` fails at start-up naming the function and the option instead of
 * silently running a function without, say, its debounce.
 */

export interface EngineTrigger {
  event?: string;
  expression?: string;
  cron?: string;
}

export interface EngineFunction {
  id: string;
  appId: string;
  name: string;
  stepUrl: string;
  triggers: EngineTrigger[];
  /** Attempts per step (retries + 1). */
  maxAttempts: number;
  concurrency: { limit: number; key?: string; scope: 'fn' | 'env' | 'account' }[];
  rateLimit?: { key?: string; limit: number; periodMs: number };
  idempotency?: string;
  cancel: { event: string; if?: string; timeoutMs?: number }[];
}

/** Inngest's default: 4 retries after the first attempt. */
export const DEFAULT_RETRIES = 4;

const UNSUPPORTED: Record<string, string> = {
  batchEvents: 'event batching',
  throttle: 'throttle (use rateLimit to drop, or concurrency to queue)',
  debounce: 'debounce',
  singleton: 'singleton',
  timeouts: 'timeouts',
  priority: 'priority',
};

const KNOWN = new Set(['id', 'name', 'triggers', 'steps', 'idempotency', 'rateLimit', 'concurrency', 'cancel', ...Object.keys(UNSUPPORTED)]);

export class UnsupportedFunctionOptionError extends Error {
  constructor(functionId: string, option: string, detail: string) {
    super(`Inngest function "${functionId}" uses ${option}: ${detail}. The embedded engine does not implement it; remove the option or run on Inngest Cloud / self-hosted Inngest (see src/server/jobs/README.md).`);
    this.name = 'UnsupportedFunctionOptionError';
  }
}

function checkExpression(fnId: string, option: string, source: string | undefined) {
  if (source === undefined) return;
  try {
    compileExpression(source);
  } catch (err) {
    throw new UnsupportedFunctionOptionError(fnId, option, (err as Error).message);
  }
}

/** Validates one SDK function config; throws UnsupportedFunctionOptionError naming the function and option. */
export function toEngineFunction(appId: string, raw: Record<string, unknown>): EngineFunction {
  const id = String(raw.id ?? '');
  if (!id) throw new Error('function config without an id');
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    if (UNSUPPORTED[key]) throw new UnsupportedFunctionOptionError(id, `\`${key}\``, `${UNSUPPORTED[key]} is not supported`);
    if (!KNOWN.has(key)) throw new UnsupportedFunctionOptionError(id, `\`${key}\``, 'unknown option');
  }
  const steps = (raw.steps ?? {}) as Record<string, { runtime?: { type?: string; url?: string }; retries?: { attempts?: number } }>;
  const step = steps.step;
  if (!step?.runtime?.url || Object.keys(steps).length !== 1) throw new UnsupportedFunctionOptionError(id, '`steps`', 'expected exactly one HTTP step named "step"');
  if (step.runtime.type && step.runtime.type !== 'http') throw new UnsupportedFunctionOptionError(id, '`steps.runtime`', `runtime ${step.runtime.type} (connect) is not supported`);
  const retries = step.retries?.attempts ?? DEFAULT_RETRIES;

  const triggers: EngineTrigger[] = [];
  for (const t of (raw.triggers ?? []) as Record<string, string | undefined>[]) {
    if (t.cron !== undefined) {
      if (t.jitter) throw new UnsupportedFunctionOptionError(id, 'cron `jitter`', 'jitter is not supported');
      try {
        nextCronTime(t.cron, Date.now());
      } catch (err) {
        throw new UnsupportedFunctionOptionError(id, `cron trigger ${JSON.stringify(t.cron)}`, (err as Error).message);
      }
      triggers.push({ cron: t.cron });
    } else if (t.event !== undefined) {
      checkExpression(id, `the trigger expression of ${t.event}`, t.expression);
      triggers.push({ event: t.event, expression: t.expression || undefined });
    } else throw new UnsupportedFunctionOptionError(id, 'a trigger', `unknown trigger ${JSON.stringify(t)}`);
  }

  const rawConcurrency = raw.concurrency;
  const concurrency: EngineFunction['concurrency'] = [];
  const list = rawConcurrency === undefined ? [] : Array.isArray(rawConcurrency) ? rawConcurrency : [rawConcurrency];
  for (const c of list as (number | { limit: number; key?: string; scope?: 'fn' | 'env' | 'account' })[]) {
    const o = typeof c === 'number' ? { limit: c } : c;
    checkExpression(id, '`concurrency.key`', o.key);
    if (o.limit > 0) concurrency.push({ limit: o.limit, key: o.key, scope: o.scope ?? 'fn' });
  }

  let rateLimit: EngineFunction['rateLimit'];
  if (raw.rateLimit) {
    const r = raw.rateLimit as { key?: string; limit: number; period: string };
    checkExpression(id, '`rateLimit.key`', r.key);
    let periodMs: number;
    try {
      periodMs = parseDuration(r.period);
    } catch (err) {
      throw new UnsupportedFunctionOptionError(id, '`rateLimit.period`', (err as Error).message);
    }
    rateLimit = { key: r.key, limit: r.limit, periodMs };
  }

  const idempotency = raw.idempotency as string | undefined;
  checkExpression(id, '`idempotency`', idempotency);

  const cancel: EngineFunction['cancel'] = [];
  for (const c of (raw.cancel ?? []) as { event: string; if?: string; timeout?: string }[]) {
    checkExpression(id, `the \`cancelOn\` condition for ${c.event}`, c.if);
    cancel.push({ event: c.event, if: c.if, timeoutMs: c.timeout ? parseDuration(c.timeout) : undefined });
  }

  return {
    id,
    appId,
    name: String(raw.name ?? id),
    stepUrl: step.runtime.url,
    triggers,
    maxAttempts: retries + 1,
    concurrency,
    rateLimit,
    idempotency,
    cancel,
  };
}

/** True when an event named `name` fires `trigger` (exact name or a `prefix/*` wildcard). */
export function triggerMatchesName(trigger: EngineTrigger, name: string): boolean {
  if (!trigger.event) return false;
  if (trigger.event.endsWith('*')) return name.startsWith(trigger.event.slice(0, -1));
  return trigger.event === name;
}
