// "Prepare for a meeting" end to end in the browser preview against the sandbox platform, at the
// platform's own budget of 60 requests a minute: online, the advisor chooses two households (one
// from the account list's row action, one through the command palette's "Prepare for a meeting…"),
// watches each go from waiting to ready offline with the time left, then loses the network. Both
// open with every section the platform holds for them; a third household, never prepared, is not
// shown as prepared, says "Not downloaded yet" and never shows a net worth of $0 (every marker of
// a household not downloaded is asserted by not-downloaded.spec.ts). Screenshots light and dark
// of the progress go to test-results/screenshots/prepare-meeting-progress-*.png.

import type { Page } from '@playwright/test';
import { SECTIONS, sectionKey, type MemberRole } from '@shared/sections.ts';
import type { AccountRecord } from '../platform/model.ts';
import {
  activeAccounts,
  bothThemes,
  expect,
  findInList,
  goOffline,
  localId,
  openAccount,
  openList,
  type Servers,
  test,
} from './fixtures.ts';

const membersOf = (a: AccountRecord): MemberRole[] => (a.coclient ? ['client', 'coclient'] : ['client']);

/** Every section of a prepared household is here, as the platform holds it; nothing says "not downloaded". */
async function everySectionHere(page: Page, servers: Servers, account: AccountRecord): Promise<void> {
  const held = servers.platform.control.store().sections(account);
  const id = await localId(page, account.id);
  await openAccount(page, id);
  await expect(page.getByTestId('workspace-title')).toContainText(account.client.first_name);
  await expect(page.getByTestId('net-worth')).toBeVisible();
  await expect(page.getByText(/not downloaded/i)).toHaveCount(0);
  await expect(page.locator('#available-offline')).toBeChecked();
  await openAccount(page, id, '?tab=financials');
  for (const section of SECTIONS)
    for (const member of section.perMember ? membersOf(account) : [undefined]) {
      const key = sectionKey(section, member);
      await page.locator(`[data-section="${key}"]`).click();
      await expect(page.locator(`[data-section="${key}"]`)).toHaveAttribute('aria-current', 'page');
      if (!section.single) {
        const items = held.sections[key] ?? [];
        const table = page.getByTestId('section-table');
        await expect(table.locator('tbody tr[data-p-index]'), key).toHaveCount(items.length);
        if (items.length === 0) await expect(page.getByTestId('section-empty'), key).toBeVisible();
      } else {
        await expect(page.getByTestId(`single-${key}`), key).toBeVisible();
      }
      await expect(page.getByText(/not downloaded/i), key).toHaveCount(0);
    }
}

test('prepare two households for a meeting online, then open them offline', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page, servers);

  // Neither favorites (kept offline by the background anyway) nor alike: one with a co-client.
  const store = servers.platform.control.store();
  const candidates = activeAccounts(servers).filter(
    (a) => !a.favorited && (store.sections(a).sections.assets?.length ?? 0) > 0,
  );
  const withCo = candidates.find((a) => a.coclient);
  const alone = candidates.find((a) => !a.coclient);
  const third = candidates.find((a) => a !== withCo && a !== alone);
  if (!withCo || !alone || !third) throw new Error('The seed has too few households with assets.');

  // ---- The first from the account list's row action ---------------------------------------------
  await findInList(page, withCo);
  await page.getByTestId('prepare-account').click();
  const dialog = page.getByTestId('prepare-dialog');
  await expect(dialog).toBeVisible();
  const steps = dialog.getByTestId('household-step');
  await expect(steps).toHaveCount(1);
  await expect(steps.first()).toContainText(withCo.client.first_name);

  // ---- The second through the command palette ----------------------------------------------------
  await dialog.getByTestId('prepare-close').click();
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('prepare for a meeting');
  await expect(page.locator('[data-choice="command:prepare-meeting"]')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('prepare-search').fill(alone.client.email);
  await dialog.getByTestId('prepare-result').filter({ hasText: alone.client.last_name }).click();
  await expect(dialog.getByTestId('prepare-chosen')).toHaveCount(1);
  await dialog.getByTestId('prepare-start').click();
  await expect(steps).toHaveCount(2);
  // Each says where it is; the whole says what is left and how long it takes at 60 a minute.
  await expect(dialog.getByTestId('households-left')).toContainText(/households? to go \(\d+ requests?\)/);
  await expect(dialog.getByTestId('households-left')).toContainText(
    /(about \d+ minutes? left|less than a minute left)/,
  );
  await expect(steps.filter({ hasText: /Getting \d+ of (21|25) parts/ })).toHaveCount(1);
  await bothThemes(page, 'prepare-meeting-progress');

  // Ready offline only once each whole pull completed: 46 requests at 60 a minute.
  await expect(dialog.locator('[data-testid="household-step"][data-state="ready"]')).toHaveCount(2, {
    timeout: 180_000,
  });
  for (const step of await steps.all()) await expect(step).toContainText('Ready offline');
  await expect(dialog.getByTestId('households-left')).toHaveText('2 of 2 households ready offline');
  await dialog.getByTestId('prepare-close').click();

  // ---- The network goes: the app tells by itself -------------------------------------------------
  const thirdId = await localId(page, third.id);
  await goOffline(context, servers);
  await expect(page.getByTestId('connection')).toHaveText('Offline', { timeout: 30_000 });

  await everySectionHere(page, servers, withCo);
  await everySectionHere(page, servers, alone);

  // ---- A third household, never prepared ---------------------------------------------------------
  // Not shown as prepared, "Not downloaded yet" where its figures would be, never $0.
  await openAccount(page, thirdId);
  await expect(page.getByTestId('workspace-title')).toContainText(third.client.first_name);
  await expect(page.locator('#available-offline')).not.toBeChecked();
  await page.getByTestId('sync-status').click();
  const households = page.getByTestId('sync-households');
  await expect(households.getByTestId('household-step')).toHaveCount(2);
  await expect(households).not.toContainText(third.client.last_name);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('account-sync')).toContainText('Not downloaded yet');
  await expect(page.getByTestId('net-worth-total')).toHaveText('Not downloaded yet');
  await expect(page.getByTestId('net-worth')).not.toContainText(/\$0(\.00)?(?![\d,.])/);
});

test.describe('a household added once the first is ready', () => {
  // The screens are under test here, not the budget's minutes.
  test.use({ requestsPerMinute: 1000 });

  // Issue 23: Priya "Ready offline", then Charlotte added in the same dialog; once Charlotte was
  // ready the list read "1 of 1". Every household prepared stays listed until the list is cleared.
  test('both stay listed once both are ready, in the dialog and on Home, until cleared', async ({
    page,
    servers,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await openList(page, servers);
    const [first, second] = activeAccounts(servers).filter((a) => !a.favorited && a.client.email);
    if (!first || !second) throw new Error('The seed has too few households.');

    await findInList(page, first);
    await page.getByTestId('prepare-account').click();
    const dialog = page.getByTestId('prepare-dialog');
    const steps = dialog.getByTestId('household-step');
    await expect(steps.first()).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
    await expect(dialog.getByTestId('households-left')).toHaveText('1 of 1 household ready offline');

    // The second, in the same dialog, once the first is ready.
    await dialog.getByTestId('prepare-search').fill(second.client.email);
    await dialog.getByTestId('prepare-result').filter({ hasText: second.client.last_name }).click();
    await dialog.getByTestId('prepare-start').click();
    await expect(dialog.locator('[data-testid="household-step"][data-state="ready"]')).toHaveCount(2, {
      timeout: 120_000,
    });
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText(first.client.last_name);
    await expect(steps.nth(1)).toContainText(second.client.last_name);
    await expect(dialog.getByTestId('households-left')).toHaveText('2 of 2 households ready offline');
    await bothThemes(page, 'prepare-meeting-two-ready');

    // Home lists both, each prepared from when it became ready.
    await dialog.getByTestId('prepare-close').click();
    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
    const home = page.getByTestId('home-meeting').getByTestId('household-step');
    await expect(home).toHaveCount(2);
    for (const step of await home.all()) {
      await expect(step).toHaveAttribute('data-state', 'ready');
      await expect(step.getByTestId('household-detail')).toHaveText(/^Prepared just now/);
    }

    // Cleared by the advisor: the list ends.
    await page.getByTestId('home-prepared-clear').click();
    await expect(page.getByTestId('home-prepared-none')).toBeVisible();
  });
});
