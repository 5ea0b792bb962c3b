import type { ServerResponse } from 'node:http';

interface Entry {
  res: ServerResponse;
  settled: boolean;
}

/**
 * Counts the requests in flight for a graceful stop. A request is done when its response has
 * closed and its handler has answered: it settled, or it sent the response's head. A client
 * that hangs up before the answer closes the response at once while the handler goes on (a
 * POST may still be committing), and the database must not be stopped under it. A client that
 * hangs up while the answer is being written leaves nothing to wait for — and Next.js's
 * request handler never settles then (it reports the pipe's `aborted` instead), so waiting for
 * it would hold every stop for the whole grace period.
 */
export class InFlightRequests {
  #open = new Set<Entry>();

  get count(): number {
    for (const entry of this.#open) if (InFlightRequests.#done(entry)) this.#open.delete(entry);
    return this.#open.size;
  }

  static #done(entry: Entry): boolean {
    return entry.res.closed && (entry.settled || entry.res.headersSent);
  }

  /** `work` is the request's handler; it must not reject (catch and answer before). */
  track(res: ServerResponse, work: Promise<unknown>): void {
    // entries whose head was sent after their client hung up are found done only when looked at
    if (this.#open.size >= 1024) void this.count;
    const entry: Entry = { res, settled: false };
    this.#open.add(entry);
    const check = () => {
      if (InFlightRequests.#done(entry)) this.#open.delete(entry);
    };
    const settled = () => {
      entry.settled = true;
      check();
    };
    res.once('close', check);
    work.then(settled, settled);
  }
}
