import type { ReactNode } from 'react';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-wrap">
      <div className="auth-card">{children}</div>
    </main>
  );
}
