import { and, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { usageEvents } from '../../db/schema';
import { paginate, type ListParams } from '../pagination';

type Row = typeof usageEvents.$inferSelect;
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function toApiUsageEvent(row: Row) {
  return {
    id: row.id,
    object: 'usage_event' as const,
    created: unix(row.createdAt)!,
    session: row.sessionId,
    group: row.groupId,
    api_key: row.apiKeyId,
    sku: row.sku,
    status: row.status,
    run_version: row.runVersion,
    held_seconds: row.heldSeconds,
    quantity_seconds: row.quantitySeconds,
    rate_cents_per_hour: row.rateCentsPerHour,
    cost_cents: row.costCents,
    settled_at: unix(row.settledAt),
    voided_at: unix(row.voidedAt),
  };
}

export type ApiUsageEvent = ReturnType<typeof toApiUsageEvent>;

export interface UsageFilters {
  status?: Row['status'];
  api_key?: string;
  'created[gte]'?: number;
  'created[lte]'?: number;
}

/** GET /v1/usage: one usage event per billable job, newest first, filterable. */
export async function listUsage(db: DbOrTx, opts: { organizationId: string; params: ListParams & UsageFilters }) {
  const p = opts.params;
  const filters: SQL[] = [eq(usageEvents.organizationId, opts.organizationId)];
  if (p.status) filters.push(eq(usageEvents.status, p.status));
  if (p.api_key) filters.push(eq(usageEvents.apiKeyId, p.api_key));
  if (p['created[gte]'] !== undefined) filters.push(gte(usageEvents.createdAt, new Date(p['created[gte]'] * 1000)));
  if (p['created[lte]'] !== undefined) filters.push(lte(usageEvents.createdAt, new Date(p['created[lte]'] * 1000 + 999)));
  return paginate<Row, ApiUsageEvent>(db, {
    table: usageEvents,
    id: usageEvents.id,
    scope: filters[0],
    noun: 'usage event',
    where: and(...filters),
    params: p,
    map: (rows) => rows.map(toApiUsageEvent),
  });
}
