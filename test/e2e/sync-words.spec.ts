// What the sync says of itself, in the browser preview against the sandbox (issue 23, point 18):
// a household's pull shows its progress as one figure that never breaks across lines ("26 of" /
// "26"), and once it is here, the household's note, the header and the sync panel each say what
// they mean: the household's copy from the platform, the changes sent, the last exchange.

import { activeAccounts, expect, openFromList, openList, test } from './fixtures.ts';

test('the pull’s figure stays whole; the household, the header and the panel each say what they mean', async ({
  page,
  servers,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openList(page, servers);
  const household = activeAccounts(servers).find((a) => !a.favorited);
  if (!household) throw new Error('The seed has no household that is not a favorite.');
  await openFromList(page, household);

  // Kept offline: about twenty requests at the platform's pace, the figure counting them.
  await page.getByText('Available offline').click();
  const figure = page.getByTestId('synced-figure');
  await expect(figure).toHaveText(/^\d+ of \d+…$/, { timeout: 30_000 });
  await expect(page.getByTestId('synced-note')).toContainText('Updating from the platform:');
  // One line box: an inline text broken across two lines has two.
  await expect(figure).toHaveCSS('white-space', 'nowrap');
  const lines = await figure.evaluate(
    (el) => (el as unknown as { getClientRects(): { length: number } }).getClientRects().length,
  );
  expect(lines).toBe(1);

  await expect(page.locator('#available-offline')).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByTestId('synced-note')).toHaveText(
    /^Last synced from the platform (just now|1 minute ago)$/,
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId('sync-state')).toHaveText('All changes sent', { timeout: 30_000 });
  await page.getByTestId('sync-status').click();
  await expect(page.getByTestId('last-synced')).toHaveText(
    /^Last exchange with the platform (just now|1 minute ago)$/,
  );
});
