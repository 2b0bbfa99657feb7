// The account list as the screens read it: a page of a query (listAccounts), or every id of a
// query in its order, for a list shown a window at a time (listAccountIds). Both are answered by
// the account index in memory (account-index/), which holds every account's names, emails, type,
// flags, stage, quality and dates; only the rows in view are read from the store, by id.
//
// Every sort keeps the platform's rules: empty values last in both directions, texts with case and
// accents ignored, ties in the order the records were made, in the direction of the key. The date
// sorts break ties by the local id, as the date indexes of the store once walked them.

import { accountIndex } from '../account-index/store.ts';
import type { AccountEntry } from '../account-index/entry.ts';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { compareMade, DATE_COLUMNS, isDateKey, sortOf } from './account-sort.ts';
import { walksOnlyTheQuery, type AccountQuery, type ListQuery } from './account-select.ts';

export interface AccountPage {
  items: AccountRow[];
  total: number;
}

/** A page of accounts: search, filter, pipeline, sort and paging, as the version 2 list offers them. */
export async function listAccounts(db: AdvisorDb, q: AccountQuery = {}): Promise<AccountPage> {
  const { key, desc } = sortOf(q.sort);
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.max(0, q.limit ?? 50);
  let ids = await listAccountIds(db, q);
  if (isDateKey(key) && !walksOnlyTheQuery(q, key)) {
    // A page of a narrowed query breaks equal dates in the made order, as the platform's sort.
    const { list } = accountIndex(db);
    const column = DATE_COLUMNS[key];
    const sign = desc ? -1 : 1;
    const entries = ids.map((id) => list.get(id)).filter((e): e is AccountEntry => e !== undefined);
    entries.sort((a, b) =>
      a[column] < b[column] ? -sign : a[column] > b[column] ? sign : compareMade(a.made, b.made) * sign,
    );
    ids = entries.map((e) => e.id);
  }
  const rows = await db.accounts.bulkGet(ids.slice(offset, offset + limit));
  return { items: rows.filter((r): r is AccountRow => r !== undefined), total: ids.length };
}

/**
 * The local ids of every account a query selects, in its order (offset and limit ignored): for
 * screens that show a long list a window at a time, reading only the rows in view
 * (`db.accounts.bulkGet`). A search of several words also matches when each word starts one of
 * the names or emails (`ann tes` finds Ann Tester), besides the interface's whole-text prefix.
 * Waits for the account index to be read as the store opens. (`_fewHits` is kept for callers of
 * the store-walking version, which read the rows of a search with fewer hits; the index has no such
 * threshold.)
 */
export async function listAccountIds(db: AdvisorDb, q: ListQuery = {}, _fewHits?: number): Promise<string[]> {
  const index = accountIndex(db);
  await index.whenReady;
  if (sortOf(q.sort).key !== 'pipeline') return index.list.ids(q);
  return index.list.ids(q, await index.stages());
}
