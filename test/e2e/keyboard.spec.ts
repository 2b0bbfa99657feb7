// A data-entry pass without the mouse (issue 5), in the browser preview against the sandbox
// platform: once signed in (on the platform's own page), the advisor only types. Ctrl+K finds a
// household by its client's name and Enter opens it; from its overview the palette jumps to Assets,
// the cursor landing in the section; Alt+N adds an asset whose name is typed, whose type and owner
// are chosen in their selects with the keys (type-ahead, arrows, Enter; Enter on a closed select
// goes on to the next field, as on any other), whose value is typed; Ctrl+S saves.
// The cursor is never lost on the way (never back on the page's body), and the asset reaches the
// platform once, as typed.

import type { Page } from '@playwright/test';
import type { AccountRecord } from '../platform/model.ts';
import { activeAccounts, expect, openList, test, type Servers } from './fixtures.ts';

// A long scenario: the screens are under test here, not the platform's budget of 60 a minute.
test.use({ requestsPerMinute: 240 });

const ASSET = { name: 'Lake cabin', type: 'secondary-residence', value: 420_000 };

/**
 * A household (with a co-client, so that the owner can be the co-client) whose client's name is
 * its own, and whose owners fit in the picker without a filter (few family members).
 */
function household(servers: Servers): AccountRecord {
  const store = servers.platform.control.store();
  const fullName = (a: AccountRecord) => `${a.client.first_name} ${a.client.last_name}`.toLowerCase();
  const found = activeAccounts(servers).find(
    (a) =>
      a.coclient &&
      (store.sections(a).sections.family?.length ?? 0) <= 3 &&
      store.state.accounts.filter((b) => fullName(b) === fullName(a)).length === 1,
  );
  if (!found) throw new Error('The seed has no household with a co-client and a name of its own.');
  return found;
}

/** The little of the DOM read below (these files are typed for Node, without the DOM). */
interface Shown {
  tagName: string;
  id: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/** The element with the cursor, in words (for the messages of failed checks); `body` when lost. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: Shown | null; body: Shown } })
      .document;
    const el = doc.activeElement;
    if (!el || el === doc.body) return 'body';
    const id = el.getAttribute('data-testid') ?? el.id;
    return `${el.tagName.toLowerCase()}${id ? `#${id}` : ''}: ${(el.textContent ?? '').trim().slice(0, 40)}`;
  });

/** The cursor is somewhere on the page, not lost on its body. */
async function notLost(page: Page): Promise<void> {
  await expect.poll(() => focused(page)).not.toBe('body');
}

/** The palette's highlighted choice (what Enter takes). */
const highlighted = (page: Page) =>
  page.getByTestId('palette-options').locator('[role="option"][aria-selected="true"]');

/** The option a select's open list has under the cursor. */
const underCursor = (page: Page) => page.locator('.p-select-overlay [role="option"][data-p-focused="true"]');

test('a data-entry pass from the keyboard alone: palette, sections, an asset with its selects, saved', async ({
  page,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = household(servers);
  const client = `${account.client.first_name} ${account.client.last_name}`;
  const coclient = `${account.coclient!.first_name} ${account.coclient!.last_name}`;

  // Signing in happens on the platform's own page (with the mouse, as the fixture does).
  await openList(page, servers);

  // ---- From here on, the keyboard only ---------------------------------------------------------
  // Ctrl+K: the palette, its search under the cursor.
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type(client);
  await expect(highlighted(page)).toContainText(client);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTestId('workspace-title')).toContainText(client);
  // The page that replaced the list has the cursor (its title), not the window.
  await expect(page.getByTestId('workspace-title')).toBeFocused();

  // From the overview, the palette jumps to a section by its name: the financial sections are drawn
  // by the jump, and the cursor lands on the section's "Add".
  await expect(page.getByTestId('tab-overview')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-input')).toBeFocused();
  await page.keyboard.type('Assets');
  await expect(highlighted(page).locator('.title')).toHaveText('Assets');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.locator('[data-section="assets"]')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('add-item')).toBeFocused();
  await expect(page.getByTestId('add-item')).toHaveAccessibleName('Add asset');

  // Alt+N: a new asset, the cursor in its name.
  await page.keyboard.press('Alt+N');
  const dialog = page.getByTestId('item-dialog');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New asset');
  const name = dialog.locator('[data-field="name"] input');
  await expect(name).toBeFocused();
  await page.keyboard.type(ASSET.name);

  // Enter: on to the type, a select; typing its first letters picks the option, Enter takes it.
  await page.keyboard.press('Enter');
  const type = dialog.locator('[data-field="type"] [role="combobox"]');
  await expect(type).toBeFocused();
  await page.keyboard.type('Sec');
  await expect(underCursor(page)).toHaveText('Secondary residence');
  await page.keyboard.press('Enter');
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);
  await expect(type).toHaveText('Secondary residence');
  await expect(type).toBeFocused();

  // Enter on the select, its list closed: on to the owner (the list stays closed, the type kept).
  // Space opens the owner's list, the arrows walk it (client, co-client, joint), Enter takes.
  await page.keyboard.press('Enter');
  const owner = dialog.locator('[data-field="owner"] [role="combobox"]');
  await expect(owner).toBeFocused();
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);
  await expect(type).toHaveText('Secondary residence');
  await page.keyboard.press('Space');
  await expect(page.locator('.p-select-overlay')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(underCursor(page)).toHaveText(client);
  await page.keyboard.press('ArrowDown');
  await expect(underCursor(page)).toHaveText(coclient);
  await page.keyboard.press('Enter');
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);
  await expect(owner).toHaveText(coclient);
  await expect(owner).toBeFocused();

  // Enter again: the current value, typed key by key; the owner kept.
  await page.keyboard.press('Enter');
  const value = dialog.locator('[data-field="current_value"] input').first();
  await expect(value).toBeFocused();
  await expect(page.locator('.p-select-overlay')).toHaveCount(0);
  await expect(owner).toHaveText(coclient);
  await page.keyboard.type(String(ASSET.value));
  await expect(value).toHaveValue('$420,000');

  // Ctrl+S saves: the form closes, the cursor is back on "Add" for the next one.
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('add-item')).toBeFocused();
  await notLost(page);
  const row = page.getByTestId('section-table').locator('tr', { hasText: ASSET.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(coclient);
  await expect(row.locator('[data-badge="pending"], [data-badge="synced"]')).toBeVisible();

  // ---- The platform has it, once, as typed ------------------------------------------------------
  const stored = () =>
    (servers.platform.control.store().state.accounts.find((a) => a.id === account.id)?.sections?.assets ?? [])
      .filter((i) => i.fields.name === ASSET.name)
      .map((i) => i.fields);
  await expect.poll(() => stored().length, { timeout: 60_000 }).toBe(1);
  expect(stored()[0]).toMatchObject({
    name: ASSET.name,
    type: ASSET.type,
    owner: { type: 'coclient' },
    current_value: { value: ASSET.value },
  });
  await expect(row.locator('[data-badge="synced"]')).toBeVisible({ timeout: 60_000 });
  await notLost(page);
});
