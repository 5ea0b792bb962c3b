import { describe, expect, it } from 'vitest';
import { compileExpression, evaluateKey } from './expression';

const event = { name: 'swish/session.submitted', data: { organization_id: 'org_1', amount: 250, plan: 'pro', nested: { ok: true } } };
const async = { name: 'swish/approved', data: { organization_id: 'org_1', amount: 10 } };

describe('expressions', () => {
  it.each([
    ['event.data.organization_id == async.data.organization_id', true],
    ["event.data.plan != 'free' && event.data.amount > 100", true],
    ['event.data.amount <= 100 || event.data.nested.ok', true],
    ["!(event.data.plan == 'pro')", false],
    ["event.data['plan'] == \"pro\"", true],
    ['event.data.missing == null', false],
    ['event.data.amount >= 250 && async.data.amount < 11', true],
    ['event.data.nested.ok == true', true],
  ])('%s → %s', (src, expected) => {
    expect(compileExpression(src).test({ event, async })).toBe(expected);
  });

  it('evaluates keys to strings', () => {
    expect(evaluateKey('event.data.organization_id', { event })).toBe('org_1');
    expect(evaluateKey('event.data.amount', { event })).toBe('250');
    expect(evaluateKey('event.data.none', { event })).toBe('');
  });

  it.each(['size(event.data.items) > 2', 'event.data.a + 1 == 2', "event.data.a in ['x']", 'event.data.', "'open"])('rejects %s', (src) => {
    expect(() => compileExpression(src)).toThrow(/expression/);
  });
});
