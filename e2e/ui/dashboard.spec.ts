import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { look } from '../helpers';
import { renderSyntheticGame } from '../../src/server/analysis/synth/render';

/**
 * The dashboard end to end, in Chromium, against the e2e server: a coach's whole first day.
 * Sign up → organization → upload a synthetic game with the real uploader (interrupted and
 * resumed after a page reload) → processing → processed → a highlight plays → box score and
 * shot chart agree with the API → an API key is created, used and revoked → a coach invited
 * to the organization cannot see billing or keys but corrects a shot and undoes it. Every
 * main page is screenshotted into the test output and checked with axe (no serious or
 * critical violations).
 */

test.describe.configure({ mode: 'serial' });

const password = 'correct horse battery';
const stamp = Date.now();
const ownerEmail = `owner-${stamp}@example.com`;
const coachEmail = `coach-${stamp}@example.com`;
let gameFile: string;

test.beforeAll(async () => {
  test.setTimeout(180_000); // rendering the synthetic fixtures, on a machine busy with other suites
  const dir = join('test-results', 'ui-fixtures');
  mkdirSync(dir, { recursive: true });
  gameFile = join(dir, 'scrimmage.mp4');
  await renderSyntheticGame(
    { seed: 3, width: 640, height: 360, script: [{ kind: 'swish' }, { kind: 'air_ball' }, { kind: 'bank_in' }] },
    gameFile,
  );
});


test('a coach signs up, uploads a game and reads its results; an invited coach cannot see billing or keys but can correct the analysis', async ({ page, browser, request }, info) => {
  let sessionId = '';

  await test.step('sign up and create an organization', async () => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await look(page, info, '01-sign-up');
    await page.getByLabel('Your name').fill('Olivia Owner');
    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/onboarding/);
    await look(page, info, '02-onboarding');
    await page.getByLabel('Organization name').fill('Lincoln High');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No games yet' })).toBeVisible();
    await expect(page.getByLabel('Organization')).toHaveValue(/^org_/);
    await look(page, info, '03-sessions-empty');
  });

  await test.step('upload with the real uploader, interrupted and resumed after a reload', async () => {
    await page.goto('/upload');
    // small chunks so the upload is several PATCH requests
    await page.evaluate(() => localStorage.setItem('swish.uploadChunkBytes', String(128 * 1024)));
    expect(statSync(gameFile).size).toBeGreaterThan(3 * 128 * 1024);
    let patches = 0;
    await page.route('**/v1/uploads/*', async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patches++;
      // the third chunk never gets an answer: the connection "drops" mid-upload
      if (patches <= 2) return route.continue();
    });
    await page.getByTestId('file-input').setInputFiles(gameFile);
    await page.getByLabel('Name', { exact: true }).first().fill('Scrimmage vs Eagles');
    await look(page, info, '04-upload');
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await expect.poll(() => patches, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('upload-status')).toContainText('%');
    // reload while the held chunk is still held, so navigation cancels it. Removing the route
    // first would release it to the server, and the old page could finish the upload by itself.
    await page.reload();
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    await expect(page.getByText('Unfinished upload')).toBeVisible();
    const offsets: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().includes('/v1/uploads/')) offsets.push(Number(r.headers()['upload-offset']));
    });
    await page.getByTestId('file-input').setInputFiles(gameFile);
    await page.getByLabel('Name', { exact: true }).first().fill('Scrimmage vs Eagles');
    // what was filmed: a solo practice has one player, so the count and jerseys do not apply
    const filmed = page.getByRole('group', { name: 'What was filmed' }).first();
    await filmed.getByLabel('Session type').selectOption('solo');
    await expect(filmed.getByLabel('Players (optional)')).toBeDisabled();
    await expect(filmed.getByLabel('Teams wear different jersey colours')).toBeDisabled();
    await filmed.getByLabel('Session type').selectOption('');
    await filmed.getByLabel('Scoring').selectOption('1');
    await look(page, info, '04b-upload-options');
    await page.getByRole('button', { name: 'Resume upload' }).click();
    await expect(page).toHaveURL(/\/sessions\/sess_/, { timeout: 60_000 });
    // it continued from the bytes the server already had, not from zero
    expect(offsets[0]).toBeGreaterThanOrEqual(2 * 128 * 1024);
    sessionId = page.url().split('/').pop()!;
  });

  await test.step('see it processing, then processed', async () => {
    await expect(page.getByRole('heading', { name: 'Sessions' }).or(page.getByLabel('Session name'))).toBeVisible();
    await expect(page.getByLabel('Session name')).toHaveValue('Scrimmage vs Eagles');
    await expect(page.locator('.badge-queued, .badge-processing').first()).toBeVisible();
    await page.goto('/sessions');
    const row = page.locator(`tr[data-session="${sessionId}"]`);
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', /queued|processing/);
    await look(page, info, '05-sessions-processing');
    // the list updates by itself (no reload)
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'processed', { timeout: 300_000 });
    await look(page, info, '06-sessions-processed');
  });

  await test.step('play a highlight', async () => {
    await page.goto(`/sessions/${sessionId}`);
    await expect(page.getByTestId('session-video')).toBeVisible();
    await expect(page.getByTestId('filmed')).toHaveText('Game, 5 on 5 · 1s and 2s scoring');
    await page.getByLabel(/Show lowlights/).check();
    await expect(page.getByTestId('highlight').first()).toBeVisible();
    // labelled by their value under the session's scoring (1s and 2s)
    await expect(page.getByTestId('highlight').filter({ hasText: 'Made' }).first()).toContainText('1-pointer');
    await look(page, info, '07-session-highlights');
    await page.getByRole('button', { name: /^Play:/ }).first().click();
    const clip = page.getByTestId('highlight').first().locator('video');
    await expect.poll(() => clip.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  });

  let secret = '';
  await test.step('create an API key', async () => {
    await page.goto('/developers');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('E2E key');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    secret = (await page.getByTestId('new-secret').locator('code').textContent())!;
    expect(secret).toMatch(/^swish_prod_/);
    await look(page, info, '08-developers-new-key');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('a webhook endpoint needs at least one event; the form says so itself', async () => {
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Endpoint URL').fill('https://hooks.example.com/swish');
    await dialog.getByLabel('session.processed').uncheck();
    await dialog.getByLabel('session.failed').uncheck();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Choose at least one event');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('No endpoints')).toBeVisible();
    await page.getByRole('tab', { name: 'API keys' }).click();
  });

  await test.step('box score totals and shot chart match the API', async () => {
    const res = await request.get(`/v1/sessions/${sessionId}`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status()).toBe(200);
    const api = await res.json();
    expect(api.status).toBe('processed');
    // the scoring chosen at upload (1s and 2s) reached the analysis: a made field goal inside the arc is 1 point
    const twos = api.shots.data.filter((s: { made: boolean; type: string; is_three_point: boolean | null }) => s.made && s.type === 'fieldgoal' && s.is_three_point !== true);
    expect(twos.length).toBeGreaterThan(0);
    for (const s of twos) expect(s.points).toBe(1);
    await page.goto(`/sessions/${sessionId}`);
    await page.getByRole('tab', { name: 'Box score' }).click();
    const totals = page.getByTestId('game-totals');
    const t = api.totals;
    await expect(totals.locator('[data-stat="points"]')).toHaveText(String(t.points));
    await expect(totals.locator('[data-stat="fg_2pt"]')).toHaveText(`${t.fg_2pt_make}-${t.fg_2pt_att}`);
    await expect(totals.locator('[data-stat="fg_3pt"]')).toHaveText(`${t.fg_3pt_make}-${t.fg_3pt_att}`);
    await expect(totals.locator('[data-stat="ft"]')).toHaveText(`${t.ft_make}-${t.ft_att}`);
    await expect(totals.locator('[data-stat="assist"]')).toHaveText(String(t.assist));
    await expect(totals.locator('[data-stat="rebound"]')).toHaveText(String(t.rebound));
    await look(page, info, '09-session-box-score');
    await page.getByRole('tab', { name: 'Shot chart' }).click();
    await expect(page.getByTestId('shot-marker')).toHaveCount(api.shots.total_count);
    await expect(page.locator('[data-testid="shot-marker"][data-made="true"]')).toHaveCount(api.shots.data.filter((s: { made: boolean }) => s.made).length);
    await look(page, info, '10-session-shot-chart');
  });

  await test.step('revoke the API key', async () => {
    await page.goto('/developers');
    await page.getByRole('button', { name: 'Revoke E2E key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByTestId('revoked')).toBeVisible();
    const res = await request.get('/v1/balance', { headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status()).toBe(401);
    expect((await res.json()).error.code).toBe('api_key_revoked');
    await page.goto('/billing');
    await expect(page.getByTestId('balance')).toContainText('$');
    await look(page, info, '11-billing');
  });

  let inviteLink = '';
  await test.step('invite a coach', async () => {
    await page.goto('/team');
    await page.getByLabel('Invite by email').fill(coachEmail);
    await page.locator('select[name="role"]').selectOption('coach');
    await page.getByRole('button', { name: 'Invite' }).click();
    inviteLink = await page.getByLabel(`Invitation link for ${coachEmail}`).inputValue();
    expect(inviteLink).toMatch(/\/invite\/inv_/);
    await look(page, info, '12-team');
  });

  await test.step('the coach joins and cannot see billing or keys', async () => {
    const context = await browser.newContext();
    const coach = await context.newPage();
    await coach.goto(inviteLink);
    await coach.getByRole('link', { name: 'Create account' }).click();
    await coach.getByLabel('Your name').fill('Carl Coach');
    await coach.getByLabel('Email').fill(coachEmail);
    await coach.getByLabel('Password').fill(password);
    await coach.getByRole('button', { name: 'Create account' }).click();
    // the invitee sees what they join before accepting
    await expect(coach.getByText(/invites you to join Lincoln High as coach/)).toBeVisible();
    await coach.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(coach.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await expect(coach.getByTestId('role')).toHaveText('coach');
    await expect(coach.locator(`tr[data-session="${sessionId}"]`)).toBeVisible();
    await expect(coach.getByRole('link', { name: 'Billing' })).toHaveCount(0);
    await expect(coach.getByRole('link', { name: 'Developers' })).toHaveCount(0);
    await look(coach, info, '13-coach-sessions');
    await coach.goto('/developers');
    await expect(coach.getByTestId('admin-only')).toBeVisible();
    const balance = await coach.request.get(`/api/trpc/balance.get?input=${encodeURIComponent('{}')}`);
    expect(balance.status()).toBe(403);
    // nor the member list through the auth endpoints (names, emails, roles)
    for (const path of ['/api/auth/organization/list-members', '/api/auth/organization/get-full-organization']) {
      expect((await coach.request.get(path)).status(), path).toBe(403);
    }
    const keys = await coach.request.get('/api/trpc/dashboard.apiKeys.list');
    expect(keys.status()).toBe(403);

    // coaches correct the analysis: flip the first shot's result, the totals follow, the
    // history names the coach, and undo restores the totals
    await coach.goto(`/sessions/${sessionId}`);
    await coach.getByRole('tab', { name: 'Box score' }).click();
    const totalPoints = coach.getByTestId('game-totals').locator('[data-stat="points"]');
    const before = (await totalPoints.textContent())!.trim();
    await coach.getByRole('tab', { name: 'Corrections' }).click();
    const result = coach.getByLabel('Result of shot 1');
    await result.selectOption((await result.inputValue()) === 'made' ? 'missed' : 'made');
    const history = coach.getByTestId('correction-history');
    await expect(history.locator('li')).toHaveCount(1);
    await expect(history.locator('li').first()).toContainText('Carl Coach');
    await coach.getByRole('tab', { name: 'Box score' }).click();
    await expect(totalPoints).not.toHaveText(before);
    await coach.getByRole('tab', { name: 'Corrections' }).click();
    await history.locator('li').first().getByRole('button', { name: /^Undo/ }).click();
    await expect(history.locator('li[data-undone="true"]')).toHaveCount(1);
    await coach.getByRole('tab', { name: 'Box score' }).click();
    await expect(totalPoints).toHaveText(before);
    await context.close();
  });

  await test.step('the list filters live in the URL: a reload keeps them', async () => {
    await page.goto('/sessions');
    await page.getByLabel('Status').selectOption('processed');
    await expect(page).toHaveURL(/status=processed/);
    await page.reload();
    await expect(page.getByLabel('Status')).toHaveValue('processed');
    await expect(page.locator(`tr[data-session="${sessionId}"]`)).toBeVisible();
  });

  await test.step('on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/sessions/${sessionId}`);
    await expect(page.getByTestId('session-video')).toBeVisible();
    // every result tab is on screen (they wrap instead of scrolling out of view)
    for (const tab of await page.getByRole('tab').all()) await expect(tab).toBeInViewport();
    await look(page, info, '14-phone-session');
    // a wide table scrolls inside its box; the page itself never scrolls sideways
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // the sessions list keeps its status column on screen, whatever the session's name
    await page.goto('/sessions');
    await expect(page.getByRole('columnheader', { name: 'Status' })).toBeInViewport();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Sessions' })).toBeVisible();
  });
});
