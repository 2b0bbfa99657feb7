// The meeting change summary written to a file: read from the journal, made into a PDF (pdfmake
// loaded only now) or a CSV, named `Household – meeting change summary – day.ext`, and saved
// through the export service with the bytes written reported.

import { exportFileName } from '@shared/export/file-name.ts';
import type { AdvisorDb } from '../data/db.ts';
import { meetingSummaryCsv } from './meeting-summary-csv.ts';
import { meetingSummary, type MeetingSummary } from './meeting-summary.ts';
import { saveExport, type ExportApi, type ExportOutcome } from '../common/save-export.ts';

export type MeetingSummaryFormat = 'pdf' | 'csv';
export type MeetingSummaryPhase = 'reading' | 'building' | 'writing';

export interface MeetingSummaryExport {
  api: ExportApi;
  format: MeetingSummaryFormat;
  span: { from: number; to: number };
  now: Date;
  onProgress?: (phase: MeetingSummaryPhase, done: number, total: number) => void;
}

export async function saveMeetingSummary(
  db: AdvisorDb,
  accountId: string,
  options: MeetingSummaryExport,
): Promise<ExportOutcome & { summary: MeetingSummary }> {
  const { format, now, onProgress } = options;
  onProgress?.('reading', 0, 0);
  const summary = await meetingSummary(db, accountId, options.span);
  onProgress?.('building', 0, summary.rows.length);
  const bytes =
    format === 'pdf'
      ? await (await import('./meeting-summary-pdf.ts')).meetingSummaryPdf(summary, now)
      : meetingSummaryCsv(summary);
  const name = exportFileName(summary.household, 'meeting change summary', now, format);
  const outcome = await saveExport(options.api, name, bytes, {
    onProgress: (done, total) => onProgress?.('writing', done, total),
  });
  return { ...outcome, summary };
}
