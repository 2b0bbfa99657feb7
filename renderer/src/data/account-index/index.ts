// The account list's index in memory (one per open store): what the list, the board and the
// export ask for the count and the ids of a query, kept in step with every write. Its parts:
// entry.ts (one account as the index holds it, the sort orders), list-index.ts (the ids of a
// query), store.ts (built when the store opens, kept in step by a Dexie middleware and by the
// other windows of the store).

export { accountIndex, type AccountIndex } from './store.ts';
export { type StageRank } from './list-index.ts';

import type { AdvisorDb } from '../db.ts';
import { listAccountIds } from '../queries/account-list.ts';
import type { ListQuery } from '../queries/account-select.ts';
import { sortOf } from '../queries/account-sort.ts';
import { accountIndex } from './store.ts';

/**
 * The ids of every account a query selects, in its order (listAccountIds' answer): from the index
 * at once when it is built and the sort is not by stage, after the stages are read for that one.
 * Until the index is built (3 s at 50,000 accounts as the store opens) the store's own indexes
 * answer, sooner; the index says when it is ready (AccountIndex.subscribe).
 */
export function indexedIds(db: AdvisorDb, q: ListQuery): string[] | Promise<string[]> {
  const index = accountIndex(db);
  if (!index.ready) return listAccountIds(db, q);
  if (sortOf(q.sort).key !== 'pipeline') return index.list.ids(q);
  return index.stages().then((stages) => index.list.ids(q, stages));
}
