// The outbox's operations and the rows they belong to, as the change modules and the push engine
// share them: reading a record's operations, its badge and local view, making, merging and
// dropping operations, and forgetting a record made here.

import type { Table } from 'dexie';
import { accountIndex } from '../accounts.ts';
import type { AdvisorDb } from '../db.ts';
import { localFileIds } from '../files.ts';
import type { StoreIdentity } from '../identity/index.ts';
import { keepLocalIds } from '../mappers.ts';
import type {
  AccountRow,
  Fields,
  Operation,
  SectionItemRow,
  SingleRow,
  SyncStatus,
  SyncedTable,
} from '../model.ts';
import { isMemberDetails, refreshQuality } from '../quality.ts';
import { recordedIdentity } from '../identity/recorded.ts';
import { localView } from '../view.ts';

export type AnyRow = AccountRow | SectionItemRow | SingleRow;

/** The record's local id, and the operation that carries the change (null when nothing had to be sent). */
export interface Change {
  id: string;
  opId: string | null;
}

/** Why a change was refused, in words the user can act on. */
export class ChangeRefused extends Error {
  override name = 'ChangeRefused';
}

export function rowsOf(db: AdvisorDb, table: SyncedTable): Table<AnyRow, string> {
  return db.table(table);
}

/** The operations of one record, in their order. */
export async function recordOps(db: AdvisorDb, table: SyncedTable, recordId: string): Promise<Operation[]> {
  const ops = await db.outbox.where('[table+recordId]').equals([table, recordId]).toArray();
  return ops.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** The badge of a record, from what remains queued for it. */
export function statusOf(ops: readonly Operation[]): SyncStatus {
  if (ops.some((op) => op.state === 'conflict')) return 'conflict';
  if (ops.some((op) => op.state === 'rejected')) return 'rejected';
  return ops.length ? 'pending' : 'synced';
}

/** The row with its local view, index columns and badge recomputed from its server snapshot and operations. */
export function refreshRow<T extends AnyRow>(table: SyncedTable, row: T, ops: readonly Operation[]): T {
  const fields = localView(row.server, ops) ?? row.fields;
  return withFields(table, { ...row, status: statusOf(ops) }, fields);
}

export function withFields<T extends AnyRow>(table: SyncedTable, row: T, fields: Fields): T {
  const out = { ...row, fields };
  if (table === 'accounts') Object.assign(out, accountIndex(fields, (out as AccountRow).meta));
  return out;
}

/**
 * The account's quality score follows a local change of what its rules read (the account and its
 * members' details), estimated in the change's transaction until the platform answers
 * (data/quality.ts). `before` is the changed row as it was, when there was one.
 */
export async function followQuality(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  before?: AnyRow,
): Promise<void> {
  if (table === 'accounts') await refreshQuality(db, row.id, before as AccountRow | undefined);
  else if (table === 'singles' && isMemberDetails((row as SingleRow).key))
    await refreshQuality(db, (row as SingleRow).accountId, before as SingleRow | undefined);
}

/**
 * Deletes the kept blobs of the files the given operations (removed or changed) were to send,
 * unless an operation still in the outbox sends them: a blob lives as long as its upload.
 */
export async function releaseFiles(db: AdvisorDb, ops: readonly Operation[]): Promise<void> {
  const ids = new Set(ops.flatMap((op) => localFileIds(op.fields)));
  if (ids.size === 0) return;
  const records = new Map(ops.map((op) => [`${op.table}:${op.recordId}`, op] as const));
  for (const op of records.values())
    for (const other of await recordOps(db, op.table, op.recordId))
      for (const id of localFileIds(other.fields)) ids.delete(id);
  await db.files.bulkDelete([...ids]);
}

/**
 * Every table a change (or the push engine settling one) may touch, for one transaction; `meta`
 * holds the local ids kept for items that leave (see `keepLocalIds`), `journal` what each change
 * records of itself for the meeting summary (journal.ts).
 */
export const SYNC_TABLES = [
  'accounts',
  'sectionItems',
  'singles',
  'outbox',
  'conflicts',
  'files',
  'meta',
  'journal',
];

/** The account of a section item or single record when that account is still an unsent create. */
export async function unsentAccount(db: AdvisorDb, row: AnyRow): Promise<string | null> {
  if (!('accountId' in row)) return null;
  const account = await db.accounts.get(row.accountId);
  if (!account) throw new ChangeRefused(`The account ${row.accountId} is not in the local store.`);
  return account.serverId === null ? account.id : null;
}

/**
 * The user and team a change made in this store is made under: the store's recorded identity. A
 * store that records none cannot say whose change it would be, so it queues nothing.
 */
export async function stampOf(db: AdvisorDb): Promise<StoreIdentity> {
  const identity = await recordedIdentity(db);
  if (!identity)
    throw new ChangeRefused(
      'This computer’s copy of your data does not say which user and team it belongs to, so no change can be saved in it. Sign out and sign in again; nothing saved before is lost.',
    );
  return identity;
}

/** A new operation, stamped with the user and team of the store it is queued in. */
export async function newOperation(
  db: AdvisorDb,
  table: SyncedTable,
  recordId: string,
  kind: Operation['kind'],
  fields: Fields,
  base: Fields,
  parentId: string | null,
  now: number,
): Promise<Operation> {
  const identity = await stampOf(db);
  return {
    id: crypto.randomUUID(),
    table,
    recordId,
    kind,
    fields,
    base,
    parentId,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: now,
    updatedAt: now,
    identity,
  };
}

/** Operations that nothing has sent yet, or whose sending certainly did not reach the server. */
export const unsent = (op: Operation) =>
  op.state === 'queued' || op.state === 'retry' || op.state === 'rejected';
export const mergeable = (op: Operation) => (op.kind === 'create' || op.kind === 'update') && unsent(op);

/** An unsent operation taking a new change: a fix of a refused change is sent again; a retry keeps its backoff. */
export const reopened = (op: Operation, now: number): Operation =>
  op.state === 'rejected'
    ? { ...op, state: 'queued', lastError: null, attempts: 0, updatedAt: now }
    : { ...op, updatedAt: now };

export const requeued = (op: Operation): Operation => ({
  ...op,
  state: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  updatedAt: Date.now(),
});

/** Writes (or removes, when emptied) the operation; answers the record's remaining operations. */
export async function saveOperation(
  db: AdvisorDb,
  op: Operation,
  ops: Operation[],
  settled: string[],
): Promise<Operation[]> {
  const emptied = op.kind === 'update' && Object.keys(op.fields).length === 0;
  const others = ops.filter((o) => o.id !== op.id);
  if (emptied) {
    if (op.seq !== undefined) await db.outbox.delete(op.seq);
    settled.push(op.id);
    return others;
  }
  await db.outbox.put(op);
  return [...others, op];
}

export async function dropOperations(
  db: AdvisorDb,
  ops: readonly Operation[],
  settled: string[],
): Promise<void> {
  for (const op of ops) {
    if (op.seq !== undefined) await db.outbox.delete(op.seq);
    await db.conflicts.delete(op.id);
    settled.push(op.id);
  }
  await releaseFiles(db, ops);
}

/** Removes a record with its operations and conflicts, as if it had never been made here. */
export async function forgetRecord(
  db: AdvisorDb,
  table: SyncedTable,
  id: string,
  ops: readonly Operation[],
  settled: string[],
): Promise<void> {
  await dropOperations(db, ops, settled);
  await db.conflicts.where('recordId').equals(id).delete();
  const item = table === 'sectionItems' ? await db.sectionItems.get(id) : undefined;
  if (item) await keepLocalIds(db, [item]);
  await rowsOf(db, table).delete(id);
}
