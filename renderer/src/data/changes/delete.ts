// Deleting: a section item through the outbox (an unsent create simply disappears), and an
// account the platform no longer has, forgotten here with everything of it.

import type { AdvisorDb } from '../db.ts';
import { relationTargetsKey } from '../mappers.ts';
import type { SyncedTable } from '../model.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  dropOperations,
  forgetRecord,
  mergeable,
  newOperation,
  recordOps,
  statusOf,
  type Change,
} from './operations.ts';
import { journalRecord } from './journal.ts';
import { announce } from './outbox-events.ts';

/**
 * Deletes a section item. An unsent create and everything after it simply disappear; otherwise
 * pending edits that were not sent are dropped and one delete is queued. The row stays (with its
 * server id) until the server confirms; its local view (`localView`) is null meanwhile.
 */
export async function deleteRecord(db: AdvisorDb, table: SyncedTable, id: string): Promise<Change> {
  if (table === 'accounts')
    throw new ChangeRefused(
      'An account is deleted on the platform directly: it needs your password and a connection, so it is never queued.',
    );
  if (table === 'singles')
    throw new ChangeRefused('A single-record section cannot be deleted; clear its fields instead.');
  const now = Date.now();
  const settled: string[] = [];
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    const row = await db.sectionItems.get(id);
    if (!row) return { id, opId: null };
    const ops = await recordOps(db, table, id);
    if (ops[0]?.kind === 'create' && mergeable(ops[0])) {
      await forgetRecord(db, table, id, ops, settled);
      await journalRecord(db, table, row, 'delete', { before: row.fields }, null, now);
      return { id, opId: null };
    }
    const last = ops.at(-1);
    if (last?.kind === 'delete') return { id, opId: last.id };
    // Only what may already be on the server stays ahead of the delete.
    const dropped = ops.filter((op) => op.state !== 'inflight');
    await dropOperations(db, dropped, settled);
    const op = await newOperation(db, table, id, 'delete', {}, {}, null, now);
    await db.outbox.add(op);
    await journalRecord(db, table, row, 'delete', { before: row.fields }, op.id, now);
    const remaining = [...ops.filter((o) => o.state === 'inflight'), op];
    await db.sectionItems.put({ ...row, changedAt: now, status: statusOf(remaining) });
    return { id, opId: op.id };
  });
  announce(db, settled);
  return change;
}

/**
 * Removes an account from this machine with everything of it: its section items and single
 * records, their queued operations, conflicts and kept files, and the relation ids reserved for
 * it. Only for an account the platform no longer has (deleted online: sync/online-only.ts).
 */
export async function forgetAccount(db: AdvisorDb, accountId: string): Promise<void> {
  const settled: string[] = [];
  await db.transaction('rw', [...SYNC_TABLES, 'meta'], async () => {
    const items = await db.sectionItems.where('accountId').equals(accountId).primaryKeys();
    const singles = await db.singles.where('accountId').equals(accountId).primaryKeys();
    const records: [SyncedTable, string[]][] = [
      ['sectionItems', items],
      ['singles', singles],
      ['accounts', [accountId]],
    ];
    for (const [table, ids] of records)
      for (const id of ids) await forgetRecord(db, table, id, await recordOps(db, table, id), settled);
    // Files kept for offline viewing belong to the account too, not only the blobs of its uploads.
    const owners = [`accounts:${accountId}:`, ...items.map((id) => `sectionItems:${id}:`)];
    await db.files.where('owner').startsWithAnyOf(owners).delete();
    await db.meta.delete(relationTargetsKey(accountId));
  });
  announce(db, settled);
}
