// The household's exports from its workspace in the browser preview, offline: a household kept
// offline, an asset's value changed in the meeting (still waiting to be sent), then the financial
// summary from the toolbar's Export menu (by keyboard) and the household data as Excel from the
// command palette, then the meeting change summary from the Export menu. All land in the preview's
// downloads folder and read back, with pdftotext and read-excel-file, as the sandbox's figures with
// the advisor's change; no request leaves for the platform meanwhile. Screenshots light and dark: the open menu (export-menu-*.png) and the
// palette's household data dialog (export-household-data-*.png).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Request } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { amountOf, netWorthOf, wholeDollars } from '../platform/figures.ts';
import {
  activeAccounts,
  bothThemes,
  expect,
  goOffline,
  openFromList,
  openList,
  outboxStates,
  test,
} from './fixtures.ts';

// The screens are under test here, not a minute's wait for the budget (prepare-meeting.spec.ts
// and delete-account.spec.ts run at the platform's 60 a minute).
test.use({ requestsPerMinute: 1000 });

const NEW_VALUE = 123_456;
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('export the financial summary and the household data of a household edited offline', async ({
  page,
  context,
  servers,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openList(page, servers);
  const store = servers.platform.control.store();
  // An asset the advisor can tell apart by its name (a household may hold three "Art collection").
  const uniqueAsset = (items: { fields: Record<string, unknown> }[] = []) =>
    items.find((a) => items.filter((b) => b.fields.name === a.fields.name).length === 1);
  const household = activeAccounts(servers).find(
    (a) => a.coclient && !a.favorited && uniqueAsset(store.sections(a).sections.assets),
  );
  if (!household?.coclient) throw new Error('The seed has no household with a co-client and assets.');
  const { sections } = store.sections(household);
  const asset = uniqueAsset(sections.assets)!;
  const assetName = String(asset.fields.name);
  // What the advisor will see after the change: the platform's figures with this one asset at NEW_VALUE.
  const netWorth = netWorthOf(sections) - amountOf(asset.fields.current_value) + NEW_VALUE;
  const client = `${household.client.first_name} ${household.client.last_name}`;
  const coclient = `${household.coclient.first_name} ${household.coclient.last_name}`;

  // Before the meeting: the household kept offline, pulled in full.
  await expect(page.locator('[data-sync="pending"]')).toHaveCount(0);
  await openFromList(page, household);
  await page.getByText('Available offline').click();
  await expect(page.locator('#available-offline')).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByLabel('Pull progress')).toBeHidden();
  await expect(page.getByTestId('synced-note')).toContainText('Last synced');

  // Offline, the asset's value changes; the change waits to be sent.
  await goOffline(context, servers);
  await expect(page.getByTestId('connection')).toHaveText('Offline');
  await page.getByTestId('tab-financials').click();
  await page.locator('[data-section="assets"]').click();
  await page.getByTestId('section-table').locator('tr', { hasText: assetName }).click();
  const dialog = page.getByTestId('item-dialog');
  const value = dialog.getByRole('spinbutton', { name: /^Current value/ });
  await value.fill('');
  await value.pressSequentially(String(NEW_VALUE));
  await value.press('Tab');
  await page.keyboard.press('Control+s');
  await expect(dialog).toBeHidden();
  expect(await outboxStates(page)).toEqual(['queued']);

  // Every call the page makes to the platform (through the host's bridge) from here on. The sync
  // keeps trying its background pulls of the households kept offline (and fails: no network);
  // anything else, or any file download, would be the exports'.
  const platformCalls: { path: string; api?: string; method?: string; priority?: string; at?: string }[] = [];
  const watch = (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('/__bridge/files.download')) platformCalls.push({ path });
    if (!path.endsWith('/__bridge/api.request')) return;
    const [call] = JSON.parse(request.postData() ?? '[]') as {
      api: string;
      method: string;
      path: string;
      priority?: string;
    }[];
    platformCalls.push({
      path,
      api: call?.api,
      method: call?.method,
      priority: call?.priority,
      at: call?.path,
    });
  };
  page.on('request', watch);

  // The financial summary, from the toolbar's menu, by keyboard.
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await exportButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Export' });
  await expect(menu).toBeVisible();
  await expect(exportButton).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Financial summary (PDF)…',
    'Household data (Excel)…',
    'Household data (CSV, zip)…',
    'Meeting summary…',
    'Platform report…',
  ]);
  await bothThemes(page, 'export-menu');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const pdfToast = page.locator('.p-toast-message').filter({ hasText: /Saved .*financial summary.*\.pdf/ });
  await expect(pdfToast).toBeVisible({ timeout: 60_000 });
  const pdfPath = /in (\/.+\.pdf)/.exec(await pdfToast.innerText())?.[1] ?? '';
  expect(pdfPath).toMatch(
    new RegExp(
      `/downloads/${literally(household.client.last_name)}.* household – financial summary – \\d{4}-\\d{2}-\\d{2}\\.pdf$`,
    ),
  );
  const pdf = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
  const flat = pdf.replace(/\s+/g, ' ');
  expect(flat).toContain('Main Street Advisors');
  expect(flat).toContain(`${client} and ${coclient}`);
  expect(pdf).toMatch(new RegExp(`${literally(assetName)}\\s.*\\$123,456`));
  expect(pdf).toMatch(new RegExp(`Net worth\\s+${literally(wholeDollars(netWorth))}`));
  expect(flat).toContain('1 change made on this computer is not sent to the platform yet');

  // The household data as Excel, from the command palette.
  await page.keyboard.press('Control+K');
  await page.keyboard.type('Export household data');
  await page.keyboard.press('Enter');
  const exportDialog = page.getByTestId('export-household');
  await expect(exportDialog).toContainText('Export the household data');
  await expect(exportDialog.getByRole('button', { name: 'Excel (XLSX)', pressed: true })).toBeVisible();
  await bothThemes(page, 'export-household-data');
  await exportDialog.getByTestId('export-start').click();
  const xlsxToast = page.locator('.p-toast-message').filter({ hasText: /Saved .*household data.*\.xlsx/ });
  await expect(xlsxToast).toBeVisible({ timeout: 60_000 });
  const xlsxPath = /in (\/.+\.xlsx)/.exec(await xlsxToast.innerText())?.[1] ?? '';
  expect(xlsxPath).toContain('/downloads/');
  const sheets = Object.fromEntries(
    (await readXlsxFile(readFileSync(xlsxPath))).map((s) => [s.sheet, s.data as unknown[][]]),
  );
  const summary = Object.fromEntries(
    (sheets.Summary ?? []).slice(1).map((r) => [String(r[0]).trim(), r[1] ?? null]),
  );
  expect(summary.Client).toBe(client);
  expect(summary['Co-client']).toBe(coclient);
  expect(summary['Net worth']).toBe(netWorth);
  expect(summary['Changes not sent yet']).toBe(1);
  const [header = [], ...assets] = sheets.Assets ?? [];
  const changed = assets.find((r) => r[header.indexOf('Name')] === assetName);
  expect(changed?.[header.indexOf('Current value')]).toBe(NEW_VALUE);

  // The meeting summary of the same household, from the Export menu: the one change, not sent yet.
  await page.getByTestId('export-open').click();
  await page
    .getByRole('menu', { name: 'Export' })
    .getByRole('menuitem', { name: 'Meeting summary…' })
    .click();
  const summaryDialog = page.getByTestId('meeting-summary');
  await expect(summaryDialog.getByTestId('meeting-summary-count')).toHaveText('1 change');
  await summaryDialog.getByTestId('meeting-summary-format').getByText('PDF', { exact: true }).click();
  await summaryDialog.getByTestId('meeting-summary-start').click();
  const meetingToast = page
    .locator('.p-toast-message')
    .filter({ hasText: /Saved .* – meeting change summary – .*\.pdf/ });
  await expect(meetingToast).toBeVisible({ timeout: 60_000 });
  const meetingPath = /in (\/.+\.pdf)/.exec(await meetingToast.innerText())?.[1] ?? '';
  expect(meetingPath).toContain('/downloads/');
  const meeting = execFileSync('pdftotext', ['-layout', meetingPath, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );
  expect(meeting).toContain('Meeting change summary');
  expect(meeting).toContain('1 change: 1 not sent yet.');
  expect(meeting).toContain(assetName);
  expect(meeting).toContain('$123,456');

  page.off('request', watch);
  expect(platformCalls.filter((c) => c.method !== 'GET' || c.priority !== 'background')).toEqual([]);
  expect(platformCalls.filter((c) => /^\/(user|files)/.test(c.at ?? ''))).toEqual([]);
  // Still waiting: exporting sent nothing.
  expect(await outboxStates(page)).toEqual(['queued']);
});
