import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, ts } from './columns';
import { organizations } from './organizations';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** `production` or `staging`: a deployment accepts only keys of its own SWISH_ENV. */
    environment: text('environment', { enum: ['production', 'staging'] }).notNull(),
    /** SHA-256 (hex) of the full secret; the secret itself is shown once and never stored. */
    secretHash: text('secret_hash').notNull().unique(),
    /** Last four characters of the secret, to tell keys apart in listings. */
    last4: text('last4').notNull(),
    name: text('name'),
    /**
     * Requests per rolling minute. Null lifts the limit for this key only (benchmarks,
     * trusted back-ends); it is never lifted globally.
     */
    rateLimitPerMinute: integer('rate_limit_per_minute').default(60),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_org_idx').on(t.organizationId)],
);
