import { sql } from 'drizzle-orm';
import { getDb } from '@/server/db/client';

export const dynamic = 'force-dynamic';

/** For load balancers: 200 when the database answers, 503 otherwise. */
export async function GET() {
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ status: 'ok', database: 'ok' });
  } catch {
    return Response.json({ status: 'degraded', database: 'unreachable' }, { status: 503 });
  }
}
