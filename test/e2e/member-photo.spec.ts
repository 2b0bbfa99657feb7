// A member's photo in the browser preview against the sandbox, at 1440×900: the platform's copy
// shows as a thumbnail (fetched through the bridge and kept in the user's cache), the card is
// whole (nothing of its buttons cut off), and a photo chosen here shows at once while it waits to
// be uploaded. Screenshots light and dark go to test-results/screenshots/.

import { portraitPng } from '../platform/samples.ts';
import { activeAccounts, bothThemes, expect, localId, openList, test } from './fixtures.ts';

test.use({ requestsPerMinute: 600, viewport: { width: 1440, height: 900 } });

test('a member’s photo: the platform’s copy as a thumbnail, the card whole, a new one shown at once', async ({
  page,
  servers,
}) => {
  test.setTimeout(120_000);
  await openList(page, servers);
  const account = activeAccounts(servers).find((a) => a.client.photo)!;
  const id = await localId(page, account.id);
  await page.goto(`${servers.host.url}/#/accounts/${id}?tab=members`);

  const control = page.getByTestId('member-photo');
  const card = page.locator('section[aria-labelledby="photo-title"]');
  const thumbnail = control.locator('img');
  await expect(thumbnail).toBeVisible({ timeout: 60_000 });
  const drawn = () => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
  await expect.poll(drawn).toBeGreaterThan(0);

  // Every button stands inside the card: none is cut at its edge.
  const inside = await card.boundingBox();
  for (const button of await control.getByRole('button').all()) {
    const box = await button.boundingBox();
    expect(box && inside).toBeTruthy();
    if (!box || !inside) continue;
    expect(box.x).toBeGreaterThanOrEqual(inside.x);
    expect(box.x + box.width).toBeLessThanOrEqual(inside.x + inside.width);
  }
  await bothThemes(page, 'member-photo');

  // A new photo chosen here: shown from this computer at once, while its upload waits.
  const before = await thumbnail.getAttribute('src');
  await control.locator('input[type="file"]').setInputFiles({
    name: 'new-portrait.png',
    mimeType: 'image/png',
    buffer: portraitPng(200),
  });
  await expect(control).toContainText('new-portrait.png');
  await expect(thumbnail).not.toHaveAttribute('src', before ?? '');
  await expect.poll(drawn).toBeGreaterThan(0);
});
