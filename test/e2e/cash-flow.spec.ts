// A household opened online for the first time, end to end in the browser preview against the
// sandbox platform at its budget of 60 requests a minute (issue 23, points 4 and 8): its net worth
// and cash flow show once their sections have come, before the rest of the household; the cash
// flow says its rule and sets the mortgage entered as a liability beside the budget's mortgage,
// with the difference, as the platform holds them. Screenshots light and dark:
// test-results/screenshots/cash-flow-*.png.

import { WHOLE_DOLLARS, wholeDollars } from '../platform/figures.ts';
import { activeAccounts, bothThemes, expect, localId, openAccount, openList, test } from './fixtures.ts';

const amount = (v: unknown): number =>
  typeof v === 'number'
    ? v
    : typeof v === 'object' && v !== null
      ? Number((v as { value?: unknown }).value ?? 0)
      : 0;

test('the cash flow of a household opened for the first time: its rule, the payments beside the budget', async ({
  page,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const store = servers.platform.control.store();
  // Never opened here and no favorite (favorites are pulled in the background), with a mortgage
  // both as a liability's payment and in the fixed expenses.
  const mortgages = (a: (typeof store.state.accounts)[number]) =>
    (store.sections(a).sections.liabilities ?? []).filter((l) =>
      ['fixed', 'arm', 'int-only'].includes(String(l.fields.type)),
    );
  const household = activeAccounts(servers).find(
    (a) =>
      a.coclient &&
      !a.favorited &&
      mortgages(a).length > 0 &&
      amount(store.sections(a).singles['expenses-fixed']?.mortgage) > 0,
  );
  if (!household) throw new Error('The seed has no household with a mortgage in both places.');
  const budget = amount(store.sections(household).singles['expenses-fixed']!.mortgage);
  const paid = mortgages(household).reduce((sum, l) => sum + amount(l.fields.cost_value), 0);

  await openList(page, servers);
  const id = await localId(page, household.id);
  await openAccount(page, id);
  // The first frame in which both figures show, and what the household's badge says in it: the
  // figures' 15 requests come first, the other 10 wait for the budget (all 25 at 60 a minute take
  // 21-22 s), so the badge still says the rest is on its way. An order, not a time: a timed
  // assertion fails on a busy machine (the bench measures times).
  const badgeWhenShown = await page.waitForFunction(
    (pattern) => {
      type Node = { textContent: string | null; getAttribute(name: string): string | null };
      const doc = (globalThis as unknown as { document: { querySelector(s: string): Node | null } }).document;
      const at = (id: string) => doc.querySelector(`[data-testid="${id}"]`);
      const shown = new RegExp(pattern);
      const figures = ['net-worth-total', 'cash-flow-net'].map((id) => at(id)?.textContent?.trim() ?? '');
      if (!figures.every((text) => shown.test(text))) return null;
      return at('account-sync')?.getAttribute('data-account-badge') ?? '';
    },
    WHOLE_DOLLARS.source,
    { timeout: 60_000, polling: 'raf' },
  );
  expect(await badgeWhenShown.jsonValue(), 'the badge when the figures first show').not.toBe('synced');

  const payments = page.getByTestId('budget-payments');
  await expect(payments.getByTestId('budget-rule')).toContainText('The expense sections are the budget');
  const mortgage = payments.locator('tr[data-line="mortgage"]');
  await expect(mortgage.locator('td').nth(0)).toHaveText(wholeDollars(budget));
  await expect(mortgage.locator('td').nth(1)).toHaveText(wholeDollars(paid));
  const difference = budget - paid;
  await expect(mortgage.getByTestId('budget-difference')).toHaveText(
    difference === 0
      ? 'Same as the budget'
      : `Budget ${wholeDollars(Math.abs(difference))} ${difference > 0 ? 'higher' : 'lower'}`,
  );

  // The whole household came in the end.
  await expect(page.getByTestId('account-sync')).toHaveAttribute('data-account-badge', 'synced', {
    timeout: 60_000,
  });
  await page.getByTestId('cash-flow').scrollIntoViewIfNeeded();
  await bothThemes(page, 'cash-flow', 400);
});
