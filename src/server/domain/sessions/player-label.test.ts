import { describe, expect, it } from 'vitest';
import { playerName } from './player-label';

describe('playerName', () => {
  it('is the name with the jersey, else the jersey, else the number from the analysis, else nothing', () => {
    expect(playerName({ name: 'Ana', jersey: '7', number: 3 })).toBe('Ana #7');
    expect(playerName({ name: 'Ana', jersey: null, number: 3 })).toBe('Ana');
    expect(playerName({ name: null, jersey: '7', number: 3 })).toBe('#7');
    expect(playerName({ name: '', jersey: '', number: 3 })).toBe('Player 3');
    expect(playerName({ name: null, jersey: null, number: null })).toBeNull();
  });
});
