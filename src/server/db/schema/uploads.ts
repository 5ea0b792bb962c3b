import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, ts } from './columns';
import { organizations } from './organizations';

/** A resumable (tus) upload. A session may use it once `status` is `complete`. */
export const uploads = pgTable(
  'uploads',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    status: text('status', { enum: ['uploading', 'complete', 'expired'] }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    offsetBytes: bigint('offset_bytes', { mode: 'number' }).notNull().default(0),
    filename: text('filename'),
    /** Where the bytes are (storage key). */
    storageKey: text('storage_key'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_org_idx').on(t.organizationId, t.id)],
);
