// "Export this list…" in the browser preview: the clients of the list, sorted by last name, as
// CSV from the list's button and as XLSX from the command palette, offline; each file lands in the
// preview's downloads folder and reads back (csv-parse, read-excel-file) as the list's rows.

import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { activeAccounts, expect, goOffline, openList, test } from './fixtures.ts';

test('export the filtered, sorted list as CSV and XLSX, offline', async ({ page, context, servers }) => {
  test.setTimeout(120_000);
  await openList(page, servers);
  const clients = activeAccounts(servers).filter((a) => a.type === 'CLIENT');
  await page.getByTestId('account-filter').getByText('Clients', { exact: true }).click();
  await expect(page.getByTestId('account-count')).toHaveText(`${clients.length} accounts match`);
  await page.getByTestId('account-sort').click();
  await page.getByRole('option', { name: 'Client last name', exact: true }).click();
  await goOffline(context, servers);
  const byLast = clients
    .map((a) => a.client.last_name)
    .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

  // CSV, from the list's button.
  await page.getByTestId('export-list-open').click();
  const dialog = page.getByTestId('export-list');
  await expect(dialog).toContainText(`${clients.length} accounts`);
  await dialog.getByTestId('export-start').click();
  const saved = page.locator('.p-toast-message').filter({ hasText: 'Saved Accounts – Clients – ' });
  await expect(saved).toBeVisible({ timeout: 30_000 });
  const csvPath = /in (\/.+\.csv)/.exec(await saved.innerText())?.[1] ?? '';
  expect(csvPath).toContain('/downloads/Accounts – Clients – ');
  const rows: string[][] = parse(readFileSync(csvPath), { bom: true });
  expect(rows[0]?.slice(0, 3)).toEqual(['Client first name', 'Client last name', 'Client email']);
  expect(rows.slice(1).map((r) => r[1]?.replace(/^'/, ''))).toEqual(byLast);
  expect(new Set(rows.slice(1).map((r) => r[8]))).toEqual(new Set(['Client']));

  // XLSX, from the command palette.
  await page.keyboard.press('Control+K');
  await page.keyboard.type('Export this list');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByText('Excel (XLSX)').click();
  await dialog.getByTestId('export-start').click();
  const xlsx = page.locator('.p-toast-message').filter({ hasText: /Saved .*\.xlsx/ });
  await expect(xlsx).toBeVisible({ timeout: 30_000 });
  const xlsxPath = /in (\/.+\.xlsx)/.exec(await xlsx.innerText())?.[1] ?? '';
  const sheet = await readSheet(readFileSync(xlsxPath));
  expect(sheet.slice(1).map((r) => r[1])).toEqual(byLast);
  const quality = sheet.slice(1).map((r) => r[10]);
  expect(quality.every((q) => q === null || typeof q === 'number')).toBe(true);
});
