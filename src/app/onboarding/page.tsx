'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { activateOrganization, authClient, authErrorMessage } from '../_lib/auth-client';
import { AuthCard } from '../_components/auth-card';
import { useTRPC } from '../_lib/trpc';

function slugify(name: string) {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'team';
  return `${base}-${Math.random().toString(36).slice(2, 7)}`;
}

/**
 * First sign-in: the user names their organization (a default group and starter credit come
 * with it). Someone who already belongs to organizations (added by an operator or an
 * invitation meanwhile, or here from "+ New organization…") is shown them first, so that
 * joining one is not mistaken for creating another.
 */
export default function OnboardingPage() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  const me = useQuery(trpc.dashboard.me.queryOptions());
  const memberOf = me.data?.organizations ?? [];
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget).get('name')).trim();
    if (!name) return;
    setPending(true);
    setError(null);
    const { data, error } = await authClient.organization.create({ name, slug: slugify(name) });
    if (error || !data) {
      setPending(false);
      setError(authErrorMessage(error));
      return;
    }
    await activateOrganization(data.id, queryClient);
    router.replace('/sessions?welcome=1');
  }

  async function open(organizationId: string) {
    await activateOrganization(organizationId, queryClient);
    router.replace('/sessions');
  }

  return (
    <AuthCard title={memberOf.length ? 'Your organizations' : 'Create your organization'}>
      {memberOf.length > 0 && (
        <>
          <p className="muted" style={{ marginBottom: 12 }}>
            You are a member of:
          </p>
          <ul style={{ listStyle: 'none', margin: '0 0 18px', padding: 0, display: 'grid', gap: 8 }}>
            {memberOf.map((o) => (
              <li key={o.id} className="row" style={{ justifyContent: 'space-between' }}>
                <span>
                  {o.name} <span className="muted">· {o.role}</span>
                </span>
                <button className="btn btn-primary btn-sm" onClick={() => void open(o.id)}>
                  Open
                </button>
              </li>
            ))}
          </ul>
          <h2 style={{ fontSize: 15, margin: '0 0 6px' }}>Or create another organization</h2>
        </>
      )}
      <p className="muted" style={{ marginBottom: 18 }}>
        Your school, club or program. You can invite coaches and admins to it later.
      </p>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Organization name</span>
          <input className="input" name="name" required maxLength={200} placeholder="Lincoln High Basketball" autoFocus={!memberOf.length} />
        </label>
        {error && (
          <div className="notice notice-danger" role="alert">
            {error}
          </div>
        )}
        <button className="btn btn-primary btn-lg" type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create organization'}
        </button>
      </form>
      <p className="auth-foot">
        Invited by someone? Open the invitation link they sent you.{' '}
        <button className="btn btn-ghost btn-sm" onClick={() => authClient.signOut().then(() => router.replace('/sign-in'))}>
          Sign out
        </button>
      </p>
    </AuthCard>
  );
}
