import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { and, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { uploads } from '../../db/schema';
import { notFound } from '../errors';
import { isId } from '../ids';

/** Unfinished uploads expire this long after creation (DESIGN §4). */
export const UPLOAD_TTL_MS = 24 * 3600 * 1000;

/** Largest accepted upload, SWISH_MAX_UPLOAD_BYTES (default 20 GiB); larger → 413. */
export function maxUploadBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SWISH_MAX_UPLOAD_BYTES;
  const n = raw ? Number(raw) : 20 * 1024 ** 3;
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`SWISH_MAX_UPLOAD_BYTES must be a positive whole number of bytes, got "${raw}"`);
  return n;
}

/** Where unfinished uploads' bytes are kept on this machine (the tus file store), `${DATA_DIR}/uploads`. */
export function uploadPartsDir(): string {
  return resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data', 'uploads');
}

/** The storage key of a finished upload: `uploads/<up_id>/<safe file name>`. */
export function uploadStorageKey(uploadId: string, filename: string | null | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  let safe = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(-120);
  if (!safe || !/[A-Za-z0-9]/.test(safe)) safe = 'video.mp4';
  return `uploads/${uploadId}/${safe}`;
}

export interface ApiUpload {
  id: string;
  object: 'upload';
  status: 'uploading' | 'complete' | 'expired';
  size: number;
  offset: number;
  filename: string | null;
  created: number;
  /** When an unfinished upload expires; null once complete. */
  expires_at: number | null;
}

type Row = typeof uploads.$inferSelect;

export function toApiUpload(row: Row): ApiUpload {
  return {
    id: row.id,
    object: 'upload',
    status: row.status,
    size: row.sizeBytes,
    offset: row.offsetBytes,
    filename: row.filename,
    created: Math.floor(row.createdAt.getTime() / 1000),
    expires_at: row.status === 'complete' ? null : Math.floor(row.expiresAt.getTime() / 1000),
  };
}

/** The organization's upload, or `resource_missing` (also for another organization's id). */
export async function getUploadRow(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<Row> {
  const [row] = isId('upload', opts.id)
    ? await db.select().from(uploads).where(and(eq(uploads.id, opts.id), eq(uploads.organizationId, opts.organizationId)))
    : [];
  if (!row) throw notFound('upload');
  return row;
}

export async function getUpload(db: DbOrTx, opts: { organizationId: string; id: string }): Promise<ApiUpload> {
  return toApiUpload(await getUploadRow(db, opts));
}

/** Records a new upload (tus creation) in state `uploading`, expiring 24 h from now. */
export async function createUploadRecord(
  db: DbOrTx,
  opts: { id: string; organizationId: string; sizeBytes: number; filename: string | null; now?: Date },
): Promise<Row> {
  const now = opts.now ?? new Date();
  const [row] = await db
    .insert(uploads)
    .values({
      id: opts.id,
      organizationId: opts.organizationId,
      status: 'uploading',
      sizeBytes: opts.sizeBytes,
      offsetBytes: 0,
      filename: opts.filename,
      expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS),
      createdAt: now,
    })
    .returning();
  return row;
}

/** The received byte count after a PATCH (only moves forward, only while uploading). */
export async function recordUploadOffset(db: DbOrTx, opts: { id: string; offset: number }): Promise<void> {
  await db
    .update(uploads)
    .set({ offsetBytes: opts.offset })
    .where(and(eq(uploads.id, opts.id), eq(uploads.status, 'uploading'), lt(uploads.offsetBytes, opts.offset)));
}

/** Every byte arrived and the file is in media storage under `storageKey`: sessions may use it now. */
export async function markUploadComplete(db: DbOrTx, opts: { id: string; storageKey: string }): Promise<void> {
  await db
    .update(uploads)
    .set({ status: 'complete', storageKey: opts.storageKey, offsetBytes: uploads.sizeBytes })
    .where(eq(uploads.id, opts.id));
}

/** A terminated (tus DELETE) or timed-out upload: its bytes are gone, sessions cannot use it. */
export async function markUploadExpired(db: DbOrTx, id: string): Promise<void> {
  await db.update(uploads).set({ status: 'expired' }).where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')));
}

/**
 * Expires unfinished uploads older than 24 h and deletes their partial bytes from the
 * upload store. Returns the ids expired. Run hourly by the `expire-uploads` function.
 */
export async function expireStaleUploads(db: DbOrTx, opts: { now?: Date; partsDir?: string } = {}): Promise<string[]> {
  const now = opts.now ?? new Date();
  const rows = await db
    .update(uploads)
    .set({ status: 'expired' })
    .where(and(eq(uploads.status, 'uploading'), lt(uploads.expiresAt, now)))
    .returning({ id: uploads.id });
  const dir = opts.partsDir ?? uploadPartsDir();
  for (const { id } of rows) {
    await rm(join(/*turbopackIgnore: true*/ dir, id), { force: true });
    await rm(join(/*turbopackIgnore: true*/ dir, `${id}.json`), { force: true });
  }
  return rows.map((r) => r.id);
}
