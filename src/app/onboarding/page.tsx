'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { authClient, authErrorMessage } from '../_lib/auth-client';
import { AuthCard } from '../_components/auth-card';

function slugify(name: string) {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'team';
  return `${base}-${Math.random().toString(36).slice(2, 7)}`;
}

/** First sign-in: the user names their organization (a default group and starter credit come with it). */
export default function OnboardingPage() {
  const router = useRouter();
  const queryClient = useQueryClient();
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
    await authClient.organization.setActive({ organizationId: data.id });
    queryClient.clear();
    router.replace('/sessions?welcome=1');
  }

  return (
    <AuthCard title="Create your organization">
      <p className="muted" style={{ marginBottom: 18 }}>
        Your school, club or program. You can invite coaches and admins to it later.
      </p>
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Organization name</span>
          <input className="input" name="name" required maxLength={200} placeholder="Lincoln High Basketball" autoFocus />
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
