// The platform's reports end to end in the browser preview against the sandbox: the Reports area
// lists them by kind; a team report of clients over this year is downloaded as CSV and a
// household's report as PDF from its workspace's Export menu, each saved through the main process
// (the preview saves in its downloads folder) and read back — with a CSV parser and pdftotext —
// against what the sandbox holds. Offline, the area says a report needs a connection and offers the
// local exports. Screenshots light and dark: test-results/screenshots/reports-*.png.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Locator } from '@playwright/test';
import {
  activeAccounts,
  ADVISOR,
  bothThemes,
  expect,
  goOffline,
  localId,
  openAccount,
  signIn,
  test,
  type Servers,
} from './fixtures.ts';

test.use({ requestsPerMinute: 1000 });

/** The first day of this year and today, as the preset "This year" means them. */
function thisYear(): { start: string; end: string } {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    start: `${now.getFullYear()}-01-01`,
    end: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
  };
}

/** The sandbox's clients of the advisor's team created between both days (the oracle's side). */
function clientsCreated(servers: Servers, range: { start: string; end: string }): string[] {
  return activeAccounts(servers)
    .filter((a) => a.type === 'CLIENT')
    .filter((a) => a.created_at.slice(0, 10) >= range.start && a.created_at.slice(0, 10) <= range.end)
    .map((a) => String(a.id))
    .sort();
}

/** The reports the sandbox lists for the advisor's team. */
function teamReports(servers: Servers) {
  const state = servers.platform.control.store().state;
  const team = state.users.find((u) => u.email === ADVISOR)!.currentTeamId;
  return state.reports.filter((r) => r.teamId === team);
}

/** The path the outcome line names once the file is saved. */
async function savedPath(outcome: Locator): Promise<string> {
  await expect(outcome).toContainText('Saved in ', { timeout: 30_000 });
  return /Saved in (.+)\.$/.exec((await outcome.textContent()) ?? '')?.[1]?.trim() ?? '';
}

test('a team report as CSV and a household’s report as PDF, read back; offline the area says so', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Signed in (wherever the app lands), the first sync has filled the account list.
  await page.goto(servers.host.url);
  await signIn(page);
  await expect(page.getByTestId('user-name')).toHaveText('Alex Morgan');
  await page.getByRole('navigation').getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByTestId('account-count')).toHaveText(`${activeAccounts(servers).length} accounts`, {
    timeout: 30_000,
  });

  // ---- The Reports area: the platform's list, by kind ------------------------------------------
  await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const titles = teamReports(servers);
  const households = titles.find((r) => r.type === 'DATADEFINITION' && r.source === 'accounts');
  if (!households) throw new Error('The sandbox has no household report.');
  await expect(page.getByTestId('report-item')).toHaveCount(titles.length, { timeout: 30_000 });
  await expect(page.getByTestId('reports-group').first()).toContainText('Household data');

  await page.getByTestId('reports-search').fill(households.title);
  await page.getByTestId('report-item').filter({ hasText: households.title }).first().click();
  const form = page.getByTestId('team-report-form');
  await expect(form.getByRole('heading', { name: households.title })).toBeVisible();
  // Issue 23 point 14: it says what the days keep, and opens on all of them.
  await expect(form.getByTestId('report-range-meaning')).toHaveText(
    'The report holds the households created on these days. All time holds every household.',
  );
  await expect(form.getByTestId('report-preset').getByRole('button', { name: 'All time' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await form.getByTestId('report-source').getByText('Clients', { exact: true }).click();
  await form.getByTestId('report-preset').getByText('This year', { exact: true }).click();
  await form.getByTestId('report-format').getByText('CSV', { exact: true }).click();
  await page.getByTestId('reports-search').fill('');
  await bothThemes(page, 'reports');

  await form.getByTestId('report-download').click();
  const csvPath = await savedPath(form.getByTestId('report-outcome'));
  expect(csvPath).toMatch(/[/\\]downloads[/\\][^/\\]+\.csv$/);
  const rows = parseCsv<Record<string, string>>(readFileSync(csvPath), {
    bom: true,
    columns: true,
    skip_empty_lines: true,
  });
  const expected = clientsCreated(servers, thisYear());
  expect(expected.length, 'clients created this year in the sandbox').toBeGreaterThan(0);
  expect(
    rows
      .map((r) => r.Account)
      .filter((id) => id && id !== 'Total')
      .sort(),
  ).toEqual(expected);
  // Open after Save: the preview cannot start a viewer and says where the file is.
  await form.getByTestId('report-open').click();
  await expect(form.getByTestId('report-opened')).toContainText(csvPath);

  // ---- A household's report as PDF, from its workspace's Export menu ---------------------------
  const household = activeAccounts(servers).find((a) => a.coclient === null) ?? activeAccounts(servers)[0]!;
  await openAccount(page, await localId(page, household.id));
  await expect(page.getByTestId('workspace-title')).toBeVisible();
  await page.getByTestId('export-open').click();
  await page.getByRole('menuitem', { name: 'Platform report…' }).click();
  const dialog = page.getByTestId('account-report-dialog');
  // A report of the household's data first, not of its forms (most households have none).
  await expect(dialog.getByTestId('account-report-choice')).toContainText(households.title);
  await dialog.getByTestId('account-report-choice').click();
  await page.getByRole('option', { name: households.title }).first().click();
  await dialog.getByTestId('account-report-format').getByText('PDF', { exact: true }).click();
  await dialog.getByTestId('report-download').click();
  const pdfPath = await savedPath(dialog.getByTestId('report-outcome'));
  expect(pdfPath).toMatch(/\.pdf$/);
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  expect(text).toContain(household.client.first_name);
  expect(text).toContain(household.client.last_name);
  await page.keyboard.press('Escape');

  // ---- Offline: said plainly, and the local exports offered ------------------------------------
  await goOffline(context, servers);
  await expect(page.getByTestId('connection')).toHaveText('Offline', { timeout: 30_000 });
  await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
  const offline = page.getByTestId('reports-offline');
  await expect(offline).toContainText('they need a connection');
  await expect(page.getByTestId('report-download')).toBeDisabled();
  await bothThemes(page, 'reports-offline');
  await offline.getByTestId('reports-local-export').click();
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();

  // A household's Platform report… offline: said so, and its financial summary offered instead.
  await openAccount(page, await localId(page, household.id));
  await expect(page.getByTestId('workspace-title')).toBeVisible();
  await page.getByTestId('export-open').click();
  await page.getByRole('menuitem', { name: 'Platform report…' }).click();
  await expect(dialog.getByTestId('account-report-offline')).toContainText('they need a connection');
  await expect(dialog.getByTestId('report-download')).toHaveCount(0);
  await dialog.getByTestId('account-report-local-export').click();
  // Made on this computer alone, offline: the summary is saved and the toast says where.
  const toast = page.locator('.p-toast-message').filter({ hasText: /Saved .*financial summary.*\.pdf/ });
  await expect(toast).toBeVisible({ timeout: 60_000 });
  const summary = /in (\/.+\.pdf)/.exec(await toast.innerText())?.[1] ?? '';
  expect(execFileSync('pdftotext', ['-layout', summary, '-'], { encoding: 'utf8' })).toContain(
    household.client.last_name,
  );
});
