// Files chosen or removed for a file field: the blob, the operation and the record showing the
// file change in one transaction; a change not sent yet is replaced rather than queued behind.

import type { AdvisorDb } from '../db.ts';
import { fileField, fileOwner, stagedFile, type FileInput, type PendingFile } from '../files.ts';
import { newSingleRow } from '../mappers.ts';
import type { Operation, SyncedTable } from '../model.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  dropOperations,
  newOperation,
  recordOps,
  releaseFiles,
  reopened,
  rowsOf,
  statusOf,
  unsent,
  unsentAccount,
  withFields,
  type AnyRow,
  type Change,
} from './operations.ts';
import { journalRecord } from './journal.ts';
import { announce } from './outbox-events.ts';

/** A file field of a section item, or of a single record (`${accountId}:details:client`). */
export interface FileRef {
  table: 'sectionItems' | 'singles';
  recordId: string;
  field: string;
}

/**
 * Queues a chosen file for a file field: member photo and driver's-license document, an
 * employment item's document, a Documents item's file. The blob, the operation and the record
 * showing the file (name and size, see PendingFile) change in one transaction. Per field, a new
 * file replaces a file not yet sent, blob included; the file of a record whose create is not
 * sent yet follows that create, or rides inside it for a Documents item.
 */
export function queueUpload(db: AdvisorDb, ref: FileRef & { file: FileInput }): Promise<Change> {
  return fileChange(db, ref, ref.file);
}

/**
 * Removes the file of a field. A removal cancels an upload of the field not yet sent; when the
 * platform then holds no file there, nothing is sent at all.
 */
export function queueRemoveFile(db: AdvisorDb, ref: FileRef): Promise<Change> {
  return fileChange(db, ref, null);
}

async function fileChange(db: AdvisorDb, ref: FileRef, file: FileInput | null): Promise<Change> {
  const now = Date.now();
  const settled: string[] = [];
  // An async scope: Dexie keeps its transaction across native awaits only for those.
  const change = await db.transaction('rw', SYNC_TABLES, async () =>
    changeFile(db, ref.table, ref.recordId, ref.field, file, now, settled),
  );
  announce(db, settled);
  return change;
}

/** One file change inside the caller's transaction; `file` null removes the file. */
export async function changeFile(
  db: AdvisorDb,
  table: SyncedTable,
  id: string,
  field: string,
  file: FileInput | null,
  now: number,
  settled: string[],
): Promise<Change> {
  const row = await fileRecord(db, table, id);
  const spec = fileField(table, row, field);
  if (!spec) throw new ChangeRefused(`“${field}” is not a file of this record.`);
  if (!file && spec.inRecord)
    throw new ChangeRefused('A document is its file: choose another file, or delete the document.');
  const ops = await recordOps(db, table, row.id);
  if (ops.at(-1)?.kind === 'delete')
    throw new ChangeRefused(`The record ${row.id} (${table}) is being deleted; it cannot be changed.`);
  let value: PendingFile | null = null;
  if (file) {
    const staged = stagedFile(file, spec.kind, fileOwner(table, row, field), now);
    if (staged.row.size === 0) throw new ChangeRefused(`The file “${file.name}” is empty.`);
    await db.files.add(staged.row);
    value = staged.value;
  }

  // The operations that write this field: its uploads and removals, and a create carrying it.
  const writes = (op: Operation) =>
    op.kind === 'create'
      ? spec.inRecord
      : (op.kind === 'upload' || op.kind === 'removeFile') && field in op.fields;
  // Whether the platform holds a file in the field once the given operations have gone through.
  const held = (before: readonly Operation[]) => {
    const last = before.filter(writes).at(-1);
    // A record never read here shows no file: a removal means the file chosen here, not one the
    // user has not seen.
    return (last ? last.fields[field] : row.server?.[field]) != null;
  };

  const previous = ops.filter(writes).at(-1);
  let op: Operation | null = null;
  if (previous && unsent(previous)) {
    // Nothing has sent it (or it certainly did not arrive): this change takes its place.
    const kind =
      previous.kind === 'create'
        ? 'create'
        : value
          ? 'upload'
          : held(ops.slice(0, ops.indexOf(previous)))
            ? 'removeFile'
            : null;
    if (kind === null) await dropOperations(db, [previous], settled);
    else {
      const fields = kind === 'create' ? { ...previous.fields, [field]: value } : { [field]: value };
      op = { ...reopened(previous, now), kind, fields };
      await db.outbox.put(op);
      await releaseFiles(db, [previous]);
    }
  } else if (value || held(ops)) {
    // Behind what is in flight; the file of a record not created yet waits for its create.
    const parentId = row.serverId === null ? row.id : await unsentAccount(db, row);
    op = await newOperation(
      db,
      table,
      row.id,
      value ? 'upload' : 'removeFile',
      { [field]: value },
      {},
      parentId,
      now,
    );
    await db.outbox.add(op);
  }
  const change = { field, before: row.fields[field], after: value };
  await journalRecord(db, table, row, value ? 'upload' : 'removeFile', change, op?.id ?? null, now);
  const status = statusOf(await recordOps(db, table, row.id));
  await rowsOf(db, table).put(
    withFields(table, { ...row, changedAt: now, status }, { ...row.fields, [field]: value }),
  );
  return { id: row.id, opId: op?.id ?? null };
}

/** The record a file belongs to; a single record never pulled starts empty (it always exists on the platform). */
async function fileRecord(db: AdvisorDb, table: SyncedTable, id: string): Promise<AnyRow> {
  const row = await rowsOf(db, table).get(id);
  if (row) return row;
  // Single record ids are `${accountId}:${key}`, and local account ids hold no colon.
  const at = id.indexOf(':');
  if (table !== 'singles' || at <= 0)
    throw new ChangeRefused(`The record ${id} (${table}) is not in the local store.`);
  const single = newSingleRow(id.slice(0, at), id.slice(at + 1));
  await unsentAccount(db, single);
  return single;
}
