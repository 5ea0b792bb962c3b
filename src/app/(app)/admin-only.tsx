'use client';

import type { ReactNode } from 'react';
import { useIsAdmin } from './app-shell';

/** Pages for owners and admins; a coach who opens one by URL sees why it is not shown. */
export function AdminOnly({ children }: { children: ReactNode }) {
  if (useIsAdmin()) return <>{children}</>;
  return (
    <div className="page">
      <div className="empty" data-testid="admin-only">
        <h1 style={{ fontSize: 18 }}>Admins only</h1>
        <p>Billing, API keys, webhooks and members are managed by the organization’s owners and admins. Ask one of them if you need access.</p>
      </div>
    </div>
  );
}
