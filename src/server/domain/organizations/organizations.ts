import { desc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client';
import { groups, organizations } from '../../db/schema';
import { createApiKey, type Environment } from '../api-keys/api-keys';
import { grantCredits } from '../billing/credits';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';

export interface CreatedOrganization {
  id: string;
  name: string;
  defaultGroupId: string;
  rateCentsPerHour: number;
  keys: Array<{ id: string; environment: Environment; secret: string }>;
  grantedCents: number;
}

/**
 * Creates an organization with its default group and, unless `keys` is empty, one
 * production and one staging API key (their secrets are returned once), plus an optional
 * starting credit grant — all in one transaction.
 */
export async function createOrganization(
  db: Database,
  opts: {
    name: string;
    grantCents?: number;
    grantSource?: 'manual' | 'signup';
    keys?: Environment[];
    rateCentsPerHour?: number;
    id?: string;
  },
): Promise<CreatedOrganization> {
  const name = opts.name.trim();
  if (!name) throw new AppError('parameter_missing', { message: 'An organization needs a name.', param: 'name' });
  if (name.length > 200) throw new AppError('parameter_invalid', { message: 'The name is longer than 200 characters.', param: 'name' });
  return db.transaction(async (tx) => {
    const id = opts.id ?? newId('organization');
    const [org] = await tx
      .insert(organizations)
      .values({ id, name, ...(opts.rateCentsPerHour ? { rateCentsPerHour: opts.rateCentsPerHour } : {}) })
      .returning();
    const groupId = newId('group');
    await tx.insert(groups).values({ id: groupId, organizationId: id, name: 'Default', isDefault: true });
    const keys = [];
    for (const environment of opts.keys ?? (['production', 'staging'] as Environment[])) {
      const key = await createApiKey(tx, { organizationId: id, environment });
      keys.push({ id: key.id, environment, secret: key.secret });
    }
    if (opts.grantCents) {
      await grantCredits(tx, {
        organizationId: id,
        amountCents: opts.grantCents,
        source: opts.grantSource ?? 'manual',
        reason: 'starting credit',
      });
    }
    return {
      id,
      name,
      defaultGroupId: groupId,
      rateCentsPerHour: org.rateCentsPerHour,
      keys,
      grantedCents: opts.grantCents ?? 0,
    };
  });
}

export async function listOrganizations(db: DbOrTx) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      rateCentsPerHour: organizations.rateCentsPerHour,
      createdAt: organizations.createdAt,
      // qualified by hand: in a one-table select drizzle writes the column as a bare "id", which
      // inside the subquery is the key's own id (every count was 0)
      keyCount: sql<number>`(select count(*)::int from api_keys k where k.organization_id = "organizations"."id" and k.revoked_at is null)`,
    })
    .from(organizations)
    .orderBy(desc(organizations.id));
}

export async function getOrganization(db: DbOrTx, id: string) {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  if (!org) throw notFound('organization', 'organization');
  return org;
}

/** Changes the hourly processing rate (cents); applies to sessions submitted afterwards. */
export async function setOrganizationRate(db: DbOrTx, id: string, rateCentsPerHour: number) {
  if (!Number.isInteger(rateCentsPerHour) || rateCentsPerHour < 0) {
    throw new AppError('parameter_invalid', { message: 'The rate must be a whole number of cents ≥ 0.', param: 'rate_cents_per_hour' });
  }
  const [org] = await db.update(organizations).set({ rateCentsPerHour }).where(eq(organizations.id, id)).returning();
  if (!org) throw notFound('organization', 'organization');
  return org;
}
