// The synced records as the screens read them: an account, its section items and single-record
// sections, the search of the command palette, and what is pending for a record.

import { accountIndex } from '../account-index/store.ts';
import type { AdvisorDb } from '../db.ts';
import { singleRowId } from '../mappers.ts';
import type { AccountRow, Operation, SectionItemRow, SingleRow, SyncedTable } from '../model.ts';
import { searchQuery } from '@shared/search-text.ts';

/**
 * Accounts whose client or co-client first name, last name or email starts with `prefix`, each
 * once, in the order of the terms matched (the account index's search terms), at most `limit`.
 */
export async function searchAccounts(db: AdvisorDb, prefix: string, limit = 50): Promise<AccountRow[]> {
  const q = searchQuery(prefix);
  if (q === '') return [];
  const index = accountIndex(db);
  await index.whenReady;
  const rows = await db.accounts.bulkGet(index.list.withTerms([q], false, limit));
  return rows.filter((r): r is AccountRow => r !== undefined);
}

export function getAccount(db: AdvisorDb, id: string): Promise<AccountRow | undefined> {
  return db.accounts.get(id);
}

export function accountByServerId(db: AdvisorDb, serverId: number): Promise<AccountRow | undefined> {
  return db.accounts.where('serverId').equals(serverId).first();
}

/**
 * Items of one section of an account (`assets`, `employment:coclient` …). An item whose delete is
 * queued keeps its row until the platform confirms; it is left out unless `includeDeleted`.
 */
export async function sectionItems(
  db: AdvisorDb,
  accountId: string,
  section: string,
  options: { includeDeleted?: boolean } = {},
): Promise<SectionItemRow[]> {
  const rows = await db.sectionItems.where('[accountId+section]').equals([accountId, section]).toArray();
  if (options.includeDeleted) return rows;
  const pending = await pendingOps(
    db,
    'sectionItems',
    rows.map((r) => r.id),
  );
  return rows.filter((r) => pending.get(r.id)?.at(-1)?.kind !== 'delete');
}

/** Every single-record section and member details of an account, by key (`expenses-fixed`, `details:client` …). */
export async function accountSingles(db: AdvisorDb, accountId: string): Promise<Record<string, SingleRow>> {
  const rows = await db.singles.where('accountId').equals(accountId).toArray();
  return Object.fromEntries(rows.map((r) => [r.key, r]));
}

export function accountSingle(db: AdvisorDb, accountId: string, key: string): Promise<SingleRow | undefined> {
  return db.singles.get(singleRowId(accountId, key));
}

/** Pending operations of records, by record id, in the order they were made. */
export async function pendingOps(
  db: AdvisorDb,
  table: SyncedTable,
  ids: readonly string[],
): Promise<Map<string, Operation[]>> {
  const byRecord = new Map<string, Operation[]>();
  if (ids.length === 0) return byRecord;
  const ops = await db.outbox
    .where('[table+recordId]')
    .anyOf(ids.map((id) => [table, id]))
    .toArray();
  for (const op of ops.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)))
    byRecord.set(op.recordId, [...(byRecord.get(op.recordId) ?? []), op]);
  return byRecord;
}

/** The account's server id, for the read-only records that carry it; null before it is on the server. */
export async function accountServerId(db: AdvisorDb, accountId: string): Promise<number | null> {
  const serverId = (await db.accounts.get(accountId))?.serverId;
  return typeof serverId === 'number' ? serverId : null;
}
