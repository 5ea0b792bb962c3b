import type { Metadata } from 'next';
import type { ReactNode } from 'react';

export const metadata: Metadata = {
  title: 'Swish',
  description: 'Basketball game-video analysis: highlights, shots, box scores.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0, color: '#111', background: '#fafafa' }}>{children}</body>
    </html>
  );
}
