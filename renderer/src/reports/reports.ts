// The platform's reports (0.0.1) as the Reports screens use them: the list from the local store,
// grouped and searched; a team report's source, date range (with presets) and format; and the
// addresses of the report files, which only the main process downloads (with the sign-in).

import { liveQuery, type Subscription } from 'dexie';
import { onBeforeUnmount, shallowRef, type Ref } from 'vue';
import { localDay, namedFile } from '@shared/export/file-name.ts';
import type { REPORT_FORMATS } from '@shared/wire/v0/reports.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { ReportRow } from '../data/model.ts';
import { listReports } from '../data/queries/index.ts';

export type ReportFormat = (typeof REPORT_FORMATS)[number];
export type TeamSource = 'ALL' | 'CLIENT' | 'PROSPECT';

export const SOURCES: { value: TeamSource; label: string }[] = [
  { value: 'ALL', label: 'All households' },
  { value: 'CLIENT', label: 'Clients' },
  { value: 'PROSPECT', label: 'Prospects' },
];

/** XLS comes as an Excel workbook (.xlsx), as the platform serves it. */
export const FORMATS: { value: ReportFormat; label: string; extension: string }[] = [
  { value: 'PDF', label: 'PDF', extension: 'pdf' },
  { value: 'XLS', label: 'Excel', extension: 'xlsx' },
  { value: 'CSV', label: 'CSV', extension: 'csv' },
];

/** The kinds the document names, in the advisor's words. */
const GROUPS: Record<string, string> = {
  DATADEFINITION: 'Household data',
  FORMDEFINITION: 'Forms',
};
const OTHER_GROUP = 'Other reports';

export const groupName = (type: string) => GROUPS[type] ?? OTHER_GROUP;

export interface ReportGroup {
  name: string;
  reports: ReportRow[];
}

/** The reports whose title, description or tags hold every word searched, by kind (data, forms, other). */
export function groupReports(rows: readonly ReportRow[], search: string): ReportGroup[] {
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const matches = (r: ReportRow) => {
    const text = [r.server.title, r.server.description, ...(r.server.tags ?? [])]
      .join(' ')
      .toLocaleLowerCase();
    return words.every((w) => text.includes(w));
  };
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows.filter(matches)) {
    const name = groupName(row.type);
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  const order = [...Object.values(GROUPS), OTHER_GROUP];
  return order.flatMap((name) => {
    const reports = groups.get(name);
    return reports ? [{ name, reports }] : [];
  });
}

/** The reports on this computer, live; null until first read. */
export function useReports(db: AdvisorDb): Ref<ReportRow[] | null> {
  const rows = shallowRef<ReportRow[] | null>(null);
  const subscription: Subscription = liveQuery(() => listReports(db)).subscribe({
    next: (value) => (rows.value = value),
    error: (error: unknown) => console.error('The reports could not be read.', error),
  });
  onBeforeUnmount(() => subscription.unsubscribe());
  return rows;
}

// ---- Date ranges ----

export interface DateRange {
  /** `YYYY-MM-DD`, both days included (as the platform reads them). */
  start: string;
  end: string;
}

export type RangePreset = 'all-time' | 'this-month' | 'last-quarter' | 'this-year';

export const PRESETS: { value: RangePreset; label: string }[] = [
  { value: 'all-time', label: 'All time' },
  { value: 'this-month', label: 'This month' },
  { value: 'last-quarter', label: 'Last quarter' },
  { value: 'this-year', label: 'This year' },
];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const day = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m, d));
  return date.toISOString().slice(0, 10);
};

/** Where "All time" starts when this computer knows no household's day of creation. */
export const EARLIEST_DAY = '2000-01-01';

/**
 * The range a preset stands for on `today` (the advisor's calendar day): all time, this month and
 * this year run to today; all time from `firstDay` (the first household's day of creation, see
 * `firstHouseholdDay`); last quarter is the whole calendar quarter before the one today is in.
 */
export function presetRange(preset: RangePreset, today: Date, firstDay: string | null = null): DateRange {
  const y = today.getFullYear();
  const m = today.getMonth();
  const end = day(y, m, today.getDate());
  if (preset === 'all-time')
    return { start: firstDay && ISO_DAY.test(firstDay) && firstDay <= end ? firstDay : EARLIEST_DAY, end };
  if (preset === 'this-month') return { start: day(y, m, 1), end };
  if (preset === 'this-year') return { start: day(y, 0, 1), end };
  const quarterStart = m - (m % 3) - 3;
  // Date.UTC rolls a negative month into the year before; day 0 is the last day of the month before.
  return { start: day(y, quarterStart, 1), end: day(y, quarterStart + 3, 0) };
}

/** Why the range cannot be asked for (naming the field and what to do), or null when it can. */
export function rangeProblem(range: { start: string | null; end: string | null }): string | null {
  if (!range.start || !ISO_DAY.test(range.start)) return 'From: choose the first day of the report.';
  if (!range.end || !ISO_DAY.test(range.end)) return 'To: choose the last day of the report.';
  if (range.end < range.start) return 'To: the last day comes before the first; choose a later day.';
  return null;
}

/**
 * The day the first household on this computer was created on the platform (`YYYY-MM-DD`), or
 * null when none is known. Households not on the platform yet sort after every other and count not.
 */
export async function firstHouseholdDay(db: AdvisorDb): Promise<string | null> {
  const first = await db.accounts.where('createdAt').below('9999').first();
  const created = first?.createdAt.slice(0, 10) ?? '';
  return ISO_DAY.test(created) ? created : null;
}

/**
 * The preset a report opens with: a household report over all time, so that it holds every
 * household its title speaks of (the platform keeps only those created in the range); a forms
 * report over this month, the forms sent lately.
 */
export const defaultPreset = (report: Pick<ReportRow, 'type'>): RangePreset =>
  report.type === 'DATADEFINITION' ? 'all-time' : 'this-month';

/** What the range keeps, in the advisor's words, by the report's kind. */
export function rangeMeaning(report: Pick<ReportRow, 'type'>): string {
  if (report.type === 'DATADEFINITION')
    return 'The report holds the households created on these days. All time holds every household.';
  if (report.type === 'FORMDEFINITION') return 'The report holds the forms sent on these days.';
  return 'The report covers these days.';
}

// ---- Addresses and names ----

/** A report the platform listed without a key cannot be addressed (its key is part of every path). */
export const keyProblem = (report: Pick<ReportRow, 'key'>) =>
  report.key === '' ? 'This report came from the platform without a key, so it cannot be asked for.' : null;

/** A report file the main process downloads: its address below the 0.0.1 base and a name to save it under. */
export interface ReportFile {
  api: 'v0';
  url: string;
  name: string;
}

const extensionOf = (format: ReportFormat) => FORMATS.find((f) => f.value === format)?.extension ?? 'bin';

/** The report's title as a file name's part; the main process makes the whole name safe. */
const titlePart = (text: string) => text.trim().slice(0, 80) || 'Report';

/** `GET /user/reports/{reportKey}/{reportSource}/{start}/{end}/{format}`. */
export function teamReportFile(
  report: Pick<ReportRow, 'key' | 'server'>,
  source: TeamSource,
  range: DateRange,
  format: ReportFormat,
): ReportFile {
  const key = encodeURIComponent(report.key);
  return {
    api: 'v0',
    url: `/user/reports/${key}/${source}/${range.start}/${range.end}/${format}`,
    // Named as every export is (`Household overview – Clients – 2026-07-01 to 2026-09-30.csv`).
    name: namedFile(
      [
        titlePart(report.server.title),
        SOURCES.find((s) => s.value === source)?.label ?? source,
        `${range.start} to ${range.end}`,
      ],
      extensionOf(format),
    ),
  };
}

/**
 * `GET /accounts/{accountId}/reports/{reportKey}/{format}`; `household` names the file, as the
 * household's own exports are named (`Ana & Luís Peña – Net worth summary – 2026-11-25.pdf`).
 */
export function accountReportFile(
  accountServerId: number,
  household: string,
  report: Pick<ReportRow, 'key' | 'server'>,
  format: ReportFormat,
  now: Date = new Date(),
): ReportFile {
  return {
    api: 'v0',
    url: `/accounts/${accountServerId}/reports/${encodeURIComponent(report.key)}/${format}`,
    name: namedFile([household, titlePart(report.server.title), localDay(now)], extensionOf(format)),
  };
}
