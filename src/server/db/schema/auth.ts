import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns';
import { organizations } from './organizations';

/**
 * Dashboard sign-in: the tables better-auth (email + password, organization plugin) reads
 * and writes through its drizzle adapter. Column names are better-auth's model fields; the
 * organization model is our `organizations` table, so a dashboard member and an API key act
 * for the very same organization. Ids are prefixed like every other id (`usr_`, `mem_` …).
 */

const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: idColumn(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A signed-in browser. `activeOrganizationId` is the organization the dashboard acts for. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: idColumn(),
    /** The cookie's value (signed by better-auth); looked up on every dashboard request. */
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    activeOrganizationId: text('active_organization_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** Credentials of a user; for email sign-in `providerId` is `credential` and `password` a scrypt hash. */
export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: idColumn(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: at('access_token_expires_at'),
    refreshTokenExpiresAt: at('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('auth_accounts_user_idx').on(t.userId)],
);

export const authVerifications = pgTable('auth_verifications', {
  id: idColumn(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type MemberRole = 'owner' | 'admin' | 'coach';

/** A user's membership of an organization, with the role that decides what the dashboard allows. */
export const members = pgTable(
  'members',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `owner`, `admin` or `coach` (better-auth stores a comma-separated list when several). */
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('members_org_user_idx').on(t.organizationId, t.userId), index('members_user_idx').on(t.userId)],
);

/** An invitation to join an organization with a role; accepted by signing in with that email. */
export const invitations = pgTable(
  'invitations',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    status: text('status').notNull().default('pending'),
    expiresAt: at('expires_at').notNull(),
    inviterId: text('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('invitations_org_idx').on(t.organizationId)],
);
