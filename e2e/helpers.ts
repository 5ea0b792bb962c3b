import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIResponse, type Page, type TestInfo } from '@playwright/test';
import { E2E_DATA_DIR, E2E_DB_PORT } from '../playwright.config';

const run = promisify(execFile);

/** Runs the operator CLI against a server's database (given by its DATA_DIR and port), as an operator would. */
export async function swishCliAt(env: { DATA_DIR: string; SWISH_DB_PORT: string }, args: string[]): Promise<any> {
  const { stdout } = await run('node', ['--import', 'tsx', 'src/cli/swish.ts', ...args, '--json'], {
    env: { ...process.env, ...env, DATABASE_URL: '' },
  });
  return JSON.parse(stdout);
}

/** The operator CLI against the e2e server's database. */
export function swishCli(args: string[]): Promise<any> {
  return swishCliAt({ DATA_DIR: E2E_DATA_DIR, SWISH_DB_PORT: String(E2E_DB_PORT) }, args);
}

export interface TestOrg {
  id: string;
  defaultGroup: string;
  prod: string;
  staging: string;
  prodKeyId: string;
  auth: Record<string, string>;
}

/** A new organization with keys and credit, created through the CLI. */
export async function createOrg(grantCents = 100_000): Promise<TestOrg> {
  const org = await swishCli(['orgs:create', '--name', `E2E ${Date.now()}`, '--grant-cents', String(grantCents)]);
  return {
    id: org.id,
    defaultGroup: org.default_group,
    prod: org.keys.production.secret,
    staging: org.keys.staging.secret,
    prodKeyId: org.keys.production.id,
    auth: { Authorization: `Bearer ${org.keys.production.secret}` },
  };
}

/** Asserts the spec's error body and returns it. */
export async function expectError(res: APIResponse, status: number, code: string, param?: string) {
  expect(res.status(), await res.text()).toBe(status);
  const body = await res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(typeof body.error.type).toBe('string');
  if (param !== undefined) expect(body.error.param).toBe(param);
  expect(JSON.stringify(body)).not.toMatch(/stack|at \w+ \(|select |insert /i);
  expect(res.headers()['request-id']).toMatch(/^req_/);
  return body.error;
}

/**
 * A video host on loopback that accepts requests and never answers. Sessions submitted with
 * its URL stay in progress (hold kept) until the job timeout, so API tests can look at a
 * session and its hold without racing the pipeline.
 */
export async function startStalledHost(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(() => {
    // never respond
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/game.mp4`,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** The password of every account the UI tests sign up. */
export const TEST_PASSWORD = 'correct horse battery';

/** Signs a new account up in the dashboard (at `base`, default the e2e server); it lands on onboarding. */
export async function signUp(page: Page, email: string, opts: { name?: string; base?: string } = {}): Promise<void> {
  await page.goto(`${opts.base ?? ''}/sign-up`);
  await page.getByLabel('Your name').fill(opts.name ?? 'Bea Billing');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/onboarding/);
}

/** Signs a new owner up in the dashboard (at `base`, default the e2e server) and creates an organization; returns its id. */
export async function signUpOwner(page: Page, email: string, orgName: string, base = '', name?: string): Promise<string> {
  await signUp(page, email, { base, name });
  await page.getByLabel('Organization name').fill(orgName);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  return page.getByLabel('Organization').inputValue();
}

/** No serious or critical axe violations on the page as it is now. */
export async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), `axe on ${name}`).toEqual([]);
}

/** A full-page screenshot into the test output, then no serious or critical axe violations. */
export async function look(page: Page, info: TestInfo, name: string) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
  await expectAccessible(page, name);
}
