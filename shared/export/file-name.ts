// The name an export suggests for its file: what it is about, what it holds, the day, so that a
// folder of exports reads and sorts by subject (`Smith household – financial summary – 2026-11-25.pdf`).
// The main process still makes it safe (file-names.ts) before it touches the disk.

/** The kinds of file an export may write (the export service refuses any other name). */
export const EXPORT_EXTENSIONS = ['pdf', 'xlsx', 'csv', 'zip'] as const;
export type ExportExtension = (typeof EXPORT_EXTENSIONS)[number];

const two = (n: number) => String(n).padStart(2, '0');

/** The day of `date` on this computer's calendar (an export made at 00:30 belongs to that day here, not in UTC). */
export function localDay(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * `subject – what – YYYY-MM-DD.ext`, parts joined by an en dash; an empty subject is left out
 * (`Accounts – 2026-11-25.csv`). Spaces are collapsed; the rest is left to the sanitizer.
 */
export function exportFileName(subject: string, what: string, date: Date, ext: ExportExtension): string {
  return namedFile([subject, what, localDay(date)], ext);
}

/**
 * The same style for any file the app names (a report of a range, the diagnostics log): its parts
 * joined by an en dash, spaces collapsed, empty parts left out (`Household overview – Clients –
 * 2026-07-01 to 2026-09-30.csv`).
 */
export function namedFile(parts: readonly string[], ext: string): string {
  const kept = parts.map((part) => part.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return `${kept.join(' – ')}.${ext}`;
}
