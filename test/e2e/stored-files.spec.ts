// An account's stored files end to end in the browser preview against the sandbox platform: a
// household with a member photo and a Documents item is prepared for a meeting, then the network
// goes (and the platform with it). The workspace's Files view lists both, the photo as a
// thumbnail, each "Kept offline"; Open puts the document in the preview's downloads folder (a
// browser cannot start a viewer) with the very bytes the platform holds. A file of a household
// never prepared says "Not downloaded yet — available when online". Screenshots light and dark of
// the Files view go to test-results/screenshots/stored-files-*.png.

import { readFileSync } from 'node:fs';
import {
  activeAccounts,
  addDocument,
  bothThemes,
  expect,
  findInList,
  goOffline,
  localId,
  openAccount,
  openList,
  type Servers,
  shoot,
  test,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// runs a preparation at the platform's own 60 a minute).
test.use({ requestsPerMinute: 1000 });

/** The bytes the platform stores under a file name (the oracle's side). */
function platformFile(servers: Servers, name: string): Buffer {
  const file = Object.values(servers.platform.control.dump().files).find((f) => f.name === name);
  if (!file) throw new Error(`the platform holds no file ${name}`);
  return Buffer.from(file.data, 'base64');
}

test('a prepared household’s photo and document are listed and open offline', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const households = activeAccounts(servers).filter((a) => a.client.photo && !a.favorited);
  const [household, other] = households;
  if (!household || !other) throw new Error('The seed has too few households with a member photo.');
  const pdf = new TextEncoder().encode(`%PDF-1.4\n% statement of ${household.client.last_name}\n%%EOF\n`);
  await addDocument(servers, household.id, 'Brokerage statement.pdf', pdf);
  const photoName = servers.platform.control.dump().files[household.client.photo!]!.name;
  const otherPhoto = servers.platform.control.dump().files[other.client.photo!]!.name;

  await openList(page, servers);

  // ---- Prepared for a meeting: its files come along ---------------------------------------------
  await findInList(page, household);
  await page.getByTestId('prepare-account').click();
  const dialog = page.getByTestId('prepare-dialog');
  const step = dialog.getByTestId('household-step');
  await expect(step).toHaveAttribute('data-state', 'ready', { timeout: 120_000 });
  await expect(step).toContainText(/Ready offline, with \d+ files/);
  await dialog.getByTestId('prepare-close').click();
  const id = await localId(page, household.id);
  const otherId = await localId(page, other.id);
  // Another household opened online (its details pulled, so its photo is listed) but not prepared.
  await openAccount(page, otherId, '?tab=files');
  const otherListed = page.getByTestId('stored-file').filter({ hasText: otherPhoto });
  await expect(otherListed).toBeVisible({ timeout: 30_000 });
  // Its thumbnail read before the platform goes: a preview under way then waits out the
  // maintenance's Retry-After (30 s) and holds a lane the next household's pictures wait for.
  await expect(otherListed.getByTestId('file-thumbnail')).toBeVisible({ timeout: 30_000 });

  // ---- The network goes, and the platform with it ------------------------------------------------
  await goOffline(context, servers);
  servers.platform.control.maintenance(true);
  await expect(page.getByTestId('connection')).toHaveText('Offline', { timeout: 30_000 });

  await openAccount(page, id, '?tab=files');
  const view = page.getByTestId('files-view');
  await expect(view).toBeVisible();
  const photo = view.getByTestId('stored-file').filter({ hasText: photoName });
  const document = view.getByTestId('stored-file').filter({ hasText: 'Brokerage statement.pdf' });
  await expect(photo).toHaveAttribute('data-source', 'member');
  await expect(photo).toContainText('Photo');
  await expect(photo.getByTestId('file-thumbnail')).toBeVisible();
  // The thumbnail is the picture itself, drawn (not a broken image).
  expect(
    await photo
      .getByTestId('file-thumbnail')
      .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
  ).toBeGreaterThan(0);
  await expect(document).toHaveAttribute('data-source', 'documents');
  await expect(document).toContainText('PDF');
  for (const row of [photo, document]) await expect(row.getByTestId('file-kept')).toHaveText('Kept offline');
  await bothThemes(page, 'stored-files');

  // Open: the preview saves it in its downloads folder and says where; the platform's very bytes.
  await document.getByTestId('file-open').click();
  const outcome = document.getByTestId('file-outcome');
  await expect(outcome).toContainText('The browser preview cannot start a viewer: the file was saved in ');
  const saved = /saved in (.+)\.$/.exec((await outcome.textContent()) ?? '')?.[1]?.trim() ?? '';
  expect(saved).toMatch(/[/\\]downloads[/\\]Brokerage statement\.pdf$/);
  expect(readFileSync(saved).equals(platformFile(servers, 'Brokerage statement.pdf'))).toBe(true);
  expect(readFileSync(saved).equals(Buffer.from(pdf))).toBe(true);

  // The member's photo field offers the same: Save… (the preview saves in its downloads folder).
  await openAccount(page, id, '?tab=members');
  const photoField = page.getByTestId('member-photo');
  await photoField.getByTestId('file-save').click();
  const savedPhoto = photoField.getByTestId('file-outcome');
  await expect(savedPhoto).toContainText('Saved in ');
  const photoPath = /Saved in (.+)\.$/.exec((await savedPhoto.textContent()) ?? '')?.[1]?.trim() ?? '';
  expect(photoPath).toMatch(new RegExp(`[/\\\\]downloads[/\\\\]${photoName.replace('.', '\\.')}$`));
  expect(readFileSync(photoPath).equals(platformFile(servers, photoName))).toBe(true);
  await shoot(page, 'stored-files-member-photo');

  // ---- A household never prepared: its photo is not here, and is not asked for ---------------
  await openAccount(page, otherId, '?tab=files');
  const notKept = view.getByTestId('stored-file').filter({ hasText: otherPhoto });
  await expect(notKept.getByTestId('file-not-kept')).toHaveText('Not downloaded yet');
  await notKept.getByTestId('file-open').click();
  await expect(notKept.getByTestId('file-outcome')).toHaveText('Not downloaded yet — available when online.');
  await expect(notKept.getByTestId('file-outcome')).toHaveAttribute('data-not-kept', 'true');
  servers.platform.control.maintenance(false);
});
