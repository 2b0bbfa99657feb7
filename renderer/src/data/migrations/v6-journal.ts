// Schema version 6: the change journal (data/journal.ts): by household and time for the meeting
// summary, by operation for the push to mark what the platform has, by time for pruning. Nothing
// else changes; the outbox and every other table are carried across as they are.

export const STORES_V6 = {
  journal: '++seq, [accountId+at], opId, at',
} as const;
