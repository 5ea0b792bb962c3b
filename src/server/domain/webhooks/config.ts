/**
 * Webhook delivery settings, read from the environment when used (production and tests
 * use the same code; tests only configure faster values).
 */

/** Standard Webhooks' schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (≈ 3 days in all). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400];

/** An endpoint failing without a single success for this long is disabled (5 days). */
export const DEFAULT_DISABLE_AFTER_SECONDS = 5 * 86_400;

/** How long a rotated-out secret keeps signing alongside the new one. */
export const SECRET_OVERLAP_SECONDS = 24 * 3_600;

/** Endpoints per organization. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 16;

/** A receiver must answer (headers and the logged body) within this time. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** Bytes of the response body kept in the delivery log. */
export const RESPONSE_BODY_LOG_BYTES = 1_024;

/** The longest `Retry-After` honoured (a larger value is capped, so retries still end). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/**
 * `SWISH_WEBHOOK_RETRY_SCHEDULE`: comma-separated delays in seconds (decimals allowed),
 * one per attempt; the first is the delay before the first attempt (normally 0). Its length
 * is the number of attempts.
 */
export function retryScheduleSeconds(raw = process.env.SWISH_WEBHOOK_RETRY_SCHEDULE): number[] {
  if (!raw || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const parts = raw.split(',').map((p) => p.trim());
  const values = parts.map(Number);
  if (parts.some((p) => p === '') || values.some((v) => !Number.isFinite(v) || v < 0)) {
    throw new Error(`SWISH_WEBHOOK_RETRY_SCHEDULE must be comma-separated non-negative seconds, got "${raw}"`);
  }
  return values;
}

/** `SWISH_WEBHOOK_DISABLE_AFTER`: seconds of continuous failure after which an endpoint is disabled. */
export function disableAfterSeconds(raw = process.env.SWISH_WEBHOOK_DISABLE_AFTER): number {
  if (!raw) return DEFAULT_DISABLE_AFTER_SECONDS;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`SWISH_WEBHOOK_DISABLE_AFTER must be seconds, got "${raw}"`);
  return n;
}

/**
 * Delay before attempt `nextAttempt` (1-based) with ±10 % jitter, so retries of many
 * deliveries that failed together do not hit the receiver in lockstep. A `Retry-After`
 * from the receiver (429/503) is honoured as a minimum.
 */
export function retryDelayMs(schedule: number[], nextAttempt: number, retryAfterSeconds: number | null, random = Math.random): number {
  const base = (schedule[nextAttempt - 1] ?? schedule[schedule.length - 1] ?? 0) * 1000;
  const jittered = base * (0.9 + 0.2 * random());
  const floor = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.round(Math.max(jittered, floor));
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
