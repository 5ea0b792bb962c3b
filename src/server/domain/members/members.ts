import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invitations, members, organizations, users } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';

export interface Membership {
  organizationId: string;
  organizationName: string;
  role: string;
}

/** Every organization the user belongs to, oldest membership first. */
export async function listMemberships(db: DbOrTx, userId: string): Promise<Membership[]> {
  return db
    .select({ organizationId: members.organizationId, organizationName: organizations.name, role: members.role })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt));
}

/** The condition that a user's email is `email`, ignoring case and surrounding spaces (how an email names an account). */
export function emailIs(email: string): SQL {
  return eq(sql`lower(${users.email})`, email.trim().toLowerCase());
}

/** A user's role in an organization, or null when they are not a member. */
export async function memberRole(db: DbOrTx, organizationId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row?.role ?? null;
}

/**
 * The organization a signed-in user acts for: the session's active organization when the
 * user is (still) a member of it, otherwise their first organization. A user with no
 * organization yet gets `forbidden` (the dashboard sends them to create one).
 */
export async function resolveMembership(
  db: DbOrTx,
  opts: { userId: string; activeOrganizationId: string | null | undefined },
): Promise<Membership> {
  const all = await listMemberships(db, opts.userId);
  const picked = all.find((m) => m.organizationId === opts.activeOrganizationId) ?? all[0];
  if (!picked) throw new AppError('forbidden', { message: 'Create or join an organization first.' });
  return picked;
}

export interface MemberView {
  id: string;
  user_id: string;
  name: string;
  email: string;
  role: string;
  created: number;
}

export async function listMembers(db: DbOrTx, organizationId: string): Promise<MemberView[]> {
  const rows = await db
    .select({ id: members.id, userId: users.id, name: users.name, email: users.email, role: members.role, createdAt: members.createdAt })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.organizationId, organizationId))
    .orderBy(asc(members.createdAt));
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    name: r.name,
    email: r.email,
    role: r.role,
    created: Math.floor(r.createdAt.getTime() / 1000),
  }));
}

export interface InvitationView {
  id: string;
  email: string;
  role: string;
  status: string;
  expires_at: number;
}

/** Pending invitations that have not expired. */
export async function listPendingInvitations(db: DbOrTx, organizationId: string): Promise<InvitationView[]> {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending')))
    .orderBy(asc(invitations.createdAt));
  return rows
    .filter((r) => r.expiresAt.getTime() > Date.now())
    .map((r) => ({ id: r.id, email: r.email, role: r.role, status: r.status, expires_at: Math.floor(r.expiresAt.getTime() / 1000) }));
}

export const MEMBER_ROLES = ['owner', 'admin', 'coach'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * Makes the user with this email a member of the organization with `role` (the operator's
 * way into the dashboard for an organization created with the CLI, which has API keys but
 * no member to invite anyone). The user must have signed up already; a member keeps their
 * membership and gets the role. Returns the member and the role they had before (null: new).
 */
export async function addMember(
  db: DbOrTx,
  opts: { organizationId: string; email: string; role: MemberRole },
): Promise<{ member: MemberView; previousRole: string | null }> {
  if (!MEMBER_ROLES.includes(opts.role)) {
    throw new AppError('parameter_invalid', { message: `role must be one of ${MEMBER_ROLES.join(', ')}.`, param: 'role' });
  }
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, opts.organizationId));
  if (!org) throw notFound('organization', 'organization');
  const email = opts.email.trim().toLowerCase();
  const [user] = await db.select().from(users).where(emailIs(email));
  if (!user) {
    throw new AppError('resource_missing', { message: `No account uses ${email}: they create one in the dashboard (Create an account) first.`, param: 'email' });
  }
  const previousRole = await memberRole(db, org.id, user.id);
  const [row] = await db
    .insert(members)
    .values({ id: newId('member'), organizationId: org.id, userId: user.id, role: opts.role })
    .onConflictDoUpdate({ target: [members.organizationId, members.userId], set: { role: opts.role } })
    .returning();
  return {
    member: { id: row.id, user_id: user.id, name: user.name, email: user.email, role: row.role, created: Math.floor(row.createdAt.getTime() / 1000) },
    previousRole,
  };
}
