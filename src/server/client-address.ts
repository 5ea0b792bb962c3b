import type { IncomingMessage } from 'node:http';

/**
 * How many proxies stand in front of this server (`SWISH_TRUSTED_PROXIES`, default 0): each
 * appends the address it was reached from to `X-Forwarded-For`, so the client is that many
 * entries from the right of the socket's own address. Entries further left came from the client
 * and are not believed.
 */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SWISH_TRUSTED_PROXIES;
  if (raw === undefined || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`SWISH_TRUSTED_PROXIES must be a whole number ≥ 0, got "${raw}"`);
  return n;
}

/** The client's address: the socket's, or the one the trusted proxies recorded (see trustedProxyHops). */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string | undefined {
  if (hops === 0) return socketAddress;
  const chain = [
    ...(Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...(socketAddress ? [socketAddress] : []),
  ];
  return chain[Math.max(0, chain.length - 1 - hops)];
}

/**
 * Rewrites `X-Forwarded-For` to the one client address this server believes, before anything
 * reads it: the sign-in rate limit keys on it, and a header the client wrote itself let every
 * attempt look like a new address (and left every request without a proxy in one shared bucket).
 */
export function pinClientAddress(req: IncomingMessage, hops = trustedProxyHops()): void {
  const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], hops);
  if (address) req.headers['x-forwarded-for'] = address;
  else delete req.headers['x-forwarded-for'];
}
