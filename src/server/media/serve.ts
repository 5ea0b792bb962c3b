import { Readable } from 'node:stream';
import { logger } from '../logger';
import { ensureOnDemandRendition } from './on-demand';
import { assertValidKey, getMediaStorage, onDemandHighlightRendition, type ByteRange, type MediaStorage } from './storage';
import { mediaKeyOfPath, verifyMediaSignature } from './urls';

/** Longest time a browser may keep a media response, even when the URL lives longer. */
const MAX_CACHE_SECONDS = 86_400;

function errorResponse(status: number, type: string, code: string, message: string, head: boolean, extra: HeadersInit = {}) {
  const headers = new Headers(extra);
  headers.set('Content-Type', 'application/json');
  headers.set('Cache-Control', 'no-store');
  const body = JSON.stringify({ error: { type, code, message } });
  return new Response(head ? null : body, { status, headers });
}

/**
 * Parses a single `Range: bytes=…` header against a size. Returns null when the header is
 * absent, malformed or asks for several ranges (then the whole object is served, which
 * RFC 9110 allows), 'unsatisfiable' for a range wholly past the end.
 */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** The object key of a `/media/<key>` URL, or null when the path is not a valid key. */
function keyFromUrl(url: URL): string | null {
  const key = mediaKeyOfPath(url.pathname);
  if (key === null) return null;
  try {
    assertValidKey(key);
    return key;
  } catch {
    return null;
  }
}

/**
 * Serves `/media/<key>?expires=…&signature=…` (GET and HEAD): checks the signature and the
 * expiry, then streams the object from storage with byte-range support so browsers can
 * seek in videos. Whole files are never buffered. With S3 storage (whose URLs normally point
 * at the bucket) a valid local URL redirects to a presigned bucket URL. A highlight rendition
 * made on demand that does not exist yet is encoded first (`on-demand.ts`), so its first
 * request waits for the encode.
 */
export async function serveMedia(req: Request, storage: MediaStorage = getMediaStorage()): Promise<Response> {
  const head = req.method === 'HEAD';
  if (!head && req.method !== 'GET') {
    return errorResponse(405, 'invalid_request_error', 'method_not_allowed', `Method not allowed; use GET, HEAD.`, false, { Allow: 'GET, HEAD' });
  }
  const url = new URL(req.url);
  const key = keyFromUrl(url);
  if (!key) return errorResponse(404, 'invalid_request_error', 'resource_missing', 'No such media object.', head);

  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature') ?? '';
  const now = Date.now() / 1000;
  // The signature is checked first (ignoring time), so "expired" is only said of genuine URLs.
  if (!signature || !Number.isInteger(expires) || !verifyMediaSignature(key, expires, signature, 0)) {
    return errorResponse(403, 'authentication_error', 'media_signature_invalid', 'The media URL signature is missing or invalid.', head);
  }
  if (expires < now) {
    return errorResponse(403, 'authentication_error', 'media_url_expired', 'This media URL has expired; read the resource again for a fresh URL.', head);
  }

  // a highlight rendition made on demand is encoded by its first request (the others wait for it)
  if (onDemandHighlightRendition(key)) {
    try {
      if (!(await ensureOnDemandRendition(storage, key))) return errorResponse(404, 'invalid_request_error', 'resource_missing', 'No such media object.', head);
    } catch (err) {
      logger.error({ err, key }, 'on-demand rendition failed');
      return errorResponse(500, 'api_error', 'rendition_failed', 'This rendition could not be made; try again later.', head, { 'Retry-After': '30' });
    }
  }

  if (storage.kind !== 'local') {
    const ttl = Math.max(60, Math.floor(expires - now));
    return new Response(null, { status: 302, headers: { Location: storage.url(key, ttl), 'Cache-Control': 'no-store' } });
  }

  const info = await storage.stat(key);
  if (!info) return errorResponse(404, 'invalid_request_error', 'resource_missing', 'No such media object.', head);

  const etag = `"${info.size.toString(16)}-${Math.floor(info.modified.getTime()).toString(16)}"`;
  const maxAge = Math.max(0, Math.min(MAX_CACHE_SECONDS, Math.floor(expires - now)));
  const headers = new Headers({
    'Content-Type': info.contentType,
    'Accept-Ranges': 'bytes',
    'Cache-Control': `private, max-age=${maxAge}`,
    ETag: etag,
    'Last-Modified': info.modified.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  });

  if (req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });

  // If-Range with a stale validator means "send the whole (new) object".
  const ifRange = req.headers.get('if-range');
  const rangeHeader = ifRange && ifRange !== etag && ifRange !== headers.get('Last-Modified') ? null : req.headers.get('range');
  const range = parseRange(rangeHeader, info.size);
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${info.size}`);
    return errorResponse(416, 'invalid_request_error', 'range_not_satisfiable', 'The requested byte range is outside the object.', head, headers);
  }

  let status = 200;
  let length = info.size;
  if (range) {
    status = 206;
    length = range.end - range.start + 1;
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  }
  headers.set('Content-Length', String(length));
  if (head || length === 0) return new Response(null, { status, headers });

  const object = await storage.get(key, range ?? undefined);
  if (!object) return errorResponse(404, 'invalid_request_error', 'resource_missing', 'No such media object.', head);
  const body = Readable.toWeb(object.stream) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
