import { defineConfig } from '@playwright/test';

/** The e2e server: a production build on its own port and data directory, started fresh. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';
export const E2E_DB_PORT = Number(process.env.E2E_DB_PORT ?? 54349);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 2,
  reporter: [['list']],
  outputDir: 'test-results',
  use: { baseURL: `http://localhost:${E2E_PORT}` },
  projects: [
    { name: 'api', testDir: './e2e/api' },
    {
      // the dashboard in Debian's Chromium (Playwright cannot download browsers here)
      name: 'ui',
      testDir: './e2e/ui',
      timeout: 600_000,
      // a page that redirects twice (sign-up → /sessions → /onboarding) on a busy 2-core machine
      expect: { timeout: 15_000 },
      use: {
        browserName: 'chromium',
        actionTimeout: 30_000,
        screenshot: 'only-on-failure',
        viewport: { width: 1280, height: 860 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && exec node --import tsx src/server/main.ts`,
    url: `http://localhost:${E2E_PORT}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      SWISH_DB_PORT: String(E2E_DB_PORT),
      SWISH_PUBLIC_URL: `http://localhost:${E2E_PORT}`,
      SWISH_ALLOW_PRIVATE_SOURCES: '1',
      LOG_LEVEL: 'warn',
      // processing limits small enough to test: a 1440p source is too large, a silent job times
      // out (90 s: long enough that a busy machine's slow worker start is not taken for silence)
      SWISH_MAX_VIDEO_HEIGHT: '1080',
      SWISH_JOB_TIMEOUT: '90',
      // a source that stops sending is given up after 10 s instead of a minute
      SWISH_OUTBOUND_IDLE_SECONDS: '10',
      // a failing step is retried after ~0.3, 0.6, 1.2 s instead of 5, 10, 20 s
      SWISH_ENGINE_RETRY_BASE_MS: '300',
      // webhook retries after 1 s and 1 s instead of the Standard Webhooks schedule (3 attempts)
      SWISH_WEBHOOK_RETRY_SCHEDULE: '0,1,1',
      // a dashboard sign-up gets starter credit (the embedded default, stated for clarity)
      SWISH_SIGNUP_CREDITS_CENTS: '1000',
    },
  },
});
