import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a webhook receiver saw it. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the body was fully read. */
  at: number;
}

export type ReceiverReply = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export interface LocalReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Replaces how the receiver answers the next requests (default: 200 "ok"). */
  reply(fn: (req: ReceivedWebhook, n: number) => ReceiverReply): void;
  close(): Promise<void>;
}

/**
 * A real HTTP webhook receiver on a loopback port, for the integration tests and the
 * webhook benchmark. Records every request; answers per the current reply function.
 */
export async function startLocalReceiver(path = '/hook'): Promise<LocalReceiver> {
  const received: ReceivedWebhook[] = [];
  let replyFn: (req: ReceivedWebhook, n: number) => ReceiverReply = () => ({ status: 200, body: 'ok' });
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: ReceivedWebhook = {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(hit);
      const r = replyFn(hit, received.length);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status, r.headers).end(r.body ?? '');
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    url,
    received,
    reply(fn) {
      replyFn = fn;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
