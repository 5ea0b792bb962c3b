import { serveMedia } from '@/server/media/serve';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Streams a stored media object at a signed, expiring URL (byte ranges, so videos seek). */
export function GET(req: Request) {
  return serveMedia(req);
}

/** Same headers as GET without the body (players probe size and range support with HEAD). */
export function HEAD(req: Request) {
  return serveMedia(req);
}
