// The change journal's reading side: a household's changes made on this computer in a span, each
// with what became of it, read from the outbox at the moment of asking; and pruning by age.
// The change module writes it (changes/journal.ts); the push marks what the platform has.

import type { AdvisorDb } from './db.ts';
import type { JournalEntry, Operation } from './model.ts';

/**
 * What became of a change: still to be sent (or in flight), on the platform, refused by it,
 * waiting for the advisor's choice in a conflict, or never sent because a later change here
 * undid or replaced it (set back, discarded, deleted before it went).
 */
export type ChangeState = 'pending' | 'sent' | 'refused' | 'conflict' | 'withdrawn';

export interface JournalChange extends JournalEntry {
  state: ChangeState;
  /** The platform's reason, for a refused change, and its messages by field when it gave them. */
  reason: string | null;
  fieldMessages: string[];
}

/** How long entries are kept: a quarter, longer than any meeting's notes wait to be filed. */
export const JOURNAL_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

type Fate = Pick<JournalChange, 'state' | 'reason' | 'fieldMessages'>;

function stateOf(entry: JournalEntry, op: Operation | undefined): Fate {
  const none = { reason: null, fieldMessages: [] };
  if (entry.sentAt !== undefined) return { state: 'sent', ...none };
  if (!op) return { state: 'withdrawn', ...none };
  if (op.state === 'rejected')
    return {
      state: 'refused',
      reason: op.lastError?.message ?? 'The platform refused it.',
      fieldMessages: Object.values(op.lastError?.fields ?? {}).flat(),
    };
  if (op.state === 'conflict') return { state: 'conflict', ...none };
  return { state: 'pending', ...none };
}

/** The household's changes made from `from` to `to` (ms, both included), oldest first. */
export async function journalChanges(
  db: AdvisorDb,
  accountId: string,
  from: number,
  to: number,
): Promise<JournalChange[]> {
  return db.transaction('r', [db.journal, db.outbox], async () => {
    const entries = await db.journal
      .where('[accountId+at]')
      .between([accountId, from], [accountId, to], true, true)
      .toArray();
    const opIds = [...new Set(entries.flatMap((e) => (e.opId && e.sentAt === undefined ? [e.opId] : [])))];
    const ops = new Map((await db.outbox.where('id').anyOf(opIds).toArray()).map((op) => [op.id, op]));
    return entries
      .sort((a, b) => a.at - b.at || (a.seq ?? 0) - (b.seq ?? 0))
      .map((e) => ({ ...e, ...stateOf(e, e.opId ? ops.get(e.opId) : undefined) }));
  });
}

/** Removes the entries older than `days` before `now`; answers how many went. */
export function pruneJournal(db: AdvisorDb, now: number, days = JOURNAL_DAYS): Promise<number> {
  return db.journal
    .where('at')
    .below(now - days * DAY_MS)
    .delete();
}
