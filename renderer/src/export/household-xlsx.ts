// The household's data as an Excel workbook (issue 14, point 2): one sheet per table of
// household-tables.ts, cells with real types: amounts as numbers in the user's currency format,
// rates as percents, dates as dates. write-excel-file's universal entry gives a Blob both in the
// renderer and in Node, so the same builder serves the app and its tests.

import writeXlsxFile, { type Cell as XlsxCell, type Row, type Sheet } from 'write-excel-file/universal';
import type { AdvisorDb } from '../data/db.ts';
import { readHousehold } from './household.ts';
import { householdTables, type TableOptions } from './household-tables.ts';
import type { Cell, Table } from './table.ts';

/** Excel refuses these in a sheet name, and names longer than 31 characters. */
const FORBIDDEN = /[[\]:*?/\\]/g;
const MAX_NAME = 31;

/** Sheet names from titles: allowed characters, at most 31 of them, each name once. */
export function sheetNames(titles: readonly string[]): string[] {
  const used = new Set<string>();
  return titles.map((title) => {
    const clean =
      title
        .replace(FORBIDDEN, '-')
        .replace(/^'+|'+$/g, '')
        .trim() || 'Sheet';
    let name = clean.slice(0, MAX_NAME).trim();
    for (let n = 2; used.has(name.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      name = `${clean.slice(0, MAX_NAME - suffix.length).trim()}${suffix}`;
    }
    used.add(name.toLowerCase());
    return name;
  });
}

/** The number format of amounts in a currency: its symbol, thousands, cents, negatives with a minus. */
export function currencyFormat(currency: string): string {
  let symbol = currency;
  try {
    symbol =
      new Intl.NumberFormat('en-US', { style: 'currency', currency })
        .formatToParts(0)
        .find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    // An unknown code: the code itself stands for the symbol.
  }
  const quoted = `"${symbol.replace(/"/g, '')}"`;
  return `${quoted}#,##0.00;-${quoted}#,##0.00`;
}

const DATE_FORMAT = 'd mmm yyyy';
const MOMENT_FORMAT = 'd mmm yyyy hh:mm';

/** A calendar date as Excel keeps it: the day's midnight, with no time zone to shift it. */
const calendarDate = (iso: string): Date => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
/** A moment as the clock on this computer read it then. */
const wallClock = (ms: number): Date => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);

function xlsxCell(cell: Cell, money: string): XlsxCell {
  if (cell === null) return null;
  switch (cell.kind) {
    case 'text':
      return { type: String, value: cell.value };
    case 'currency':
      return { type: Number, value: cell.value, format: money };
    case 'percent':
      return { type: Number, value: cell.value / 100, format: '0.00%' };
    case 'number':
      return { type: Number, value: cell.value };
    case 'year':
      return { type: Number, value: cell.value, format: '0' };
    case 'date':
      return { type: Date, value: calendarDate(cell.value), format: DATE_FORMAT };
    case 'moment':
      return { type: Date, value: wallClock(cell.value), format: MOMENT_FORMAT };
  }
}

const widthOf = (cell: Cell): number =>
  cell === null ? 0 : cell.kind === 'text' ? cell.value.length : cell.kind === 'moment' ? 17 : 14;

function sheetOf(table: Table, name: string, money: string): Sheet<Blob> {
  const header: Row = table.columns.map((label) => ({ type: String, value: label, fontWeight: 'bold' }));
  const data: Row[] = [header, ...table.rows.map((r) => r.map((c) => xlsxCell(c, money)))];
  const columns = table.columns.map((label, i) => ({
    width: Math.min(60, Math.max(label.length, ...table.rows.map((r) => widthOf(r[i] ?? null))) + 2),
  }));
  return { sheet: name, data, columns, stickyRowsCount: 1 };
}

/** The workbook of tables, as the bytes of an .xlsx file. */
export async function workbookOf(tables: readonly Table[], currency = 'USD'): Promise<Uint8Array> {
  const names = sheetNames(tables.map((t) => t.title));
  const money = currencyFormat(currency);
  const blob = await writeXlsxFile(tables.map((t, i) => sheetOf(t, names[i] as string, money))).toBlob();
  return new Uint8Array(await blob.arrayBuffer());
}

/** The household's data as an .xlsx file (bytes), read from the local store only. */
export async function householdWorkbook(
  db: AdvisorDb,
  accountId: string,
  options: TableOptions,
): Promise<Uint8Array> {
  const tables = householdTables(await readHousehold(db, accountId), options);
  return workbookOf(tables, options.currency);
}
