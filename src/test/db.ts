import { getDb } from '../server/db/client';
import { createOrganization } from '../server/domain/organizations/organizations';

/** A fresh organization (own keys and credit) per test, so tests never share data. */
export async function makeOrg(opts: { grantCents?: number; name?: string } = {}) {
  const db = getDb();
  const org = await createOrganization(db, { name: opts.name ?? 'Test org', grantCents: opts.grantCents });
  const key = (env: 'production' | 'staging') => org.keys.find((k) => k.environment === env)!;
  return { db, org, prodKey: key('production'), stagingKey: key('staging') };
}
