import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { serveMedia } from './serve';

/** Whether a request goes to the media door (`/media/…`) instead of Next.js. */
export function isMediaPath(url: string | undefined): boolean {
  return !!url && url.startsWith('/media/');
}

/**
 * Serves `/media/…` on the Node server itself, ahead of Next.js: Next.js drops a route
 * handler's `Content-Length` and sends its body chunked, and video players want the length —
 * from a HEAD to probe, on a 206 to seek (Safari will not play a range answer without it). The
 * responses are `serveMedia`'s, headers included; a client that goes away ends the stream.
 */
export async function serveMediaNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // only the path and the query matter to serveMedia (S3 redirects come from the storage's own URLs)
  const response = await serveMedia(new Request(new URL(req.url ?? '/', 'http://media.invalid'), { method: req.method, headers }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
  } catch (err) {
    // the client went away mid-body: nothing to answer, the stream is closed
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  }
}
