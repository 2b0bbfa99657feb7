// The account list's index in memory (one per open store): what the list, the board and the
// export ask for the count and the ids of a query, kept in step with every write. Its parts:
// entry.ts (one account as the index holds it, the sort orders), list-index.ts (the ids of a
// query), store.ts (built when the store opens, kept in step by a Dexie middleware and by the
// other windows of the store).

export { accountIndex, type AccountIndex } from './store.ts';
export { type StageRank } from './list-index.ts';

import type { AdvisorDb } from '../db.ts';
import type { ListQuery } from '../queries/account-select.ts';
import { sortOf } from '../queries/account-sort.ts';
import { accountIndex } from './store.ts';

/**
 * The ids of every account a query selects, in its order, from the index (listAccountIds' answer):
 * at once when the index is built and the sort is not by stage, else after those are read.
 */
export function indexedIds(db: AdvisorDb, q: ListQuery): string[] | Promise<string[]> {
  const index = accountIndex(db);
  if (index.ready && sortOf(q.sort).key !== 'pipeline') return index.list.ids(q);
  return index.whenReady.then(() => index.stages()).then((stages) => index.list.ids(q, stages));
}
