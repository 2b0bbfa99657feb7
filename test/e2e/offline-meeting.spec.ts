// The offline meeting of issue 5, end to end in the browser preview against the sandbox platform:
// the advisor signs in, keeps an existing household available offline, loses the network, takes
// on a new prospect with a co-client and enters their household (assets, liabilities, income per
// member, a child, a goal for that child, member details and a photo), reloads the app while still
// offline and finds all of it waiting to be sent, then comes back online and every change reaches
// the platform once (checked through its own API). Then a change the platform refuses (422) is
// fixed from its form, and a conflict made through the platform's API is resolved side by side.
// Screenshots light and dark go to test-results/screenshots/offline-meeting-*.png.

import type { Locator, Page } from '@playwright/test';
import { portraitPng } from '../platform/samples.ts';
import {
  activeAccounts,
  ADVISOR,
  bothThemes,
  expect,
  findInList,
  goOffline,
  goOnline,
  localId,
  openList,
  outboxStates,
  platformApi,
  test,
} from './fixtures.ts';

// A long scenario: the screens are under test here, not the platform's budget of 60 a minute.
test.use({ requestsPerMinute: 240 });

const PROSPECT = { first: 'Hana', last: 'Lindqvist', email: 'hana.lindqvist@example.com' };
const COCLIENT = { first: 'Jonas', last: 'Lindqvist', email: 'jonas.lindqvist@example.com' };
const CHILD = 'Maja Lindqvist';

/** Every change has reached the platform: nothing waits, nothing was refused. */
async function allSent(page: Page): Promise<void> {
  await expect.poll(() => outboxStates(page), { timeout: 90_000, intervals: [250, 500, 1000] }).toEqual([]);
  await expect(page.getByTestId('sync-status')).not.toContainText(/to send|to fix|sign in|stopped/i);
}

/** A field by its label, which reads "Name (required)" (or "Name*(required)" as text) when required. */
const named = (label: string) =>
  new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?\\s*(\\(required\\))?$`);

/**
 * Picks an option of a select or relation picker by its visible words, in the list that this
 * select opened (aria-controls): another select's list may still be on its way out.
 */
async function choose(scope: Locator, label: string, option: string): Promise<void> {
  const select = scope.getByRole('combobox', { name: named(label) });
  await select.click();
  await expect(select).toHaveAttribute('aria-expanded', 'true');
  const list = await select.getAttribute('aria-controls');
  expect(list, `the ${label} select names its list`).toBeTruthy();
  await scope.page().locator(`[id="${list}"]`).getByRole('option', { name: option, exact: true }).click();
}

/** A date as the user types it in the page's locale (`05/14/2016` in the US); stored as `2016-05-14`. */
function typedDate(page: Page, iso: string): Promise<string> {
  return page.evaluate((day) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const numeric = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
    return new Intl.DateTimeFormat(undefined, numeric).format(new Date(y, m - 1, d));
  }, iso);
}

/** Types an amount key by key, as the advisor does (a number input formats as it is typed). */
async function amount(scope: Locator, label: string, value: number): Promise<void> {
  const input = scope.getByRole('spinbutton', { name: named(label) });
  await input.fill('');
  await input.pressSequentially(String(value));
  await input.press('Tab');
}

/** Moves to a financial section from the list on the left. */
async function section(page: Page, key: string): Promise<void> {
  await page.locator(`[data-section="${key}"]`).click();
  await expect(page.locator(`[data-section="${key}"]`)).toHaveAttribute('aria-current', 'page');
}

const row = (page: Page, text: string) => page.getByTestId('section-table').locator('tr', { hasText: text });

interface Listed {
  id: string;
  name?: string;
  first_name?: string;
  [field: string]: unknown;
}

test('an offline meeting: a new household entered offline, found after a reload, synced once', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const api = <T>(method: string, path: string, body?: unknown) =>
    platformApi<T>(servers, method, path, body);

  // ---- Before the meeting: signed in, the list filled, a household kept offline -----------------
  await openList(page, servers);
  const store = servers.platform.control.store();
  // Not a favorite: a favorite is kept offline already, and this one is marked by hand.
  const household = activeAccounts(servers).find(
    (a) => a.coclient && !a.favorited && (store.sections(a).sections.assets?.length ?? 0) > 0,
  );
  if (!household) throw new Error('The seed has no household with assets.');
  const householdAsset = String(store.sections(household).sections.assets?.[0]?.fields.name);

  // The list settles once the first pull's quality scores and stages are in.
  await expect(page.locator('[data-sync="pending"]')).toHaveCount(0);
  await findInList(page, household);
  await page.keyboard.press('Tab');
  await page.getByTestId('account-name').filter({ hasText: household.client.last_name }).click();
  await expect(page.getByTestId('workspace-title')).toContainText(household.client.first_name);
  await page.getByText('Available offline').click();
  await expect(page.locator('#available-offline')).toBeChecked();
  // The switch waits while the account is pulled in full, with its progress; then the note says
  // when it was last synced.
  await expect(page.locator('#available-offline')).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByLabel('Pull progress')).toBeHidden();
  await expect(page.getByTestId('synced-note')).toContainText('Last synced');
  const householdId = await localId(page, household.id);

  // ---- The network goes ------------------------------------------------------------------------
  await goOffline(context, servers);
  await expect(page.getByTestId('connection')).toHaveText('Offline');

  // A new prospect with a co-client, through the account form.
  await page.getByRole('link', { name: 'Back to the accounts' }).click();
  await page.getByTestId('account-search').fill('');
  await page.getByTestId('new-account').click();
  const form = page.getByRole('dialog', { name: 'New account' });
  await form.getByRole('button', { name: 'Prospect', exact: true }).click();
  await form.getByLabel('First name').fill(PROSPECT.first);
  await form.getByLabel('Last name').fill(PROSPECT.last);
  await form.getByLabel('Email').fill(PROSPECT.email);
  await form.getByTestId('add-coclient').click();
  const co = form.getByRole('region', { name: 'Co-client' });
  await co.getByLabel('First name').fill(COCLIENT.first);
  await co.getByLabel('Last name').fill(COCLIENT.last);
  await co.getByLabel('Email').fill(COCLIENT.email);
  await form.getByTestId('account-save').click();
  await expect(form).toBeHidden();
  const listed = page.getByRole('row').filter({ hasText: `${PROSPECT.first} ${PROSPECT.last}` });
  await expect(listed.locator('[data-sync="pending"]')).toHaveCount(1);
  await bothThemes(page, 'offline-meeting-accounts-list');

  // Open it: its workspace works from the local store alone.
  await listed.getByTestId('account-name').click();
  await expect(page.getByTestId('workspace-title')).toHaveText(
    `${PROSPECT.first} ${PROSPECT.last} & ${COCLIENT.first} ${COCLIENT.last}`,
  );
  await expect(page.getByTestId('synced-note')).toHaveText(
    'Not on the platform yet: it is sent with your changes.',
  );

  // Assets, from the keyboard: Alt+F to the sections, Alt+N adds, Alt+N again saves and adds
  // the next, Ctrl+S saves the last.
  await page.keyboard.press('Alt+F');
  await section(page, 'assets');
  await page.keyboard.press('Alt+N');
  const dialog = page.getByTestId('item-dialog');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New asset');
  await expect(dialog.getByLabel(named('Name'))).toBeFocused();
  await page.keyboard.type('Lake cabin');
  await choose(dialog, 'Type', 'Secondary residence');
  await choose(dialog, 'Owner', 'Joint');
  await amount(dialog, 'Current value', 420_000);
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New asset');
  await expect(dialog.getByLabel(named('Name'))).toHaveValue('');
  await page.keyboard.type('Sailboat');
  await choose(dialog, 'Type', 'Other');
  await choose(dialog, 'Owner', `${COCLIENT.first} ${COCLIENT.last}`);
  await amount(dialog, 'Current value', 36_500);
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  // Focus is back on "Add" for the next one.
  await expect(page.getByTestId('add-item')).toBeFocused();
  for (const name of ['Lake cabin', 'Sailboat'])
    await expect(row(page, name).locator('[data-badge="pending"]')).toBeVisible();

  // A liability.
  await page.keyboard.press('Alt+ArrowDown');
  await section(page, 'liabilities');
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New liability');
  await dialog.getByLabel(named('Name')).fill('Boat loan');
  await choose(dialog, 'Type', 'Personal loan');
  await choose(dialog, 'Owner', `${COCLIENT.first} ${COCLIENT.last}`);
  await amount(dialog, 'Current value', 18_000);
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  await expect(row(page, 'Boat loan').locator('[data-badge="pending"]')).toBeVisible();

  // Income: one record per member, a form on the page.
  await section(page, 'income:client');
  const clientIncome = page.getByTestId('single-income:client');
  await amount(clientIncome, 'Employment', 135_000);
  await choose(clientIncome, 'Employment: how often', 'Yearly');
  await amount(clientIncome, 'Dividends', 3_200);
  await page.keyboard.press('Control+s');
  await expect(clientIncome.locator('[data-badge="pending"]')).toBeVisible();
  await section(page, 'income:coclient');
  const coIncome = page.getByTestId('single-income:coclient');
  await amount(coIncome, 'Employment', 88_000);
  await choose(coIncome, 'Employment: how often', 'Yearly');
  await page.keyboard.press('Control+s');
  await expect(coIncome.locator('[data-badge="pending"]')).toBeVisible();

  // A child, then a goal with that child as beneficiary (the relation picker offers the family).
  await section(page, 'family');
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New family member');
  await dialog.getByLabel(named('First name')).fill('Maja');
  await dialog.getByLabel(named('Last name')).fill('Lindqvist');
  await choose(dialog, 'Relationship', 'Child');
  await dialog.getByLabel(named('Date of birth')).fill(await typedDate(page, '2016-05-14'));
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  await expect(row(page, 'Maja').locator('[data-badge="pending"]')).toBeVisible();

  await section(page, 'goals');
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New goal');
  await choose(dialog, 'Type', 'College');
  await dialog.getByLabel(named('Name')).fill('College for Maja');
  await choose(dialog, 'Owner', 'Joint');
  await amount(dialog, 'Target amount', 160_000);
  await dialog.getByLabel(named('Target date')).fill(await typedDate(page, '2034-09-01'));
  await choose(dialog, 'Beneficiary', `${CHILD} (child)`);
  await choose(dialog, 'Priority', 'High');
  await bothThemes(page, 'offline-meeting-section-form');
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  const goal = row(page, 'College for Maja');
  await expect(goal).toContainText(CHILD);
  await expect(goal.locator('[data-badge="pending"]')).toBeVisible();

  // Member details and a photo.
  await page.keyboard.press('Alt+M');
  const details = page.getByTestId('single-details:client');
  await expect(details).toBeVisible();
  await choose(details, 'Marital status', 'Married');
  await details.getByLabel(named('Address line 1')).fill('12 Harbor Lane');
  await details.getByLabel(named('City')).fill('Portland');
  // Countries and US states are chosen by name; their codes are stored.
  await choose(details, 'Country', 'United States');
  await choose(details, 'State', 'Maine');
  await details.getByLabel(named('ZIP code')).fill('04101');
  await page.keyboard.press('Control+s');
  await expect(details.getByTestId('unsaved')).toBeHidden();
  await expect(details.locator('[data-badge="pending"]')).toBeVisible();
  await page
    .getByTestId('member-photo')
    .getByTestId('file-input')
    .setInputFiles({ name: 'hana.png', mimeType: 'image/png', buffer: portraitPng(5) });
  await expect(page.getByTestId('member-photo')).toContainText('waiting to upload');

  // ---- The app is reloaded, still offline: everything is still there, waiting ------------------
  await page.reload();
  await expect(page.getByTestId('connection')).toHaveText('Offline');
  await expect(page.getByTestId('workspace-title')).toContainText(PROSPECT.first);
  const shown = page.getByTestId('single-details:client');
  await expect(shown.locator('[data-badge="pending"]')).toBeVisible();
  await expect(shown.getByLabel(named('City'))).toHaveValue('Portland');
  await expect(shown.getByRole('combobox', { name: 'Marital status' })).toHaveText('Married');
  await expect(page.getByTestId('member-photo')).toContainText('hana.png');
  await expect(page.getByTestId('member-photo')).toContainText('waiting to upload');
  await expect(page.getByTestId('member-photo').locator('img')).toBeVisible();

  await page.keyboard.press('Alt+F');
  for (const [key, names] of [
    ['assets', ['Lake cabin', 'Sailboat']],
    ['liabilities', ['Boat loan']],
    ['family', ['Maja']],
    ['goals', ['College for Maja']],
  ] as const) {
    await section(page, key);
    for (const name of names) await expect(row(page, name).locator('[data-badge="pending"]')).toBeVisible();
  }
  await expect(row(page, 'College for Maja')).toContainText(CHILD);
  await section(page, 'income:client');
  await expect(page.getByTestId('single-income:client').locator('[data-badge="pending"]')).toBeVisible();
  await expect(
    page.getByTestId('single-income:client').getByRole('spinbutton', { name: 'Employment', exact: true }),
  ).toHaveValue('$135,000');
  await section(page, 'assets');
  await bothThemes(page, 'offline-meeting-workspace-pending');

  // The household kept offline opens too, with its sections.
  await page.goto(`${servers.host.url}/#/accounts/${householdId}?tab=financials&section=assets`);
  await expect(page.getByTestId('workspace-title')).toContainText(household.client.first_name);
  await expect(page.getByTestId('section-table')).toContainText(householdAsset);
  await expect(page.getByTestId('synced-note')).toContainText('Last synced');

  // ---- Back online: every change reaches the platform, once ------------------------------------
  await goOnline(context, servers);
  await expect(page.getByTestId('connection')).toHaveText('Online', { timeout: 30_000 });
  await allSent(page);

  const found = await api<{ items: { id: number; type: string }[] }>(
    'GET',
    `/api/v2/accounts?query=${encodeURIComponent(PROSPECT.email)}&type=all`,
  );
  expect(found.status).toBe(200);
  expect(found.body.items).toHaveLength(1);
  const serverId = found.body.items[0]!.id;
  expect(found.body.items[0]!.type).toBe('PROSPECT');
  const v0 = `/api/v0/accounts/${serverId}`;
  const list = async (path: string) => {
    const res = await api<Listed[]>('GET', `${v0}${path}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const assets = await list('/assets');
  expect(assets.map((a) => a.name).sort()).toEqual(['Lake cabin', 'Sailboat']);
  expect(assets.find((a) => a.name === 'Lake cabin')).toMatchObject({
    type: 'secondary-residence',
    owner: { type: 'joint' },
    current_value: { value: 420_000 },
  });
  const liabilities = await list('/liabilities');
  expect(liabilities).toHaveLength(1);
  expect(liabilities[0]).toMatchObject({ name: 'Boat loan', type: 'personal', owner: { type: 'coclient' } });
  const family = await list('/family');
  expect(family).toHaveLength(1);
  expect(family[0]).toMatchObject({ first_name: 'Maja', relationship: 'child', birth_date: '2016-05-14' });
  const goals = await list('/goals');
  expect(goals).toHaveLength(1);
  expect(goals[0]).toMatchObject({
    name: 'College for Maja',
    type: 'college',
    priority: 'high',
    beneficiary: { type: 'FamilyMember', id: family[0]!.id },
    target: { value: 160_000, date: '2034-09-01' },
  });
  expect((await api('GET', `${v0}/client/income`)).body).toMatchObject({
    employment: { value: 135_000, frequency: 'yearly' },
    dividends: { value: 3_200 },
  });
  expect((await api('GET', `${v0}/coclient/income`)).body).toMatchObject({
    employment: { value: 88_000, frequency: 'yearly' },
  });
  const member = await api<{ marital_status: string; address: object; photo: { url: string } | null }>(
    'GET',
    `${v0}/client/details`,
  );
  expect(member.body).toMatchObject({
    marital_status: 'married',
    address: { line1: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101', country: 'US' },
    photo: { filename: 'hana.png', filetype: 'image/png' },
  });
  const photo = await fetch(member.body.photo!.url, {
    headers: { authorization: `Bearer ${servers.platform.control.token(ADVISOR).access_token}` },
  });
  expect(photo.status).toBe(200);
  expect(Buffer.from(await photo.arrayBuffer()).equals(portraitPng(5))).toBe(true);

  // In the app, the records now say so.
  await page.goto(`${servers.host.url}/#/accounts?`);
  await page.getByTestId('account-search').fill(PROSPECT.last);
  await expect(page.getByTestId('account-count')).toHaveText('1 account matches');
  await page
    .getByTestId('account-name')
    .filter({ hasText: `${PROSPECT.first} ${PROSPECT.last}` })
    .click();
  await expect(page.getByTestId('synced-note')).toContainText('Last synced', { timeout: 30_000 });

  // ---- A change the platform refuses (422), fixed from its form --------------------------------
  // The form checks what the app can know where it is typed (required fields, ranges: a risk score
  // of 150 is refused before anything is queued; a country is chosen from the list, by name; the
  // client's e-mail given to the co-client, as each member needs an address of their own). What
  // the app cannot know is refused by the platform, its message in the advisor's words: here the
  // client's new address, given through the platform's API a moment ago and not pulled yet.
  await page.keyboard.press('Alt+M');
  await page.locator('[data-member="coclient"]').click();
  const coDetails = page.getByTestId('single-details:coclient');
  await choose(coDetails, 'Citizenship', 'Sweden');
  await amount(coDetails, 'Risk score', 150);
  await page.keyboard.press('Control+s');
  const risk = coDetails.locator('[data-field="risk_score"]');
  await expect(risk.getByTestId('field-messages')).toHaveText('Risk score: enter a number from 0 to 100.');
  await expect(coDetails.locator('[data-badge="pending"]')).toHaveCount(0);
  await amount(coDetails, 'Risk score', 40);
  await expect(risk.getByTestId('field-messages')).toHaveCount(0);
  const coEmail = coDetails.getByRole('textbox', { name: named('E-mail') });
  const refusedEmail = 'E-mail: the other member of the account has this address: enter this member’s own.';
  const email = coDetails.locator('[data-field="email"]');
  await coEmail.fill(PROSPECT.email);
  await page.keyboard.press('Control+s');
  await expect(email.getByTestId('field-messages')).toHaveText(refusedEmail);
  await expect(coDetails.locator('[data-badge="pending"]')).toHaveCount(0);
  const clientsNew = 'hana.l@example.com';
  expect((await api('PUT', `${v0}/client/details`, { email: clientsNew })).status).toBe(200);
  await coEmail.fill(clientsNew);
  await page.keyboard.press('Control+s');
  await expect(coDetails.locator('[data-badge="rejected"]')).toBeVisible({ timeout: 30_000 });
  await expect(email.getByTestId('field-messages')).toHaveText(refusedEmail);
  await expect(coDetails.getByTestId('form-error')).toBeVisible();
  await bothThemes(page, 'offline-meeting-refused');
  // The sync panel lists the refusal in the same words, naming whose record it is.
  await page.getByTestId('sync-status').click();
  const refused = page.getByTestId('sync-panel').getByTestId('rejected-entry');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText(`${COCLIENT.first} ${COCLIENT.last}`);
  await expect(refused).toContainText(refusedEmail);
  await bothThemes(page, 'offline-meeting-sync-panel');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sync-panel')).toBeHidden();
  await coEmail.fill(COCLIENT.email);
  await page.keyboard.press('Control+s');
  await expect(coDetails.locator('[data-badge="synced"]')).toBeVisible({ timeout: 30_000 });
  await expect(email.getByTestId('field-messages')).toHaveCount(0);
  await allSent(page);
  expect((await api('GET', `${v0}/coclient/details`)).body).toMatchObject({
    citizenship: { country: 'SE' },
    risk_score: 40,
    email: COCLIENT.email,
  });

  // ---- A conflict: renamed here offline, renamed through the platform's API meanwhile -----------
  await page.keyboard.press('Alt+F');
  await section(page, 'assets');
  await goOffline(context, servers);
  await row(page, 'Sailboat').click();
  await expect(page.getByTestId('item-dialog-title')).toContainText('Sailboat');
  await dialog.getByLabel(named('Name')).fill('Sailboat (mine)');
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  const sailboat = assets.find((a) => a.name === 'Sailboat')!;
  const put = await api('PUT', `${v0}/assets/${encodeURIComponent(sailboat.id)}`, {
    name: 'Sailboat (theirs)',
  });
  expect(put.status).toBe(200);
  await goOnline(context, servers);
  const mine = row(page, 'Sailboat (mine)');
  await expect(mine.locator('[data-badge="conflict"]')).toBeVisible({ timeout: 60_000 });
  await mine.click();
  const conflict = page.getByTestId('conflict');
  await expect(conflict.locator('tr[data-field="name"] [data-testid="conflict-theirs"]')).toHaveText(
    'Sailboat (theirs)',
  );
  await expect(conflict.locator('tr[data-field="name"] [data-testid="conflict-mine"]')).toHaveText(
    'Sailboat (mine)',
  );
  await bothThemes(page, 'offline-meeting-conflict');
  await conflict.getByTestId('conflict-mine-all').click();
  await expect(conflict).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(mine.locator('[data-badge="synced"]')).toBeVisible({ timeout: 60_000 });
  await allSent(page);
  const renamed = await list('/assets');
  expect(renamed.map((a) => a.name).sort()).toEqual(['Lake cabin', 'Sailboat (mine)']);
});
