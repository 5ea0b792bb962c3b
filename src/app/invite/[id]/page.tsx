'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { activateOrganization, authClient, authErrorMessage } from '../../_lib/auth-client';
import { AuthCard } from '../../_components/auth-card';

/**
 * An invitation link: sign in (or up) with the invited email, then see what you are joining
 * (organization, role, who invited you) and accept. An invitation that is unknown, used,
 * expired or addressed to another email says so before anything is clicked.
 */
export default function InvitePage() {
  const { id } = useParams<{ id: string }>();
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = authClient.useSession();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const next = encodeURIComponent(`/invite/${id}`);
  const signedIn = !!session.data;
  const invitation = useQuery({
    queryKey: ['invitation', id, session.data?.user.email],
    enabled: signedIn,
    retry: false,
    queryFn: async () => {
      const { data, error } = await authClient.organization.getInvitation({ query: { id } });
      if (error || !data) throw new Error(authErrorMessage(error));
      return data;
    },
  });

  async function accept() {
    setPending(true);
    setError(null);
    const { data, error } = await authClient.organization.acceptInvitation({ invitationId: id });
    if (error || !data) {
      setPending(false);
      setError(authErrorMessage(error));
      return;
    }
    await activateOrganization(data.invitation.organizationId, queryClient);
    router.replace('/sessions');
  }

  return (
    <AuthCard title="You are invited">
      {session.isPending ? (
        <p className="muted">Checking your sign-in…</p>
      ) : !session.data ? (
        <>
          <p className="muted" style={{ marginBottom: 16 }}>
            Sign in or create an account with the email address the invitation was sent to, then accept it.
          </p>
          <div className="row">
            <Link className="btn btn-primary" href={`/sign-up?next=${next}`}>
              Create account
            </Link>
            <Link className="btn" href={`/sign-in?next=${next}`}>
              Sign in
            </Link>
          </div>
        </>
      ) : (
        <>
          {invitation.isPending ? (
            <p className="muted">Reading the invitation…</p>
          ) : invitation.error ? (
            <div className="notice notice-danger" role="alert" style={{ marginBottom: 12 }}>
              {invitation.error.message} (signed in as <strong>{session.data.user.email}</strong>)
            </div>
          ) : (
            <p style={{ marginBottom: 16 }}>
              <strong>{invitation.data.inviterEmail}</strong> invites you to join <strong>{invitation.data.organizationName}</strong> as{' '}
              <strong>{invitation.data.role}</strong>. You are signed in as {session.data.user.email}.
            </p>
          )}
          {error && (
            <div className="notice notice-danger" role="alert" style={{ marginBottom: 12 }}>
              {error}
            </div>
          )}
          <button className="btn btn-primary btn-lg" onClick={accept} disabled={pending || !invitation.data}>
            {pending ? 'Joining…' : 'Accept invitation'}
          </button>
        </>
      )}
    </AuthCard>
  );
}
