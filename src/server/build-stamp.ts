import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the app's build reads: everything under these, except the test suites. */
const BUILD_INPUTS = ['src', 'public', 'package-lock.json', 'package.json', 'next.config.ts', 'tsconfig.json'];

/** Test files and the test helpers' folder, which no page or route imports. */
const notBuilt = (relative: string) => /\.test\.tsx?$/.test(relative) || relative.startsWith('/src/test/');

/**
 * A hash of the sources a production build is made from (paths and contents), so that `npm
 * start` rebuilds only when one of them changed; editing a test does not cost a rebuild.
 */
export function hashSources(root: string): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    const relative = path.slice(root.length);
    if (notBuilt(relative)) return;
    hash.update(relative);
    hash.update(readFileSync(path));
  };
  for (const p of BUILD_INPUTS) visit(join(root, p));
  return hash.digest('hex');
}
