import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from './_components/auth-card';

export const metadata: Metadata = { title: 'Page not found' };

/** Any URL the app does not have: the Swish card with a way back, not the framework's bare page. */
export default function NotFound() {
  return (
    <AuthCard title="Page not found">
      <p className="muted" style={{ marginBottom: 18 }}>
        There is no page at this address. It may have moved, or the link may be mistyped.
      </p>
      <Link className="btn btn-primary" href="/sessions">
        Go to your sessions
      </Link>
    </AuthCard>
  );
}
