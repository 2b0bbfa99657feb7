// Changing fields of a record: the patch is coalesced into a queued create or update of the
// record where one is unsent, so that the platform sees as few requests as the user's intent
// allows; a patch that changes nothing queues nothing.

import type { AdvisorDb } from '../db.ts';
import type { Fields, Operation, SyncedTable } from '../model.ts';
import { sameValue } from '../view.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  followQuality,
  mergeable,
  newOperation,
  recordOps,
  reopened,
  rowsOf,
  saveOperation,
  statusOf,
  unsentAccount,
  withFields,
  type AnyRow,
  type Change,
} from './operations.ts';
import { journalPatch } from './journal.ts';
import { announce } from './outbox-events.ts';

/** Changes some fields of a record; a patch that changes nothing queues nothing (`opId` null). */
export async function updateRecord(
  db: AdvisorDb,
  table: SyncedTable,
  id: string,
  patch: Fields,
): Promise<Change> {
  const now = Date.now();
  const settled: string[] = [];
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    const row = await rowsOf(db, table).get(id);
    if (!row) throw new ChangeRefused(`The record ${id} (${table}) is not in the local store.`);
    return applyPatch(db, table, row, patch, now, settled);
  });
  announce(db, settled);
  return change;
}

export async function applyPatch(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  patch: Fields,
  now: number,
  settled: string[],
  parentId?: string | null,
): Promise<Change> {
  const changed = Object.fromEntries(Object.entries(patch).filter(([k, v]) => !sameValue(row.fields[k], v)));
  if (Object.keys(changed).length === 0) return { id: row.id, opId: null };
  const ops = await recordOps(db, table, row.id);
  const last = ops.at(-1);
  if (last?.kind === 'delete')
    throw new ChangeRefused(`The record ${row.id} (${table}) is being deleted; it cannot be changed.`);

  // A refused change is what an edit fixes, even with an upload queued behind it.
  const into =
    ops.find((o) => o.state === 'rejected' && mergeable(o)) ?? (last && mergeable(last) ? last : null);
  let op: Operation;
  if (into) {
    op = mergeInto(into, changed, row, ops[0] === into, now);
  } else {
    const parent = parentId !== undefined ? parentId : await unsentAccount(db, row);
    op = await newOperation(db, table, row.id, 'update', changed, baseOf(row, changed), parent, now);
    ops.push(op);
  }
  const remaining = await saveOperation(db, op, ops, settled);
  await journalPatch(db, table, row, changed, op.id, now);
  const next = withFields(
    table,
    { ...row, changedAt: now, status: statusOf(remaining) },
    { ...row.fields, ...changed },
  );
  await rowsOf(db, table).put(next);
  await followQuality(db, table, next, row);
  return { id: row.id, opId: op.id };
}

/** The server's value of each field, as the base an update is compared against before it goes out. */
function baseOf(row: AnyRow, fields: Fields): Fields {
  return Object.fromEntries(Object.keys(fields).map((k) => [k, row.server?.[k] ?? null]));
}

/**
 * Coalesces a patch into a queued create or update. The base of a field is the server value when
 * it was FIRST changed here; a field set back to that value is dropped, but only when nothing is
 * ahead of the operation (an operation in flight would otherwise leave its own value on the server).
 */
function mergeInto(op: Operation, changed: Fields, row: AnyRow, first: boolean, now: number): Operation {
  const merged: Operation = {
    ...reopened(op, now),
    fields: { ...op.fields, ...changed },
    base: { ...op.base },
  };
  if (op.kind === 'update') {
    for (const k of Object.keys(changed)) {
      if (!(k in merged.base)) merged.base[k] = row.server?.[k] ?? null;
      if (first && sameValue(merged.fields[k], merged.base[k])) {
        delete merged.fields[k];
        delete merged.base[k];
      }
    }
  }
  return merged;
}
