import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { makeOrg } from '../../../test/db';
import { newId } from '../ids';
import { createUploadRecord, expireStaleUploads, getUpload, markUploadComplete, uploadStorageKey } from './uploads';

describe('uploads', () => {
  it('expires unfinished uploads after 24 h and deletes their partial bytes, never finished ones', async () => {
    const { db, org } = await makeOrg();
    const dir = mkdtempSync(join(tmpdir(), 'swish-parts-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    const stale = await createUploadRecord(db, { id: newId('upload'), organizationId: org.id, sizeBytes: 10, filename: 'a.mp4', now: old });
    const done = await createUploadRecord(db, { id: newId('upload'), organizationId: org.id, sizeBytes: 10, filename: 'b.mp4', now: old });
    await markUploadComplete(db, { id: done.id, storageKey: uploadStorageKey(done.id, 'b.mp4') });
    const fresh = await createUploadRecord(db, { id: newId('upload'), organizationId: org.id, sizeBytes: 10, filename: 'c.mp4' });
    writeFileSync(join(dir, stale.id), 'part');
    writeFileSync(join(dir, `${stale.id}.json`), '{}');

    const expired = await expireStaleUploads(db, { partsDir: dir });
    expect(expired).toContain(stale.id);
    expect(expired).not.toContain(done.id);
    expect(expired).not.toContain(fresh.id);
    expect(existsSync(join(dir, stale.id))).toBe(false);
    expect(existsSync(join(dir, `${stale.id}.json`))).toBe(false);
    expect((await getUpload(db, { organizationId: org.id, id: stale.id })).status).toBe('expired');
    expect((await getUpload(db, { organizationId: org.id, id: done.id })).status).toBe('complete');
    expect((await getUpload(db, { organizationId: org.id, id: fresh.id })).status).toBe('uploading');
  });

  it('another organization’s upload is not found', async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const up = await createUploadRecord(a.db, { id: newId('upload'), organizationId: a.org.id, sizeBytes: 1, filename: null });
    await expect(getUpload(b.db, { organizationId: b.org.id, id: up.id })).rejects.toMatchObject({ code: 'resource_missing' });
  });

  it('makes safe storage keys from any file name', () => {
    expect(uploadStorageKey('up_x', 'Game 1 (final).MOV')).toBe('uploads/up_x/Game-1-final-.MOV');
    expect(uploadStorageKey('up_x', '../../etc/passwd')).toBe('uploads/up_x/passwd');
    expect(uploadStorageKey('up_x', '.hidden')).toBe('uploads/up_x/hidden');
    expect(uploadStorageKey('up_x', null)).toBe('uploads/up_x/video.mp4');
    expect(uploadStorageKey('up_x', '???')).toBe('uploads/up_x/video.mp4');
  });
});
