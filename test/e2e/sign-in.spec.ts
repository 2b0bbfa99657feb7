// The first journey of every advisor: sign in through the platform's page, see who you are,
// switch team, sign out; and a wrong password that says so.

import { admit, expect, signIn, test } from './fixtures.ts';

test('sign in, see the user, switch team, sign out', async ({ page, servers }) => {
  await page.goto(servers.host.url);
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  await expect(page.getByTestId('profile-name')).toHaveText('Sandbox');
  await page.screenshot({ path: 'test-results/screenshots/sign-in-light.png', animations: 'disabled' });

  // As the advisor signs in: the app opens on Home.
  const tab = await signIn(page, 'advisor@sandbox.test', 'sandbox', '/home');
  await expect(tab.getByText('You are signed in')).toBeVisible();

  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await expect(page.getByTestId('connection')).toHaveText('Online');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/app-frame-light.png', animations: 'disabled' });

  // Switch team: the platform itself must now show the other team as current.
  await page.getByTestId('team-switcher').click();
  await page.getByRole('option', { name: 'Harbor Wealth Partners' }).click();
  await expect(page.getByText('You now work in Harbor Wealth Partners.')).toBeVisible();
  const advisor = servers.platform.control
    .store()
    .state.users.find((u) => u.email === 'advisor@sandbox.test');
  expect(advisor?.currentTeamId).toBe(2);

  // Every area in the navigation has its page.
  const navigation = page.getByRole('navigation');
  for (const area of ['Home', 'Accounts', 'Engagements', 'Forms', 'Reports', 'Activity', 'Settings']) {
    await navigation.getByRole('link', { name: area }).click();
    await expect(page.getByRole('heading', { name: area, level: 1 })).toBeVisible();
  }

  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-out-confirm').click();
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  // Signed out for real: the app frame is no longer reachable.
  await page.goto(`${servers.host.url}/#/accounts`);
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
});

test('a wrong password is refused with a clear error, and the app can cancel the wait', async ({
  page,
  servers,
}) => {
  await page.goto(servers.host.url);
  const tab = await signIn(page, 'advisor@sandbox.test', 'not-the-password');
  await expect(tab.getByRole('alert')).toHaveText(/email or password is incorrect/i);
  await expect(page.getByText('Finish signing in in your browser.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('sign-in')).toBeVisible();
  await expect(page.getByTestId('sign-in-error')).toHaveCount(0);
});

test('the app frame in dark mode follows the system', async ({ browser, servers }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  await admit(context, servers.host);
  const page = await context.newPage();
  await page.goto(servers.host.url);
  await page.screenshot({ path: 'test-results/screenshots/sign-in-dark.png', animations: 'disabled' });
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await expect(page.locator('html')).toHaveClass(/app-dark/);
  await page.screenshot({ path: 'test-results/screenshots/app-frame-dark.png', animations: 'disabled' });
  await context.close();
});

test('the printed address opens the preview once, in one browser, and leaves no token behind', async ({
  browser,
  servers,
}) => {
  const address = servers.host.openUrl();
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto(address);
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  expect(page.url()).toBe(`${servers.host.url}/#/sign-in?next=/home`);
  await expect(page).toHaveTitle(/development preview/);
  // The cookie is the browser's, not the page's scripts'.
  expect(
    await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
  ).toBe('');

  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(address);
  await expect(stranger.getByText('printed in its terminal')).toBeVisible();
  await expect(stranger.locator('meta[name="advisor-preview-key"]')).toHaveCount(0);

  // Opened as localhost, with an address of its own, the page works as under 127.0.0.1.
  await stranger.goto(servers.host.openUrl().replace('127.0.0.1', 'localhost'));
  await expect(stranger.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  await expect(stranger.getByTestId('profile-name')).toHaveText('Sandbox');
  await first.close();
  await other.close();
});
