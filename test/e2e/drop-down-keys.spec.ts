// Choosing from a drop-down by keyboard in Chromium (issue 23, point 16): in a section's item
// form, Enter on a closed drop-down moves to the next field as the footer's hint "Enter next
// field" says, and typing in a long list's filter then Enter picks the match the list shows.

import { ADVISOR, expect, localId, signIn, test } from './fixtures.ts';

test('Enter on a closed drop-down moves on; Enter in its filter picks the match', async ({
  page,
  servers,
}) => {
  const store = servers.platform.control.store();
  const advisor = store.state.users.find((u) => u.email === ADVISOR)!;
  const account = store.state.accounts.find((a) => a.teamId === advisor.currentTeamId && !a.archived)!;
  await page.goto(servers.host.url);
  await signIn(page);
  const id = await localId(page, account.id);
  await page.goto(`${servers.host.url}/#/accounts/${id}?tab=financials&section=liabilities`);
  await page.getByTestId('add-item').click();
  const dialog = page.getByTestId('item-dialog');
  await expect(page.getByText('Enter next field')).toBeVisible();

  // Closed, Enter moves on to the next field and chooses nothing.
  const type = dialog.locator('.field[data-field="type"] [role="combobox"]');
  await type.focus();
  await page.keyboard.press('Enter');
  await expect(type).not.toBeFocused();
  await expect(dialog.locator('.field[data-field="type"] .p-select-label')).toHaveText('Choose…');
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);

  // Space opens, typing goes to the list, Enter picks.
  await type.focus();
  await page.keyboard.press('Space');
  await expect(page.locator('.p-select-overlay')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(dialog.locator('.field[data-field="type"] .p-select-label')).toHaveText('Auto loan');

  // A long list with a filter: the member's citizenship.
  await page.keyboard.press('Escape');
  await page.goto(`${servers.host.url}/#/accounts/${id}?tab=members&member=client`);
  const country = page.locator(
    '[data-testid="single-details:client"] .field[data-field="citizenship.country"]',
  );
  const box = country.locator('[role="combobox"]');
  await box.focus();
  await page.keyboard.press('Enter');
  await expect(box).not.toBeFocused();
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);
  await box.focus();
  await page.keyboard.press('Space');
  await expect(page.locator('.p-select-overlay input')).toBeFocused();
  await page.keyboard.type('austri');
  await page.keyboard.press('Enter');
  await expect(country.locator('.p-select-label')).toHaveText('Austria');
  await expect(box).toBeFocused();
});
