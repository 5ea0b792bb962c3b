import { expect, test } from '@playwright/test';
import { expectAccessible, signUpOwner, swishCli } from '../helpers';

/**
 * Top-ups without a card provider (the e2e server has no Stripe configured): an admin asks
 * for credit in the dashboard, the operator sees the request with `topups:list` and
 * approves or rejects it with the CLI, the admin sees the status, the balance and the
 * statement. Auto-recharge is shown as unavailable, with the reason.
 */

test('an admin requests top-ups; the operator approves one and rejects one with the CLI; the admin sees both', async ({ page }, info) => {
  const orgId = await signUpOwner(page, `topup-${Date.now()}@example.com`, 'Invoice Academy');
  expect(orgId).toMatch(/^org_/);

  await page.goto('/billing');
  const credit = page.getByTestId('balance');
  await expect(credit).toContainText('$10.00'); // starter credit
  await expect(page.getByText('Card payments are not set up on this deployment')).toBeVisible();
  await expect(page.getByLabel('Enable auto-recharge')).toBeDisabled();
  await expect(page.getByText('Unavailable: Auto-recharge charges a saved card, and card payments are not configured')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay by card' })).toHaveCount(0);

  const requests = page.getByRole('list', { name: 'Top-up requests' });
  for (const [i, [amount, reference]] of [
    ['75', 'PO-7781'],
    ['20', ''],
  ].entries()) {
    await page.getByLabel('Amount (USD)').fill(amount);
    await page.getByLabel('PO or reference (optional)').fill(reference);
    await page.getByRole('button', { name: 'Request top-up' }).click();
    // the confirmation (the previous one's toast may still be showing) and the request listed
    await expect(page.getByText('Top-up requested').last()).toBeVisible();
    await expect(requests.getByRole('listitem')).toHaveCount(i + 1);
  }
  await expect(requests.getByRole('listitem')).toHaveCount(2);
  await expect(requests).toContainText('PO-7781');
  await expect(requests.getByText('pending')).toHaveCount(2);

  const queue = (await swishCli(['topups:list'])) as { id: string; organization: string; amount_cents: number; reference: string | null }[];
  const mine = queue.filter((r) => r.organization === orgId);
  expect(mine.map((r) => [r.amount_cents, r.reference])).toEqual([
    [7_500, 'PO-7781'],
    [2_000, null],
  ]);
  await swishCli(['topups:approve', mine[0].id, '--note', 'invoice 42 paid']);
  await swishCli(['topups:reject', mine[1].id, '--note', 'duplicate']);
  await expect(swishCli(['topups:approve', mine[0].id])).rejects.toThrow();

  await page.reload();
  await expect(credit).toContainText('$85.00');
  await expect(requests.getByText('approved')).toHaveCount(1);
  await expect(requests.getByText('rejected')).toHaveCount(1);
  const statement = page.getByTestId('statement');
  await expect(statement.getByTestId('statement-grants')).toHaveText('$85.00');
  await expect(statement.getByTestId('statement-closing')).toHaveText('$85.00');
  await expect(statement).toContainText('PO-7781');
  await page.screenshot({ path: info.outputPath('billing-invoiced.png'), fullPage: true });
  await expectAccessible(page, 'billing without Stripe');
  const operator = await swishCli(['credits:statement', '--org', orgId]);
  expect(operator).toMatchObject({ grants_cents: 8_500, closing_cents: 8_500 });
});
