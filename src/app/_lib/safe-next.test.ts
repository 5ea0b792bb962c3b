import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next';

describe('safeNextPath', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeNextPath('/sessions/sess_1?tab=shots#s3')).toBe('/sessions/sess_1?tab=shots#s3');
    expect(safeNextPath('/invite/inv_1')).toBe('/invite/inv_1');
  });

  it('refuses anything that leaves the site', () => {
    for (const bad of ['/.//evil.example/phish', '/a/..//evil.example/x', '/%2e//evil.example', '//evil.example/phish', '/\\evil.example', '/\\/evil.example', 'https://evil.example', 'javascript:alert(1)', 'evil', '/%5Cevil.example', '/\t/evil.example', '']) {
      const out = safeNextPath(bad);
      expect(new URL(out, 'http://swish.invalid').origin, bad).toBe('http://swish.invalid');
      // and as a browser resolves it against this site (what router.replace does)
      expect(new URL(out, 'https://swish.example').origin, bad).toBe('https://swish.example');
      expect(out.startsWith('//'), bad).toBe(false);
    }
    expect(safeNextPath('//evil.example/phish')).toBe('/sessions');
    expect(safeNextPath(null, '/x')).toBe('/x');
  });
});
