// Creating a record here: its row and its queued create in one transaction (single records,
// which always exist on the server, are upserted), with the files chosen with it.

import { accountIndex, emptyMeta } from '../accounts.ts';
import { madeHere } from '../coverage.ts';
import type { AdvisorDb } from '../db.ts';
import type { FileInput } from '../files.ts';
import type { AccountRow, Fields, SectionItemRow, SingleRow, SyncedTable } from '../model.ts';
import { changeFile } from './file-changes.ts';
import { journalRecord } from './journal.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  followQuality,
  newOperation,
  rowsOf,
  unsentAccount,
  type Change,
} from './operations.ts';
import { announce } from './outbox-events.ts';
import { applyPatch } from './update.ts';

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
  const op = await newOperation(db, table, row.id, 'create', { ...input.fields }, {}, parentId, now);
  await rowsOf(db, table).add(row);
  await db.outbox.add(op);
  await journalRecord(db, table, row, 'create', { after: op.fields }, op.id, now);
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
    // Nothing of it is on the platform yet: there is nothing to download, only to send.
    parts: madeHere(now),
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
