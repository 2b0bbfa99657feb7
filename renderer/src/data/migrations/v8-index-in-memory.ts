// Schema version 8: the account list, its search and every sort are answered by the account index
// in memory (account-index/), so the accounts table loses the indexes that served them: `*search`
// and the eight `order.*` indexes of version 4. The index is read when the store opens from a new
// table, `accountEntries`: each account's compact entry (account-index/entry.ts), written in the
// transaction of every write of the account (account-index/store.ts). The engine's own indexes (ids, status, the flags,
// dates and stage the sync and the other screens read) stay. The outbox and every other table are
// carried across as they are.

import type { Transaction } from 'dexie';
import { storedEntryOf } from '../account-index/entry.ts';
import type { AccountRow } from '../model.ts';

export const STORES_V8 = {
  accountEntries: 'id',
  accounts:
    'id, &serverId, type, archived, favorited, pipelineId, createdAt, updatedAt, status, availableOffline, ' +
    'openedAt, [archived+type], [archived+favorited], [archived+createdAt], [archived+updatedAt]',
} as const;

/**
 * The `order` keys go from the rows already there (nothing reads them any more), and each row's
 * entry is written (what the index reads when the store opens).
 */
export async function dropAccountOrder(tx: Transaction): Promise<void> {
  const accounts = tx.table<AccountRow & { order?: unknown }, string>('accounts');
  await accounts.toCollection().modify((row) => {
    delete row.order;
  });
  await tx.table('accountEntries').bulkPut((await accounts.toArray()).map(storedEntryOf));
}
