// A member's income in the browser preview, as the 0.0.1 document means it: interest is an
// amount with how often it comes (not a rate), an unset amount starts monthly, and a one-time
// amount says under its field that the monthly cash flow leaves it out; the overview then counts
// what the advisor typed. Screenshots light and dark go to test-results/screenshots/.

import { activeAccounts, bothThemes, expect, localId, platformApi, signIn, test } from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

const usd = (value: number, frequency: string) => ({ value, frequency });

test('the income form: interest as an amount, monthly by default, one-time said where it is typed', async ({
  page,
  servers,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // A household with a co-client, whose income the overview adds to the client's.
  const account = activeAccounts(servers).find((a) => a.coclient);
  if (!account) throw new Error('The seed has no household with a co-client.');
  // What the client earns, entered earlier through the 0.0.1 interface; Social Security unset.
  const income = await platformApi(servers, 'POST', `/api/v0/accounts/${account.id}/client/income`, {
    employment: usd(9_500, 'monthly'),
    social_security: usd(0, 'one-time'),
    dividends: usd(0, 'one-time'),
    interest: usd(30, 'monthly'),
    other: usd(0, 'one-time'),
  });
  expect(income.status).toBe(201);

  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  const id = await localId(page, account.id);
  await page.goto(`${servers.host.url}/#/accounts/${id}?tab=financials&section=income%3Aclient`);
  await expect(page.getByTestId('synced-note')).toContainText('Last synced', { timeout: 60_000 });
  const form = page.getByTestId('single-income:client');
  await expect(form.getByRole('spinbutton', { name: 'Employment', exact: true })).toHaveValue('$9,500');

  // Interest is money with its frequency, explained as such.
  await expect(form.getByRole('spinbutton', { name: 'Interest', exact: true })).toHaveValue('$30');
  await expect(form.getByLabel('Interest: how often')).toHaveText('Monthly');
  await expect(form.getByText('The amount received, not a rate.')).toBeVisible();
  // Unset Social Security starts monthly: typed in, it counts by the month.
  await expect(form.getByLabel('Social Security: how often')).toHaveText('Monthly');
  const socialSecurity = form.getByRole('spinbutton', { name: 'Social Security', exact: true });
  await socialSecurity.fill('');
  await socialSecurity.pressSequentially('2400');
  await socialSecurity.press('Tab');
  // A one-time bonus: said under its field.
  const other = form.getByRole('spinbutton', { name: 'Other', exact: true });
  await other.fill('');
  await other.pressSequentially('12000');
  await other.press('Tab');
  await form.getByLabel('Other: how often').click();
  await page.getByRole('option', { name: 'One time' }).click();
  const otherField = form.locator('.field[data-field="other"]');
  await expect(otherField.getByTestId('field-hint')).toHaveText(
    'One-time: not counted in the monthly cash flow.',
  );
  await expect(form.locator('.field[data-field="social_security"]').getByTestId('field-hint')).toHaveCount(0);
  await expect(socialSecurity).toHaveValue('$2,400');
  await expect(other).toHaveValue('$12,000');
  await bothThemes(page, 'income-form');

  await page.keyboard.press('Control+s');
  await expect(form.locator('[data-badge="pending"], [data-badge="synced"]').first()).toBeVisible();

  // The overview: 9,500 + 2,400 + 30 a month from the client, plus the co-client's monthly
  // income as the platform holds it (yearly amounts by twelve); the 12,000 listed apart.
  const coIncome = await platformApi<Record<string, { value: number; frequency: string }>>(
    servers,
    'GET',
    `/api/v0/accounts/${account.id}/coclient/income`,
  );
  const perMonth = (m: { value: number; frequency: string } | undefined) =>
    !m ? 0 : m.frequency === 'monthly' ? m.value : m.frequency === 'yearly' ? m.value / 12 : 0;
  const coMonthly =
    coIncome.status === 200
      ? Object.entries(coIncome.body)
          .filter(([k]) => k !== 'comments')
          .reduce((sum, [, m]) => sum + perMonth(m), 0)
      : 0;
  const expected = Math.round(9_500 + 2_400 + 30 + coMonthly);
  await page.getByTestId('tab-overview').click();
  await expect(page.locator('[data-testid="cash-flow"] [data-flow="income"] .amount')).toHaveText(
    `$${expected.toLocaleString('en-US')}`,
  );
  await expect(page.getByTestId('one-time')).toContainText('$12,000');
});
