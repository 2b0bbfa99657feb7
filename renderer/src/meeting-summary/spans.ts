// The spans the "Meeting summary…" dialog offers, the first its default: the meeting, that is
// since the first change made to the household today (however often its workspace was opened
// and closed since, or the app reloaded), else today; the last 7 days; all the journal keeps.
// (The dialog is opened from anywhere through commands/meeting-summary.ts.)

export type SpanChoice = 'meeting' | 'today' | 'week' | 'kept';

export interface Span {
  choice: SpanChoice;
  from: number;
  label: string;
}

const DAY = 24 * 60 * 60 * 1000;

export function startOfDay(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

const clock = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

/**
 * The spans offered, the first the default: the meeting, from `firstToday` (the time of the first
 * change made to the household today; null when none was), else the whole of today; the last 7
 * days; all the journal keeps.
 */
export function spansFor(firstToday: number | null, now: number): Span[] {
  const today = startOfDay(now);
  const spans: Span[] = [];
  if (firstToday !== null && firstToday >= today && firstToday <= now)
    spans.push({
      choice: 'meeting',
      from: firstToday,
      label: `This meeting (since ${clock(firstToday)})`,
    });
  spans.push({ choice: 'today', from: today, label: 'Today' });
  spans.push({ choice: 'week', from: startOfDay(now - 6 * DAY), label: 'The last 7 days' });
  spans.push({ choice: 'kept', from: 0, label: 'Everything kept (90 days)' });
  return spans;
}
