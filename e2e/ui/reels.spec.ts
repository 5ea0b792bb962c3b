import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { look, signUpOwner } from '../helpers';
import { startFixtureServer, type FixtureServer } from '../media-fixtures';

/**
 * Manual highlights and reels in Chromium against the e2e server: a coach marks a moment on
 * the game video (I / O keys) and sees its clip cut, builds a reel from picked clips, shares
 * it; the link plays in a browser with no account, then answers 410 once revoked.
 */

test.describe.configure({ mode: 'serial' });

const email = `reels-${Date.now()}@example.com`;
let fixtures: FixtureServer;

test.beforeAll(async () => {
  test.setTimeout(180_000); // rendering the synthetic fixtures, on a machine busy with other suites
  fixtures = await startFixtureServer(join('test-results', 'reels-fixtures'), { only: ['game.mp4'] });
});

test.afterAll(async () => {
  await fixtures?.close();
});


test('a coach marks a highlight, builds a reel and shares it; the link plays without an account until revoked', async ({ page, browser, request }, info) => {
  let sessionId = '';

  await test.step('sign up, create a key, submit a game by link', async () => {
    await signUpOwner(page, email, 'Reel High', '', 'Casey Coach');
    await page.goto('/developers');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Reels e2e');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').locator('code').textContent())!;
    await page.getByRole('button', { name: 'Done' }).click();
    const res = await request.post('/v1/sessions', {
      headers: { Authorization: `Bearer ${secret}` },
      data: { source: { url: fixtures.url('game.mp4') }, duration_seconds: 30, metadata: { name: 'Scrimmage vs Eagles' } },
    });
    expect(res.status(), await res.text()).toBe(201);
    sessionId = (await res.json()).id;
  });

  await test.step('mark a moment with I and O; its clip is cut and listed', async () => {
    await page.goto(`/sessions/${sessionId}`);
    const video = page.getByTestId('session-video');
    await expect(video).toBeVisible({ timeout: 300_000 });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    // every highlight, lowlights included, so that the count below compares like with like
    await page.getByLabel(/Show lowlights/).check();
    const highlightsBefore = await page.getByTestId('highlight').count();
    await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 1));
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('i');
    await expect(page.getByTestId('mark-in')).toHaveText('0:01.0');
    await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 4.5));
    await page.keyboard.press('o');
    await expect(page.getByTestId('mark-out')).toHaveText('0:04.5');
    await page.getByRole('button', { name: 'Create highlight' }).click();
    const marked = page.getByTestId('manual-highlight');
    await expect(marked).toHaveCount(1);
    await expect(marked).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
    await look(page, info, '01-manual-highlight');
    // it joins the session's highlights (the public Session lists it once cut)
    await expect(page.getByTestId('highlight')).toHaveCount(highlightsBefore + 1, { timeout: 15_000 });
  });

  let link = '';
  await test.step('build a reel of two picked clips and share it', async () => {
    await page.getByRole('tab', { name: 'Reels' }).click();
    await page.getByRole('button', { name: 'Pick clips' }).click();
    await page.getByRole('button', { name: 'Horizontal 16:9' }).click();
    const picks = page.getByTestId('pick-clip');
    await picks.nth(1).locator('input').check();
    await picks.nth(0).locator('input').check();
    await page.getByLabel('Title').fill('Best of the scrimmage');
    await page.getByRole('button', { name: 'Create reel' }).click();
    const reel = page.getByTestId('reel').first();
    await expect(reel).toHaveAttribute('data-status', 'ready', { timeout: 180_000 });
    await expect(reel.locator('video')).toBeVisible();
    await reel.getByRole('button', { name: 'Create share link' }).click();
    link = (await page.getByTestId('share-link').locator('code').textContent())!;
    await look(page, info, '02-reels');
    expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);
  });

  await test.step('the link plays in a browser without an account', async () => {
    const anonymous = await browser.newContext();
    const viewer = await anonymous.newPage();
    const res = await viewer.goto(link);
    expect(res?.status()).toBe(200);
    await expect(viewer.getByTestId('reel-title')).toContainText('Scrimmage vs Eagles');
    const player = viewer.getByTestId('reel-video');
    const src = (await player.getAttribute('src'))!;
    expect(src).toMatch(/\/media\/reels\/reel_[0-9a-z]+\/reel\.mp4\?expires=\d+&signature=/);
    // a short-lived URL made for this page view (15 minutes), not the API's day-long one
    const ttl = Number(new URL(src).searchParams.get('expires')) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(800);
    expect(ttl).toBeLessThan(905);
    await player.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.2);
    await look(viewer, info, '03-shared-reel');
    await anonymous.close();
  });

  await test.step('revoked, the link answers 410 and shows why', async () => {
    await page.getByTestId('share').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke link' }).click();
    await expect(page.getByTestId('share')).toHaveAttribute('data-status', 'revoked');
    const anonymous = await browser.newContext();
    const viewer = await anonymous.newPage();
    const res = await viewer.goto(link);
    expect(res?.status()).toBe(410);
    await expect(viewer.getByRole('heading')).toContainText('turned off');
    await expect(viewer.getByTestId('reel-video')).toHaveCount(0);
    await look(viewer, info, '04-revoked-link');
    const unknown = await viewer.goto(link.replace(/\/r\/.*/, `/r/${'x'.repeat(43)}`));
    expect(unknown?.status()).toBe(404);
    await anonymous.close();
  });
});
