/**
 * The process's stop, as a signal the long jobs listen to.
 *
 * A stop (SIGTERM, SIGINT) first lets the requests in flight finish and stops the jobs engine,
 * which drops the calls it had made to the Inngest functions: those runs resume from their last
 * finished step at the next start. A step still running then (an analysis, a rendition: minutes
 * of work) is of no use any more: it must not go on querying a database that is about to close,
 * and its analyser and ffmpeg processes must not outlive the server (they would go on writing
 * into the work directory the resumed run uses). `beginShutdown()` aborts `shutdownSignal()`; the job watchdogs listen to it and stop
 * their ffmpeg and analyser processes, and the stop waits for those steps to end before it
 * closes the database.
 *
 * The controller lives on `globalThis`: the server's entry module and the Next.js bundles that
 * run the functions are separate module graphs in one process.
 */
const KEY = Symbol.for('swish.shutdown');

/** The reason a job aborted by the stop throws: not a processing failure, so no session fails for it. */
export class ShuttingDown extends Error {
  constructor() {
    super('The service is stopping; this run resumes at the next start.');
    this.name = 'ShuttingDown';
  }
}

function controller(): AbortController {
  const holder = globalThis as { [KEY]?: AbortController };
  return (holder[KEY] ??= new AbortController());
}

/** Aborts when the process stops; its reason is a `ShuttingDown`. */
export function shutdownSignal(): AbortSignal {
  return controller().signal;
}

export function beginShutdown(): void {
  controller().abort(new ShuttingDown());
}
