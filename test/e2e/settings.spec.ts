// Settings → Updates in the browser preview: the preview says it never looks for updates, an http
// address is refused with the field named, an https one is saved where the host keeps its
// settings once the advisor agrees in the browser's confirm dialog (the preview's stand-in for
// the native one), and "Turn updates off" clears it. A connection profile moving a base address
// is asked the same way.

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
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect.poll(stored).toBe('https://updates.example.com/advisor-desk/');
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatch(/^Updates: Take updates from this address\?/);
  expect(asked[0]).toContain('to   https://updates.example.com/advisor-desk/');
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

// Issue 24, point 6: Electron asks natively before a base address moves; the preview saved such a
// move silently, and one to `/` of the same server keeps the sign-in. Now it asks too: Cancel
// saves nothing and keeps what was typed, OK saves and the sign-in stays.
test('Settings → Connection profile: a base address moved to / of the server is asked first', async ({
  page,
  servers,
}) => {
  const settings = servers.host.services.settings;
  const before = settings.profile();
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
  const address = page.getByLabel('Version 2 address');
  await address.fill(`${servers.platform.url}/`);

  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    // While the question is open nothing is saved.
    expect(settings.profile()).toEqual(before);
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toMatch(/^Connection profile: Change the platform addresses\?/);
  expect(asked[0]).toContain(
    `Version 2 address\n    from ${servers.platform.url}/api/v2\n    to   ${servers.platform.url}`,
  );
  expect(asked[0]).toContain('a sign-in saved for it is kept (same server)');
  await expect(address).toHaveValue(`${servers.platform.url}/`);
  expect(settings.profile()).toEqual(before);

  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect.poll(() => settings.profile().v2.baseUrl).toBe(servers.platform.url);
  expect(asked).toHaveLength(2);
  expect((await servers.host.services.auth.status()).v2.signedIn).toBe(true);
});
