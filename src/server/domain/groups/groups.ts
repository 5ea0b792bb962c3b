import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { groups } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { isId, newId } from '../ids';

export interface GroupView {
  id: string;
  name: string;
  is_default: boolean;
  session_count: number;
  created: number;
}

const MAX_GROUPS = 50;

function cleanName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name) throw new AppError('parameter_missing', { message: 'A group needs a name.', param: 'name' });
  if (name.length > 60) throw new AppError('parameter_invalid', { message: 'A group name is at most 60 characters.', param: 'name' });
  return name;
}

/** Refuses a list filter naming a group that is not the organization's (400 with `param`, like a bad cursor). */
export async function assertGroupFilter(db: DbOrTx, organizationId: string, groupId: string, param = 'group'): Promise<void> {
  const [known] = isId('group', groupId)
    ? await db.select({ id: groups.id }).from(groups).where(and(eq(groups.id, groupId), eq(groups.organizationId, organizationId)))
    : [];
  if (!known) throw new AppError('parameter_invalid', { message: `No such group: '${groupId}'.`, param });
}

/**
 * Makes sure the organization has its default group (organizations made by the dashboard
 * get it from the sign-up hook; this also repairs one whose hook failed half-way). Safe to
 * call concurrently: the unique "one default per organization" index decides.
 */
export async function ensureDefaultGroup(db: DbOrTx, organizationId: string): Promise<string> {
  await db
    .insert(groups)
    .values({ id: newId('group'), organizationId, name: 'Default', isDefault: true })
    .onConflictDoNothing();
  const [g] = await db.select({ id: groups.id }).from(groups).where(and(eq(groups.organizationId, organizationId), eq(groups.isDefault, true)));
  return g.id;
}

/** The organization's groups, default first, then by name, with how many sessions each holds. */
export async function listGroups(db: DbOrTx, organizationId: string): Promise<GroupView[]> {
  const rows = await db
    .select({
      id: groups.id,
      name: groups.name,
      isDefault: groups.isDefault,
      createdAt: groups.createdAt,
      sessionCount: sql<number>`(select count(*)::int from sessions s where s.group_id = "groups"."id")`,
    })
    .from(groups)
    .where(eq(groups.organizationId, organizationId))
    .orderBy(sql`${groups.isDefault} desc`, asc(groups.name));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    is_default: r.isDefault,
    session_count: Number(r.sessionCount),
    created: Math.floor(r.createdAt.getTime() / 1000),
  }));
}

/** A new group ("Varsity", "JV"); names are unique within an organization, case-insensitively. */
export async function createGroup(db: DbOrTx, opts: { organizationId: string; name: string }): Promise<GroupView> {
  const name = cleanName(opts.name);
  const existing = await listGroups(db, opts.organizationId);
  if (existing.some((g) => g.name.toLowerCase() === name.toLowerCase())) {
    throw new AppError('parameter_invalid', { message: `A group named “${name}” already exists.`, param: 'name' });
  }
  if (existing.length >= MAX_GROUPS) {
    throw new AppError('resource_limit_reached', { message: `An organization can have at most ${MAX_GROUPS} groups.` });
  }
  const [row] = await db.insert(groups).values({ id: newId('group'), organizationId: opts.organizationId, name }).returning();
  return { id: row.id, name: row.name, is_default: false, session_count: 0, created: Math.floor(row.createdAt.getTime() / 1000) };
}

export async function renameGroup(db: DbOrTx, opts: { organizationId: string; id: string; name: string }): Promise<void> {
  const name = cleanName(opts.name);
  const [row] = isId('group', opts.id)
    ? await db
        .update(groups)
        .set({ name })
        .where(and(eq(groups.id, opts.id), eq(groups.organizationId, opts.organizationId)))
        .returning({ id: groups.id })
    : [];
  if (!row) throw notFound('group');
}
