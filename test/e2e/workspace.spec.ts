// An account's workspace in the browser preview against the sandbox platform: opened from the
// local store after sign-in, its overview, a section table and an item form, and a real conflict
// (an edit made here offline, the same field changed through the platform's API meanwhile)
// resolved side by side. Screenshots light and dark go to test-results/screenshots/.

import type { Page } from '@playwright/test';
import type { AccountRecord } from '../platform/model.ts';
import {
  ADVISOR,
  bothThemes as themes,
  expect,
  goOffline,
  goOnline,
  localId,
  signIn,
  test,
  type Servers,
} from './fixtures.ts';

// A long scenario: the screens are under test here, not the platform's budget of 60 a minute.
test.use({ requestsPerMinute: 240 });

/** A household of the advisor's team with a co-client, one of the advisor's favorites. */
function household(servers: Servers): AccountRecord {
  const store = servers.platform.control.store();
  const advisor = store.state.users.find((u) => u.email === ADVISOR)!;
  const found = store.state.accounts.find(
    (a) => a.teamId === advisor.currentTeamId && a.coclient && a.favorited && !a.archived,
  );
  if (!found) throw new Error('The seed has no household with a co-client.');
  return found;
}

const usd = (value: number, frequency = 'one-time') => ({ value, frequency });

/**
 * The household's finances as an advisor entered them earlier, through the platform's 0.0.1
 * interface (the seed has none): what the app then pulls when the account is opened.
 */
async function furnish(servers: Servers, accountId: number): Promise<void> {
  const token = servers.platform.control.token(ADVISOR).access_token;
  const base = `${servers.platform.url}/api/v0/accounts/${accountId}`;
  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const client = { type: 'client', id: null };
  const coclient = { type: 'coclient', id: null };
  const joint = { type: 'joint', id: null };
  const emma = await send('POST', '/family', {
    relationship: 'child',
    first_name: 'Emma',
    last_name: 'Reyes',
    gender: 'female',
    birth_date: '2012-04-03',
    dependent: true,
    college_type: 'private',
    college_start: 2030,
    college_end: 2034,
  });
  await send('POST', '/family', {
    relationship: 'child',
    first_name: 'Leo',
    last_name: 'Reyes',
    birth_date: '2015-09-21',
    dependent: true,
  });
  await send('POST', '/contacts', {
    type: 'accountant',
    first_name: 'Jane',
    last_name: 'Park',
    company: 'Park & Lee CPAs',
    email: 'jane@parklee.example',
  });
  await send('POST', '/client/employment', {
    employer: 'Acme Robotics',
    position: 'Engineering manager',
    duration: 8,
    salary: usd(145_000, 'yearly'),
  });
  await send('POST', '/coclient/employment', {
    employer: 'City Hospital',
    position: 'Nurse practitioner',
    duration: 11,
    salary: usd(98_000, 'yearly'),
  });
  await send('POST', '/client/income', {
    employment: usd(145_000, 'yearly'),
    dividends: usd(2_400, 'yearly'),
  });
  await send('POST', '/coclient/income', { employment: usd(98_000, 'yearly'), other: usd(5_000) });
  await send('POST', '/expenses-fixed', {
    mortgage: usd(2_850, 'monthly'),
    health_insurance: usd(620, 'monthly'),
    life_insurance: usd(95, 'monthly'),
    auto_insurance: usd(1_450, 'yearly'),
  });
  await send('POST', '/expenses-tax', {
    federal_income: usd(38_000, 'yearly'),
    state_income: usd(9_500, 'yearly'),
    real_estate: usd(7_200, 'yearly'),
  });
  await send('POST', '/expenses-variable', { type: 'groceries', value: usd(1_100, 'monthly') });
  await send('POST', '/expenses-variable', { type: 'eating-out', value: usd(350, 'monthly') });
  await send('POST', '/expenses-variable', { type: 'vacations', value: usd(6_000, 'yearly') });
  await send('POST', '/assets', {
    type: 'primary-residence',
    name: 'Maple Street home',
    owner: joint,
    current_value: usd(685_000),
    original_value: usd(520_000),
  });
  await send('POST', '/assets', {
    type: 'vehicle',
    name: 'Subaru Outback',
    owner: client,
    current_value: usd(24_000),
    original_value: usd(38_500),
  });
  await send('POST', '/assets', {
    type: 'collectible',
    name: 'Watch collection',
    owner: coclient,
    current_value: usd(15_500),
  });
  await send('POST', '/cash', {
    type: 'checking',
    name: 'Everyday checking',
    provider: 'Chase',
    owner: joint,
    current_value: usd(18_400),
  });
  await send('POST', '/cash', {
    type: 'savings',
    name: 'High-yield savings',
    provider: 'Ally',
    owner: joint,
    current_value: usd(42_000),
    interest: 4.2,
  });
  await send('POST', '/taxable', {
    name: 'Brokerage',
    provider: 'Vanguard',
    owner: joint,
    current_value: usd(126_000),
    cost_value: usd(88_000),
  });
  await send('POST', '/plans', {
    type: '401k',
    name: 'Acme 401(k)',
    provider: 'Fidelity',
    owner: client,
    current_value: usd(312_000),
    contribution_value: usd(1_500, 'monthly'),
  });
  await send('POST', '/plans', {
    type: 'roth-ira',
    name: 'Roth IRA',
    provider: 'Schwab',
    owner: coclient,
    current_value: usd(58_000),
  });
  await send('POST', '/plans', {
    type: 'college',
    name: '529 plan for Emma',
    provider: 'NY 529',
    owner: joint,
    current_value: usd(41_000),
    primary_beneficiary: { type: 'FamilyMember', id: emma.id },
  });
  await send('POST', '/insurance', {
    type: 'term',
    name: '20-year term life',
    provider: 'MetLife',
    owner: client,
    insured: client,
    primary_beneficiary: coclient,
    premium_value: usd(95, 'monthly'),
    coverage_value: usd(1_000_000),
  });
  await send('POST', '/liabilities', {
    type: 'fixed',
    name: 'Mortgage',
    provider: 'Wells Fargo',
    owner: joint,
    current_value: usd(412_000),
    interest: 3.1,
    cost_value: usd(2_850, 'monthly'),
    start_date: '2019-06-01',
    end_date: '2049-06-01',
  });
  await send('POST', '/liabilities', {
    type: 'auto',
    name: 'Car loan',
    provider: 'Subaru Finance',
    owner: client,
    current_value: usd(9_800),
    interest: 2.9,
  });
  await send('POST', '/goals', {
    type: 'college',
    name: 'Emma’s college',
    owner: joint,
    beneficiary: { type: 'FamilyMember', id: emma.id },
    priority: 'high',
    frequency: 'one-time',
    target: { value: 180_000, date: '2030-09-01' },
  });
  await send('POST', '/goals', {
    type: 'home-improvement',
    name: 'Kitchen remodel',
    owner: joint,
    priority: 'medium',
    frequency: 'one-time',
    target: { value: 60_000, date: '2027-05-01' },
  });
}

/** Both themes, after the overview's chart has finished drawing. */
const bothThemes = (page: Page, name: string) => themes(page, name, 400);

test('the workspace of a household: overview, a section, an item form and a conflict', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = household(servers);
  await furnish(servers, account.id);
  const assetName = 'Subaru Outback';
  const assetId = account.sections?.assets?.find((i) => i.fields.name === assetName)?.id as string;

  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  const id = await localId(page, account.id);

  await page.goto(`${servers.host.url}/#/accounts/${id}`);
  await expect(page.getByTestId('workspace-title')).toContainText(account.client.first_name);
  // Opening the account pulls its details and sections: the net worth fills in.
  await expect(page.getByTestId('synced-note')).toContainText('Last synced', { timeout: 60_000 });
  await expect(page.getByTestId('net-worth-total')).not.toHaveText('$0');
  // A favorite is kept offline already: the switch says so, and is not offered to turn off.
  await expect(page.locator('#available-offline')).toBeChecked();
  await expect(page.locator('#available-offline')).toHaveAttribute('aria-readonly', 'true');
  await expect(page.getByTestId('offline-favorite')).toContainText('Kept offline as a favorite');
  await expect(page.getByTestId('synced-note')).toContainText('Last synced', { timeout: 60_000 });
  await bothThemes(page, 'workspace-overview');

  // A section as a table, and an item's form with a message in the server's words.
  await page.getByTestId('tab-financials').click();
  await page.locator('[data-section="assets"]').click();
  await expect(page.getByTestId('section-table')).toContainText(assetName);
  await bothThemes(page, 'workspace-section');

  // A single-record section is a form on the page; the members' details too.
  await page.locator('[data-section="expenses-fixed"]').click();
  await expect(page.getByTestId('single-expenses-fixed')).toBeVisible();
  await bothThemes(page, 'workspace-single-section');
  await page.getByTestId('tab-members').click();
  await expect(page.getByTestId('single-details:client')).toBeVisible();
  await bothThemes(page, 'workspace-members');
  await page.getByTestId('tab-financials').click();
  await page.locator('[data-section="assets"]').click();

  await page.getByTestId('section-table').getByText(assetName, { exact: true }).click();
  const dialog = page.getByTestId('item-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name').fill('');
  await dialog.getByLabel('Name').blur();
  // The platform's rule, in the advisor's words: the field's label and what to do.
  await expect(dialog.getByText('Name: required, fill it in.')).toBeVisible();
  await bothThemes(page, 'workspace-section-form');
  // Esc on a changed form asks before the change is lost; Keep editing keeps it, and so does ×
  // until Discard is chosen.
  await page.keyboard.press('Escape');
  const prompt = page.getByTestId('discard-prompt');
  await expect(prompt).toContainText('Discard the changes to this asset?');
  await expect(page.getByTestId('discard-keep')).toBeFocused();
  await page.getByTestId('discard-keep').click();
  await expect(prompt).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue('');
  await page.locator('.item-dialog .p-dialog-close-button').click();
  await expect(prompt).toBeVisible();
  await page.getByTestId('discard-confirm').click();
  await expect(dialog).toBeHidden();

  // An Esc meant for an open date picker closes the picker only; the filled dialog stays.
  await page.locator('[data-section="liabilities"]').click();
  await page.getByTestId('add-item').click();
  await expect(page.getByTestId('item-dialog-title')).toHaveText('New liability');
  await dialog.getByLabel('Name').fill('Boat loan');
  const start = dialog.locator('[data-field="start_date"] input');
  await start.focus();
  await page.keyboard.press('ArrowDown');
  const picker = page.locator('.p-datepicker-panel');
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(prompt).toBeHidden();
  await expect(dialog.getByLabel('Name')).toHaveValue('Boat loan');
  // Amounts as an advisor types them: 12k is twelve thousand; letters are refused, not a blank.
  const owed = dialog.locator('[data-field="current_value"] input').first();
  await owed.fill('12k');
  await owed.blur();
  await expect(owed).toHaveValue('$12,000');
  await owed.fill('abc');
  await owed.blur();
  const owedMessages = dialog.locator('[data-field="current_value"]').getByTestId('field-messages');
  await expect(owedMessages).toContainText(
    '“abc” is not a number: type an amount such as 1,250.50, 12k or 1.5m. Until then it keeps $12,000.',
  );
  await page.keyboard.press('Escape');
  await expect(prompt).toContainText('Discard the changes to this liability?');
  await page.getByTestId('discard-confirm').click();
  await expect(dialog).toBeHidden();
  await page.locator('[data-section="assets"]').click();

  // A conflict: renamed here while offline, renamed on the platform meanwhile.
  await goOffline(context, servers);
  await page.getByTestId('section-table').getByText(assetName, { exact: true }).click();
  await dialog.getByLabel('Name').fill(`${assetName} (mine)`);
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('section-table')).toContainText(`${assetName} (mine)`);

  const token = servers.platform.control.token(ADVISOR).access_token;
  const put = await fetch(
    `${servers.platform.url}/api/v0/accounts/${account.id}/assets/${encodeURIComponent(assetId)}`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `${assetName} (theirs)` }),
    },
  );
  expect(put.status).toBe(200);

  await goOnline(context, servers);
  const row = page.getByTestId('section-table').locator('tr', { hasText: `${assetName} (mine)` });
  await expect(row.locator('[data-badge="conflict"]')).toBeVisible({ timeout: 60_000 });
  await row.click();
  const conflict = page.getByTestId('conflict');
  await expect(conflict).toBeVisible();
  await expect(conflict.locator('tr[data-field="name"] [data-testid="conflict-theirs"]')).toHaveText(
    `${assetName} (theirs)`,
  );
  await bothThemes(page, 'workspace-conflict');

  // Keep mine: the conflict goes, and the platform gets my name.
  await conflict.getByTestId('conflict-mine-all').click();
  await expect(conflict).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(row.locator('[data-badge="synced"]')).toBeVisible({ timeout: 60_000 });
  const stored = servers.platform.control
    .store()
    .state.accounts.find((a) => a.id === account.id)
    ?.sections?.assets?.find((i) => i.id === assetId);
  expect(stored?.fields.name).toBe(`${assetName} (mine)`);
});
