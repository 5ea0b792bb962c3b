import { getAuth } from '@/server/auth/auth';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** better-auth's endpoints (sign-up, sign-in, organizations, members, invitations). */
function handler(req: Request) {
  return getAuth().handler(req);
}

export { handler as GET, handler as POST };
