// The meeting change summary as CSV for the compliance file: one row per change, UTF-8 with BOM,
// the time as the computer's local date and time (sorts as text), the state and the platform's
// reason in columns of their own.

import { localDay } from '@shared/export/file-name.ts';
import { CSV_BOM, csvLine } from './csv-format.ts';
import type { MeetingSummary } from './meeting-summary.ts';

const two = (n: number) => String(n).padStart(2, '0');

/** `2026-11-26 14:05:09`, on this computer's clock. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  return `${localDay(d)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export const MEETING_CSV_HEADER = [
  'When',
  'Section',
  'Item',
  'Field',
  'Before',
  'After',
  'Status',
  'Platform’s reason',
] as const;

export function meetingSummaryCsv(summary: MeetingSummary): Uint8Array {
  const lines = [CSV_BOM, csvLine(MEETING_CSV_HEADER)];
  for (const r of summary.rows)
    lines.push(csvLine([localTime(r.at), r.section, r.item, r.field, r.before, r.after, r.status, r.reason]));
  return new TextEncoder().encode(lines.join(''));
}
