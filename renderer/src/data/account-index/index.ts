// The account list's index in memory (one per open store): what the list, the board, the export,
// the searches and the duplicate check ask for, kept in step with every write. Its parts:
// entry.ts (one account as the index holds it, the sort orders), list-index.ts (the ids of a
// query), store.ts (built when the store opens, kept in step by a Dexie middleware and by the
// other windows of the store).

export { accountIndex, accountsWithTerms, type AccountIndex } from './store.ts';
export { type StageRank } from './list-index.ts';

import type { AdvisorDb } from '../db.ts';
import { listAccountIds } from '../queries/account-list.ts';
import type { ListQuery } from '../queries/account-select.ts';
import { sortOf } from '../queries/account-sort.ts';
import { accountIndex } from './store.ts';

/**
 * The ids of every account a query selects, in its order (listAccountIds' answer): at once when
 * the index is built and the sort is not by stage; after the index is read, or the stages, else.
 */
export function indexedIds(db: AdvisorDb, q: ListQuery): string[] | Promise<string[]> {
  const index = accountIndex(db);
  if (!index.ready || sortOf(q.sort).key === 'pipeline') return listAccountIds(db, q);
  return index.list.ids(q);
}
