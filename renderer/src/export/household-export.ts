// The household's exports the workspace offers (financial summary PDF, data as Excel or CSV zip)
// and the one way each is made: ask where first, build from the local store, write, so a
// cancelled save dialog builds nothing and a cancel or failure leaves no file. Each writer
// (pdfmake ≈3.7 MB, the workbook and zip writers) is loaded only when its export is asked for.

import { exportFileName, type ExportExtension } from '@shared/export/file-name.ts';
import type { AdvisorDb } from '../data/db.ts';
import { accountLabel } from '../data/labels.ts';
import type { AccountRow } from '../data/model.ts';
import { keptFirmLogo, type Pictures } from './firm-logo.ts';
import { beginExport, writeWhole, type ExportApi, type ExportOutcome } from '../common/save-export.ts';

export type HouseholdExportId = 'summary-pdf' | 'data-xlsx' | 'data-csv';

export interface BuildOptions {
  /** The moment the export is made. */
  now: Date;
  /** The advisor's currency (ISO 4217), for the workbook's amounts. */
  currency: string;
  /** Reads the firm's logo as this computer keeps it (`bridge().files`); without it, no logo. */
  pictures?: Pictures;
}

export interface HouseholdExport {
  id: HouseholdExportId;
  /** As a menu lists it. */
  label: string;
  /** What the file holds, in the file's name and in messages (`financial summary`). */
  what: string;
  /** The file's format as a choice names it (`Excel (XLSX)`). */
  format: string;
  /** What is in it, in a sentence. */
  detail: string;
  ext: ExportExtension;
  icon: string;
  build(db: AdvisorDb, accountId: string, options: BuildOptions): Promise<Uint8Array>;
}

// The firm's name comes from the local store (buildFinancialSummary's default: the 0.0.1 user's
// company as last pulled); its logo from this computer's copy only (firm-logo.ts), kept when a
// household is prepared for a meeting: the export sends nothing.
export const FINANCIAL_SUMMARY: HouseholdExport = {
  id: 'summary-pdf',
  label: 'Financial summary (PDF)…',
  what: 'financial summary',
  format: 'PDF',
  detail:
    'A document to hand over or file: the household and its members, net worth, monthly cash flow, goals, insurance, retirement plans and contacts.',
  ext: 'pdf',
  icon: 'pi pi-file-pdf',
  build: async (db, accountId, { now, pictures }) => {
    const logo = await keptFirmLogo(db, pictures);
    return (await import('./summary-pdf.ts')).buildFinancialSummary(db, accountId, {
      now,
      firm: logo ? { logo } : undefined,
    });
  },
};

export const HOUSEHOLD_WORKBOOK: HouseholdExport = {
  id: 'data-xlsx',
  label: 'Household data (Excel)…',
  what: 'household data',
  format: 'Excel (XLSX)',
  detail: 'A summary sheet and one sheet per section, with amounts, rates and dates as Excel reads them.',
  ext: 'xlsx',
  icon: 'pi pi-file-excel',
  build: async (db, accountId, { now, currency }) =>
    (await import('./household-xlsx.ts')).householdWorkbook(db, accountId, { now: now.getTime(), currency }),
};

export const HOUSEHOLD_CSV_ZIP: HouseholdExport = {
  id: 'data-csv',
  label: 'Household data (CSV, zip)…',
  what: 'household data',
  format: 'CSV files (zip)',
  detail: 'A summary and one CSV file per section (UTF-8), in a zip: for any spreadsheet or script.',
  ext: 'zip',
  icon: 'pi pi-file',
  build: async (db, accountId, { now, currency }) =>
    (await import('./household-csv.ts')).householdCsvZip(db, accountId, { now: now.getTime(), currency }),
};

export const HOUSEHOLD_EXPORTS: readonly HouseholdExport[] = [
  FINANCIAL_SUMMARY,
  HOUSEHOLD_WORKBOOK,
  HOUSEHOLD_CSV_ZIP,
];

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * The household as a file's subject: its members' last names (`Smith household`,
 * `Lindqvist & Berg household`), or the client's name or email when no last name is known.
 */
export function householdSubject(account: Pick<AccountRow, 'fields'>): string {
  const lasts = [text(account.fields['client.last_name']), text(account.fields['coclient.last_name'])];
  const names = [...new Set(lasts.filter(Boolean))];
  return names.length ? `${names.join(' & ')} household` : accountLabel(account);
}

export function householdFileName(account: Pick<AccountRow, 'fields'>, kind: HouseholdExport, now: Date) {
  return exportFileName(householdSubject(account), kind.what, now, kind.ext);
}

export type HouseholdExportPhase = 'choosing' | 'building' | 'writing';

export interface HouseholdExportOptions extends BuildOptions {
  /** The export service (`bridge().exports`). */
  api: ExportApi;
  account: Pick<AccountRow, 'id' | 'fields'>;
  signal?: AbortSignal;
  /** `done` and `total` are bytes while writing. */
  onProgress?: (phase: HouseholdExportPhase, done: number, total: number) => void;
}

const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');

/**
 * Makes one export of a household and saves it. A failure says what failed (making the file, or
 * saving it) and what to do; nothing is left on disk then, nor when cancelled.
 */
export async function exportHousehold(
  db: AdvisorDb,
  kind: HouseholdExport,
  options: HouseholdExportOptions,
): Promise<ExportOutcome> {
  const { api, account, signal, onProgress } = options;
  onProgress?.('choosing', 0, 0);
  const sink = await beginExport(api, householdFileName(account, kind, options.now));
  if (!('write' in sink))
    return sink.cancelled ? sink : { ...sink, message: `The ${kind.what} was not saved. ${sink.message}` };
  if (signal?.aborted) return sink.cancel();
  onProgress?.('building', 0, 0);
  let bytes: Uint8Array;
  try {
    bytes = await kind.build(db, account.id, options);
  } catch (error) {
    await sink.cancel();
    return {
      ok: false,
      cancelled: false,
      message: `The ${kind.what} could not be made from this computer's data: ${reason(error)}. Nothing was saved; try again, and if it fails again restart the app.`,
    };
  }
  const outcome = await writeWhole(sink, bytes, {
    signal,
    onProgress: (done, total) => onProgress?.('writing', done, total),
  });
  return outcome.ok || outcome.cancelled
    ? outcome
    : { ...outcome, message: `The ${kind.what} was not saved. ${outcome.message}` };
}
