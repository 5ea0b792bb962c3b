import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, parseRetryAfter, retryDelayMs, retryScheduleSeconds } from './config';
import { signWebhook, webhookHeaders } from './attempt';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from './secret-box';

describe('retry schedule', () => {
  it('defaults to the Standard Webhooks schedule: 10 attempts over about 3 days', () => {
    expect(retryScheduleSeconds('')).toEqual(DEFAULT_RETRY_SCHEDULE_SECONDS);
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toHaveLength(10);
    const total = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    expect(total / 86_400).toBeGreaterThan(2.9);
    expect(total / 86_400).toBeLessThan(3.2);
  });

  it('reads SWISH_WEBHOOK_RETRY_SCHEDULE and rejects junk loudly', () => {
    expect(retryScheduleSeconds('0, 1,1')).toEqual([0, 1, 1]);
    expect(retryScheduleSeconds('0,0.25')).toEqual([0, 0.25]);
    for (const bad of ['0,,1', 'a,b', '0,-1', '1,Infinity']) expect(() => retryScheduleSeconds(bad), bad).toThrow(/SWISH_WEBHOOK_RETRY_SCHEDULE/);
  });

  it('jitters each delay by ±10 % and honours a longer Retry-After', () => {
    const schedule = [0, 5, 300];
    expect(retryDelayMs(schedule, 2, null, () => 0)).toBe(4_500);
    expect(retryDelayMs(schedule, 2, null, () => 1)).toBe(5_500);
    expect(retryDelayMs(schedule, 3, null, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(schedule, 2, 60, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(schedule, 3, 1, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(schedule, 2, 10 ** 9, () => 0.5)).toBe(86_400_000);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('signatures', () => {
  it('signs with every active secret, each verifiable on its own by standardwebhooks', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const timestamp = new Date();
    const body = JSON.stringify({ id: 'evt_1', object: 'event' });
    const headers = webhookHeaders({ secrets: [a, b], msgId: 'evt_1', timestamp, body });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers).toMatchObject({ 'webhook-id': 'evt_1', 'content-type': 'application/json', 'user-agent': 'Swish-Webhooks/1' });
    for (const s of [a, b]) expect(new Webhook(s).verify(body, headers)).toEqual({ id: 'evt_1', object: 'event' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(signWebhook({ secrets: [a], msgId: 'evt_1', timestamp, body })).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });
});
