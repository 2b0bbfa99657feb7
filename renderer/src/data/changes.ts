// The one module through which every user change goes (DESIGN.md §3, Writes and the outbox): the
// record and its queued operation change in ONE transaction, coalesced so that the platform sees
// as few requests as the user's intent allows. Nothing else appends to the outbox; the push
// engine only moves operations through their states and removes them once the server has them.

import type { Table } from 'dexie';
import type { MemberRole } from '../../../shared/sections.ts';
import { accountIndex, emptyMeta } from './accounts.ts';
import type { AdvisorDb } from './db.ts';
import {
  fileField,
  fileOwner,
  isPendingFile,
  localFileIds,
  stagedFile,
  type FileInput,
  type PendingFile,
} from './files.ts';
import { keepLocalIds, newSingleRow, relationTargetsKey } from './mappers.ts';
import type {
  AccountRow,
  Fields,
  Operation,
  OperationError,
  SectionItemRow,
  SingleRow,
  SyncStatus,
  SyncedTable,
} from './model.ts';
import { isMemberDetails, refreshQuality } from './quality.ts';
import { localView, sameValue } from './view.ts';

export type AnyRow = AccountRow | SectionItemRow | SingleRow;

export interface NewRecord {
  fields: Fields;
  /** Local id of the account: section items and single records. */
  accountId?: string;
  /** Section items: the storage key (`assets`, `employment:client`). */
  section?: string;
  /** Single records: `expenses-fixed`, `income:client`, `details:client` … */
  key?: string;
  /** The record that must reach the server first; by default the account when it is an unsent create. */
  parentId?: string | null;
  /** Files chosen with the record, by file field: queued with it in the same transaction (see `queueUpload`). */
  files?: Record<string, FileInput>;
}

/** The record's local id, and the operation that carries the change (null when nothing had to be sent). */
export interface Change {
  id: string;
  opId: string | null;
}

/** The key a ConflictRow uses when the record was deleted on the server: recreate or discard. */
export const DELETED_ON_SERVER = '$deleted';

export type ConflictChoice = 'mine' | 'theirs' | Record<string, 'mine' | 'theirs'>;

/** Why a change was refused, in words the user can act on. */
export class ChangeRefused extends Error {
  override name = 'ChangeRefused';
}

/** What `whenSynced` rejects with: the server refused the change (403, 422 …). */
export class OperationRejected extends Error implements OperationError {
  override name = 'OperationRejected';
  readonly kind: string;
  readonly status: number | null;
  readonly fields: Record<string, string[]>;
  constructor(
    readonly opId: string,
    error: OperationError,
  ) {
    super(error.message);
    this.kind = error.kind;
    this.status = error.status;
    this.fields = error.fields;
  }
}

// ---- Signals: the push engine tells waiting callers, and changes wake the push loop ----------

export type OutboxEvent =
  { type: 'changed' } | { type: 'settled'; opId: string; error: OperationError | null };

type Listener = (event: OutboxEvent) => void;
const listeners = new WeakMap<AdvisorDb, Set<Listener>>();

export function onOutbox(db: AdvisorDb, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Call only after the transaction that made the event true has committed. */
export function signalOutbox(db: AdvisorDb, event: OutboxEvent): void {
  for (const listener of [...(listeners.get(db) ?? [])]) listener(event);
}

/**
 * Resolves when the operation has left the outbox (the server has the change, or there was
 * nothing left to send); rejects with OperationRejected when the server refused it. The outbox is
 * read after subscribing, so an operation settled before the call, in another session or before
 * a reload, is still answered.
 */
export function whenSynced(db: AdvisorDb, opId: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const finish = (error: OperationError | null) => {
      off();
      if (error) reject(new OperationRejected(opId, error));
      else resolve();
    };
    const off = onOutbox(db, (event) => {
      if (event.type === 'settled' && event.opId === opId) finish(event.error);
    });
    db.outbox
      .where('id')
      .equals(opId)
      .first()
      .then((op) => {
        if (!op) finish(null);
        else if (op.state === 'rejected' && op.lastError) finish(op.lastError);
      })
      .catch((error: unknown) => {
        off();
        reject(error instanceof Error ? error : new Error(String(error)));
      });
  });
}

// ---- Shared by the change module and the push engine ------------------------------------------

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

function withFields<T extends AnyRow>(table: SyncedTable, row: T, fields: Fields): T {
  const out = { ...row, fields };
  if (table === 'accounts') Object.assign(out, accountIndex(fields, (out as AccountRow).meta));
  return out;
}

/**
 * The account's quality score follows a local change of what its rules read (the account and its
 * members' details), estimated in the change's transaction until the platform answers
 * (data/quality.ts). `before` is the changed row as it was, when there was one.
 */
async function followQuality(db: AdvisorDb, table: SyncedTable, row: AnyRow, before?: AnyRow): Promise<void> {
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
 * holds the local ids kept for items that leave (see `keepLocalIds`).
 */
export const SYNC_TABLES = ['accounts', 'sectionItems', 'singles', 'outbox', 'conflicts', 'files', 'meta'];

// ---- Create ------------------------------------------------------------------------------------

/**
 * Creates a record here and queues its create; single records are upserted (they always exist on
 * the server). Files chosen with it are queued in the same transaction: a Documents item's file
 * inside its create, any other file as an upload that follows the create.
 */
export async function createRecord(db: AdvisorDb, table: SyncedTable, input: NewRecord): Promise<Change> {
  const now = Date.now();
  const settled: string[] = [];
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    const made =
      table === 'singles'
        ? await upsertSingle(db, input, now, settled)
        : await addRecord(db, table, input, now);
    let opId = made.opId;
    for (const [field, file] of Object.entries(input.files ?? {})) {
      const staged = await changeFile(db, table, made.id, field, file, now, settled);
      opId ??= staged.opId;
    }
    return { id: made.id, opId };
  });
  announce(db, settled);
  return change;
}

async function addRecord(db: AdvisorDb, table: SyncedTable, input: NewRecord, now: number): Promise<Change> {
  const row = table === 'accounts' ? newAccount(input.fields, now) : newItem(input, now);
  const parentId = input.parentId !== undefined ? input.parentId : await unsentAccount(db, row);
  const op = newOperation(table, row.id, 'create', { ...input.fields }, {}, parentId, now);
  await rowsOf(db, table).add(row);
  await db.outbox.add(op);
  await followQuality(db, table, row);
  return { id: row.id, opId: op.id };
}

function newAccount(fields: Fields, now: number): AccountRow {
  const meta = emptyMeta();
  return {
    ...syncedBase(crypto.randomUUID(), { ...fields }, now),
    ...accountIndex(fields, meta),
    meta,
    // Made on this machine, so wanted here: the background pull keeps it complete.
    availableOffline: 1,
    openedAt: now,
    pulledAt: null,
  };
}

function newItem(input: NewRecord, now: number): SectionItemRow {
  if (!input.accountId || !input.section)
    throw new ChangeRefused('A section item needs the local id of its account and its section.');
  return {
    ...syncedBase(crypto.randomUUID(), { ...input.fields }, now),
    accountId: input.accountId,
    section: input.section,
  };
}

function syncedBase(id: string, fields: Fields, now: number) {
  return { id, serverId: null, fields, server: null, status: 'pending' as const, changedAt: now };
}

async function upsertSingle(
  db: AdvisorDb,
  input: NewRecord,
  now: number,
  settled: string[],
): Promise<Change> {
  if (!input.accountId || !input.key)
    throw new ChangeRefused('A single record needs the local id of its account and its key.');
  const id = `${input.accountId}:${input.key}`;
  // A single record always exists on the server: its server id is its own (as the pull stores it).
  const row: SingleRow = (await db.singles.get(id)) ?? {
    ...syncedBase(id, {}, now),
    serverId: id,
    status: 'synced',
    accountId: input.accountId,
    key: input.key,
  };
  return applyPatch(db, 'singles', row, input.fields, now, settled, input.parentId);
}

/** The account of a section item or single record when that account is still an unsent create. */
async function unsentAccount(db: AdvisorDb, row: AnyRow): Promise<string | null> {
  if (!('accountId' in row)) return null;
  const account = await db.accounts.get(row.accountId);
  if (!account) throw new ChangeRefused(`The account ${row.accountId} is not in the local store.`);
  return account.serverId === null ? account.id : null;
}

function newOperation(
  table: SyncedTable,
  recordId: string,
  kind: Operation['kind'],
  fields: Fields,
  base: Fields,
  parentId: string | null,
  now: number,
): Operation {
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
  };
}

function announce(db: AdvisorDb, settled: readonly string[]): void {
  for (const opId of settled) signalOutbox(db, { type: 'settled', opId, error: null });
  signalOutbox(db, { type: 'changed' });
}

// ---- Update ------------------------------------------------------------------------------------

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

/** Operations that nothing has sent yet, or whose sending certainly did not reach the server. */
const unsent = (op: Operation) => op.state === 'queued' || op.state === 'retry' || op.state === 'rejected';
const mergeable = (op: Operation) => (op.kind === 'create' || op.kind === 'update') && unsent(op);

/** An unsent operation taking a new change: a fix of a refused change is sent again; a retry keeps its backoff. */
const reopened = (op: Operation, now: number): Operation =>
  op.state === 'rejected'
    ? { ...op, state: 'queued', lastError: null, attempts: 0, updatedAt: now }
    : { ...op, updatedAt: now };

async function applyPatch(
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
    op = newOperation(table, row.id, 'update', changed, baseOf(row, changed), parent, now);
    ops.push(op);
  }
  const remaining = await saveOperation(db, op, ops, settled);
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

/** Writes (or removes, when emptied) the operation; answers the record's remaining operations. */
async function saveOperation(
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

// ---- Delete ------------------------------------------------------------------------------------

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
      return { id, opId: null };
    }
    const last = ops.at(-1);
    if (last?.kind === 'delete') return { id, opId: last.id };
    // Only what may already be on the server stays ahead of the delete.
    const dropped = ops.filter((op) => op.state !== 'inflight');
    await dropOperations(db, dropped, settled);
    const op = newOperation(table, id, 'delete', {}, {}, null, now);
    await db.outbox.add(op);
    const remaining = [...ops.filter((o) => o.state === 'inflight'), op];
    await db.sectionItems.put({ ...row, changedAt: now, status: statusOf(remaining) });
    return { id, opId: op.id };
  });
  announce(db, settled);
  return change;
}

/**
 * The platform refused a change while later changes of its record waited behind it (made while it
 * was in flight). Those were never sent: later edits join it, as they would have had it not been
 * in flight, so that the user's fix (merged into the refused change) sends them all, in order. A
 * delete behind it settles the matter: the refused change is dropped (a refused create with its
 * record, as for any create not sent). Called by the push inside its transaction; answers the ids
 * of the changes that joined the refused one, which now share its fate.
 */
export async function absorbBehindRefused(
  db: AdvisorDb,
  refused: Operation,
  settled: string[],
): Promise<string[]> {
  const ops = await recordOps(db, refused.table, refused.recordId);
  const later = ops.filter((o) => (o.seq ?? 0) > (refused.seq ?? 0));
  if (later.some((o) => o.kind === 'delete')) {
    if (refused.kind === 'create') await forgetRecord(db, refused.table, refused.recordId, ops, settled);
    else await dropOperations(db, [refused], settled);
    return [];
  }
  // Only edits join an edit (an upload's fix is another file, which replaces the upload).
  const joining = mergeable(refused) ? later.filter((o) => o.kind === 'update' && unsent(o)) : [];
  if (joining.length === 0) return [];
  let merged = refused;
  for (const o of joining) {
    merged = { ...merged, fields: { ...merged.fields, ...o.fields } };
    // The base of a field stays the server value when it was first changed here.
    if (merged.kind === 'update') merged.base = { ...o.base, ...merged.base };
    if (o.seq !== undefined) await db.outbox.delete(o.seq);
  }
  await db.outbox.put(merged);
  return joining.map((o) => o.id);
}

async function dropOperations(db: AdvisorDb, ops: readonly Operation[], settled: string[]): Promise<void> {
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

// ---- Files -------------------------------------------------------------------------------------

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
async function changeFile(
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
    op = newOperation(table, row.id, value ? 'upload' : 'removeFile', { [field]: value }, {}, parentId, now);
    await db.outbox.add(op);
  }
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

// ---- Member security ---------------------------------------------------------------------------

/**
 * Queues a PIN reset of a member (0.0.1 `POST …/{client}/security/reset`). Unlike a delete it may
 * wait for a connection: it asks for no password, and every reset issues a new PIN that replaces
 * the last one, so sending it later, or again, leaves the member with one PIN in force, the
 * newest. Two resets of a member not yet sent are therefore one; a reset asked while another is in
 * flight follows it. The operation belongs to the account (its badge shows it pending) and
 * changes none of its fields; the platform's answer (status and new PIN) is stored as the
 * member's security record.
 */
export async function queueResetPin(db: AdvisorDb, accountId: string, member: MemberRole): Promise<Change> {
  const now = Date.now();
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    const account = await db.accounts.get(accountId);
    if (!account) throw new ChangeRefused(`The account ${accountId} is not in the local store.`);
    if (member === 'coclient' && !hasCoclient(account))
      throw new ChangeRefused('This account has no co-client, so there is no PIN to reset.');
    const ops = await recordOps(db, 'accounts', accountId);
    const waiting = ops.find((o) => o.kind === 'resetPin' && o.fields.member === member && unsent(o));
    const op = waiting
      ? reopened(waiting, now)
      : newOperation('accounts', accountId, 'resetPin', { member }, {}, null, now);
    await db.outbox.put(op);
    const status = statusOf(await recordOps(db, 'accounts', accountId));
    await db.accounts.put({ ...account, status });
    return { id: accountId, opId: op.id };
  });
  announce(db, []);
  return change;
}

const hasCoclient = (account: AccountRow) =>
  account.meta.coclientId !== null ||
  ['coclient.first_name', 'coclient.last_name', 'coclient.email'].some(
    (k) => typeof account.fields[k] === 'string' && account.fields[k] !== '',
  );

// ---- Conflicts ---------------------------------------------------------------------------------

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

/**
 * Recreates an account the server deleted, with every record under it: the account, its section
 * items and its single records each get ONE create carrying their local view (server ids and
 * snapshots cleared; relations keep naming local ids and are translated when sent), which takes
 * the place of their queued creates and updates and of any conflict they met; their uploads,
 * file removals and PIN resets follow it. The account's create keeps its place in the outbox and
 * the others are queued after it, so parents go first. An item whose delete was queued is simply
 * forgotten. Files the platform held (not chosen here) went with the account: choose them again.
 */
async function recreateAccount(db: AdvisorDb, account: AccountRow, settled: string[]): Promise<void> {
  const now = Date.now();
  const items = await db.sectionItems.where('accountId').equals(account.id).toArray();
  const singles = await db.singles.where('accountId').equals(account.id).toArray();
  await recreateRecord(db, 'accounts', account, null, now, settled);
  for (const item of items) await recreateRecord(db, 'sectionItems', item, account.id, now, settled);
  for (const single of singles) await recreateRecord(db, 'singles', single, account.id, now, settled);
  // Reserved ids mapped server ids of the deleted account's items: none of them exists any more.
  await db.meta.delete(relationTargetsKey(account.id));
  // The platform's score went with the account: the recreated one is estimated until it answers.
  await refreshQuality(db, account.id);
}

async function recreateRecord(
  db: AdvisorDb,
  table: SyncedTable,
  row: AnyRow,
  parentId: string | null,
  now: number,
  settled: string[],
): Promise<void> {
  const ops = await recordOps(db, table, row.id);
  if (ops.at(-1)?.kind === 'delete') return forgetRecord(db, table, row.id, ops, settled);
  const fields = recreatedFields(table, row);
  const data = ops.filter((o) => o.kind === 'create' || o.kind === 'update');
  const others = ops.filter((o) => o.kind !== 'create' && o.kind !== 'update');
  // A single record with nothing in it needs no write: a new member starts empty.
  if (table === 'singles' && data.length === 0 && Object.values(fields).every((v) => v == null)) return;
  const first = data[0];
  const create: Operation = first
    ? { ...requeued(first), kind: 'create', fields, base: {}, parentId, seq: undefined }
    : newOperation(table, row.id, 'create', fields, {}, parentId, now);
  for (const o of ops) {
    if (o.seq !== undefined) await db.outbox.delete(o.seq);
    await db.conflicts.delete(o.id);
  }
  for (const o of data.slice(1)) settled.push(o.id);
  // The account's create stays where its first operation was; the rest queue behind it in order.
  const { seq: _dropped, ...createRest } = create;
  if (table === 'accounts' && first?.seq !== undefined)
    await db.outbox.add({ ...createRest, seq: first.seq });
  else await db.outbox.add(createRest);
  for (const o of others) {
    const { seq: _old, ...rest } = o;
    await db.outbox.add(o.state === 'conflict' ? requeued(rest) : rest);
  }
  const fresh: AnyRow = { ...row, server: null, deletedOnServer: null };
  // A single record's id is its place (its member's); the others get a new server id when sent.
  if (table !== 'singles') fresh.serverId = null;
  if (table === 'accounts') (fresh as AccountRow).meta = emptyMeta();
  await rowsOf(db, table).put(refreshRow(table, fresh, await recordOps(db, table, row.id)));
}

const MEMBER_MIRROR = /^(first_name|last_name|email|phone)(\.|$)/;

/**
 * What a recreated record sends: its local view, without the files the platform held (a file
 * chosen here and not sent yet stays: in a create that carries it, or in its own upload).
 */
function recreatedFields(table: SyncedTable, row: AnyRow): Fields {
  const details = table === 'singles' && (row as SingleRow).key.startsWith('details:');
  return Object.fromEntries(
    Object.entries(row.fields).filter(([k, v]) => {
      // The account's create carries the member's name, email and phone; the details' copy of
      // them is the last server snapshot, older than any edit of the account here.
      if (details && MEMBER_MIRROR.test(k)) return false;
      const spec = fileField(table, row, k);
      return !spec || (spec.inRecord && isPendingFile(v));
    }),
  );
}

const requeued = (op: Operation): Operation => ({
  ...op,
  state: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  updatedAt: Date.now(),
});

/**
 * Sends a refused change again as it is (a permission granted since, a rule changed on the
 * platform). Editing the record requeues it too (`mergeInto`); this is for "try again" without
 * an edit.
 */
export async function retryRejected(db: AdvisorDb, opId: string): Promise<void> {
  await db.transaction('rw', SYNC_TABLES, async () => {
    const op = await db.outbox.where('id').equals(opId).first();
    if (!op || op.state !== 'rejected')
      throw new ChangeRefused(`The change ${opId} is not one the platform refused.`);
    await db.outbox.put(requeued(op));
    const row = await rowsOf(db, op.table).get(op.recordId);
    const ops = await recordOps(db, op.table, op.recordId);
    if (row) await rowsOf(db, op.table).put(refreshRow(op.table, row, ops));
  });
  announce(db, []);
}
