'use client';

import Link from 'next/link';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { safeNextPath } from '../_lib/safe-next';
import { useState, type FormEvent } from 'react';
import { authClient, authErrorMessage } from '../_lib/auth-client';

/** Sign-in and sign-up share one form: email + password (and a name when signing up). */
export function AuthForm({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const next = params.get('next') || '/sessions';
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setPending(true);
    setError(null);
    const { error } =
      mode === 'sign-up'
        ? await authClient.signUp.email({ name: String(form.get('name')), email, password })
        : await authClient.signIn.email({ email, password });
    setPending(false);
    if (error) {
      setError(authErrorMessage(error));
      return;
    }
    queryClient.clear();
    router.replace(safeNextPath(next));
  }

  const other = mode === 'sign-up' ? 'sign-in' : 'sign-up';
  const nextQuery = params.get('next') ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <div className="card">
      <div className="card-body">
        <div className="brand" style={{ padding: 0 }}>
          <span className="brand-mark" aria-hidden="true">S</span> Swish
        </div>
        <h1 className="auth-title">{mode === 'sign-up' ? 'Create your account' : 'Sign in to Swish'}</h1>
        <p className="muted" style={{ marginBottom: 18 }}>
          {mode === 'sign-up' ? 'Highlights, shot charts and box scores from your game video.' : 'Welcome back.'}
        </p>
        <form className="form" onSubmit={submit} noValidate={false}>
          {mode === 'sign-up' && (
            <label className="field">
              <span>Your name</span>
              <input className="input" name="name" autoComplete="name" required maxLength={100} autoFocus />
            </label>
          )}
          <label className="field">
            <span>Email</span>
            <input className="input" name="email" type="email" autoComplete="email" required autoFocus={mode === 'sign-in'} />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              className="input"
              name="password"
              type="password"
              autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
              required
              minLength={8}
              aria-describedby={mode === 'sign-up' ? 'password-hint' : undefined}
            />
            {mode === 'sign-up' && (
              <span className="hint" id="password-hint">
                At least 8 characters.
              </span>
            )}
          </label>
          {error && (
            <div className="notice notice-danger" role="alert">
              {error}
            </div>
          )}
          <button className="btn btn-primary btn-lg" type="submit" disabled={pending}>
            {pending ? 'Please wait…' : mode === 'sign-up' ? 'Create account' : 'Sign in'}
          </button>
        </form>
        <p className="auth-foot">
          {mode === 'sign-up' ? 'Already have an account? ' : 'New to Swish? '}
          <Link href={`/${other}${nextQuery}`}>{mode === 'sign-up' ? 'Sign in' : 'Create an account'}</Link>
        </p>
      </div>
    </div>
  );
}
