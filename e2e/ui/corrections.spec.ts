import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { look } from '../helpers';
import { startFixtureServer, type FixtureServer } from '../media-fixtures';

/**
 * Coach corrections in Chromium: a synthetic game scored with `point_system: 1` is processed;
 * on the session page the coach changes a shot's shooter and another shot's result → the box
 * score on the page and the API's players and totals change (re-derived under 1s and 2s), no
 * event is emitted; Undo in the history restores the session exactly. Then the editor on a
 * phone-width screen. Every view is checked with axe (no serious or critical violations).
 */

test.describe.configure({ mode: 'serial' });

let fixtures: FixtureServer;
test.beforeAll(async () => {
  test.setTimeout(180_000); // rendering the synthetic fixtures, on a machine busy with other suites
  fixtures = await startFixtureServer(join('test-results', 'corrections-fixtures'), { only: ['game.mp4'] });
});
test.afterAll(async () => fixtures?.close());


type Shot = { id: string; index: number; start_seconds: number; made: boolean | null; points: number | null; is_free_throw: boolean; is_three_point: boolean; players: { scorer: string | null } };
type Player = { id: string; stats: { points: number } };
type ApiSession = { status: string; shots: { data: Shot[] }; players: { data: Player[] }; totals: Record<string, number>; error: unknown };

test('a coach corrects a scorer and a result: the box score and the API follow; undo restores', async ({ page, request }, info) => {
  const stamp = Date.now();
  let auth: Record<string, string> = {};
  const api = async (): Promise<ApiSession> => (await request.get(`/v1/sessions/${sessionId}`, { headers: auth })).json();
  let sessionId = '';

  await test.step('sign up, create an API key, submit a game scored in 1s and 2s', async () => {
    await page.goto('/sign-up');
    await page.getByLabel('Your name').fill('Coach Corrections');
    await page.getByLabel('Email').fill(`corrections-${stamp}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Organization name').fill('Corrections High');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await page.goto('/developers');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Corrections key');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').locator('code').textContent())!;
    await page.getByRole('button', { name: 'Done' }).click();
    auth = { Authorization: `Bearer ${secret}` };
    const res = await request.post('/v1/sessions', {
      headers: auth,
      data: { source: { url: fixtures.url('game.mp4') }, duration_seconds: 60, options: { point_system: 1 } },
    });
    expect(res.status(), await res.text()).toBe(201);
    sessionId = (await res.json()).id;
    await expect.poll(async () => (await api()).status, { timeout: 300_000, intervals: [2000] }).toMatch(/processed|failed/);
  });

  const original = await api();
  expect(original.status, JSON.stringify(original.error)).toBe('processed');
  // point_system 1: 1 inside the arc, 2 beyond, 1 per free throw
  for (const s of original.shots.data) expect(s.points).toBe(s.made ? (s.is_free_throw ? 1 : 1 + (s.is_three_point ? 1 : 0)) : 0);
  const made = original.shots.data.find((s) => s.made)!;
  expect(made, 'the synthetic game has a made shot').toBeTruthy();
  // the new shooter: another player when there is one, else "nobody" (or the only player when nobody shot it)
  const target = original.players.data.find((p) => p.id !== made.players.scorer)?.id ?? null;
  const pointsOf = (s: ApiSession, id: string | null) => (id ? s.players.data.find((p) => p.id === id)!.stats.points : 0);

  await test.step('change the shooter of a made shot', async () => {
    await page.goto(`/sessions/${sessionId}`);
    await page.getByRole('tab', { name: 'Corrections' }).click();
    const n = made.index + 1;
    await expect(page.getByLabel(`Shooter of shot ${n}`)).toBeVisible();
    await look(page, info, 'c1-corrections');
    await page.getByLabel(`Shooter of shot ${n}`).selectOption(target ?? '');
    await expect(page.getByTestId('correction-history').locator('li')).toHaveCount(1);
    await expect(page.getByLabel(`Shooter of shot ${n}`)).toHaveValue(target ?? '');
    const after = await api();
    expect(after.shots.data.find((s) => s.id === made.id)!.players.scorer).toBe(target);
    if (made.players.scorer) expect(pointsOf(after, made.players.scorer)).toBe(pointsOf(original, made.players.scorer) - made.points!);
    if (target) expect(pointsOf(after, target)).toBe(pointsOf(original, target) + made.points!);
    // the box score on the page shows the API's numbers
    await page.getByRole('tab', { name: 'Box score' }).click();
    const rows = page.getByTestId('team-box-score').locator('tbody tr');
    const shown = await rows.locator('[data-stat="points"]').allTextContents();
    expect(shown.map(Number).sort()).toEqual(after.players.data.map((p) => p.stats.points).sort());
  });

  await test.step('mark the made shot missed: the totals change, in the API and on the page', async () => {
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await page.getByLabel(`Result of shot ${made.index + 1}`).selectOption('missed');
    await expect(page.getByTestId('correction-history').locator('li')).toHaveCount(2);
    await expect(page.getByTestId('correction-history').locator('li').first()).toContainText('Coach Corrections');
    const after = await api();
    expect(after.totals.points).toBe(original.totals.points - made.points!);
    expect(after.shots.data.find((s) => s.id === made.id)).toMatchObject({ made: false, points: 0 });
    await page.getByRole('tab', { name: 'Box score' }).click();
    await expect(page.getByTestId('game-totals').locator('[data-stat="points"]')).toHaveText(String(after.totals.points));
    // corrections emit no event
    const events = await (await request.get(`/v1/events?session=${sessionId}`, { headers: auth })).json();
    expect(events.data.map((e: { type: string }) => e.type)).toEqual(['session.processed']);
  });

  await test.step('undo both from the history: the session is as processed', async () => {
    await page.getByRole('tab', { name: 'Corrections' }).click();
    const history = page.getByTestId('correction-history');
    // the older one cannot be undone before the newer one (same shot)
    await expect(history.locator('li').nth(1).getByRole('button', { name: /^Undo/ })).toBeDisabled();
    await history.locator('li').nth(0).getByRole('button', { name: /^Undo/ }).click();
    await expect(history.locator('li[data-undone="true"]')).toHaveCount(1);
    await history.locator('li').nth(1).getByRole('button', { name: /^Undo/ }).click();
    await expect(history.locator('li[data-undone="true"]')).toHaveCount(2);
    await look(page, info, 'c2-history');
    const restored = await api();
    expect(restored.totals).toEqual(original.totals);
    expect(restored.players).toEqual(original.players);
    expect(restored.shots).toEqual(original.shots);
    await page.getByRole('tab', { name: 'Box score' }).click();
    await expect(page.getByTestId('game-totals').locator('[data-stat="points"]')).toHaveText(String(original.totals.points));
  });

  await test.step('add a missed shot at the video time, then undo it with Ctrl+Z, on a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await page.getByTestId('session-video').evaluate((v: HTMLVideoElement) => (v.currentTime = 1.5));
    await page.getByRole('button', { name: 'Add a missed shot at the video’s time' }).click();
    await expect(page.getByTestId('correction-history').locator('li')).toHaveCount(3);
    const after = await api();
    expect(after.shots.data.length).toBe(original.shots.data.length + 1);
    expect(after.shots.data.filter((s) => s.start_seconds === 1.5)).toMatchObject([{ made: false, points: 0, players: { scorer: null } }]);
    expect(after.totals.points).toBe(original.totals.points);
    expect(after.totals.fg_2pt_att).toBe(original.totals.fg_2pt_att + 1);
    await look(page, info, 'c3-phone-corrections');
    // the keyboard: Ctrl+Z undoes the newest correction
    await page.getByRole('heading', { name: 'History' }).click();
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('correction-history').locator('li[data-undone="true"]')).toHaveCount(3);
    expect((await api()).shots).toEqual(original.shots);
  });

  await test.step('the Players tab pictures every player as the analysis saw them, framed in their colour', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('tab', { name: 'Players' }).click();
    const pictures = page.getByTestId('player-picture');
    await expect(pictures).toHaveCount(original.players.data.length);
    // every player of the synthetic game was read at a moment in view: a picture each, decoded at its size
    const images = pictures.locator('img');
    await expect(images).toHaveCount(original.players.data.length);
    await expect
      .poll(() => images.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual(original.players.data.map(() => 120));
    const frames = await pictures.evaluateAll((els) => els.map((e) => getComputedStyle(e).borderTopColor));
    expect(frames.every((c) => /^rgb\(/.test(c) && c !== 'rgb(227, 227, 232)'), frames.join(' ')).toBe(true); // not the default border
    // at a laptop's width the table fits its card: "Same person as…" is not cut off behind a sideways scroll
    const wrap = page.locator('.table-wrap', { has: pictures.first() });
    const fit = await wrap.evaluate((e) => ({ content: e.scrollWidth, box: e.clientWidth }));
    expect(fit.content, JSON.stringify(fit)).toBeLessThanOrEqual(fit.box);
    await look(page, info, 'c4-players');
  });

  await test.step('merge the first player into the last: the others keep their "Player N"; undo brings it back', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const listed = original.players.data;
    expect(listed.length, 'the synthetic game has two players or more').toBeGreaterThanOrEqual(2);
    // unnamed players without a read jersey are numbered in the analysis's order, which is the list's
    const labels = listed.map((_, i) => `Player ${i + 1}`);
    const boxLabels = async () => (await page.getByTestId('team-box-score').locator('tbody tr td:first-child').allTextContents()).sort();
    await page.getByRole('tab', { name: 'Box score' }).click();
    expect(await boxLabels()).toEqual([...labels].sort());
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await page.getByLabel('Player to keep').selectOption(listed[listed.length - 1].id);
    await page.getByLabel('Player to merge into it').selectOption(listed[0].id);
    // the two chosen players' pictures beside their pickers, to check they are one person
    await expect(page.locator('form:has(button:text-is("Merge")) .player-pic')).toHaveCount(2);
    await look(page, info, 'c6-merge');
    await page.getByRole('button', { name: 'Merge' }).click();
    const history = page.getByTestId('correction-history');
    await expect(history.locator('li')).toHaveCount(4);
    await expect(history.locator('li').first()).toContainText(`Player 1 merged into ${labels[labels.length - 1]}`);
    expect((await api()).players.data.map((p) => p.id)).toEqual(listed.slice(1).map((p) => p.id));
    await page.getByRole('tab', { name: 'Box score' }).click();
    await expect.poll(boxLabels).toEqual(labels.slice(1).sort());
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await history.locator('li').first().getByRole('button', { name: /^Undo/ }).click();
    await expect(history.locator('li[data-undone="true"]')).toHaveCount(4);
    expect((await api()).players).toEqual(original.players);
    await page.getByRole('tab', { name: 'Box score' }).click();
    await expect.poll(boxLabels).toEqual([...labels].sort());
  });

  await test.step('on the Players tab, "Same person as…" merges a player into another, picture and all; undo brings it back', async () => {
    const listed = original.players.data;
    const last = `Player ${listed.length}`;
    await page.getByRole('tab', { name: 'Players' }).click();
    const pictures = page.getByTestId('player-picture');
    await expect(pictures).toHaveCount(listed.length);
    await page.getByLabel(`Merge ${last} into`).selectOption(listed[0].id);
    await expect(pictures).toHaveCount(listed.length - 1);
    await expect(page.getByLabel(`Merge ${last} into`)).toHaveCount(0);
    const merged = await api();
    expect(merged.players.data.map((p) => p.id)).toEqual(listed.slice(0, -1).map((p) => p.id));
    // the survivor has both players' shots
    const sum = (s: ApiSession, ids: string[]) => s.players.data.filter((p) => ids.includes(p.id)).reduce((a, p) => a + p.stats.points, 0);
    expect(sum(merged, [listed[0].id])).toBe(sum(original, [listed[0].id, listed[listed.length - 1].id]));
    await page.getByRole('tab', { name: 'Corrections' }).click();
    const history = page.getByTestId('correction-history');
    await expect(history.locator('li').first()).toContainText(`${last} merged into Player 1`);
    await history.locator('li').first().getByRole('button', { name: /^Undo/ }).click();
    await expect.poll(async () => (await api()).players).toEqual(original.players);
    await page.getByRole('tab', { name: 'Players' }).click();
    await expect(pictures).toHaveCount(listed.length);

    // a video of one shooter: "All one person…" makes it one player's in a single correction, undone at once
    await page.getByRole('button', { name: 'All one person…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Merge all ${listed.length} players into`);
    await dialog.getByRole('button', { name: 'Merge all' }).click();
    await expect(pictures).toHaveCount(1);
    const one = await api();
    expect(one.players.data).toHaveLength(1);
    // every shot is theirs, those without a shooter too, and nobody assisted
    expect(one.players.data[0].stats.points).toBe(original.totals.points);
    expect(one.shots.data.every((x) => x.players.scorer === one.players.data[0].id)).toBe(true);
    expect(one.totals.assist).toBe(0);
    await page.getByRole('tab', { name: 'Corrections' }).click();
    await expect(history.locator('li').first()).toContainText('merged into');
    await history.locator('li').first().getByRole('button', { name: /^Undo/ }).click();
    await expect.poll(async () => (await api()).players).toEqual(original.players);

    // the box score names each player beside a small picture of them
    await page.getByRole('tab', { name: 'Box score' }).click();
    await expect(page.getByTestId('team-box-score').locator('tbody .player-pic img')).toHaveCount(listed.length);
    await look(page, info, 'c5-box-score');
  });
});
