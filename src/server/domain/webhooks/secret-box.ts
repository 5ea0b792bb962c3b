import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Endpoint signing secrets must be readable to sign, so they are stored encrypted
 * (AES-256-GCM) rather than hashed. The key is derived from SWISH_SECRET when set (the same
 * value on every instance when scaling out), otherwise from a random key kept in DATA_DIR
 * (`webhook-secrets.key`, created on first use) — as the media signing key. Secrets sealed
 * with the key file before SWISH_SECRET was set still open while the file is there.
 */

/** The key of some key material (SWISH_SECRET, or the key file's contents). */
const derive = (material: string) => createHash('sha256').update('swish webhook secrets v1\0').update(material).digest();

const keyFile = () => join(resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data'), 'webhook-secrets.key');

let key: Buffer | undefined;

/** The key new secrets are sealed with: SWISH_SECRET's, else the key file's (created on first use). */
function sealingKey(): Buffer {
  if (key) return key;
  if (process.env.SWISH_SECRET) return (key = derive(process.env.SWISH_SECRET));
  const file = keyFile();
  if (!existsSync(file)) {
    mkdirSync(resolve(file, '..'), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process created it first
    }
  }
  return (key = derive(readFileSync(file, 'utf8').trim()));
}

let earlierKey: Buffer | null | undefined;

/**
 * The key secrets were sealed with before SWISH_SECRET was set on this installation — the key
 * file's, while it is there — so that the endpoints made before keep signing; null otherwise.
 * Read once, and only when a secret does not open with the sealing key.
 */
function keyBeforeSwishSecret(): Buffer | null {
  if (earlierKey === undefined) earlierKey = process.env.SWISH_SECRET && existsSync(keyFile()) ? derive(readFileSync(keyFile(), 'utf8').trim()) : null;
  return earlierKey;
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
  const open = (k: Buffer): string | null => {
    const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null; // sealed with another key
    }
  };
  const opened = open(sealingKey());
  if (opened !== null) return opened;
  const earlier = keyBeforeSwishSecret();
  const reopened = earlier ? open(earlier) : null;
  if (reopened !== null) return reopened;
  throw new Error('webhook secret cannot be decrypted: SWISH_SECRET (or DATA_DIR/webhook-secrets.key) changed since it was stored');
}
