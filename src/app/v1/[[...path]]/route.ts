import { handleRestRequest } from '@/server/trpc/rest';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export {
  handleRestRequest as GET,
  handleRestRequest as POST,
  handleRestRequest as PUT,
  handleRestRequest as PATCH,
  handleRestRequest as DELETE,
  handleRestRequest as HEAD,
  handleRestRequest as OPTIONS,
};
