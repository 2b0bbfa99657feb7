// The account list as an advisor uses it: signed in, the list fills from the platform (through
// the local store), search as you type, sort, the pipeline board, and a new prospect with a
// co-client created through the form — checked with the platform's own rules as the user types,
// and found on the platform once synced — and one that repeats an existing co-client, warned
// about with a link to that household. Screenshots light and dark.

import type { Page } from '@playwright/test';
import { activeAccounts, admit, expect, openList, SHOTS, test } from './fixtures.ts';

// A long scenario: the screens are under test here, not the platform's budget of 60 a minute.
test.use({ requestsPerMinute: 240 });

const visibleNames = (page: Page) => page.getByTestId('account-name').allInnerTexts();

test('find, sort and create accounts in the list', async ({ page, servers }) => {
  test.setTimeout(120_000);
  await openList(page, servers);
  // Let the quality scores and stages of the first pull settle before the picture.
  await expect(page.locator('[data-sync="pending"]')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/accounts-list-light.png`, animations: 'disabled' });

  // Search as you type: a prefix of a client's last name finds that account.
  const target = activeAccounts(servers).find((a) => a.client.last_name.length > 3)!;
  const prefix = target.client.last_name.slice(0, 4);
  await page.getByTestId('account-search').pressSequentially(prefix.toLowerCase(), { delay: 30 });
  await expect(
    page.getByTestId('account-name').filter({ hasText: target.client.first_name }).first(),
  ).toBeVisible();
  const matching = activeAccounts(servers).filter((a) =>
    [a.client, a.coclient].some(
      (m) =>
        m &&
        [m.first_name, m.last_name, m.email].some((v) => v?.toLowerCase().startsWith(prefix.toLowerCase())),
    ),
  );
  await expect(page.getByTestId('account-count')).toHaveText(
    matching.length === 1 ? '1 account matches' : `${matching.length} accounts match`,
  );
  await page.getByTestId('account-search').fill('');
  await expect(page.getByTestId('account-count')).toHaveText(`${activeAccounts(servers).length} accounts`);

  // Sort by client last name, A to Z then Z to A, from the sort control.
  await page.getByTestId('account-sort').click();
  await page.getByRole('option', { name: 'Client last name', exact: true }).click();
  const byLast = activeAccounts(servers)
    .map((a) => a.client.last_name)
    .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
  const firstLastNames = async () =>
    (await visibleNames(page)).slice(0, 4).map((n) => n.split(' ').slice(1).join(' '));
  await expect.poll(firstLastNames).toEqual(byLast.slice(0, 4));
  await page.getByTestId('account-sort-direction').click();
  await expect.poll(firstLastNames).toEqual([...byLast].reverse().slice(0, 4));
  await page.screenshot({ path: `${SHOTS}/accounts-sorted-light.png`, animations: 'disabled' });

  // Create a prospect with a co-client; the platform's rules speak as the user types.
  await page.getByTestId('new-account').click();
  const form = page.getByRole('dialog', { name: 'New account' });
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Prospect', exact: true }).click();
  await form.getByLabel('First name').fill('Nora');
  await form.getByLabel('Last name').fill('Quist');
  const email = form.getByLabel('Email');
  await email.fill('nora.quist@');
  await email.blur();
  await expect(form.getByText('Email: enter an e-mail address such as name@example.com.')).toBeVisible();
  await email.pressSequentially('example.com');
  await expect(form.getByText('Email: enter an e-mail address such as name@example.com.')).toHaveCount(0);
  await form.getByLabel('Phone: number').first().fill('555 0142 77');

  await form.getByTestId('add-coclient').click();
  const co = form.getByRole('region', { name: 'Co-client' });
  await co.getByLabel('First name').fill('Omar');
  await co.getByLabel('Email').fill('nora.quist@example.com');
  await co.getByLabel('Email').blur();
  await expect(
    co.getByText('Co-client email: enter an e-mail address other than the client’s.'),
  ).toBeVisible();
  await form.getByTestId('account-save').click();
  await expect(co.getByText('Co-client last name: required, fill it in.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/account-form-light.png`, animations: 'disabled' });

  await co.getByLabel('Last name').fill('Quist');
  await co.getByLabel('Email').fill('omar.quist@example.com');
  await form.getByTestId('account-save').click();
  await expect(form).toBeHidden();

  // Back to the default order: the new prospect is the newest, on top; it reaches the platform.
  await page.getByTestId('account-sort').click();
  await page.getByRole('option', { name: 'Created' }).click();
  await expect(page.getByTestId('account-name').first()).toHaveText('Nora Quist');
  await expect
    .poll(
      () =>
        servers.platform.control
          .store()
          .state.accounts.find((a) => a.client.email === 'nora.quist@example.com') ?? null,
      { timeout: 20_000 },
    )
    .toMatchObject({
      type: 'PROSPECT',
      client: { first_name: 'Nora', last_name: 'Quist', phone: { number: '555014277', code: '+1' } },
      coclient: { first_name: 'Omar', last_name: 'Quist', email: 'omar.quist@example.com' },
    });
  const created = page.getByRole('row').filter({ hasText: 'Nora Quist' });
  await expect(created.locator('[data-sync="synced"]')).toHaveCount(1);

  // The pipeline board of prospects: the new prospect sits in the first stage.
  await page.getByTestId('open-board').click();
  await page.getByRole('button', { name: 'Prospect pipeline' }).click();
  const columns = page.getByTestId('board-column');
  const nora = (column: number) =>
    columns.nth(column).getByTestId('board-card').filter({ hasText: 'Nora Quist' });
  await expect(nora(0)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/pipeline-board-light.png`, animations: 'disabled' });

  // From the keyboard: Shift+→ moves the focused card one stage; the focus stays on it.
  const stages = servers.platform.control.store().state.pipelines.filter((p) => p.type === 'PROSPECT');
  const platformStage = () =>
    servers.platform.control.store().state.accounts.find((a) => a.client.email === 'nora.quist@example.com')
      ?.pipelineId;
  await nora(0).focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(nora(1)).toBeFocused();
  await expect(page.getByTestId('board-announcement')).toHaveText(
    'Nora Quist & Omar Quist moved to Acquire, stage 2 of 3.',
  );
  await expect.poll(platformStage, { timeout: 20_000 }).toBe(stages[1]?.id);

  // By drag and drop, to the last stage.
  await nora(1).dragTo(columns.nth(2));
  await expect(nora(2)).toBeVisible();
  await expect.poll(platformStage, { timeout: 20_000 }).toBe(stages[2]?.id);
});

test('a new prospect with an existing co-client’s name and email is warned about, and may open it', async ({
  page,
  servers,
}) => {
  await openList(page, servers);
  const bay = activeAccounts(servers).find((a) => a.coclient?.email && a.coclient.first_name)!;
  const co = bay.coclient!;
  await page.getByTestId('new-account').click();
  const form = page.getByRole('dialog', { name: 'New account' });
  await form.getByLabel('First name').fill(co.first_name);
  await form.getByLabel('Last name').fill(co.last_name);
  await form.getByLabel('Email').fill(` ${co.email.toUpperCase()}`);
  const warning = form.getByTestId('duplicate-warning');
  await expect(warning).toContainText('This household may already be here.');
  await expect(warning.getByTestId('duplicate')).toContainText(
    `${co.first_name} ${co.last_name} (co-client of the ${bay.client.last_name} household) has this name and the email ${co.email}.`,
  );
  await expect(warning).toContainText('You can still create this account.');
  await page.screenshot({ path: `${SHOTS}/account-duplicate-light.png`, animations: 'disabled' });

  // The link asks before what was typed is lost, then opens the household found.
  await warning.getByTestId('duplicate-open').click();
  await expect(form.getByTestId('discard-prompt')).toContainText('Discard the changes to this new account?');
  await form.getByTestId('discard-confirm').click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('workspace-title')).toContainText(
    `${bay.client.first_name} ${bay.client.last_name}`,
  );
});

test('the account list and form in dark mode', async ({ browser, servers }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  await admit(context, servers.host);
  const page = await context.newPage();
  await openList(page, servers);
  await expect(page.locator('html')).toHaveClass(/app-dark/);
  await expect(page.locator('[data-sync="pending"]')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/accounts-list-dark.png`, animations: 'disabled' });

  await page.getByTestId('new-account').click();
  const form = page.getByRole('dialog', { name: 'New account' });
  await form.getByLabel('First name').fill('Ida');
  await form.getByLabel('Email').fill('ida@');
  await form.getByLabel('Email').blur();
  await form.getByTestId('add-coclient').click();
  await form.getByTestId('account-save').click();
  await expect(form.getByText('Last name: required, fill it in.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/account-form-dark.png`, animations: 'disabled' });
  // Cancel on a filled form asks first; Discard closes it.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form.getByTestId('discard-prompt')).toContainText('Discard the changes to this new account?');
  await form.getByTestId('discard-confirm').click();
  await expect(form).toBeHidden();

  await page.getByTestId('open-board').click();
  await expect(page.getByTestId('board-card').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/pipeline-board-dark.png`, animations: 'disabled' });
  await context.close();
});
