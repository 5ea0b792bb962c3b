import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { ToastProvider } from './_components/ui';
import { Providers } from './_lib/trpc';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Swish', template: '%s · Swish' },
  description: 'Basketball game-video analysis: highlights, shots, box scores.',
  icons: { icon: '/favicon.svg', shortcut: '/favicon.ico' },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#f6f6f7' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <ToastProvider>{children}</ToastProvider>
        </Providers>
      </body>
    </html>
  );
}
