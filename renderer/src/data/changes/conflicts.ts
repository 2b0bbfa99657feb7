// The user's answer to a conflict: field by field (mine or theirs), or, for a record deleted on
// the server, recreate or discard; and the files "keep mine" cannot bring back.

import type { AdvisorDb } from '../db.ts';
import { fileField, isPendingFile } from '../files.ts';
import { emptyMeta } from '../accounts.ts';
import type { AccountRow, Fields, Operation, SectionItemRow, SingleRow, SyncedTable } from '../model.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  followQuality,
  forgetRecord,
  recordOps,
  refreshRow,
  requeued,
  rowsOf,
  saveOperation,
  type AnyRow,
} from './operations.ts';
import { announce } from './outbox-events.ts';
import { leaveServerIdBehind, recreateAccount, recreatedFields } from './recreate.ts';

/** The key a ConflictRow uses when the record was deleted on the server: recreate or discard. */
export const DELETED_ON_SERVER = '$deleted';

export type ConflictChoice = 'mine' | 'theirs' | Record<string, 'mine' | 'theirs'>;

/**
 * The user's answer to a conflict. Per field, `mine` sends my value over theirs (the base becomes
 * theirs, so the next check passes unless the server moves again) and `theirs` drops my value.
 * Fields a record-shaped choice leaves out keep mine. For a record deleted on the server, `theirs`
 * discards it here too, anything else recreates it from the local view.
 */
export async function resolveConflict(db: AdvisorDb, opId: string, choice: ConflictChoice): Promise<void> {
  const settled: string[] = [];
  await db.transaction('rw', SYNC_TABLES, async () => {
    const op = await db.outbox.where('id').equals(opId).first();
    if (!op || op.state !== 'conflict')
      throw new ChangeRefused(`The change ${opId} is not waiting for a conflict to be resolved.`);
    const conflict = await db.conflicts.get(opId);
    const row = await rowsOf(db, op.table).get(op.recordId);
    if (!row) throw new ChangeRefused(`The record ${op.recordId} (${op.table}) is not in the local store.`);
    await db.conflicts.delete(opId);
    if (conflict?.fields[DELETED_ON_SERVER]) await resolveDeleted(db, op, row, choice === 'theirs', settled);
    else await resolveFields(db, op, row, conflict?.fields ?? {}, choice, settled);
  });
  announce(db, settled);
}

async function resolveFields(
  db: AdvisorDb,
  op: Operation,
  row: AnyRow,
  fields: Record<string, { theirs: unknown }>,
  choice: ConflictChoice,
  settled: string[],
): Promise<void> {
  const next: Operation = { ...requeued(op), fields: { ...op.fields }, base: { ...op.base } };
  for (const [field, { theirs }] of Object.entries(fields)) {
    const pick = typeof choice === 'string' ? choice : (choice[field] ?? 'mine');
    if (pick === 'mine') next.base[field] = theirs;
    else {
      delete next.fields[field];
      delete next.base[field];
    }
  }
  const ops = await recordOps(db, op.table, op.recordId);
  const remaining = await saveOperation(
    db,
    next,
    ops.map((o) => (o.id === op.id ? next : o)),
    settled,
  );
  const resolved = refreshRow(op.table, row, remaining);
  await rowsOf(db, op.table).put(resolved);
  await followQuality(db, op.table, resolved, row);
}

async function resolveDeleted(
  db: AdvisorDb,
  op: Operation,
  row: AnyRow,
  discard: boolean,
  settled: string[],
): Promise<void> {
  const ops = await recordOps(db, op.table, op.recordId);
  if (discard) return forgetRecord(db, op.table, op.recordId, ops, settled);
  const account = await accountRecreated(db, op.table, row);
  if (account) return recreateAccount(db, account, settled);
  if (op.table === 'singles') {
    // A single record is never created: it is there whenever its member is. The change goes
    // again, checked against nothing, as the member there may be a new one. The files the
    // platform held went with the member: the record shows them gone, to be chosen again.
    const again: Operation = { ...requeued(op), base: {} };
    await db.outbox.put(again);
    const remaining = ops.map((o) => (o.id === op.id ? again : o));
    const server = row.server && withoutPlatformFiles(op.table, row, row.server);
    await rowsOf(db, op.table).put(
      refreshRow(op.table, { ...row, server, deletedOnServer: null }, remaining),
    );
    return;
  }
  if (op.table === 'sectionItems') await leaveServerIdBehind(db, row as SectionItemRow);
  const recreate: Operation = {
    ...requeued(op),
    kind: 'create',
    fields: recreatedFields(op.table, row),
    base: {},
  };
  await db.outbox.put(recreate);
  const fresh: AnyRow = { ...row, serverId: null, server: null, deletedOnServer: null };
  if (op.table === 'accounts') (fresh as AccountRow).meta = emptyMeta();
  const remaining = ops.map((o) => (o.id === op.id ? recreate : o));
  await rowsOf(db, op.table).put(refreshRow(op.table, fresh, remaining));
}

/**
 * The account "keep mine" recreates with everything under it: the record's own when the account
 * is what the server deleted, or that of an item or single record whose account went too (its
 * items and single records went with it on the server). Null when only the record is recreated.
 */
async function accountRecreated(db: AdvisorDb, table: SyncedTable, row: AnyRow): Promise<AccountRow | null> {
  const accountId = table === 'accounts' ? row.id : (row as SectionItemRow | SingleRow).accountId;
  const account = await db.accounts.get(accountId);
  return account && (table === 'accounts' || account.deletedOnServer) ? account : null;
}

/** A file the platform held for a record, named as the user knows it. */
export interface PlatformFile {
  table: SyncedTable;
  recordId: string;
  field: string;
  filename: string;
}

/** A file field's value the platform holds: its File object (not a file chosen here, waiting to upload). */
const heldByPlatform = (table: SyncedTable, row: AnyRow, field: string, value: unknown): boolean =>
  fileField(table, row, field) !== undefined &&
  typeof value === 'object' &&
  value !== null &&
  !isPendingFile(value);

function platformFiles(table: SyncedTable, row: AnyRow): PlatformFile[] {
  return Object.entries(row.fields)
    .filter(([field, value]) => heldByPlatform(table, row, field, value))
    .map(([field, value]) => {
      const name = (value as { filename?: unknown }).filename;
      return { table, recordId: row.id, field, filename: typeof name === 'string' && name ? name : 'a file' };
    });
}

function withoutPlatformFiles(table: SyncedTable, row: AnyRow, fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, heldByPlatform(table, row, k, v) ? null : v]),
  );
}

/**
 * The files "keep mine" cannot bring back for a record deleted on the server: those the platform
 * held went with the record (with the whole account when that is what is recreated), and a
 * recreate sends only what this computer has. The user chooses them again.
 */
export async function filesGoneWith(
  db: AdvisorDb,
  table: SyncedTable,
  recordId: string,
): Promise<PlatformFile[]> {
  const row = await rowsOf(db, table).get(recordId);
  if (!row) return [];
  const account = await accountRecreated(db, table, row);
  if (!account) return platformFiles(table, row);
  const records: [SyncedTable, AnyRow[]][] = [
    ['sectionItems', await db.sectionItems.where('accountId').equals(account.id).toArray()],
    ['singles', await db.singles.where('accountId').equals(account.id).toArray()],
  ];
  const gone: PlatformFile[] = [];
  for (const [kind, rows] of records)
    for (const record of rows) {
      // An item whose delete is queued is forgotten, not recreated (`recreateRecord`).
      if ((await recordOps(db, kind, record.id)).at(-1)?.kind === 'delete') continue;
      gone.push(...platformFiles(kind, record));
    }
  return gone;
}
