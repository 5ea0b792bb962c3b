import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, idColumn } from './columns';

/** A customer account. Every API key, session, credit grant and event belongs to one. */
export const organizations = pgTable('organizations', {
  id: idColumn(),
  name: text('name').notNull(),
  /** Processing price in cents per hour of video; settlements use it, the balance shows it. */
  rateCentsPerHour: integer('rate_cents_per_hour').notNull().default(500),
  /** Dashboard sign-in (better-auth's organization model is mapped onto this table): URL slug, null for CLI-made organizations. */
  slug: text('slug').unique(),
  logo: text('logo'),
  /** better-auth's organization metadata, a JSON string. */
  metadata: text('metadata'),
  createdAt: createdAt(),
});

/** Sessions are filed under a group ("Varsity", "JV"); every organization has exactly one default group. */
export const groups = pgTable(
  'groups',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('groups_org_idx').on(t.organizationId),
    uniqueIndex('groups_one_default_per_org').on(t.organizationId).where(sql`${t.isDefault}`),
  ],
);
