// Signing out with a change that has not reached the platform (the platform refuses writes for
// now): the dialog counts it; asking to remove this computer's copy asks a second time, naming the
// change that would be lost. Declined, the copy (and the change) stay; confirmed, every store of
// the advisor's (one per team) is gone.

import type { Page } from '@playwright/test';
import {
  activeAccounts,
  expect,
  localId,
  openList,
  outboxStates,
  renameClient,
  storeOf,
  shoot,
  signIn,
  test,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

/** The names of the page's IndexedDB databases. */
function databases(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const idb = (globalThis as unknown as { indexedDB: { databases(): Promise<{ name?: string }[]> } })
      .indexedDB;
    return (await idb.databases()).map((d) => d.name ?? '');
  });
}

const SIGN_IN = { name: 'Sign in to your advisory platform' };

test("sign-out counts unsent changes, and removes this computer's copy only when confirmed", async ({
  page,
  servers,
}) => {
  await openList(page, servers);
  // Every write is refused for an hour: the change waits, unsent.
  servers.platform.control.setFaults({
    probability: 1,
    kinds: ['unavailable'],
    methods: ['POST', 'PUT', 'DELETE'],
    retryAfter: 3600,
  });
  const [account] = activeAccounts(servers);
  await renameClient(page, await localId(page, account!.id), 'Unsent');
  const status = page.getByTestId('sync-status');
  // Whatever else the sync does meanwhile (pulls may still run: the sign-out stops them).
  await expect(status).toHaveAttribute('aria-label', /1 change waits to be sent/);

  // Declined: nothing is removed, and the sign-out keeps the copy.
  await page.getByTestId('sign-out').click();
  const dialog = page.getByTestId('sign-out-dialog');
  await expect(dialog.getByTestId('sign-out-unsent')).toContainText(
    '1 change has not reached the platform yet.',
  );
  await dialog.getByTestId('sign-out-remove').click();
  await dialog.getByTestId('sign-out-confirm').click();
  await expect(dialog.getByTestId('sign-out-loss')).toContainText(
    'The 1 change that has not reached the platform will be lost for good.',
  );
  await shoot(page, 'sign-out-confirm-removal');
  await dialog.getByTestId('sign-out-keep').click();
  await expect(dialog.getByTestId('sign-out-remove')).toBeVisible();
  await dialog.getByTestId('sign-out-remove').click();
  await dialog.getByTestId('sign-out-confirm').click();
  await expect(page.getByRole('heading', SIGN_IN)).toBeVisible();
  const store = await storeOf(servers);
  expect(await databases(page)).toContain(store);
  expect(await outboxStates(page)).toHaveLength(1);

  // Back in, the change still waits; confirmed, the copy is gone. (Loaded afresh: the database
  // connections the helpers above opened in the page would hold the deletion back.)
  await page.reload();
  await signIn(page);
  await expect(status).toHaveAttribute('aria-label', /1 change waits to be sent/, { timeout: 30_000 });
  await page.getByTestId('sign-out').click();
  await dialog.getByTestId('sign-out-remove').click();
  await dialog.getByTestId('sign-out-confirm').click();
  await dialog.getByTestId('sign-out-remove-confirm').click();
  await expect(page.getByRole('heading', SIGN_IN)).toBeVisible();
  await expect.poll(() => databases(page)).not.toContain(store);
});
