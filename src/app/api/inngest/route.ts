import { serve } from 'inngest/next';
import { inngest } from '@/server/jobs/client';
import { functions } from '@/server/jobs/functions';

/**
 * Inngest's serve endpoint: GET (introspection), PUT (sync), POST (run a step). Requests
 * must carry a valid `x-inngest-signature`, from the embedded engine or from Inngest.
 */
export const dynamic = 'force-dynamic';
export const { GET, POST, PUT } = serve({ client: inngest, functions });
