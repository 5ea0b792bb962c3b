'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { authClient, authErrorMessage } from '../../_lib/auth-client';
import { AuthCard } from '../../_components/auth-card';

/** An invitation link: sign in (or up) with the invited email, then accept. */
export default function InvitePage() {
  const { id } = useParams<{ id: string }>();
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = authClient.useSession();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const next = encodeURIComponent(`/invite/${id}`);

  async function accept() {
    setPending(true);
    setError(null);
    const { data, error } = await authClient.organization.acceptInvitation({ invitationId: id });
    if (error || !data) {
      setPending(false);
      setError(authErrorMessage(error));
      return;
    }
    await authClient.organization.setActive({ organizationId: data.invitation.organizationId });
    queryClient.clear();
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
          <p className="muted" style={{ marginBottom: 16 }}>
            Signed in as <strong>{session.data.user.email}</strong>. Accept to join the organization.
          </p>
          {error && (
            <div className="notice notice-danger" role="alert" style={{ marginBottom: 12 }}>
              {error}
            </div>
          )}
          <button className="btn btn-primary btn-lg" onClick={accept} disabled={pending}>
            {pending ? 'Joining…' : 'Accept invitation'}
          </button>
        </>
      )}
    </AuthCard>
  );
}
