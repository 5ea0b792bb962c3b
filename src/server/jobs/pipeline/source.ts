import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readLimited } from '../../domain/net/read-limited';
import { safeFetch } from '../../domain/net/outbound';
import { UnsafeUrlError } from '../../domain/net/ssrf';
import type { SessionFailureCode } from '../../domain/sessions/failure-codes';
import type { MeasuredVideo } from '../../domain/sessions/lifecycle';

/** A failure whose session error code is known (source problems, limits, analysis outcomes). */
export class ProcessingFailure extends Error {
  constructor(
    readonly code: SessionFailureCode,
    message: string,
    readonly measured?: MeasuredVideo,
  ) {
    super(message);
    this.name = 'ProcessingFailure';
  }
}

export const maxSourceBytes = () => Number(process.env.SWISH_MAX_SOURCE_BYTES ?? 20 * 1024 ** 3);
const downloadTimeoutMs = () => Number(process.env.SWISH_SOURCE_TIMEOUT_SECONDS ?? 3600) * 1000;
const MAX_PAGE_BYTES = 5 * 1024 * 1024;

function unavailable(message: string): ProcessingFailure {
  return new ProcessingFailure('source_unavailable', message);
}

/** Why a source could not be reached, in words a coach can act on ("fetch failed" says nothing). */
export function unreachableReason(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const code = e?.cause?.code ?? (e as { code?: string })?.code;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'the server did not answer in time';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (code === 'ECONNREFUSED') return 'the server refused the connection';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'the server stopped sending';
  if (code && /CERT|SSL|TLS/.test(code)) return `its TLS certificate is not valid (${code})`;
  return code ? `${e.cause?.message ?? e.message} (${code})` : (e?.cause?.message ?? e?.message ?? String(err));
}

async function open(url: string, timeoutMs: number, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await safeFetch(url, { timeoutMs, signal, headers: { 'user-agent': 'Swish/1 (+video analysis)' } });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw unavailable(`The source URL is not allowed: ${err.message}`);
    throw unavailable(`The source could not be reached: ${unreachableReason(err)}.`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw unavailable(`The source answered HTTP ${res.status}.`);
  }
  return res;
}

/**
 * Streams a URL to `dest`, bounded in size (SWISH_MAX_SOURCE_BYTES, default 20 GiB) and
 * time (SWISH_SOURCE_TIMEOUT_SECONDS, default 1 h), SSRF-guarded on every redirect.
 */
export async function downloadTo(
  url: string,
  dest: string,
  res?: Response,
  onBytes?: (bytes: number) => void,
): Promise<{ bytes: number; contentType: string | null }> {
  const response = res ?? (await open(url, downloadTimeoutMs()));
  const limit = maxSourceBytes();
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw new ProcessingFailure('video_too_large', `The source is ${declared} bytes; the limit is ${limit}.`);
  }
  if (!response.body) throw unavailable('The source sent no body.');
  await mkdir(dirname(dest), { recursive: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      onBytes?.(bytes);
      if (bytes > limit) done(new ProcessingFailure('video_too_large', `The source is larger than ${limit} bytes.`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as never), counter, createWriteStream(dest));
  } catch (err) {
    await rm(dest, { force: true });
    if (err instanceof ProcessingFailure) throw err;
    throw unavailable(`The download of the source failed: ${(err as Error).message}`);
  }
  return { bytes: (await stat(dest)).size, contentType: response.headers.get('content-type') };
}

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? (m[2] ?? m[3] ?? null) : null;
}

function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

function findVideoObject(node: unknown): string | null {
  if (!node || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = findVideoObject(n);
      if (found) return found;
    }
    return null;
  }
  const obj = node as Record<string, unknown>;
  const type = obj['@type'];
  if ((type === 'VideoObject' || (Array.isArray(type) && type.includes('VideoObject'))) && typeof obj.contentUrl === 'string') return obj.contentUrl;
  for (const key of ['@graph', 'video', 'subjectOf', 'hasPart', 'mainEntity']) {
    const found = findVideoObject(obj[key]);
    if (found) return found;
  }
  return null;
}

/**
 * The video of a platform match page (DESIGN §4): JSON-LD `VideoObject.contentUrl`, then
 * `og:video:secure_url` / `og:video`, then the first `<video>` or `<source>` src.
 * Relative URLs are resolved against the page.
 */
export function resolveVideoFromPage(html: string, pageUrl: string): string | null {
  const candidates: string[] = [];
  for (const m of html.matchAll(/<script[^>]*type\s*=\s*["']application\/ld\+json["'][^>]*>([\s\S]*?)<\/script>/gi)) {
    try {
      const found = findVideoObject(JSON.parse(m[1]));
      if (found) candidates.push(found);
    } catch {
      // malformed JSON-LD is common; try the next source of truth
    }
  }
  const metas = [...html.matchAll(/<meta\b[^>]*>/gi)].map((m) => m[0]);
  for (const prop of ['og:video:secure_url', 'og:video:url', 'og:video']) {
    const tag = metas.find((t) => (attr(t, 'property') ?? attr(t, 'name'))?.toLowerCase() === prop);
    const content = tag ? attr(tag, 'content') : null;
    if (content) candidates.push(content);
  }
  for (const m of html.matchAll(/<(video|source)\b[^>]*>/gi)) {
    const src = attr(m[0], 'src');
    if (src) candidates.push(src);
  }
  for (const c of candidates) {
    try {
      return new URL(decodeEntities(c.trim()), pageUrl).toString();
    } catch {
      // not a URL; next candidate
    }
  }
  return null;
}

/** A platform match page must arrive (headers and HTML) within this; a video it links to has the download's bound. */
const PAGE_TIMEOUT_MS = 30_000;

/** Reads a page's HTML (its first MAX_PAGE_BYTES), aborting the request when it takes longer than `timeoutMs`. */
async function readPage(res: Response, page: AbortController, timeoutMs: number): Promise<string> {
  const timer = setTimeout(() => page.abort(), timeoutMs);
  try {
    return (await readLimited(res.body!, MAX_PAGE_BYTES)).bytes.toString('utf8');
  } catch (err) {
    if (page.signal.aborted) throw unavailable(`The page did not arrive within ${timeoutMs / 1000} s.`);
    throw unavailable(`The page could not be read: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fetches a session's source video into `dest`: a direct URL as is; a platform link either
 * as a CDN link (it answers with video bytes: downloaded under the download's bounds) or as
 * a match page (read within `pageTimeoutMs`, default 30 s) resolved to its video.
 */
export async function fetchSource(
  source: { type: 'url' | 'platform'; url: string },
  dest: string,
  onBytes?: (bytes: number) => void,
  opts: { pageTimeoutMs?: number } = {},
) {
  if (source.type === 'url') return downloadTo(source.url, dest, undefined, onBytes);
  const pageTimeoutMs = opts.pageTimeoutMs ?? PAGE_TIMEOUT_MS;
  // the answer may be the video itself, so the request lives as long as a download may;
  // only waiting for its headers and reading a page are bounded by the page's timeout
  const page = new AbortController();
  const headersTimer = setTimeout(() => page.abort(), pageTimeoutMs);
  let res: Response;
  try {
    res = await open(source.url, downloadTimeoutMs(), page.signal);
  } catch (err) {
    if (page.signal.aborted) throw unavailable(`The platform link did not answer within ${pageTimeoutMs / 1000} s.`);
    throw err;
  } finally {
    clearTimeout(headersTimer);
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  if (!type.includes('html')) return downloadTo(source.url, dest, res, onBytes);
  const html = await readPage(res, page, pageTimeoutMs);
  const video = resolveVideoFromPage(html, source.url);
  if (!video) throw new ProcessingFailure('source_invalid', 'The page has no video (no JSON-LD VideoObject, og:video or <video> element).');
  return downloadTo(video, dest, undefined, onBytes);
}
