// How an engagement reads on screen: its state, progress and dates in an advisor's words, the
// labels of the interface's sort keys, and what a queued send or close says while it waits.

import type { EngagementRow } from '../data/model.ts';
import type { EngagementSortKey, PendingEngagementChange } from '../data/queries/index.ts';

export const SORT_LABELS: Record<EngagementSortKey, string> = {
  created_at: 'Sent',
  title: 'Questionnaire',
  name: 'Member name',
  email: 'Member email',
  status: 'Status',
  filled: 'Progress',
  opened_at: 'Opened',
  reminded_at: 'Reminded',
  completed_at: 'Completed',
  account_id: 'Account',
  member_id: 'Member',
  template_id: 'Template',
  description: 'Description',
  security: 'Security',
};

/** Keys an advisor reads newest or biggest first. */
export const DESCENDING_FIRST: readonly EngagementSortKey[] = [
  'created_at',
  'opened_at',
  'reminded_at',
  'completed_at',
  'filled',
];

export const STATES = [
  { value: 'all', label: 'All' },
  { value: 'in-progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
] as const;
export type StateFilter = (typeof STATES)[number]['value'];

/** "Completed", "Opened", "Not opened yet": the platform's status as the client's progress. */
export function stateLabel(row: EngagementRow): string {
  if (row.completed === 1) return 'Completed';
  if (row.server.opened_at) return 'In progress';
  return 'Not opened yet';
}

/** `filled` is a percentage, `time` the seconds spent filling it in ("" before any). */
export function progressParts(row: EngagementRow): { filled: string; spent: string } {
  const { filled, time } = row.server;
  const minutes = Math.round(time / 60);
  return {
    filled: `${Math.max(0, Math.min(100, Math.round(filled)))}% filled`,
    spent: time <= 0 ? '' : minutes < 1 ? 'under a minute' : `${minutes} min`,
  };
}

/** "100% filled, 11 min": the progress on one line. */
export function progressLabel(row: EngagementRow): string {
  const { filled, spent } = progressParts(row);
  return spent ? `${filled}, ${spent}` : filled;
}

const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const MOMENT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A platform timestamp as a day ("Nov 26, 2026"), or "—" when there is none. */
export function day(at: string | null | undefined): string {
  if (!at) return '—';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : DAY.format(d);
}

/** A platform timestamp with its time of day. */
export function moment(at: string | null | undefined): string {
  if (!at) return '—';
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : MOMENT.format(d);
}

export const memberWord = (member: 'client' | 'coclient' | null) =>
  member === 'coclient' ? 'co-client' : member === 'client' ? 'client' : 'member';

/** What a change waiting to be sent says, beside the engagement or in place of one not made yet. */
export function pendingLabel(change: PendingEngagementChange, offline: boolean): string {
  if (change.error) return `Not sent: ${change.error}`;
  const when =
    change.state === 'inflight'
      ? 'being sent now'
      : offline
        ? 'will be sent when you are back online'
        : 'waiting to be sent';
  switch (change.kind) {
    case 'sendEngagement':
      return `Questionnaire to the ${memberWord(change.member)} — ${when}`;
    case 'closeEngagement':
      return `Close — ${when}`;
    case 'reopenEngagement':
      return `Reopen — ${when}`;
  }
}
