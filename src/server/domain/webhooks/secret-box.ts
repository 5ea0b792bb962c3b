import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Endpoint signing secrets must be readable to sign, so they are stored encrypted
 * (AES-256-GCM) rather than hashed. The key is derived from SWISH_SECRET when set (the same
 * value on every instance when scaling out), otherwise from a random key kept in DATA_DIR
 * (`webhook-secrets.key`, created on first use) — as the media signing key.
 */

let key: Buffer | undefined;

function sealingKey(): Buffer {
  if (key) return key;
  let material: string;
  if (process.env.SWISH_SECRET) material = process.env.SWISH_SECRET;
  else {
    const dir = resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data');
    const file = join(dir, 'webhook-secrets.key');
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      try {
        writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process created it first
      }
    }
    material = readFileSync(file, 'utf8').trim();
  }
  key = createHash('sha256').update('swish webhook secrets v1\0').update(material).digest();
  return key;
}

/** `whsec_` + base64 of 24 random bytes: the secret format Standard Webhooks libraries accept. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(), iv);
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('webhook secret cannot be decrypted: SWISH_SECRET (or DATA_DIR/webhook-secrets.key) changed since it was stored');
  }
}
