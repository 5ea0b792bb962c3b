import { randomBytes, randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { organization } from 'better-auth/plugins';
import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import { authAccounts, authSessions, authVerifications, invitations, members, organizations, users } from '../db/schema';
import { newId, type IdKind } from '../domain/ids';
import { emailIs, memberRole } from '../domain/members/members';
import { setUpDashboardOrganization } from '../domain/members/organization-setup';
import { logger } from '../logger';
import { publicBaseUrl } from '../media/urls';
import { sharedAuthRateLimit } from './rate-limit-storage';
import { accessControl, isAdminRole, roles } from './roles';
import { authSecret } from './secret';

/** better-auth's model names → our id kinds, so every row gets a prefixed, time-sortable id. */
const ID_KINDS: Record<string, IdKind> = {
  user: 'user',
  session: 'authSession',
  account: 'account',
  verification: 'verification',
  organization: 'organization',
  member: 'member',
};

/** Invitation ids are the secret of an invitation link: 160 random bits, not a time-sortable id. */
function generateId(model: string): string {
  if (model === 'invitation') return `inv_${randomBytes(20).toString('base64url')}`;
  return ID_KINDS[model] ? newId(ID_KINDS[model]) : randomUUID();
}

/** Origins allowed to post to /api/auth: the public URL and the local port by both loopback names. */
function trustedOrigins(): string[] {
  const port = process.env.PORT ?? '3000';
  return [...new Set([publicBaseUrl(), `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
}

type AuthContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type AuthSession = NonNullable<Awaited<ReturnType<typeof getSessionFromCtx>>>;

/** The organization a dashboard session acts for (better-auth keeps it on the session). */
const activeOrganization = (session: AuthSession) => (session.session as { activeOrganizationId?: string | null }).activeOrganizationId ?? null;

/** better-auth endpoints that list an organization's members (with their emails and roles). */
const MEMBER_LISTS = new Set(['/organization/list-members', '/organization/get-full-organization']);

/**
 * The member list is an owner's and admin's page (a coach gets 403 from `dashboard.members`);
 * better-auth's own endpoints for it answer every member, so they are held to the same rule.
 */
async function membersForAdminsOnly(ctx: AuthContext) {
  if (!MEMBER_LISTS.has(ctx.path)) return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return; // the endpoint refuses it itself
  const query = (ctx.query ?? {}) as { organizationId?: string; organizationSlug?: string };
  const db = getDb();
  let organizationId = query.organizationId ?? null;
  if (!organizationId && query.organizationSlug) {
    const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, query.organizationSlug));
    organizationId = org?.id ?? null;
  }
  organizationId ??= activeOrganization(session);
  if (!organizationId) return;
  const role = await memberRole(db, organizationId, session.user.id);
  if (role && !isAdminRole(role)) throw new APIError('FORBIDDEN', { message: 'Only owners and admins see the members of an organization.' });
}

/**
 * An owner is removed only by an owner. better-auth refuses an admin too, but says "You cannot
 * leave the organization as the only owner", which is not what happened (and holds with two owners).
 */
async function ownersRemovedByOwners(ctx: AuthContext) {
  if (ctx.path !== '/organization/remove-member') return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return; // the endpoint refuses it itself
  const body = (ctx.body ?? {}) as { memberIdOrEmail?: unknown; organizationId?: unknown };
  const organizationId = typeof body.organizationId === 'string' ? body.organizationId : activeOrganization(session);
  if (!organizationId || typeof body.memberIdOrEmail !== 'string') return;
  const target = body.memberIdOrEmail;
  const db = getDb();
  const inOrg = eq(members.organizationId, organizationId);
  const [removed] = target.includes('@')
    ? await db.select({ role: members.role }).from(members).innerJoin(users, eq(users.id, members.userId)).where(and(inOrg, emailIs(target)))
    : await db.select({ role: members.role }).from(members).where(and(inOrg, eq(members.id, target)));
  if (removed?.role !== 'owner') return;
  const callerRole = await memberRole(db, organizationId, session.user.id);
  if (callerRole && callerRole !== 'owner') throw new APIError('FORBIDDEN', { message: 'Only an owner can remove an owner.' });
}

/** The checks better-auth's own endpoints get before they run. */
const beforeAuthEndpoints = createAuthMiddleware(async (ctx) => {
  await membersForAdminsOnly(ctx);
  await ownersRemovedByOwners(ctx);
});

function createAuth() {
  return betterAuth({
    appName: 'Swish',
    baseURL: publicBaseUrl(),
    basePath: '/api/auth',
    secret: authSecret(),
    trustedOrigins: trustedOrigins(),
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: {
        user: users,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        organization: organizations,
        member: members,
        invitation: invitations,
      },
    }),
    hooks: { before: beforeAuthEndpoints },
    emailAndPassword: { enabled: true, minPasswordLength: 8, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // better-auth's limits on sign-in, sign-up and password changes, on in every mode (its default is production
    // only) and counted in PostgreSQL, so every instance behind a load balancer shares them (rate-limit-storage.ts)
    rateLimit: { enabled: true, customStorage: sharedAuthRateLimit(getDb) },
    telemetry: { enabled: false },
    logger: {
      log: (level, message, ...args) => logger[level]({ component: 'auth', args }, message),
    },
    advanced: {
      database: {
        generateId: ({ model }) => generateId(model),
      },
    },
    plugins: [
      organization({
        ac: accessControl,
        roles,
        creatorRole: 'owner',
        invitationExpiresIn: 7 * 24 * 3600,
        // an organization holds a ledger, sessions and keys: it is never deleted from the dashboard
        disableOrganizationDeletion: true,
        // No mail server in the zero-setup default, so no verified emails: an invitation is
        // accepted by a signed-in user with the invited email who holds the (unguessable) link.
        requireEmailVerificationOnInvitation: false,
        // No mail server in the zero-setup default: the dashboard shows the invitation link to copy.
        sendInvitationEmail: async ({ email, organization: org }) => {
          // not its id: the id is the secret of the invitation link
          logger.info({ component: 'auth', email, organization: org.id }, 'invitation created');
        },
        organizationHooks: {
          afterCreateOrganization: async ({ organization: org, user }) => {
            await setUpDashboardOrganization(getDb(), { organizationId: org.id, createdBy: user.id });
          },
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalKey = Symbol.for('swish.auth');
type GlobalWithAuth = typeof globalThis & { [globalKey]?: Auth };

/**
 * The process-wide better-auth instance, made on first use (the database URL is known only
 * once `npm start` has started PostgreSQL).
 */
export function getAuth(): Auth {
  const g = globalThis as GlobalWithAuth;
  g[globalKey] ??= createAuth();
  return g[globalKey];
}

export interface SignedInUser {
  userId: string;
  name: string;
  email: string;
  activeOrganizationId: string | null;
}

/** The signed-in user of a request (from its session cookie), or null. */
export async function signedInUser(headers: Headers): Promise<SignedInUser | null> {
  const result = await getAuth().api.getSession({ headers });
  if (!result) return null;
  const session = result.session as typeof result.session & { activeOrganizationId?: string | null };
  return {
    userId: result.user.id,
    name: result.user.name,
    email: result.user.email,
    activeOrganizationId: session.activeOrganizationId ?? null,
  };
}
