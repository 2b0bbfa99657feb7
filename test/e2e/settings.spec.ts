// Settings → Updates in the browser preview: the preview says it never looks for updates, an http
// address is refused with the field named, an https one is saved where the host keeps its
// settings (and shown again after a reload), and "Turn updates off" clears it.

import { expect, shoot, signIn, test } from './fixtures.ts';

test('Settings → Updates: the update address is checked, saved and cleared', async ({ page, servers }) => {
  const stored = () => servers.host.services.settings.updateFeedUrl();
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Updates', level: 2 })).toBeVisible();
  await expect(page.getByTestId('updates-state')).toHaveText(
    /^The browser preview does not look for updates; the installed app does/,
  );

  const address = page.getByLabel('Update address');
  await address.fill('http://updates.example.com/advisor-desk/');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Update address' })).toHaveText(
    'Update address must start with https://',
  );
  expect(stored()).toBeNull();
  await expect(address).toHaveValue('http://updates.example.com/advisor-desk/');
  await page.getByRole('heading', { name: 'Updates', level: 2 }).scrollIntoViewIfNeeded();
  await shoot(page, 'settings-updates-refused');

  await address.fill('https://updates.example.com/advisor-desk/');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect.poll(stored).toBe('https://updates.example.com/advisor-desk/');
  await expect(page.getByRole('alert').filter({ hasText: 'Update address' })).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel('Update address')).toHaveValue('https://updates.example.com/advisor-desk/');
  await page.getByRole('button', { name: 'Turn updates off' }).click();
  await expect.poll(stored).toBeNull();
  await expect(page.getByLabel('Update address')).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Turn updates off' })).toHaveCount(0);
});

// Issue 23: an empty name and "htp:/bad address" were refused with nothing on screen (only the
// console said why). Each refusal is said under its field, what was typed stays, nothing is saved.
test('Settings → Connection profile: an invalid profile is refused under each field', async ({
  page,
  servers,
}) => {
  const before = servers.host.services.settings.profile();
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Connection profile', level: 2 })).toBeVisible();

  const name = page.getByLabel('Profile name');
  const address = page.getByLabel('Version 2 address');
  await name.fill('');
  await address.fill('htp:/bad address');
  await page.getByRole('button', { name: 'Save profile' }).click();

  await expect(page.getByTestId('profile-error-name')).toHaveText(
    'Profile name is required: give the profile a name',
  );
  await expect(page.getByTestId('profile-error-v2-baseUrl')).toHaveText(
    'Version 2 address must start with https://',
  );
  await expect(name).toHaveAccessibleDescription('Profile name is required: give the profile a name');
  await expect(page.getByText('The profile was not saved. Correct the fields marked above.')).toBeVisible();
  // No other field is marked, what was typed stays, and nothing was saved.
  await expect(page.getByTestId('profile-error-v2-authUrl')).toHaveCount(0);
  await expect(page.getByTestId('profile-error-clientId')).toHaveCount(0);
  await expect(address).toHaveValue('htp:/bad address');
  expect(servers.host.services.settings.profile()).toEqual(before);
  await page.getByTestId('profile-error-name').scrollIntoViewIfNeeded();
  await shoot(page, 'settings-profile-refused');
});
