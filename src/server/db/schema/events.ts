import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from './columns';
import { organizations } from './organizations';

/** The event log (SPEC §6): every event emitted for an organization, with the Session as it was then. */
export const events = pgTable(
  'events',
  {
    id: idColumn(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type', { enum: ['session.processed', 'session.failed'] }).notNull(),
    sessionId: text('session_id'),
    /** `{ object: Session }` exactly as delivered. */
    data: jsonb('data').$type<{ object: unknown }>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_org_idx').on(t.organizationId, t.id),
    index('events_org_type_idx').on(t.organizationId, t.type, t.id),
    index('events_org_session_idx').on(t.organizationId, t.sessionId, t.id),
  ],
);
