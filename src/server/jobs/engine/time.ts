/**
 * Durations and cron schedules as Inngest writes them: the SDK sends durations as
 * `"1w2d3h4m5s"` (its `timeStr`), users write periods like `"1h"` or `"30s"`, and cron
 * triggers use the 5-field syntax (minute hour day-of-month month day-of-week, UTC).
 */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of a duration string such as `"2h30m"`, `"500ms"` or `"1d"`; throws on anything else. */
export function parseDuration(input: string): number {
  const src = input.trim();
  const re = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    total += Number(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  if (!src || matched !== src.length) throw new Error(`invalid duration ${JSON.stringify(input)}`);
  return total;
}

/** The wake-up time of `step.sleep` (a duration) or `step.sleepUntil` (an ISO date). */
export function sleepTarget(name: string, now: number): number {
  if (/^\d{4}-\d{2}-\d{2}T/.test(name)) {
    const t = Date.parse(name);
    if (Number.isNaN(t)) throw new Error(`invalid sleep date ${JSON.stringify(name)}`);
    return t;
  }
  return now + parseDuration(name);
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface CronFields {
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  domStar: boolean;
  dowStar: boolean;
}

function parseField(field: string, min: number, max: number, names?: string[]): Set<number> {
  const out = new Set<number>();
  const value = (s: string) => {
    const idx = names ? names.indexOf(s.toUpperCase()) : -1;
    const n = idx >= 0 ? idx + (min === 1 ? 1 : 0) : Number(s);
    if (!Number.isInteger(n)) throw new Error(`invalid cron value ${JSON.stringify(s)}`);
    return n;
  };
  for (const part of field.split(',')) {
    const [range, stepStr] = part.split('/');
    const step = stepStr === undefined ? 1 : Number(stepStr);
    if (!Number.isInteger(step) || step < 1) throw new Error(`invalid cron step ${JSON.stringify(part)}`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) [lo, hi] = range.split('-').map(value) as [number, number];
    else {
      lo = value(range);
      hi = stepStr === undefined ? lo : max;
    }
    if (lo < min || hi > max || lo > hi) throw new Error(`cron value out of range in ${JSON.stringify(part)}`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** A parsed 5-field cron expression (UTC). `TZ=`/`CRON_TZ=` prefixes other than UTC and seconds fields are rejected. */
export function parseCron(expr: string): CronFields {
  let src = expr.trim();
  const tz = /^(?:CRON_)?TZ=(\S+)\s+/.exec(src);
  if (tz) {
    if (!['UTC', 'Etc/UTC', 'GMT'].includes(tz[1])) throw new Error(`cron time zone ${tz[1]} is not supported (UTC only) in ${JSON.stringify(expr)}`);
    src = src.slice(tz[0].length);
  }
  const macros: Record<string, string> = {
    '@yearly': '0 0 1 1 *',
    '@annually': '0 0 1 1 *',
    '@monthly': '0 0 1 * *',
    '@weekly': '0 0 * * 0',
    '@daily': '0 0 * * *',
    '@hourly': '0 * * * *',
  };
  src = macros[src] ?? src;
  const parts = src.split(/\s+/);
  if (parts.length !== 5) throw new Error(`cron ${JSON.stringify(expr)} must have 5 fields (minute hour day month weekday)`);
  const dow = parseField(parts[4].replace(/\b7\b/g, '0'), 0, 6, DAYS);
  return {
    minute: parseField(parts[0], 0, 59),
    hour: parseField(parts[1], 0, 23),
    dom: parseField(parts[2], 1, 31),
    month: parseField(parts[3], 1, 12, MONTHS),
    dow,
    domStar: parts[2] === '*',
    dowStar: parts[4] === '*',
  };
}

/** The first fire time strictly after `after` (ms since epoch, UTC). */
export function nextCronTime(expr: string, after: number): number {
  const f = parseCron(expr);
  const d = new Date(Math.floor(after / 60_000) * 60_000 + 60_000);
  const limit = after + 5 * 366 * 86_400_000;
  while (d.getTime() < limit) {
    if (!f.month.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    const domOk = f.dom.has(d.getUTCDate());
    const dowOk = f.dow.has(d.getUTCDay());
    const dayOk = f.domStar || f.dowStar ? domOk && dowOk : domOk || dowOk;
    if (!dayOk) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!f.hour.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!f.minute.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return d.getTime();
  }
  throw new Error(`cron ${JSON.stringify(expr)} never fires`);
}
