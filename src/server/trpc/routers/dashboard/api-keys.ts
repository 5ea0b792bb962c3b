import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyView } from '../../../domain/api-keys/api-keys';
import { adminProcedure } from '../../procedures';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** Allowlist of a key's fields for the dashboard (never the hash). */
function toKeyView(k: ApiKeyView) {
  return {
    id: k.id,
    name: k.name,
    environment: k.environment,
    last4: k.last4,
    created: seconds(k.createdAt)!,
    last_used: seconds(k.lastUsedAt),
    revoked: seconds(k.revokedAt),
  };
}

export const listApiKeysRoute = adminProcedure.query(async ({ ctx }) => (await listApiKeys(ctx.db, ctx.auth.organizationId)).map(toKeyView));

/** A new key; the secret is in this response only. */
export const createApiKeyRoute = adminProcedure
  .input(z.object({ environment: z.enum(['production', 'staging']), name: z.string().trim().max(80).optional() }).strict())
  .mutation(async ({ ctx, input }) => {
    const key = await createApiKey(ctx.db, { organizationId: ctx.auth.organizationId, environment: input.environment, name: input.name || null });
    return { ...toKeyView(key), secret: key.secret };
  });

export const revokeApiKeyRoute = adminProcedure
  .input(z.object({ id: z.string().max(64) }).strict())
  .mutation(async ({ ctx, input }) => toKeyView(await revokeApiKey(ctx.db, { keyId: input.id, organizationId: ctx.auth.organizationId })));
