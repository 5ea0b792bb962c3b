import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { apiKeys } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';

export type Environment = 'production' | 'staging';

const ENV_MARKER: Record<Environment, string> = { production: 'prod', staging: 'stg' };
const KEY_PATTERN = /^swish_(prod|stg)_([A-Za-z0-9]{32})$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The environment this deployment serves (SWISH_ENV, default production). */
export function deploymentEnvironment(): Environment {
  const env = process.env.SWISH_ENV ?? 'production';
  if (env !== 'production' && env !== 'staging') {
    throw new Error(`SWISH_ENV must be "production" or "staging", got "${env}"`);
  }
  return env;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function randomSecret(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    // rejection sampling keeps every character equally likely
    if (bytes[i] < 248) out += BASE62[bytes[i] % 62];
  }
  return out.length === length ? out : randomSecret(length);
}

export interface ApiKeyView {
  id: string;
  organizationId: string;
  environment: Environment;
  name: string | null;
  last4: string;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Issues a key. The returned `secret` is the only time the full key exists outside the
 * client: only its SHA-256 is stored.
 */
export async function createApiKey(
  db: DbOrTx,
  opts: { organizationId: string; environment: Environment; name?: string | null; rateLimitPerMinute?: number | null },
): Promise<ApiKeyView & { secret: string }> {
  const secret = `swish_${ENV_MARKER[opts.environment]}_${randomSecret()}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      organizationId: opts.organizationId,
      environment: opts.environment,
      secretHash: hashSecret(secret),
      last4: secret.slice(-4),
      name: opts.name ?? null,
      rateLimitPerMinute: opts.rateLimitPerMinute === undefined ? 60 : opts.rateLimitPerMinute,
    })
    .returning();
  return { ...toView(row), secret };
}

function toView(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    organizationId: row.organizationId,
    environment: row.environment,
    name: row.name,
    last4: row.last4,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export async function listApiKeys(db: DbOrTx, organizationId: string): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.organizationId, organizationId)).orderBy(sql`${apiKeys.id} desc`);
  return rows.map(toView);
}

/** Revokes a key; revoking twice is harmless. `organizationId` scopes the lookup when given. */
export async function revokeApiKey(db: DbOrTx, opts: { keyId: string; organizationId?: string }): Promise<ApiKeyView> {
  const scope = opts.organizationId ? eq(apiKeys.organizationId, opts.organizationId) : undefined;
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, opts.keyId), scope))
    .returning();
  if (!row) throw notFound('API key');
  return toView(row);
}

export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  environment: Environment;
  rateLimitPerMinute: number | null;
}

/**
 * Resolves an `Authorization` header to its API key, or throws the matching 401
 * (missing, malformed/unknown, revoked, other environment). Records the last-used time,
 * at most once a minute per key so a busy key does not write on every request.
 */
export async function authenticateApiKey(
  db: DbOrTx,
  authorization: string | null | undefined,
  environment: Environment = deploymentEnvironment(),
): Promise<AuthenticatedKey> {
  if (!authorization || !authorization.trim()) {
    throw new AppError('api_key_missing', {
      message: 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.',
    });
  }
  if (/^Bearer$/i.test(authorization.trim())) {
    throw new AppError('api_key_missing', { message: 'The Authorization header says Bearer but holds no API key: `Authorization: Bearer <API_KEY>`.' });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  if (!match) {
    throw new AppError('api_key_missing', {
      message: 'The Authorization header must use the Bearer scheme: `Authorization: Bearer <API_KEY>`.',
    });
  }
  const secret = match[1];
  if (!KEY_PATTERN.test(secret)) {
    // a key cut short or with extra characters (a bad copy) is told apart from a stranger's token
    const looksLikeOurs = /^swish_(prod|stg)_/.test(secret);
    throw new AppError('api_key_invalid', {
      message: looksLikeOurs
        ? 'Invalid API key: a Swish key has 32 letters and digits after its prefix; this one does not (was it copied whole?).'
        : 'Invalid API key: it is not a Swish key (swish_prod_… or swish_stg_…).',
    });
  }
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.secretHash, hashSecret(secret))).limit(1);
  if (!row) throw new AppError('api_key_invalid', { message: 'Invalid API key provided.' });
  if (row.revokedAt) throw new AppError('api_key_revoked', { message: 'This API key has been revoked.' });
  if (row.environment !== environment) {
    throw new AppError('api_key_wrong_environment', {
      message: `This is a ${row.environment} key; this deployment serves ${environment}.`,
    });
  }
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '60 seconds'`))));
  }
  return {
    id: row.id,
    organizationId: row.organizationId,
    environment: row.environment,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
