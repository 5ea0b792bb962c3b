import { serve } from 'inngest/next';
import { inngest } from '@/server/jobs/client';
import { registerInProcessServe } from '@/server/jobs/engine/in-process';
import { functions } from '@/server/jobs/functions';

/**
 * Inngest's serve endpoint: GET (introspection), PUT (sync), POST (run a step). Requests
 * must carry a valid `x-inngest-signature`, from the embedded engine or from Inngest. The
 * embedded engine calls the handler in-process once this module has loaded.
 */
export const dynamic = 'force-dynamic';
const handler = serve({ client: inngest, functions });
// the embedded engine of this process calls it directly (same signed requests, no socket)
registerInProcessServe((req) => handler(req as Parameters<typeof handler>[0], undefined));
export const { GET, POST, PUT } = handler;
