// Which accounts a query of the list selects: its filter, pipeline and search, as the account
// index (account-index/) applies them to its entries.

import type { AccountRow } from '../model.ts';
import { isDateKey, type AccountSort, type AccountSortKey } from './account-sort.ts';

/** The filters of the version 2 list (`type`); without one, archived accounts are left out. */
export type AccountFilter = 'client' | 'prospect' | 'favorite' | 'archived' | 'all';

export interface AccountQuery {
  /** Prefix of a client's or co-client's first name, last name or email, any case. */
  search?: string;
  filter?: AccountFilter;
  /** A pipeline stage id. */
  pipeline?: string;
  /** Default `-created_at`, as the interface. */
  sort?: AccountSort;
  offset?: number;
  /** Default 50, as the interface. */
  limit?: number;
}

export type ListQuery = Omit<AccountQuery, 'offset' | 'limit'>;

/** What the filters and the pipeline read of an account (a row, or the list index's entry). */
type Listed = Pick<AccountRow, 'archived' | 'type' | 'favorited' | 'pipelineId'>;

const matchesFilter = (filter: AccountFilter | undefined) => (row: Listed) => {
  if (filter === 'all') return true;
  if (filter === 'archived') return row.archived === 1;
  if (row.archived === 1) return false;
  if (filter === 'client') return row.type === 'CLIENT';
  if (filter === 'prospect') return row.type === 'PROSPECT';
  return filter === 'favorite' ? row.favorited === 1 : true;
};

/** Whether a row is of the query's filter and pipeline (its search aside). */
export const inList =
  (q: Pick<AccountQuery, 'filter' | 'pipeline'>) =>
  (row: Listed): boolean =>
    matchesFilter(q.filter)(row) && (!q.pipeline || row.pipelineId === q.pipeline);

/**
 * Whether a date sort's walk holds the query's accounts and no others (no search, no pipeline, the
 * default, archived or whole list; AccountListIndex.walk).
 */
export const walksOnlyTheQuery = (q: AccountQuery, key: AccountSortKey): key is 'created_at' | 'updated_at' =>
  isDateKey(key) &&
  !q.search?.trim() &&
  !q.pipeline &&
  (q.filter === undefined || q.filter === 'all' || q.filter === 'archived');

/** What the search reads of an account (a row, or the list index's entry). */
type Searched = { readonly search: readonly string[] };

/**
 * Whether a row matches a folded search (`searchQuery`; see listAccountIds): one of its names or emails
 * starts with the whole text, or, for several words, each word starts one of them. The account
 * index (list-index.ts) answers the same from its sorted terms.
 */
export function searchMatch(whole: string): (row: Searched) => boolean {
  const words = whole.split(/\s+/).filter(Boolean);
  const starts = (w: string) => (r: Searched) => r.search.some((s) => s.startsWith(w));
  const all = words.map(starts);
  return (r) => starts(whole)(r) || (all.length > 1 && all.every((match) => match(r)));
}
