// The spans the "Meeting summary…" dialog offers, the first its default: since the household was
// opened today, else today, the last 7 days, all the journal keeps. (The dialog is opened from
// anywhere through commands/meeting-summary.ts.)

import type { AccountRow } from '../data/model.ts';

export type SpanChoice = 'opened' | 'today' | 'week' | 'kept';

export interface Span {
  choice: SpanChoice;
  from: number;
  label: string;
}

const DAY = 24 * 60 * 60 * 1000;

function startOfDay(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

const clock = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

/**
 * The spans offered, the first the default: since the household was opened today (the workspace
 * records when, `openedAt`), else the whole of today; the last 7 days; all the journal keeps.
 */
export function spansFor(account: Pick<AccountRow, 'openedAt'> | undefined, now: number): Span[] {
  const today = startOfDay(now);
  const opened = account?.openedAt ?? null;
  const spans: Span[] = [];
  if (opened !== null && opened >= today && opened <= now)
    spans.push({ choice: 'opened', from: opened, label: `Since it was opened (${clock(opened)})` });
  spans.push({ choice: 'today', from: today, label: 'Today' });
  spans.push({ choice: 'week', from: startOfDay(now - 6 * DAY), label: 'The last 7 days' });
  spans.push({ choice: 'kept', from: 0, label: 'Everything kept (90 days)' });
  return spans;
}
