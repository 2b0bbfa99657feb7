// The meeting change summary as a PDF an advisor files with the meeting's notes: the firm, the
// household, the span, how many changes the platform has, still waits for or refused, then one
// table row per change (section, item, field, before → after, when, status). Set on the same
// page as the financial summary (summary/layout.ts); loaded only when asked for (it carries pdfmake).

import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { userLocale } from '../household/values.ts';
import type { MeetingChangeRow, MeetingSummary } from './meeting-summary.ts';
import {
  RULE,
  dateText,
  heading,
  pageFrame,
  sentence,
  table,
  timeText,
  type Column,
} from './summary/layout.ts';
import { renderPdf } from './summary/pdf-engine.ts';

const clock = (ms: number) =>
  new Intl.DateTimeFormat(userLocale(), { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "5 changes: 3 on the platform, 1 not sent yet, 1 refused by the platform." */
export function countsSentence(summary: MeetingSummary): string {
  const { counts } = summary;
  const parts = [
    counts.sent && `${counts.sent} on the platform`,
    counts.pending && `${counts.pending} not sent yet`,
    counts.refused && `${counts.refused} refused by the platform`,
    counts.conflict && `${counts.conflict} in conflict, waiting for your choice`,
    counts.withdrawn && `${counts.withdrawn} undone or replaced here before being sent`,
  ].filter(Boolean);
  return `${plural(summary.rows.length, 'change')}${parts.length ? `: ${parts.join(', ')}` : ''}.`;
}

function columns(sameDay: boolean): Column<MeetingChangeRow>[] {
  return [
    { label: 'When', width: sameDay ? 42 : 78, cell: (r) => (sameDay ? clock(r.at) : timeText(r.at)) },
    { label: 'Section', width: 84, cell: (r) => r.section },
    { label: 'Item', width: 90, cell: (r) => r.item },
    { label: 'Field', width: 90, cell: (r) => r.field },
    { label: 'Before', cell: (r) => r.before },
    { label: 'After', cell: (r) => r.after },
    { label: 'Status', width: 150, cell: (r) => (r.reason ? `${r.status}: ${r.reason}` : r.status) },
  ];
}

const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

export function meetingSummaryDocument(summary: MeetingSummary, now: Date): TDocumentDefinitions {
  const span = `From ${timeText(summary.from)} to ${timeText(summary.to)}`;
  const rows = summary.rows;
  const body: Content = rows.length
    ? table(columns(sameDay(summary.from, summary.to)), rows)
    : sentence('No change was made to this household on this computer in this span.');
  return {
    ...pageFrame({ firm: summary.firm.name, running: `Meeting change summary · ${summary.household}`, now }),
    pageOrientation: 'landscape',
    info: { title: `${summary.household} – meeting change summary`, creator: 'Advisor Desk' },
    content: [
      ...(summary.firm.name ? [{ text: summary.firm.name, style: 'firm' }] : []),
      { text: 'Meeting change summary', style: 'title' },
      { text: summary.household, style: 'subtitle' },
      {
        text: `${span}: every change made to this household on this computer, and whether the platform has it. Written on ${dateText(now)}.`,
        style: 'note',
      },
      {
        canvas: [{ type: 'line', x1: 0, y1: 6, x2: 762, y2: 6, lineWidth: 0.8, lineColor: RULE }],
        margin: [0, 0, 0, 2],
      },
      heading('Changes'),
      { text: countsSentence(summary), margin: [0, 0, 0, 6] },
      body,
    ],
  };
}

/** The summary as the bytes of a PDF. */
export function meetingSummaryPdf(summary: MeetingSummary, now: Date): Promise<Uint8Array> {
  return renderPdf(meetingSummaryDocument(summary, now));
}
