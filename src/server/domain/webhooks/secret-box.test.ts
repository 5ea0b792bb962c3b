import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const saved = { DATA_DIR: process.env.DATA_DIR, SWISH_SECRET: process.env.SWISH_SECRET };
const restore = (name: keyof typeof saved) => (saved[name] === undefined ? delete process.env[name] : (process.env[name] = saved[name]));

/** The module as a fresh process would load it (it keeps its key once derived). */
async function fresh() {
  vi.resetModules();
  return import('./secret-box');
}

describe('sealed webhook secrets', () => {
  let dir: string | undefined;
  afterEach(async () => {
    restore('DATA_DIR');
    restore('SWISH_SECRET');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('still open after SWISH_SECRET is set on an installation that ran without it; new ones use SWISH_SECRET', async () => {
    dir = await mkdtemp(join(tmpdir(), 'swish-secrets-'));
    process.env.DATA_DIR = dir;
    delete process.env.SWISH_SECRET;
    const before = (await fresh()).sealSecret('whsec_before');

    process.env.SWISH_SECRET = 'set-when-scaling-out';
    const now = await fresh();
    expect(now.openSecret(before)).toBe('whsec_before');
    const after = now.sealSecret('whsec_after');

    // another instance, with SWISH_SECRET and without the first one's key file
    await rm(join(dir, 'webhook-secrets.key'));
    const other = await fresh();
    expect(other.openSecret(after)).toBe('whsec_after');
    expect(() => other.openSecret(before)).toThrow(/cannot be decrypted/);
  });
});
