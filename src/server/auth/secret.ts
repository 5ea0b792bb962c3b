import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The key better-auth signs session cookies with: BETTER_AUTH_SECRET when set, else one
 * derived from SWISH_SECRET (set on every instance when scaling out), else a random key kept
 * in DATA_DIR so sign-ins survive restarts of a single machine.
 */
export function authSecret(): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET;
  if (process.env.SWISH_SECRET) return createHmac('sha256', process.env.SWISH_SECRET).update('swish dashboard sessions').digest('hex');
  const dir = resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data');
  const file = join(dir, 'auth-secret.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return readFileSync(file, 'utf8').trim();
}
