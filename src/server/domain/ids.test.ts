import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids';

describe('newId', () => {
  it('prefixes and sorts by creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newId('session'));
    for (const id of ids) expect(id).toMatch(/^sess_[0-9a-z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('recognises its own ids only', () => {
    expect(isId('session', newId('session'))).toBe(true);
    expect(isId('session', newId('group'))).toBe(false);
    expect(isId('session', 'sess_short')).toBe(false);
  });
});
