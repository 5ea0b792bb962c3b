import { describe, expect, it } from 'vitest';
import { nextCronTime, parseDuration, sleepTarget } from './time';

const at = (iso: string) => Date.parse(iso);

describe('durations', () => {
  it('parses the SDK time strings', () => {
    expect(parseDuration('1s')).toBe(1_000);
    expect(parseDuration('2h30m10s')).toBe(9_010_000);
    expect(parseDuration('1w1d')).toBe(8 * 86_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(() => parseDuration('soon')).toThrow();
    expect(() => parseDuration('')).toThrow();
  });

  it('sleeps until a date or for a duration', () => {
    expect(sleepTarget('2030-01-01T00:00:00.000Z', 0)).toBe(at('2030-01-01T00:00:00Z'));
    expect(sleepTarget('1m', 1_000)).toBe(61_000);
  });
});

describe('cron', () => {
  it.each([
    ['* * * * *', '2026-03-10T10:15:30Z', '2026-03-10T10:16:00Z'],
    ['0 * * * *', '2026-03-10T10:15:00Z', '2026-03-10T11:00:00Z'],
    ['*/15 9-17 * * MON-FRI', '2026-03-13T17:50:00Z', '2026-03-16T09:00:00Z'],
    ['0 3 1 * *', '2026-03-10T00:00:00Z', '2026-04-01T03:00:00Z'],
    ['@daily', '2026-12-31T23:59:00Z', '2027-01-01T00:00:00Z'],
    ['TZ=UTC 30 2 * * 0', '2026-03-10T00:00:00Z', '2026-03-15T02:30:00Z'],
  ])('%s after %s → %s', (cron, after, next) => {
    expect(new Date(nextCronTime(cron, at(after))).toISOString()).toBe(new Date(at(next)).toISOString());
  });

  it.each(['* * * *', '61 * * * *', 'TZ=Europe/Paris 0 * * * *', '0 0 30 2 *'])('rejects %s', (cron) => {
    expect(() => nextCronTime(cron, 0)).toThrow();
  });
});
