import { expect, test } from '@playwright/test';
import { look, signUp, swishCli, TEST_PASSWORD } from '../helpers';

/**
 * Getting into an organization made by an operator: an account signed up before `members:add`
 * lands on onboarding, which lists the organization to open instead of only offering to
 * create another. And a sign-in link's `next` only ever leads within the site.
 */
test('an account added to an operator-made organization opens it from onboarding; sign-in never leaves the site', async ({ page }, info) => {
  const email = `onboard-${Date.now()}@example.com`;
  const org = await swishCli(['orgs:create', '--name', `Operator Made ${Date.now()}`]);

  await signUp(page, email, { name: 'Olive Owner' });
  await expect(page.getByRole('heading', { name: 'Create your organization' })).toBeVisible();

  await swishCli(['members:add', '--org', org.id, '--email', email]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your organizations' })).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: org.name });
  await expect(row).toContainText('owner');
  await look(page, info, 'onboarding-member-of');
  await row.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByLabel('Organization')).toHaveValue(org.id);

  // an invitation that does not exist says so before anything is clicked
  await page.goto('/invite/inv_bogus');
  await expect(page.locator('.notice-danger')).toContainText(/not found/i);
  await expect(page.getByRole('button', { name: 'Accept invitation' })).toBeDisabled();

  // an unknown page is the app's own, with a way back; the icon is served
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to your sessions' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  for (const icon of ['/favicon.ico', '/favicon.svg']) expect((await page.request.get(icon)).status(), icon).toBe(200);

  // a sign-in link whose `next` points at another site ends on the dashboard instead
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const origin = new URL(page.url()).origin;
  await page.goto('/sign-in?next=//example.org/phish');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(origin);
});
