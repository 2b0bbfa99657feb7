// Names from the platform with characters that draw nothing or reorder the text (issue 24), in
// the browser preview against the sandbox: a household whose client's last name starts with
// U+202E (RIGHT-TO-LEFT OVERRIDE) and a document named `report\u202Egnp.exe`. Drawn raw, the
// override reverses the rest of the title ("Ann eeL boB & lesteR") and makes the file read
// "reportexe.png". Shown here: each name isolated in a <bdi>, the override as a visible mark
// "U+202E" with a tooltip naming it, the title's words left to right in the order they are
// written, and the file under the name it is saved as (report_gnp.exe), its `_` marked. The
// delete dialog's title holds the name the same way, and Chromium still names the dialog by it.

import type { Locator } from '@playwright/test';
import {
  activeAccounts,
  addDocument,
  expect,
  localId,
  openAccount,
  openList,
  test,
  type Servers,
} from './fixtures.ts';

test.use({ requestsPerMinute: 1000 });

/** The little of the DOM read below (these files are typed for Node, without the DOM). */
interface TextNode {
  textContent: string | null;
}
interface Doc {
  createTreeWalker(root: unknown, whatToShow: number): { nextNode(): TextNode | null };
  createRange(): {
    setStart(node: TextNode, offset: number): void;
    setEnd(node: TextNode, offset: number): void;
    getBoundingClientRect(): { left: number };
  };
}
const SHOW_TEXT = 4;

/** The left edge, on screen, of the first character of each text inside `where` (its first occurrence). */
function leftEdges(where: Locator, texts: string[]): Promise<number[]> {
  return where.evaluate(
    (root: { ownerDocument: Doc }, { texts, show }) =>
      texts.map((wanted) => {
        const walker = root.ownerDocument.createTreeWalker(root, show);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent?.indexOf(wanted) ?? -1;
          if (at < 0) continue;
          const range = root.ownerDocument.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          return range.getBoundingClientRect().left;
        }
        throw new Error(`no text ${wanted}`);
      }),
    { texts, show: SHOW_TEXT },
  );
}

/** A household of the seed with a co-client, its client renamed on the platform before sign-in. */
function hostileHousehold(servers: Servers) {
  const household = activeAccounts(servers).find((a) => a.coclient);
  if (!household?.coclient) throw new Error('The seed has no household with a co-client.');
  household.client.first_name = 'Ann';
  household.client.last_name = '\u202ERetsel';
  household.coclient.first_name = 'Bob';
  household.coclient.last_name = 'Lee';
  return household;
}

test('hidden characters in names are shown as marks and reorder nothing', async ({ page, servers }) => {
  const household = hostileHousehold(servers);
  await addDocument(
    servers,
    household.id,
    'report\u202Egnp.exe',
    new Uint8Array([77, 90]),
    'application/octet-stream',
  );
  await openList(page, servers);
  const windowTitle = await page.title();

  // ---- The account list: the name isolated, its override a mark ----------------------------------
  await page.getByTestId('account-search').pressSequentially(household.client.email);
  const row = page.getByTestId('account-name').first();
  await expect(row.locator('bdi')).toHaveCount(1);
  await expect(row.locator('[data-code="U+202E"]')).toBeVisible();

  // ---- The workspace title -----------------------------------------------------------------------
  const id = await localId(page, household.id);
  await openAccount(page, id);
  const title = page.getByTestId('workspace-title');
  await expect(title).toContainText('Bob');
  expect(await title.innerText()).toBe('Ann U+202ERetsel & Bob Lee');
  await expect(title.locator('bdi')).toHaveCount(2);
  const mark = title.locator('[data-testid="hidden-char"]');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveAttribute('title', 'Hidden character U+202E (right-to-left override)');
  await expect(mark).toHaveAttribute('aria-label', 'Hidden character U+202E (right-to-left override)');
  // On screen, left to right in the order written: nothing after the name was reversed.
  const edges = await leftEdges(title, ['Ann', 'U+202E', 'Retsel', '&', 'Bob', 'Lee']);
  expect(edges).toEqual([...edges].sort((a, b) => a - b));
  expect(new Set(edges).size).toBe(edges.length);
  // The window's title is the app's own and stays so.
  expect(await page.title()).toBe(windowTitle);
  expect(await page.title()).not.toContain('\u202E');

  // ---- The Files tab: the name it is saved under ------------------------------------------------
  await openAccount(page, id, '?tab=files');
  const file = page.getByTestId('stored-file').filter({ hasText: 'gnp.exe' });
  await expect(file).toBeVisible({ timeout: 30_000 });
  const name = file.getByTestId('stored-file-name');
  expect(await name.innerText()).toBe('report_U+202Egnp.exe');
  const fileMark = name.locator('[data-code="U+202E"]');
  await expect(fileMark).toBeVisible();
  await expect(fileMark).toHaveAttribute(
    'title',
    'Hidden character U+202E (right-to-left override), written as “_”',
  );
  const fileEdges = await leftEdges(name, ['report', '_', 'gnp', '.exe']);
  expect(fileEdges).toEqual([...fileEdges].sort((a, b) => a - b));
  await expect(file).toContainText('EXE');
  // Saved, it is the very name shown.
  await file.getByTestId('file-save').click();
  await expect(file.getByTestId('file-outcome')).toContainText(/report_gnp\.exe\.$/);

  // ---- The delete dialog: its title isolates the name, and names the dialog ---------------------
  await openAccount(page, id);
  await page.getByTestId('delete-account-open').click();
  const dialog = page.getByRole('dialog', {
    name: /^Delete Ann ?Hidden character U\+202E \(right-to-left override\) ?Retsel & Bob Lee$/,
  });
  await expect(dialog).toBeVisible();
  const header = dialog.getByTestId('delete-title');
  expect(await header.innerText()).toBe('Delete Ann U+202ERetsel & Bob Lee');
  await expect(header.locator('bdi [data-code="U+202E"]')).toBeVisible();
  const headerEdges = await leftEdges(header, ['Delete', 'Ann', 'U+202E', 'Retsel', '&', 'Bob', 'Lee']);
  expect(headerEdges).toEqual([...headerEdges].sort((a, b) => a - b));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
