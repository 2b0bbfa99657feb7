// The one module through which every user change goes (DESIGN.md §3, Writes and the outbox): the
// record and its queued operation change in ONE transaction, coalesced so that the platform sees
// as few requests as the user's intent allows. Nothing else appends to the outbox; the push
// engine only moves operations through their states and removes them once the server has them.

import type { Table } from 'dexie';
import { accountIndex, emptyMeta } from './accounts.ts';
import type { AdvisorDb } from './db.ts';
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

/** Every table a change (or the push engine settling one) may touch, for one transaction. */
export const SYNC_TABLES = ['accounts', 'sectionItems', 'singles', 'outbox', 'conflicts'];

// ---- Create ------------------------------------------------------------------------------------

/** Creates a record here and queues its create; single records are upserted (they always exist on the server). */
export async function createRecord(db: AdvisorDb, table: SyncedTable, input: NewRecord): Promise<Change> {
  const now = Date.now();
  const settled: string[] = [];
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    if (table === 'singles') return upsertSingle(db, input, now, settled);
    const row = table === 'accounts' ? newAccount(input.fields, now) : newItem(input, now);
    const parentId = input.parentId !== undefined ? input.parentId : await unsentAccount(db, row);
    const op = newOperation(table, row.id, 'create', { ...input.fields }, {}, parentId, now);
    await rowsOf(db, table).add(row);
    await db.outbox.add(op);
    return { id: row.id, opId: op.id };
  });
  announce(db, settled);
  return change;
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
const mergeable = (op: Operation) =>
  (op.kind === 'create' || op.kind === 'update') &&
  (op.state === 'queued' || op.state === 'retry' || op.state === 'rejected');

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

  let op: Operation;
  if (last && mergeable(last)) {
    op = mergeInto(last, changed, row, ops.length === 1, now);
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
    ...op,
    fields: { ...op.fields, ...changed },
    base: { ...op.base },
    updatedAt: now,
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
  // A fix of a refused change is sent again; a retry keeps its backoff.
  if (op.state === 'rejected') Object.assign(merged, { state: 'queued', lastError: null, attempts: 0 });
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

async function dropOperations(db: AdvisorDb, ops: readonly Operation[], settled: string[]): Promise<void> {
  for (const op of ops) {
    if (op.seq !== undefined) await db.outbox.delete(op.seq);
    await db.conflicts.delete(op.id);
    settled.push(op.id);
  }
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
  await rowsOf(db, table).delete(id);
}

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
  await rowsOf(db, op.table).put(refreshRow(op.table, row, remaining));
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
  const recreate: Operation = { ...requeued(op), kind: 'create', fields: { ...row.fields }, base: {} };
  await db.outbox.put(recreate);
  const fresh: AnyRow = { ...row, serverId: null, server: null, deletedOnServer: null };
  if (op.table === 'accounts') (fresh as AccountRow).meta = emptyMeta();
  const remaining = ops.map((o) => (o.id === op.id ? recreate : o));
  await rowsOf(db, op.table).put(refreshRow(op.table, fresh, remaining));
}

const requeued = (op: Operation): Operation => ({
  ...op,
  state: 'queued',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  updatedAt: Date.now(),
});
