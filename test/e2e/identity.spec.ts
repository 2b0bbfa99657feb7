// The data on a shared computer belongs to one user and one team (issue 12), end to end in the
// browser preview against the sandbox platform: the advisor signs in, switches to Harbor Wealth
// Partners (its accounts arrive at once, Main Street's are gone from the list), edits a Harbor
// client offline and signs out with the change still queued; the assistant (Main Street only)
// signs in on the same browser profile and finds none of Harbor's clients by search, and the
// advisor's change is neither lost nor sent under the assistant's sign-in; the advisor signs in
// again and it reaches the platform.

import type { Page } from '@playwright/test';
import {
  ADVISOR,
  expect,
  goOffline,
  goOnline,
  identityStores,
  localId,
  outboxStates,
  signIn,
  storeOf,
  test,
  type Servers,
} from './fixtures.ts';

// Two sign-ins and their first pulls: the screens are under test here, not the platform's budget.
test.use({ requestsPerMinute: 240 });

const ASSISTANT = 'assistant@sandbox.test';
const MAIN_STREET = 1;
const HARBOR = 2;
const EDITED = 'Queuedname';

/** The accounts of a team the list shows by default (not archived), as the platform holds them. */
function teamAccounts(servers: Servers, team: number) {
  return servers.platform.control.store().state.accounts.filter((a) => a.teamId === team && !a.archived);
}

/** The account as the platform holds it now (the sandbox's own state, not through the app). */
function onPlatform(servers: Servers, id: number) {
  return servers.platform.control.store().state.accounts.find((a) => a.id === id)!;
}

/** The little of the DOM the observer above reads (this file is typed for Node, without the DOM). */
interface DomLike {
  body: unknown;
  querySelector(selector: string): { textContent: string | null } | null;
}
type ObserverLike = new (callback: () => void) => { observe(target: unknown, options: object): void };

/** Searches the account list from its unfiltered state, so the count read is this search's. */
async function search(page: Page, text: string, found: 'found' | 'none'): Promise<void> {
  const box = page.getByTestId('account-search');
  const count = page.getByTestId('account-count');
  await box.fill('');
  await expect(count).toHaveText(/^\d+ accounts?$/);
  await box.fill(text);
  await expect(count, text).toHaveText(
    found === 'found' ? /^[1-9]\d* accounts? match(es)?$/ : '0 accounts match',
  );
}

test('another user on the same computer never sees the advisor’s team, and the advisor’s queued change waits for them', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(240_000);
  const mainStreet = teamAccounts(servers, MAIN_STREET);
  const harbor = teamAccounts(servers, HARBOR);
  expect(harbor.length).toBeGreaterThan(2);
  // A Harbor client whose name appears in no Main Street account (a search for it must find none).
  const taken = new Set(mainStreet.flatMap((a) => [a.client.last_name, a.client.email]));
  const harborOnly = harbor.filter((a) => !taken.has(a.client.last_name) && !taken.has(a.client.email));
  expect(harborOnly.length).toBeGreaterThan(2);
  const edited = harborOnly[0]!;
  const before = edited.client.first_name;

  // ---- The advisor signs in (Main Street) and switches to Harbor Wealth Partners ---------------
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await expect(page.getByTestId('account-count')).toHaveText(`${mainStreet.length} accounts`, {
    timeout: 30_000,
  });

  // Every state of the frame's team and the list's count through the switch (issue 23, point 18:
  // Harbor's count was shown under Main Street for a moment, the other way round here).
  await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: DomLike }).document;
    const seen: string[][] = [];
    (globalThis as unknown as { countsSeen: string[][] }).countsSeen = seen;
    const read = () => {
      const team = doc.querySelector('[data-testid="team-switcher"]')?.textContent?.trim() ?? '';
      const count = doc.querySelector('[data-testid="account-count"]')?.textContent?.trim() ?? '';
      seen.push([team, count]);
    };
    new (globalThis as unknown as { MutationObserver: ObserverLike }).MutationObserver(read).observe(
      doc.body,
      {
        subtree: true,
        childList: true,
        characterData: true,
      },
    );
  });
  await page.getByTestId('team-switcher').click();
  await page.getByRole('option', { name: 'Harbor Wealth Partners' }).click();
  // Syncing stops on Main Street's store first: a pull under way there ends before the switch.
  await expect(page.getByText('You now work in Harbor Wealth Partners.')).toBeVisible({ timeout: 60_000 });
  // Harbor's list is pulled at once, whole (a team never pulled here), and Main Street's is gone.
  await expect(page.getByTestId('account-count')).toHaveText(`${harbor.length} accounts`, {
    timeout: 30_000,
  });
  const seen = await page.evaluate(() => (globalThis as unknown as { countsSeen: string[][] }).countsSeen);
  expect(seen.some(([team]) => team === 'Harbor Wealth Partners')).toBe(true);
  if (mainStreet.length !== harbor.length)
    expect(
      seen.filter(
        ([team, count]) => team === 'Harbor Wealth Partners' && count === `${mainStreet.length} accounts`,
      ),
      'Main Street’s count under Harbor’s name',
    ).toEqual([]);
  const harborStore = await storeOf(servers, ADVISOR, HARBOR);
  expect((await identityStores(page)).sort()).toEqual(
    [await storeOf(servers, ADVISOR, MAIN_STREET), harborStore].sort(),
  );

  // ---- Offline, the advisor edits a Harbor client: the change is queued ------------------------
  const id = await localId(page, edited.id, harborStore);
  await page.evaluate(
    (hash) => ((globalThis as unknown as { location: { hash: string } }).location.hash = hash),
    `#/accounts/${id}`,
  );
  await expect(page.getByTestId('workspace-title')).toContainText(before);
  await goOffline(context, servers);
  await expect(page.getByTestId('sync-status')).toContainText('Offline');
  await page.getByTestId('edit-account').click();
  await page.locator('#account-client-first_name').fill(EDITED);
  // The workspace reads the account again meanwhile (its pull fails offline): what was typed stays.
  await expect(page.getByTestId('sync-status')).toContainText('Offline');
  await page.waitForTimeout(1000);
  await expect(page.locator('#account-client-first_name')).toHaveValue(EDITED);
  await page.getByTestId('account-save').click();
  await expect(page.getByTestId('account-form')).toBeHidden();
  await expect(page.getByTestId('sync-status')).toContainText('1 to send');

  // ---- The advisor signs out (still offline): the change stays queued, on this computer only ---
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-out-unsent')).toContainText(
    '1 change has not reached the platform yet.',
  );
  await page.getByTestId('sign-out-confirm').click();
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  expect(await outboxStates(page, harborStore)).toEqual(['queued']);
  expect(onPlatform(servers, edited.id).client.first_name).toBe(before);
  await goOnline(context, servers);

  // ---- The assistant signs in on the same profile: Main Street's accounts, none of Harbor's ----
  await signIn(page, ASSISTANT);
  await expect(page.getByTestId('user-name')).toHaveText('Sam Rivera');
  await expect(page.getByTestId('account-count')).toHaveText(`${mainStreet.length} accounts`, {
    timeout: 30_000,
  });
  // The search finds what is the assistant's (so an empty result below proves something) …
  await search(page, mainStreet[0]!.client.email, 'found');
  // … and none of the advisor's Harbor clients, by name or email.
  for (const account of harborOnly.slice(0, 3)) {
    await search(page, account.client.last_name, 'none');
    await search(page, account.client.email, 'none');
  }
  // The command palette searches the same store: the assistant's clients, none of Harbor's.
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  const find = palette.getByRole('combobox');
  await find.fill(mainStreet[0]!.client.last_name);
  await expect(palette.getByRole('option').first()).toBeVisible();
  await find.fill(edited.client.last_name);
  await expect(palette.getByTestId('palette-empty')).toBeVisible();
  await page.keyboard.press('Escape');

  // The assistant syncs (their list came in), and the advisor's change went nowhere with them.
  expect(await identityStores(page)).toContain(await storeOf(servers, ASSISTANT, MAIN_STREET));
  expect(onPlatform(servers, edited.id).client.first_name).toBe(before);
  expect(await outboxStates(page, harborStore)).toEqual(['queued']);
  // The assistant has nothing unsent: the advisor's queued change is not theirs to count or send.
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-out-dialog')).toBeVisible();
  await expect(page.getByTestId('sign-out-unsent')).toHaveCount(0);
  await page.getByTestId('sign-out-confirm').click();
  await expect(page.getByRole('heading', { name: 'Sign in to your advisory platform' })).toBeVisible();
  expect(onPlatform(servers, edited.id).client.first_name).toBe(before);

  // ---- The advisor signs in again: Harbor (current on the platform), the change goes out -------
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await expect.poll(() => onPlatform(servers, edited.id).client.first_name, { timeout: 60_000 }).toBe(EDITED);
  await expect.poll(() => outboxStates(page, harborStore), { timeout: 30_000 }).toEqual([]);
  await expect(page.getByTestId('account-count')).toHaveText(`${harbor.length} accounts`);
});
