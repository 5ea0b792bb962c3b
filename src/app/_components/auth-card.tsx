import type { ReactNode } from 'react';

/** The centred card with the Swish mark used by the pages around sign-in (onboarding, invitations). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-wrap">
      <div className="auth-card card">
        <div className="card-body">
          <div className="brand" style={{ padding: 0 }}>
            <span className="brand-mark" aria-hidden="true">S</span> Swish
          </div>
          <h1 className="auth-title">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
