// A member's PIN in the browser preview against the sandbox platform: Show reads it from the
// platform and shows the one in force; offline the tab says the PIN needs the platform and shows
// none; a PIN reset's new PIN shows on the next Show. Then everything the page keeps (every
// IndexedDB database, localStorage, sessionStorage) is searched: no PIN, old or new, is there.

import type { AccountRecord } from '../platform/model.ts';
import {
  activeAccounts,
  expect,
  goOffline,
  goOnline,
  openList,
  pageStorage,
  test,
  type Servers,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

const clientOf = (servers: Servers, id: number) =>
  servers.platform.control.store().state.accounts.find((a) => a.id === id)!.client;

test('a member’s PIN is read when asked, never kept on this computer', async ({ page, context, servers }) => {
  test.setTimeout(120_000);
  await openList(page, servers);
  const account: AccountRecord = activeAccounts(servers).find((a) => a.client.email)!;
  // The sandbox's records are live: the reset changes `account.client.pin` itself, maybe before
  // the click has returned, so the PIN of before is kept here.
  const firstPin = account.client.pin;
  const pins = new Set([firstPin]);

  await page.getByTestId('account-search').fill(account.client.email);
  await expect(page.getByTestId('account-count')).toHaveText('1 account matches');
  await page.getByTestId('account-name').first().click();
  await expect(page.getByTestId('workspace-title')).toContainText(account.client.first_name);
  await page.getByTestId('tab-members').click();

  const pin = page.getByTestId('member-pin');
  const toggle = page.getByTestId('pin-toggle');
  const problem = page.getByTestId('pin-problem');
  await expect(page.getByTestId('security-status')).not.toHaveText('Unknown', { timeout: 30_000 });
  await expect(pin).toHaveText('••••••');

  // Show: read from the platform, the PIN in force; hidden again, it is gone from the page.
  await toggle.click();
  await expect(pin).toHaveText(account.client.pin);
  await toggle.click();
  await expect(pin).toHaveText('••••••');

  // Offline: said plainly, no PIN shown.
  await goOffline(context, servers);
  await expect(page.getByTestId('sync-status')).toContainText('Offline');
  await toggle.click();
  await expect(problem).toHaveText('The PIN can be shown when the platform can be reached.');
  await expect(pin).toHaveText('••••••');
  await goOnline(context, servers);
  await expect(page.getByTestId('sync-status')).not.toContainText('Offline');

  // A reset: the new PIN shows on the next Show.
  await page.getByTestId('reset-pin').click();
  await expect.poll(() => clientOf(servers, account.id).pin, { timeout: 30_000 }).not.toBe(firstPin);
  const fresh = clientOf(servers, account.id).pin;
  pins.add(fresh);
  await expect(page.getByTestId('reset-pin')).toHaveText('Reset PIN', { timeout: 30_000 });
  await toggle.click();
  await expect(pin).toHaveText(fresh);

  // Nowhere in what the page keeps.
  for (const a of activeAccounts(servers)) for (const m of [a.client, a.coclient]) if (m) pins.add(m.pin);
  const kept = await pageStorage(page);
  expect(Object.keys(kept).some((k) => k.endsWith('/memberSecurity'))).toBe(true);
  for (const [where, text] of Object.entries(kept))
    for (const p of pins)
      expect(new RegExp(`(?<!\\d)${p}(?!\\d)`).test(text), `${where} holds PIN ${p}`).toBe(false);
});
