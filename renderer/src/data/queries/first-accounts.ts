// The first rows of a long account list, shown before every id of the query is known.

import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { DATE_COLUMNS, isDateKey, orderIndex, sortOf } from './account-sort.ts';
import {
  dateWalk,
  filtered,
  inList,
  searchMatch,
  walksOnlyTheQuery,
  type ListQuery,
} from './account-select.ts';
import { searchQuery } from '@shared/search-text.ts';

/** The rows a walk may read looking for a query's first accounts before it leaves them to listAccountIds. */
const FIRST_ROWS_BUDGET = 2_000;

/** The first accounts of a query, and how many it selects when that is known without reading them all. */
export interface FirstAccounts {
  rows: AccountRow[];
  total: number | null;
}

/**
 * The first `limit` accounts of a query in listAccountIds' order, for a long list to show before
 * every id is known: for the sorts one index walks (dates, names, emails, quality). The first rows
 * of the index are read in one request (a cursor would queue each step behind the reading of
 * every id) and checked against the search, filter and pipeline: a common search ("m") finds its
 * first accounts among a few hundred rows, a rarer one among `budget`; past that the answer is
 * null and listAccountIds' few-hits path serves it quickly. Null too when an `order.*` index ends
 * short of `limit` (the accounts with an empty value follow it), and for the sorts by groups
 * (type, flags, stage).
 */
export async function firstAccounts(
  db: AdvisorDb,
  q: ListQuery,
  limit: number,
  budget = FIRST_ROWS_BUDGET,
): Promise<FirstAccounts | null> {
  const { key, desc } = sortOf(q.sort);
  const byDate = isDateKey(key);
  const index = orderIndex(key);
  if (!byDate && !index) return null;
  const walk = () => {
    const rows = byDate ? dateWalk(db, q.filter, DATE_COLUMNS[key]) : db.accounts.orderBy(index!);
    return desc ? rows.reverse() : rows;
  };
  const whole = searchQuery(q.search);
  const listed = inList(q);
  const found = whole === '' ? () => true : searchMatch(whole);
  const wanted = (r: AccountRow) => listed(r) && found(r);
  // A walk that holds nothing but the query's accounts needs read no more than the page.
  const sizes = walksOnlyTheQuery(q, key) ? [limit] : [...new Set([Math.min(budget, limit * 5), budget])];
  // Counted beside the first read, not after it: a request made later would wait behind the
  // reading of every id that the list starts at the same time.
  const total = whole === '' && !q.pipeline ? filtered(db, q.filter).count() : null;
  for (const size of sizes) {
    const read = await walk().limit(size).toArray();
    const rows = read.filter(wanted).slice(0, limit);
    if (rows.length === limit) return { rows, total: await total };
    // The index ended: a date index holds the whole answer; after a name's, empty values follow.
    if (read.length < size) return byDate ? { rows, total: rows.length } : null;
  }
  return null;
}
