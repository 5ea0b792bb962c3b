import type { Agent } from 'undici';
import { outboundFetch } from '../net/outbound';
import { checkUrl, UnsafeUrlError } from '../net/ssrf';
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LOG_BYTES } from './config';

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed (no answer, redirect, blocked URL); null for any answer that is not a redirect. */
  error: string | null;
  /** The first RESPONSE_BODY_LOG_BYTES of the body (UTF-8). */
  body: string | null;
  retryAfter: string | null;
}

async function readHead(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  // a multi-byte character cut at the limit decodes as U+FFFD, which is fine for a log
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `No response within ${timeoutMs / 1000} s.`;
  const code = e?.cause?.code;
  if (code) return `Connection failed: ${code}.`;
  return `Request failed: ${e?.cause?.message ?? e?.message ?? String(err)}.`;
}

/**
 * One POST of a signed webhook through the outbound client. The URL is checked again at
 * every attempt, and the address the connection uses is checked when it is opened (the
 * host's DNS may now point somewhere private); keep-alive connections to a receiver are
 * reused across deliveries; redirects are not followed (a 3xx is a failed
 * attempt); the whole exchange, including the logged part of the body, is bounded by
 * `timeoutMs`. Never throws for anything the receiver does.
 */
export async function sendWebhook(
  url: string,
  opts: { headers: Record<string, string>; body: string; timeoutMs?: number; agent?: Agent },
): Promise<SendResult> {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const notSent = (err: UnsafeUrlError): SendResult => ({ status: null, durationMs: elapsed(), error: `Not sent: ${err.message}`, body: null, retryAfter: null });
  let checked: URL;
  try {
    checked = checkUrl(url);
  } catch (err) {
    if (err instanceof UnsafeUrlError) return notSent(err);
    throw err;
  }
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await outboundFetch(checked, { method: 'POST', headers: opts.headers, body: opts.body, redirect: 'manual', signal, agent: opts.agent });
    let body: string | null = null;
    let bodyError: string | null = null;
    try {
      body = await readHead(res, RESPONSE_BODY_LOG_BYTES);
    } catch (err) {
      bodyError = `The response body was cut short: ${describeFailure(err, timeoutMs)}`;
    }
    const redirect = res.status >= 300 && res.status < 400;
    return {
      status: res.status,
      durationMs: elapsed(),
      error: redirect ? `Redirects are not followed (Location: ${res.headers.get('location') ?? 'none'}).` : bodyError,
      body,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (err) {
    if (err instanceof UnsafeUrlError) return notSent(err);
    return { status: null, durationMs: elapsed(), error: describeFailure(err, timeoutMs), body: null, retryAfter: null };
  }
}
