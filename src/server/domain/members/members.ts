import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invitations, members, organizations, users } from '../../db/schema';
import { AppError } from '../errors';

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
