// The household's data as CSV (issue 14, point 2): one file per table of household-tables.ts in a
// zip, numbered in the workbook's order. Amounts and rates are plain numbers (`250000`, `4.5` for
// 4.5 %) and dates ISO (`1980-03-14`), which every spreadsheet and script reads alike.

import { strToU8, zipSync } from 'fflate';
import type { AdvisorDb } from '../data/db.ts';
import { CSV_BOM, csvLine, type CsvValue } from './csv-format.ts';
import { readHousehold } from './household.ts';
import { householdTables, type TableOptions } from './household-tables.ts';
import type { Cell, Table } from './table.ts';

const pad = (n: number): string => String(n).padStart(2, '0');

/** A moment as this computer's clock read it: `2026-11-25 14:05`. */
function localMoment(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function csvValue(cell: Cell): CsvValue {
  if (cell === null) return null;
  if (cell.kind === 'moment') return localMoment(cell.value);
  return cell.value;
}

/** A file name from a title: ASCII letters and digits, words joined by hyphens. */
export function fileSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'table';
}

/** The CSV files of tables by name (`00-summary.csv` …), in order. */
export function csvFiles(tables: readonly Table[]): Record<string, string> {
  const files: Record<string, string> = {};
  tables.forEach((table, i) => {
    const lines = table.rows.map((r) => csvLine(table.columns.map((_, c) => csvValue(r[c] ?? null))));
    files[`${pad(i)}-${fileSlug(table.title)}.csv`] = CSV_BOM + csvLine(table.columns) + lines.join('');
  });
  return files;
}

/** The household's data as a zip of CSV files (bytes), read from the local store only. */
export async function householdCsvZip(
  db: AdvisorDb,
  accountId: string,
  options: TableOptions,
): Promise<Uint8Array> {
  const files = csvFiles(householdTables(await readHousehold(db, accountId), options));
  const mtime = new Date(options.now);
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([name, text]) => [name, [strToU8(text), { mtime }]])),
  );
}
