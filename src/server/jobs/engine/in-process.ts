/**
 * The in-process transport between the embedded engine and this process's Inngest SDK.
 *
 * The engine and `/api/inngest` live in the same process, so a call need not cross loopback
 * TCP and Next.js routing: the engine hands the serve handler a `Request` — the same URL,
 * headers, signed body as over HTTP — and reads its `Response`; the SDK's own requests to the
 * engine (checkpoints, `step.sendEvent`) go to the engine's handler the same way. The wire
 * protocol is unchanged (signatures are made and checked as before), only the socket is gone;
 * with Inngest Cloud or self-hosted Inngest nothing is registered and everything stays HTTP.
 *
 * The registry lives on globalThis because the route module is bundled by Next.js while the
 * engine is loaded by `npm start` itself: two copies of this module, one process.
 */

export type FetchHandler = (req: Request) => Promise<Response>;

interface Registry {
  /** The serve handler of this process's `/api/inngest` (the route module registers it when it loads). */
  serve?: FetchHandler;
  /** Embedded engines of this process by origin (`http://127.0.0.1:port`). */
  engines: Map<string, FetchHandler>;
  /** The engines' calls of `serve` still running (a step goes on after its engine dropped the call). */
  calls: Set<Promise<Response>>;
}

const key = Symbol.for('swish.inngest.in-process');
type GlobalWithRegistry = typeof globalThis & { [key]?: Registry };

function registry(): Registry {
  const g = globalThis as GlobalWithRegistry;
  return (g[key] ??= { engines: new Map(), calls: new Set() });
}

/** Called by the module that serves `/api/inngest`, so an embedded engine of this process can call it directly. */
export function registerInProcessServe(handler: FetchHandler): void {
  registry().serve = handler;
}

/** The registered serve handler, counting its calls until they settle (`inProcessCallsRunning`). */
export function inProcessServe(): FetchHandler | undefined {
  const { serve, calls } = registry();
  if (!serve) return undefined;
  return (req) => {
    const call = serve(req);
    calls.add(call);
    const settled = () => calls.delete(call);
    call.then(settled, settled);
    return call;
  };
}

/**
 * How many in-process calls of the serve handler are still running. A stopping engine drops its
 * calls at once, but the function steps they started run on until they end (see `beginShutdown`);
 * the process waits for them before it closes the database.
 */
export function inProcessCallsRunning(): number {
  return registry().calls.size;
}

/** Called by an embedded engine for its SDK-facing URL; returns the unregister function. */
export function registerInProcessEngine(url: string, handler: FetchHandler): () => void {
  const origin = new URL(url).origin;
  const engines = registry().engines;
  engines.set(origin, handler);
  return () => {
    if (engines.get(origin) === handler) engines.delete(origin);
  };
}

const urlOf = (input: RequestInfo | URL): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/**
 * A `fetch` for the Inngest client: requests to an embedded engine of this process are
 * handed to it in-process, everything else goes to the global fetch (looked up per call:
 * Next.js wraps it after this module loads).
 */
export const engineAwareFetch: typeof fetch = (input, init) => {
  const engines = registry().engines;
  if (engines.size) {
    let origin: string | undefined;
    try {
      origin = new URL(urlOf(input)).origin;
    } catch {
      origin = undefined;
    }
    const handler = origin === undefined ? undefined : engines.get(origin);
    if (handler) return handler(new Request(input, init));
  }
  return globalThis.fetch(input, init);
};
