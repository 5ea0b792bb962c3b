import { newId } from '@/server/domain/ids';
import { openApiDocument } from '@/server/trpc/openapi';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto') ?? 'http';
  const origin = process.env.SWISH_PUBLIC_URL ?? (host ? `${proto}://${host}` : new URL(req.url).origin);
  // every /v1 response carries a Request-Id (DESIGN), this document too
  return Response.json(openApiDocument(origin), { headers: { 'Cache-Control': 'public, max-age=60', 'Request-Id': newId('request') } });
}
