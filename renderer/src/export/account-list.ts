// "Export this list…": exactly the accounts the list shows (its search, filter, stage and sort,
// through the list's own query), as CSV or XLSX, read a page at a time and yielding to the window
// between pages, so 50,000 accounts export with progress, can be cancelled and never freeze it.
// What this computer does not hold (a stage, a score, the platform's dates of an account not sent
// yet) is an empty cell, never 0.

import { exportFileName } from '@shared/export/file-name.ts';
import type { AdvisorDb } from '../data/db.ts';
import { memberContact } from '../data/member-contact.ts';
import type { AccountRow } from '../data/model.ts';
import { indexedIds } from '../data/account-index/index.ts';
import type { AccountQuery } from '../data/queries/index.ts';
import { CSV_BOM, csvLine, type CsvValue } from './csv-format.ts';
import { beginExport, writeWhole, type ExportApi, type ExportOutcome } from '../common/save-export.ts';
import type { SheetColumn, SheetTable, TableValue } from './xlsx-sheets.ts';

export type AccountListQuery = Omit<AccountQuery, 'offset' | 'limit'>;
export type ListExportFormat = 'csv' | 'xlsx';

/** Rows read per step: small enough that a step never holds the window for long. */
const PAGE = 500;

export const ACCOUNT_LIST_COLUMNS: readonly SheetColumn[] = [
  { header: 'Client first name', type: 'text', width: 16 },
  { header: 'Client last name', type: 'text', width: 18 },
  { header: 'Client email', type: 'text', width: 28 },
  { header: 'Client phone', type: 'text', width: 16 },
  { header: 'Co-client first name', type: 'text', width: 16 },
  { header: 'Co-client last name', type: 'text', width: 18 },
  { header: 'Co-client email', type: 'text', width: 28 },
  { header: 'Co-client phone', type: 'text', width: 16 },
  { header: 'Type', type: 'text', width: 10 },
  { header: 'Stage', type: 'text', width: 18 },
  { header: 'Quality', type: 'number', width: 9 },
  { header: 'Favorite', type: 'boolean', width: 9 },
  { header: 'Archived', type: 'boolean', width: 9 },
  { header: 'Created', type: 'date', format: 'yyyy-mm-dd hh:mm', width: 17 },
  { header: 'Updated', type: 'date', format: 'yyyy-mm-dd hh:mm', width: 17 },
];

/** The stage an account is in as the list shows it, or null when this computer does not know it. */
export type StageTitle = (row: AccountRow) => string | null;

/**
 * A platform timestamp (`2026-03-14 09:30:00`, UTC) as the advisor's clock read it, in a Date whose
 * UTC fields hold that local time: spreadsheets keep dates without a time zone. Null when absent.
 */
export function localWallTime(stamp: string | null): Date | null {
  if (!stamp) return null;
  const ms = Date.parse(stamp.replace(' ', 'T') + (stamp.endsWith('Z') ? '' : 'Z'));
  if (Number.isNaN(ms)) return null;
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
}

/** One account's values, in ACCOUNT_LIST_COLUMNS' order. */
export function accountListValues(row: AccountRow, stageTitle: StageTitle): TableValue[] {
  const client = memberContact(row, undefined, 'client');
  const coclient = memberContact(row, undefined, 'coclient');
  return [
    client.firstName,
    client.lastName,
    client.email,
    client.phone,
    coclient.firstName,
    coclient.lastName,
    coclient.email,
    coclient.phone,
    row.type === 'CLIENT' ? 'Client' : 'Prospect',
    stageTitle(row),
    row.meta.quality?.score ?? null,
    row.favorited === 1,
    row.archived === 1,
    localWallTime(row.meta.created_at),
    localWallTime(row.meta.updated_at),
  ];
}

const two = (n: number) => String(n).padStart(2, '0');
/** A wall-time Date (localWallTime) as CSV text, `2026-03-14 10:30`. */
const csvDate = (d: Date) =>
  `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
const csvValue = (v: TableValue): CsvValue => (v instanceof Date ? csvDate(v) : v);

export class ExportCancelled extends Error {
  constructor() {
    super('The export was cancelled.');
  }
}

export interface ListReadOptions {
  stageTitle: StageTitle;
  /** Accounts read so far, of all the list holds. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  pageSize?: number;
}

/** Lets the window paint and take input; unlike setTimeout, not slowed down in a background window. */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    // The part both the window's and Node's channels have (tests run in Node).
    const channel = new MessageChannel() as unknown as {
      port1: { onmessage: (() => void) | null; close(): void };
      port2: { postMessage(value: null): void };
    };
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * The list's accounts in its order, a page of rows at a time (the ids from the list's query, the
 * rows read per page), each page handed to `visit`; yields to the window between pages.
 */
async function eachPage(
  db: AdvisorDb,
  query: AccountListQuery,
  visit: (rows: AccountRow[]) => Promise<void> | void,
  { onProgress, signal, pageSize = PAGE }: Omit<ListReadOptions, 'stageTitle'>,
): Promise<number> {
  const ids = await indexedIds(db, query);
  onProgress?.(0, ids.length);
  let written = 0;
  for (let at = 0; at < ids.length; at += pageSize) {
    if (signal?.aborted) throw new ExportCancelled();
    const rows = (await db.accounts.bulkGet(ids.slice(at, at + pageSize))).filter(
      // An account removed since the ids were read (a sync) is left out, not written empty.
      (r): r is AccountRow => r !== undefined,
    );
    await visit(rows);
    written += rows.length;
    onProgress?.(Math.min(at + pageSize, ids.length), ids.length);
    await nextTask();
  }
  if (signal?.aborted) throw new ExportCancelled();
  return written;
}

/** The list as CSV text, handed to `write` a page at a time (the BOM and header first). */
export async function writeAccountListCsv(
  db: AdvisorDb,
  query: AccountListQuery,
  write: (bytes: Uint8Array) => Promise<boolean> | boolean,
  options: ListReadOptions,
): Promise<number> {
  const encoder = new TextEncoder();
  let ok = await write(encoder.encode(CSV_BOM + csvLine(ACCOUNT_LIST_COLUMNS.map((c) => c.header))));
  const total = await eachPage(
    db,
    query,
    async (rows) => {
      if (!ok) return;
      const text = rows
        .map((row) => csvLine(accountListValues(row, options.stageTitle).map(csvValue)))
        .join('');
      ok = await write(encoder.encode(text));
    },
    options,
  );
  return total;
}

/** The list as one sheet's table (values typed), read a page at a time. */
export async function accountListTable(
  db: AdvisorDb,
  query: AccountListQuery,
  options: ListReadOptions,
): Promise<SheetTable> {
  const rows: TableValue[][] = [];
  await eachPage(
    db,
    query,
    (page) => void rows.push(...page.map((r) => accountListValues(r, options.stageTitle))),
    options,
  );
  return { name: 'Accounts', columns: [...ACCOUNT_LIST_COLUMNS], rows };
}

/** What the file is called: the list, what it shows, the day (`Accounts – Clients – 2026-11-25.csv`). */
export function accountListFileName(showing: string, format: ListExportFormat, now = new Date()): string {
  return exportFileName('Accounts', showing, now, format);
}

export type ListExportPhase = 'reading' | 'building' | 'writing';

export interface ListExportOptions extends Omit<ListReadOptions, 'onProgress'> {
  /** The export service (`bridge().exports`). */
  api: ExportApi;
  /** Builds the workbook: the window's is workbookOffThread (a worker), tests' workbookBytes. */
  buildWorkbook: (sheets: SheetTable[], signal?: AbortSignal) => Promise<Uint8Array>;
  format: ListExportFormat;
  /** The file's suggested name (accountListFileName). */
  fileName: string;
  onProgress?: (phase: ListExportPhase, done: number, total: number) => void;
}

/**
 * Asks where to save, then writes the list there: CSV streamed as it is read; XLSX read, built in
 * a worker, then written. Cancelled (the signal) or failed, nothing is left on disk.
 */
export async function exportAccountList(
  db: AdvisorDb,
  query: AccountListQuery,
  { api, buildWorkbook, format, fileName, onProgress, ...read }: ListExportOptions,
): Promise<ExportOutcome & { accounts?: number }> {
  const sink = await beginExport(api, fileName);
  if (!('write' in sink)) return sink;
  const { signal } = read;
  try {
    const reading = {
      ...read,
      onProgress: (done: number, total: number) => onProgress?.('reading', done, total),
    };
    let accounts: number;
    let done: ExportOutcome;
    if (format === 'csv') {
      accounts = await writeAccountListCsv(db, query, (bytes) => sink.write(bytes), reading);
      done = await sink.finish();
    } else {
      const table = await accountListTable(db, query, reading);
      accounts = table.rows.length;
      onProgress?.('building', 0, accounts);
      const bytes = await buildWorkbook([table], signal);
      const writing = (written: number, total: number) => onProgress?.('writing', written, total);
      done = await writeWhole(sink, bytes, { onProgress: writing, ...(signal ? { signal } : {}) });
    }
    return done.ok ? { ...done, accounts } : done;
  } catch (error) {
    await sink.cancel();
    if (error instanceof ExportCancelled || (error instanceof DOMException && error.name === 'AbortError'))
      return { ok: false, cancelled: true };
    return {
      ok: false,
      cancelled: false,
      message: `The list could not be exported: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
