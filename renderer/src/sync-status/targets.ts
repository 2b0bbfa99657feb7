// Where a record is fixed: the sync panel's entries (a refused change, a conflict, a change
// waiting) lead to the record's own form in the account workspace — the account, the tab, the
// section and the member — and open the item. An account's own fields are edited in the account
// form; its conflict is resolved in the workspace header.

import type { RouteLocationRaw } from 'vue-router';
import { recordLabel } from '../data/labels.ts';
import type { AdvisorDb } from '../data/db.ts';
import type { Operation, OperationKind, OperationState, SyncedTable } from '../data/model.ts';

export type Purpose = 'fix' | 'resolve' | 'show';

/** The workspace address of a record; null when the record is no longer on this computer. */
export async function recordTarget(
  db: AdvisorDb,
  table: SyncedTable,
  recordId: string,
  purpose: Purpose = 'show',
): Promise<RouteLocationRaw | null> {
  if (table === 'accounts') {
    if (!(await db.accounts.get(recordId))) return null;
    return {
      name: 'account',
      params: { id: recordId },
      query: purpose === 'fix' ? { edit: 'account' } : {},
    };
  }
  if (table === 'sectionItems') {
    const row = await db.sectionItems.get(recordId);
    if (!row) return null;
    return {
      name: 'account',
      params: { id: row.accountId },
      query: { tab: 'financials', section: row.section, item: row.id },
    };
  }
  const row = await db.singles.get(recordId);
  if (!row) return null;
  const [path, member] = row.key.split(':');
  if (path === 'details')
    return {
      name: 'account',
      params: { id: row.accountId },
      query: { tab: 'members', member: member ?? 'client' },
    };
  return { name: 'account', params: { id: row.accountId }, query: { tab: 'financials', section: row.key } };
}

/** A change waiting to be sent, named for the user. */
export interface PendingEntry {
  opId: string;
  table: SyncedTable;
  recordId: string;
  label: string;
  change: OperationKind;
  state: OperationState;
  /** Why the last try failed, while it waits to be tried again. */
  lastError: string | null;
}

const WAITING: OperationState[] = ['queued', 'inflight', 'retry'];

/** The first `limit` changes waiting to be sent, oldest first. */
export async function pendingEntries(db: AdvisorDb, limit = 50): Promise<PendingEntry[]> {
  const ops: Operation[] = await db.outbox.where('state').anyOf(WAITING).toArray();
  ops.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const out: PendingEntry[] = [];
  for (const op of ops.slice(0, limit))
    out.push({
      opId: op.id,
      table: op.table,
      recordId: op.recordId,
      label: await recordLabel(db, op.table, op.recordId),
      change: op.kind,
      state: op.state,
      lastError: op.state === 'retry' ? (op.lastError?.message ?? null) : null,
    });
  return out;
}

/** What kind of change, in a word or two. */
export const CHANGE_WORDS: Record<OperationKind, string> = {
  create: 'New',
  update: 'Edited',
  delete: 'Deleted',
  upload: 'File upload',
  removeFile: 'File removed',
  resetPin: 'PIN reset',
  sendEngagement: 'Questionnaire sent',
  closeEngagement: 'Questionnaire closed',
  reopenEngagement: 'Questionnaire reopened',
  sendForm: 'Form sent',
  resendForm: 'Form resent',
  closeForm: 'Form closed',
};
