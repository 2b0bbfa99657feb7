// The command palette an advisor lives in (issue 23: it offered two commands), in the browser
// preview against the sandbox: opened with nothing typed it offers the commands ("New account…",
// "Prepare for a meeting…") and every area of the navigation; Enter goes to an area, "New
// account…" opens the account list's form; a household's name finds it (from the local store) and
// opens it, and there the palette offers its tabs and sections. Screenshots light and dark of the
// palette with nothing typed and with a household's name go to test-results/screenshots/.

import type { Page } from '@playwright/test';
import { activeAccounts, bothThemes, expect, openList, test } from './fixtures.ts';

const highlighted = (page: Page) =>
  page.getByTestId('palette-options').locator('[role="option"][aria-selected="true"] .title');

async function palette(page: Page, words: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(words);
}

test('the palette goes to every area, makes a new account and opens a household by name', async ({
  page,
  servers,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page, servers);
  const household = activeAccounts(servers).find((a) => a.coclient)!;
  const client = `${household.client.first_name} ${household.client.last_name}`;

  // ---- Nothing typed: the commands, then every area ---------------------------------------------
  await page.keyboard.press('Control+k');
  const options = page.getByTestId('palette-options');
  await expect(options.locator('.group')).toHaveText(['Commands', 'Go to']);
  const navigation = await page.getByRole('navigation').getByRole('link').allTextContents();
  const offered = await options.locator('[role="option"] .title').allTextContents();
  for (const area of navigation.map((t) => t.trim()).filter(Boolean))
    expect(offered, `“${area}” of the navigation`).toContain(area);
  expect(offered).toContain('New account…');
  expect(offered).toContain('Pipeline board');
  await bothThemes(page, 'command-palette');
  await page.keyboard.press('Escape');

  // ---- An area by its name, and by what it holds -------------------------------------------------
  await palette(page, 'settings');
  await expect(highlighted(page)).toHaveText('Settings');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await palette(page, 'questionnaires');
  await expect(highlighted(page)).toHaveText('Engagements');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Engagements', level: 1 })).toBeVisible();

  // ---- New account, from another area ------------------------------------------------------------
  await palette(page, 'new account');
  await expect(highlighted(page)).toHaveText('New account…');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('account-form')).toBeVisible();
  await expect(page.getByTestId('account-form')).toContainText('New account');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('account-form')).toBeHidden();

  // ---- A household by name, then its sections -----------------------------------------------------
  await palette(page, client);
  await expect(highlighted(page)).toHaveText(client);
  await bothThemes(page, 'command-palette-household');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('workspace-title')).toContainText(client);
  await palette(page, 'liabilities');
  await expect(highlighted(page)).toHaveText('Liabilities');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-section="liabilities"]')).toHaveAttribute('aria-current', 'page');
});
