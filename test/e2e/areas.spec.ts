// The areas alike, and the list's archive undoable (issue 23): every area's heading stands where
// the others' does (Forms and Reports had a margin of their own), a household named in the Forms
// list reads as in the account list (not an underlined link); the list's Archive icon says what it
// does on hovering, and an archive is said with Undo, which brings the household back.

import { activeAccounts, expect, findInList, openList, outboxStates, test } from './fixtures.ts';

test('every area’s heading stands in the same place; Forms names households as the list does', async ({
  page,
  servers,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page, servers);
  const nav = page.getByRole('navigation');
  const places: Record<string, { x: number; y: number }> = {};
  for (const area of ['Home', 'Accounts', 'Engagements', 'Forms', 'Reports', 'Activity', 'Settings']) {
    await nav.getByRole('link', { name: area, exact: true }).click();
    // This area's own heading: the last one's may still be on the page as the link is followed.
    const heading = page.getByRole('heading', { name: area, level: 1 });
    await expect(heading).toBeVisible();
    const box = (await heading.boundingBox())!;
    places[area] = { x: Math.round(box.x), y: Math.round(box.y) };
  }
  const accounts = places.Accounts!;
  for (const [area, place] of Object.entries(places)) {
    expect(Math.abs(place.x - accounts.x), `${area}: left`).toBeLessThanOrEqual(1);
    expect(Math.abs(place.y - accounts.y), `${area}: top`).toBeLessThanOrEqual(8);
  }

  await nav.getByRole('link', { name: 'Forms', exact: true }).click();
  const link = page.getByTestId('forms-view').getByTestId('form-row').first().getByRole('link');
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(link).toHaveCSS('text-decoration-line', 'none');
  const text = await page
    .getByRole('heading', { name: 'Forms', level: 1 })
    .evaluate(
      (h) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(h)
          .color,
    );
  await expect(link).toHaveCSS('color', text);
});

test('the list’s Archive icon says what it does; an archive is said with Undo', async ({ page, servers }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page, servers);
  const account = activeAccounts(servers).find((a) => a.client.email && !a.favorited)!;
  const onPlatform = () => servers.platform.control.store().state.accounts.find((a) => a.id === account.id)!;
  await findInList(page, account);

  // Its tooltip, as its neighbours' (Prepare, Edit) are given.
  const archive = page.getByTestId('toggle-archived');
  await expect(archive).toHaveAttribute('title', 'Archive');
  await expect(page.getByTestId('prepare-account')).toHaveAttribute('title', /^Prepare for a meeting/);

  await archive.click();
  await expect(page.getByTestId('account-count')).toHaveText('0 accounts match');
  const undo = page.getByTestId('archive-undo');
  await expect(undo).toContainText(`${account.client.first_name} ${account.client.last_name}`);
  await expect(undo).toContainText('archived');
  await undo.getByTestId('archive-undo-button').click();
  await expect(page.getByTestId('account-count')).toHaveText('1 account matches');
  await expect(undo).toBeHidden();
  await expect.poll(() => outboxStates(page), { timeout: 30_000 }).toEqual([]);
  expect(onPlatform().archived).toBeFalsy();
});
