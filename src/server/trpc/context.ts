import type { Database } from '../db/client';
import { getDb } from '../db/client';

/** Mutable response parts a procedure or middleware may set (status such as 201, headers). */
export interface ResponseParts {
  status?: number;
  headers: Headers;
}

export interface Context {
  /** `rest`: /v1 with an API key. `dashboard`: /api/trpc with the dashboard's sign-in. */
  door: 'rest' | 'dashboard';
  req: Request;
  requestId: string;
  res: ResponseParts;
  db: Database;
}

export function createContext(opts: { door: Context['door']; req: Request; requestId: string; res?: ResponseParts }): Context {
  return {
    door: opts.door,
    req: opts.req,
    requestId: opts.requestId,
    res: opts.res ?? { headers: new Headers() },
    db: getDb(),
  };
}
