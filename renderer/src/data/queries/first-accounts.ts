// The first rows of a long account list, shown before every id of the query is listed.

import { accountIndex } from '../account-index/store.ts';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { isDateKey, isValueKey, sortOf } from './account-sort.ts';
import { inList, searchMatch, walksOnlyTheQuery, type ListQuery } from './account-select.ts';
import { searchQuery } from '@shared/search-text.ts';

/** The accounts a walk may look at for a query's first accounts before it leaves them to listAccountIds. */
const FIRST_ROWS_BUDGET = 2_000;

/** The first accounts of a query, and how many it selects when that is known without listing them all. */
export interface FirstAccounts {
  rows: AccountRow[];
  total: number | null;
}

/**
 * The first `limit` accounts of a query in listAccountIds' order, for the sorts one order of the
 * account index walks with every value present (dates, names, emails, quality): the first entries
 * of the walk (AccountListIndex.walk) are checked against the search, filter and pipeline, a few
 * times the page at first, then `budget`; past that the answer is null and listAccountIds serves
 * it. Null too when a name's, email's or quality's walk ends short of `limit` (the accounts with
 * an empty value follow it), and for the sorts by groups (type, flags, stage). Only the rows
 * found are read from the store.
 */
export async function firstAccounts(
  db: AdvisorDb,
  q: ListQuery,
  limit: number,
  budget = FIRST_ROWS_BUDGET,
): Promise<FirstAccounts | null> {
  const { key } = sortOf(q.sort);
  const byDate = isDateKey(key);
  if (!byDate && !isValueKey(key)) return null;
  const index = accountIndex(db);
  await index.whenReady;
  const whole = searchQuery(q.search);
  const listed = inList(q);
  const found = whole === '' ? () => true : searchMatch(whole);
  // A walk that holds nothing but the query's accounts needs look at no more than the page.
  const sizes = walksOnlyTheQuery(q, key) ? [limit] : [...new Set([Math.min(budget, limit * 5), budget])];
  const total = whole === '' && !q.pipeline ? index.list.ids({ filter: q.filter }).length : null;
  for (const size of sizes) {
    const ids: string[] = [];
    let seen = 0;
    for (const e of index.list.walk(q.sort, q.filter)) {
      if (seen >= size || ids.length === limit) break;
      seen++;
      if (listed(e) && found(e)) ids.push(e.id);
    }
    const ended = seen < size && ids.length < limit;
    if (ids.length === limit || (ended && byDate)) {
      const rows = (await db.accounts.bulkGet(ids)).filter((r): r is AccountRow => r !== undefined);
      return { rows, total: ended ? rows.length : total };
    }
    // A name's walk ended: the accounts with an empty value follow it.
    if (ended) return null;
  }
  return null;
}
