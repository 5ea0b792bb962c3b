/** Seconds of video assumed for a hold when neither a duration nor a file size is known (SPEC §8). */
export const DEFAULT_HOLD_SECONDS = 7_200;

/** Bit rate used to turn a file size into an estimated duration (DESIGN §4). */
export const ESTIMATE_BITS_PER_SECOND = 4_000_000;

export const DEFAULT_RATE_CENTS_PER_HOUR = 500;

/** Credits expire one year after purchase (SPEC §8). */
export function grantExpiry(from: Date): Date {
  const d = new Date(from.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

/** Cost of `seconds` of video at `rateCentsPerHour`, rounded up to the cent. Integer maths only. */
export function costCents(seconds: number, rateCentsPerHour: number): number {
  if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`seconds must be a non-negative integer, got ${seconds}`);
  return Math.ceil((seconds * rateCentsPerHour) / 3600);
}

/** Hold estimate in whole seconds: the declared duration, else the size at 4 Mbit/s, else 2 hours. */
export function estimateHoldSeconds(opts: { durationSeconds?: number | null; sizeBytes?: number | null }): number {
  if (opts.durationSeconds && opts.durationSeconds > 0) return opts.durationSeconds;
  if (opts.sizeBytes && opts.sizeBytes > 0) return Math.max(1, Math.ceil((opts.sizeBytes * 8) / ESTIMATE_BITS_PER_SECOND));
  return DEFAULT_HOLD_SECONDS;
}

/** Measured duration (fractional seconds from ffprobe) → billable whole seconds. */
export function billableSeconds(durationSeconds: number): number {
  return Math.max(1, Math.ceil(durationSeconds - 1e-6));
}
