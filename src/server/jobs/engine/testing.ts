import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Inngest, InngestFunction } from 'inngest';
import { serve as serveFetch } from 'inngest/next';
import { serve } from 'inngest/node';
import { createEmbeddedEngine, type EmbeddedEngine, type EmbeddedEngineOptions } from './engine';

export interface TestInngest {
  engine: EmbeddedEngine;
  /** The serve endpoint of the app under test. */
  appUrl: string;
  stop(): Promise<void>;
}

/**
 * Runs Inngest functions for real in a test: serves them through the SDK's Node handler on
 * a loopback port, starts an embedded engine against the test database (DATABASE_URL),
 * exports the SDK environment and syncs. Integration tests of other modules use it to run
 * their functions end to end, e.g. `startTestInngest({ client: inngest, functions })`.
 *
 * `transport`: `in-process` (default, as `npm start` runs: the engine hands its signed
 * requests to the SDK's fetch handler — the one the Next.js route uses — without a socket)
 * or `http` (every call over the loopback port, as with a separate engine).
 */
export async function startTestInngest(opts: {
  client: Inngest.Any;
  functions: InngestFunction.Any[];
  engine?: Partial<EmbeddedEngineOptions>;
  transport?: 'in-process' | 'http';
}): Promise<TestInngest> {
  const inProcess = (opts.transport ?? 'in-process') === 'in-process';
  // The SDK fixes its register URL when the handler is created: create it once the engine exported its URL.
  let handler: ReturnType<typeof serve> | undefined;
  const server: Server = createServer((req, res) => {
    if (handler && new URL(req.url ?? '/', 'http://app').pathname === '/api/inngest') return void handler(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`;
  let fetchHandler: ReturnType<typeof serveFetch> | undefined;
  const engine = await createEmbeddedEngine({
    appUrl,
    exportEnv: true,
    inProcess,
    serve: inProcess ? (req) => fetchHandler!(req as Parameters<typeof fetchHandler & {}>[0], undefined) : undefined,
    pollMs: 200,
    leaseMs: 2_000,
    retryBaseMs: 50,
    retryMaxMs: 500,
    ...opts.engine,
  });
  opts.client.setEnvVars();
  handler = serve({ client: opts.client, functions: opts.functions });
  fetchHandler = serveFetch({ client: opts.client, functions: opts.functions });
  const stopAll = async () => {
    await engine.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    await engine.start();
  } catch (err) {
    await stopAll();
    throw err;
  }
  return { engine, appUrl, stop: stopAll };
}
