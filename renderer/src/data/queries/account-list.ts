// The account list as the screens read it: a page of a query (listAccounts), or every id of a
// query in its order, for a list shown a window at a time (listAccountIds).
//
// How the account list (listAccountIds) is ordered without reading every row:
// - `created_at` and `updated_at` walk a date index (`[archived+createdAt]`, `[archived+updatedAt]`
//   for the default and archived filters, `createdAt` / `updatedAt` for all). Equal timestamps
//   follow the local id there.
// - names, emails and quality walk their `order.*` index (accounts.ts, accountOrder), whose keys end
//   with the order the records were made in; accounts with an empty value follow, in that order.
// - type, favorited, archived and pipeline stage split the made order (`order.made`) into the
//   groups their indexes give, in the key's order (stages in the order of the user resource).
// Every sort keeps the platform's rules: empty values last in both directions, texts with case and
// accents ignored, ties in the order the records were made, in the direction of the key. The
// search, filter and pipeline keep only the ids their indexes give; a search with few hits reads
// just those rows and sorts them here by the same rules (accountComparator).

import { pipelineStages } from '../config.ts';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import {
  DATE_COLUMNS,
  accountComparator,
  isDateKey,
  madeOrder,
  orderIndex,
  sortOf,
  sortValue,
  stagePositions,
  type AccountSortKey,
} from './account-sort.ts';
import {
  dateWalk,
  filtered,
  idSet,
  inList,
  searchIds,
  selected,
  walksOnlyTheQuery,
  type AccountFilter,
  type AccountQuery,
  type ListQuery,
  type Rows,
} from './account-select.ts';
import { keyOrder } from './order.ts';
import { searchQuery } from '@shared/search-text.ts';

export interface AccountPage {
  items: AccountRow[];
  total: number;
}

/** The index that walks accounts in `created_at` / `updated_at` order for this query, if there is one. */
function orderedIndex(db: AdvisorDb, q: AccountQuery, key: AccountSortKey): Rows | null {
  return walksOnlyTheQuery(q, key) ? dateWalk(db, q.filter, DATE_COLUMNS[key]) : null;
}

/** A page of accounts: search, filter, pipeline, sort and paging, as the version 2 list offers them. */
export async function listAccounts(db: AdvisorDb, q: AccountQuery = {}): Promise<AccountPage> {
  const { key, desc } = sortOf(q.sort);
  const offset = Math.max(0, q.offset ?? 0);
  const limit = Math.max(0, q.limit ?? 50);
  const indexed = orderedIndex(db, q, key);
  if (indexed) {
    const total = await indexed.clone().count();
    const ordered = desc ? indexed.reverse() : indexed;
    return { items: await ordered.offset(offset).limit(limit).toArray(), total };
  }
  const rows = await selected(db, q).toArray();
  rows.sort(accountComparator(q.sort, key === 'pipeline' ? await stagePositions(db) : undefined));
  return { items: rows.slice(offset, offset + limit), total: rows.length };
}

/** Below this many search hits, reading their rows is quicker than walking a whole index. */
const FEW_HITS = 2_000;

/**
 * The local ids of every account a query selects, in its order (offset and limit ignored): for
 * screens that show a long list a window at a time, reading only the rows in view
 * (`db.accounts.bulkGet`). A search of several words also matches when each word starts one of
 * the names or emails (`ann tes` finds Ann Tester), besides the interface's whole-text prefix.
 *
 * Every sort walks an index (see the top of this file) and keeps the ids the search, filter and
 * pipeline indexes give; when a search matches few accounts, just those rows are read and sorted.
 */
export async function listAccountIds(
  db: AdvisorDb,
  q: ListQuery = {},
  fewHits = FEW_HITS,
): Promise<string[]> {
  const { key, desc } = sortOf(q.sort);
  const whole = searchQuery(q.search);
  const hits = whole === '' ? null : await searchIds(db, whole);
  if (hits && hits.size <= fewHits) {
    const wanted = inList(q);
    const rows = (await db.accounts.bulkGet([...hits])).filter(
      (r): r is AccountRow => r !== undefined && wanted(r),
    );
    return sortedIds(db, rows, key, desc);
  }
  const byDate = isDateKey(key);
  // Date walks keep to the archived or not-archived accounts themselves. The other walks give every
  // account: the default list drops the archived ones (few), the other filters keep their own.
  const dropArchived = !byDate && q.filter === undefined;
  const keepFilter = !(q.filter === 'all' || (byDate && (q.filter === undefined || q.filter === 'archived')));
  const [order, dropped, ...kept] = await Promise.all([
    orderedIds(db, key, desc, q.filter),
    dropArchived ? idSet(db.accounts.where('archived').equals(1)) : null,
    keepFilter && !dropArchived ? idSet(filtered(db, q.filter)) : null,
    q.pipeline ? idSet(db.accounts.where('pipelineId').equals(q.pipeline)) : null,
  ]);
  const sets = [hits, ...kept].filter((k): k is Set<string> => k !== null);
  if (sets.length === 0 && !dropped?.size) return order;
  return order.filter((id) => !dropped?.has(id) && sets.every((set) => set.has(id)));
}

/** A few rows sorted here as listAccountIds' indexes would give them. */
async function sortedIds(
  db: AdvisorDb,
  rows: AccountRow[],
  key: AccountSortKey,
  desc: boolean,
): Promise<string[]> {
  const sign = desc ? -1 : 1;
  if (isDateKey(key)) {
    // The date indexes break ties by the local id.
    const column = DATE_COLUMNS[key];
    const order = (a: AccountRow, b: AccountRow) =>
      a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return rows.sort((a, b) => order(a, b) * sign).map((r) => r.id);
  }
  const stage = key === 'pipeline' ? await stagePositions(db) : () => null;
  // accountComparator's order, each row's value read once.
  const keyed = rows.map((row) => ({ row, value: sortValue(row, key, stage) }));
  keyed.sort((x, y) => keyOrder(x.value, y.value, sign) || madeOrder(x.row, y.row) * sign);
  return keyed.map((k) => k.row.id);
}

/**
 * Every account's id in a sort's order, from indexes alone (no row is read). Date sorts keep to
 * the archived or not-archived accounts as the filter asks; the other sorts give every account.
 */
async function orderedIds(
  db: AdvisorDb,
  key: AccountSortKey,
  desc: boolean,
  filter: AccountFilter | undefined,
): Promise<string[]> {
  const inOrder = <T>(items: T[]): T[] => (desc ? items.reverse() : items);
  if (isDateKey(key)) return inOrder(await dateWalk(db, filter, DATE_COLUMNS[key]).primaryKeys());
  const index = orderIndex(key);
  if (index) {
    const [count, valued] = await Promise.all([
      db.accounts.count(),
      db.accounts.orderBy(index).primaryKeys(),
    ]);
    if (valued.length === count) return inOrder(valued);
    // Accounts with an empty value are missing from the index: they follow, in the made order.
    const present = new Set(valued);
    const made = await db.accounts.orderBy('order.made').primaryKeys();
    return [...inOrder(valued), ...inOrder(made.filter((id) => !present.has(id)))];
  }
  const made = await db.accounts.orderBy('order.made').primaryKeys();
  // type, favorited, archived, pipeline: a handful of values, each a group of the made order.
  const groups = await valueGroups(db, key);
  const rank = new Map<string, number>();
  groups.forEach((ids, i) => ids.forEach((id) => rank.set(id, i)));
  const buckets = groups.map((): string[] => []);
  const rest: string[] = [];
  for (const id of made) {
    const i = rank.get(id);
    (i === undefined ? rest : buckets[i]!).push(id);
  }
  return [...inOrder(buckets).flatMap(inOrder), ...inOrder(rest)];
}

/** The ids of each value of a key with few values, in the values' order; ids with no value are left out. */
async function valueGroups(db: AdvisorDb, key: AccountSortKey): Promise<string[][]> {
  const of = (column: 'type' | 'favorited' | 'archived' | 'pipelineId', value: string | number) =>
    db.accounts.where(column).equals(value).primaryKeys();
  switch (key) {
    case 'type':
      return Promise.all([of('type', 'CLIENT'), of('type', 'PROSPECT')]);
    case 'favorited':
    case 'archived':
      return Promise.all([of(key, 0), of(key, 1)]);
    case 'pipeline':
      return Promise.all((await pipelineStages(db)).map((stage) => of('pipelineId', stage.id)));
    default:
      throw new Error(`No index gives the accounts in ${key} order.`);
  }
}
