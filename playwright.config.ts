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
  projects: [{ name: 'api', testDir: './e2e/api' }],
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
      // processing limits small enough to test: a 1440p source is too large, a silent job times out
      SWISH_MAX_VIDEO_HEIGHT: '1080',
      SWISH_JOB_TIMEOUT: '30',
      // webhook retries after 1 s and 1 s instead of the Standard Webhooks schedule (3 attempts)
      SWISH_WEBHOOK_RETRY_SCHEDULE: '0,1,1',
    },
  },
});
