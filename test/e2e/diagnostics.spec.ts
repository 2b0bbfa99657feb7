// Settings → "Save diagnostics…" in the browser preview: after a real sign-in and sync, the file
// lands where the app says, holds the sync's reports, and nothing a client or a sign-in could be
// recognised by.

import { readFileSync } from 'node:fs';
import { ADVISOR, activeAccounts, bothThemes, expect, openList, test } from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

test('Save diagnostics… writes the sync reports and no client data or token', async ({ page, servers }) => {
  await openList(page, servers);
  // An account opened: its details and sections are pulled, and that pull is reported too.
  await page.getByTestId('account-name').first().click();
  await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('synced-note')).toContainText('Last synced', { timeout: 60_000 });

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Diagnostics', level: 2 })).toBeVisible();
  await bothThemes(page, 'settings-diagnostics');

  await page.getByRole('button', { name: 'Save diagnostics…' }).click();
  const toast = page.getByText(/^Saved to /);
  await expect(toast).toBeVisible();
  const path = /^Saved to (.+?)\. It holds/.exec((await toast.textContent()) ?? '')?.[1];
  expect(path, 'the toast names the saved file').toBeTruthy();
  const log = readFileSync(path!, 'utf8');

  // What support needs: the start-up facts and the sync's pulls of the list and of the account.
  expect(log).toContain('"pull":"account-list"');
  expect(log).toContain('"pull":"account"');
  expect(log).toMatch(/ info start \{.*"platformV2":"http:\/\/127\.0\.0\.1:\d+"/);

  // Never a client's name, email, phone or PIN, nor the advisor's sign-in (the integration test
  // test/integration/diagnostics.test.ts also looks for the tokens the transport used).
  const secrets = new Set<string>([ADVISOR]);
  for (const account of activeAccounts(servers))
    for (const member of [account.client, account.coclient]) {
      if (!member) continue;
      for (const value of [
        member.first_name,
        member.last_name,
        member.email,
        member.phone.number,
        member.pin,
      ])
        // Short digit runs (a PIN) also occur in timings and ids by chance: the integration test
        // checks PINs against a log whose every number it knows.
        if (value && value.length > 3 && !/^\d{1,8}$/.test(value)) secrets.add(value);
    }
  for (const secret of secrets) expect(log, `the log holds ${secret}`).not.toContain(secret);
});
