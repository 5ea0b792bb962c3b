import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashSources } from './build-stamp';

describe('hashSources', () => {
  const root = mkdtempSync(join(tmpdir(), 'swish-stamp-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('changes with what the build reads, not with the tests', () => {
    mkdirSync(join(root, 'src', 'test'), { recursive: true });
    const write = (path: string, text: string) => writeFileSync(join(root, path), text);
    write('src/page.tsx', 'export default 1;');
    write('src/page.test.ts', 'test 1');
    write('src/test/db.ts', 'helper 1');
    write('package.json', '{}');
    const first = hashSources(root);

    write('src/page.test.ts', 'test 2');
    write('src/test/db.ts', 'helper 2');
    write('src/new.integration.test.ts', 'another test');
    expect(hashSources(root)).toBe(first);

    write('src/page.tsx', 'export default 2;');
    const second = hashSources(root);
    expect(second).not.toBe(first);
    write('package.json', '{"name":"x"}');
    expect(hashSources(root)).not.toBe(second);
  });
});
