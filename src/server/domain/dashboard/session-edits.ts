import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { groups, sessions } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { isId } from '../ids';

/** SPEC §8 limits, the same the API enforces on submit. */
const MAX_METADATA_ENTRIES = 20;
const MAX_KEY = 40;
const MAX_VALUE = 500;

function checkMetadata(metadata: Record<string, string>) {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_ENTRIES) {
    throw new AppError('parameter_invalid', { message: `Metadata holds at most ${MAX_METADATA_ENTRIES} entries.`, param: 'metadata' });
  }
  for (const [k, v] of entries) {
    if (!k || k.length > MAX_KEY) throw new AppError('parameter_invalid', { message: `Metadata keys are 1–${MAX_KEY} characters.`, param: `metadata.${k}` });
    if (typeof v !== 'string' || v.length > MAX_VALUE) {
      throw new AppError('parameter_invalid', { message: `Metadata values are strings of at most ${MAX_VALUE} characters.`, param: `metadata.${k}` });
    }
  }
}

/**
 * A coach's edits of a session: its name (kept as `metadata.name`, so API clients see it
 * too), the rest of its metadata and its group. The public Session reflects them at once.
 */
export async function updateSessionDetails(
  db: DbOrTx,
  opts: { organizationId: string; id: string; name?: string | null; metadata?: Record<string, string>; group?: string },
): Promise<void> {
  const [row] = isId('session', opts.id)
    ? await db.select().from(sessions).where(and(eq(sessions.id, opts.id), eq(sessions.organizationId, opts.organizationId)))
    : [];
  if (!row) throw notFound('session');
  const metadata = { ...(opts.metadata ?? row.metadata) };
  if (opts.name !== undefined) {
    const name = opts.name?.trim() ?? '';
    if (name) metadata.name = name;
    else delete metadata.name;
  }
  checkMetadata(metadata);
  let groupId = row.groupId;
  if (opts.group !== undefined) {
    const [g] = isId('group', opts.group)
      ? await db.select().from(groups).where(and(eq(groups.id, opts.group), eq(groups.organizationId, opts.organizationId)))
      : [];
    if (!g) throw notFound('group', 'group');
    groupId = g.id;
  }
  await db.update(sessions).set({ metadata, groupId }).where(eq(sessions.id, row.id));
}
