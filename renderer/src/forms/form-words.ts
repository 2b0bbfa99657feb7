// The forms in words and the list's search and filter: no DOM, no store, so Node tests read them.

import type { FormEntry } from '../data/queries/form-list.ts';

/** The document's three statuses in words; another value the platform sends is shown as it came. */
export const STATUS_WORDS: Record<string, string> = {
  NEW: 'New',
  IN_PROGRESS: 'In progress',
  CLOSED: 'Closed',
};
export const statusWord = (status: string | null) =>
  status === null ? 'Not sent yet' : (STATUS_WORDS[status] ?? status);

export type StatusFilter = 'all' | 'open' | 'NEW' | 'IN_PROGRESS' | 'CLOSED';
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'NEW', label: 'New' },
  { value: 'IN_PROGRESS', label: 'In progress' },
  { value: 'CLOSED', label: 'Closed' },
];

/** The entries matching the search (title, account, recipients, tags) and the status filter. */
export function filterEntries(
  entries: readonly FormEntry[],
  search: string,
  status: StatusFilter,
): FormEntry[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((e) => {
    if (status === 'open' && e.status === 'CLOSED') return false;
    if (status !== 'all' && status !== 'open' && e.status !== status) return false;
    const text = [e.title, e.accountName, ...e.recipients, ...e.tags].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** What is waiting for a form, in words ("Close waiting to be sent"), or null. */
export function pendingWords(entry: FormEntry): string | null {
  const last = entry.pending.at(-1);
  if (!last) return null;
  const what =
    { sendForm: 'Send', resendForm: 'Resend', closeForm: 'Close' }[last.kind as string] ?? 'Change';
  if (last.state === 'rejected')
    return `${what} refused by the platform${last.error ? `: ${last.error}` : ''}`;
  return `${what} waiting to be sent`;
}
