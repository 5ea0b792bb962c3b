import type { ServerResponse } from 'node:http';

/**
 * Counts the requests in flight for a graceful stop. A request counts until both its handler
 * has settled and its response has closed: a client that hangs up closes the response at
 * once, but the handler goes on (a POST may still be committing), and the database must not
 * be stopped under it; a streamed body, the other way round, outlives its handler.
 */
export class InFlightRequests {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** `work` is the request's handler; it must not reject (catch and answer before). */
  track(res: ServerResponse, work: Promise<unknown>): void {
    this.#count++;
    let open = 2;
    const end = () => {
      if (--open === 0) this.#count--;
    };
    res.once('close', end);
    work.then(end, end);
  }
}
