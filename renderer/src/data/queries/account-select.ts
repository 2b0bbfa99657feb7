// Which accounts a query of the list selects: its filter, pipeline and search, through the
// narrowest index, without reading rows where an index can answer.

import Dexie from 'dexie';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import { isDateKey, type AccountSort, type AccountSortKey } from './account-sort.ts';
import { searchQuery } from '@shared/search-text.ts';

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

/** A selection of account rows (Dexie's collection type of the table). */
export type Rows = ReturnType<AdvisorDb['accounts']['toCollection']>;

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

/** The narrowest index for a filter. */
export function filtered(db: AdvisorDb, filter: AccountFilter | undefined): Rows {
  switch (filter) {
    case 'all':
      return db.accounts.toCollection();
    case 'archived':
      return db.accounts.where('archived').equals(1);
    case 'client':
      return db.accounts.where('[archived+type]').equals([0, 'CLIENT']);
    case 'prospect':
      return db.accounts.where('[archived+type]').equals([0, 'PROSPECT']);
    case 'favorite':
      return db.accounts.where('[archived+favorited]').equals([0, 1]);
    default:
      return db.accounts.where('archived').equals(0);
  }
}

/**
 * The rows a query selects, before sorting: through the search, pipeline or filter index. The
 * search column holds each name folded when written (`accountIndex`, shared/search-text.ts), so
 * one key range of the folded prefix serves a search that ignores case, accents and punctuation;
 * `startsWithIgnoreCase` would walk several ranges and still see the accents.
 * `distinct` keeps an account once when several of its names match.
 */
export function selected(db: AdvisorDb, q: AccountQuery): Rows {
  const search = searchQuery(q.search);
  if (search !== '') {
    const hits = db.accounts.where('search').startsWith(search).distinct();
    return hits.and(inList(q));
  }
  if (q.pipeline) return db.accounts.where('pipelineId').equals(q.pipeline).and(matchesFilter(q.filter));
  return filtered(db, q.filter);
}

/**
 * Whether a date sort's index holds the query's accounts and no others (no search, no pipeline, the
 * default, archived or whole list): its order pages them without reading any other row.
 */
export const walksOnlyTheQuery = (q: AccountQuery, key: AccountSortKey): key is 'created_at' | 'updated_at' =>
  isDateKey(key) &&
  !q.search?.trim() &&
  !q.pipeline &&
  (q.filter === undefined || q.filter === 'all' || q.filter === 'archived');

/** The date index walked for a date sort: within the archived or not-archived accounts, or all. */
export function dateWalk(
  db: AdvisorDb,
  filter: AccountFilter | undefined,
  column: 'createdAt' | 'updatedAt',
): Rows {
  if (filter === 'all') return db.accounts.orderBy(column);
  const archived = filter === 'archived' ? 1 : 0;
  return db.accounts
    .where(`[archived+${column}]`)
    .between([archived, Dexie.minKey], [archived, Dexie.maxKey]);
}

export const idSet = async (rows: Rows): Promise<Set<string>> => new Set(await rows.primaryKeys());

/** What the search reads of an account (a row, or the list index's entry). */
type Searched = { readonly search: readonly string[] };

/**
 * Whether a row matches a folded search (`searchQuery`; see listAccountIds): one of its names or emails
 * starts with the whole text, or, for several words, each word starts one of them. searchIds
 * answers the same from the search index alone.
 */
export function searchMatch(whole: string): (row: Searched) => boolean {
  const words = whole.split(/\s+/).filter(Boolean);
  const starts = (w: string) => (r: Searched) => r.search.some((s) => s.startsWith(w));
  const all = words.map(starts);
  return (r) => starts(whole)(r) || (all.length > 1 && all.every((match) => match(r)));
}

/** Ids of the accounts a folded search matches (see listAccountIds), from the search index alone. */
export async function searchIds(db: AdvisorDb, whole: string): Promise<Set<string>> {
  const starting = (prefix: string) => idSet(db.accounts.where('search').startsWith(prefix));
  const words = whole.split(/\s+/).filter(Boolean);
  const [ids, ...perWord] = await Promise.all([
    starting(whole),
    ...(words.length > 1 ? words.map(starting) : []),
  ]);
  const [first, ...others] = perWord;
  for (const id of first ?? []) if (others.every((set) => set.has(id))) ids.add(id);
  return ids;
}
