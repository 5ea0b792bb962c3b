import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { groups, uploads } from '../../db/schema';
import { makeOrg } from '../../../test/db';
import { getBalance } from '../billing/credits';
import { newId } from '../ids';
import { createSession } from './create-session';

describe('createSession', () => {
  it('409 no_group when the organization has no group, and nothing is held', async () => {
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    await db.delete(groups).where(eq(groups.organizationId, org.id));
    await expect(
      createSession(db, { organizationId: org.id, apiKeyId: null, input: { source: { url: 'https://a.example/g.mp4' }, duration_seconds: 60 } }),
    ).rejects.toMatchObject({ code: 'no_group', status: 409 });
    expect((await getBalance(db, org.id)).held_cents).toBe(0);
  });

  it('accepts only finished uploads of the organization, and holds by the upload size', async () => {
    const { db, org } = await makeOrg({ grantCents: 10_000 });
    const other = await makeOrg();
    const expiresAt = new Date(Date.now() + 86_400_000);
    const [unfinished, done, foreign] = [newId('upload'), newId('upload'), newId('upload')];
    await db.insert(uploads).values([
      { id: unfinished, organizationId: org.id, status: 'uploading', sizeBytes: 1_000_000, offsetBytes: 10, expiresAt },
      { id: done, organizationId: org.id, status: 'complete', sizeBytes: 900_000_000, offsetBytes: 900_000_000, expiresAt },
      { id: foreign, organizationId: other.org.id, status: 'complete', sizeBytes: 5, offsetBytes: 5, expiresAt },
    ]);
    const submit = (uploadId: string) => createSession(db, { organizationId: org.id, apiKeyId: null, input: { source: { upload_id: uploadId } } });
    await expect(submit(unfinished)).rejects.toMatchObject({ code: 'upload_not_finished', status: 409, param: 'source.upload_id' });
    await expect(submit(foreign)).rejects.toMatchObject({ code: 'resource_missing', status: 404, param: 'source.upload_id' });
    const created = await submit(done);
    // 900 MB at 4 Mbit/s = 1800 s → 250 cents at 500 cents/hour
    expect(created.heldCents).toBe(250);
    expect(created.session.source).toEqual({ type: 'upload', url: null });
  });
});
