// Schema version 8: the account list, its search and every sort are answered by the account index
// in memory (account-index/), so the accounts table loses the indexes that served them: `*search`
// and the eight `order.*` indexes of version 4. The engine's own indexes (ids, status, the flags,
// dates and stage the sync and the other screens read) stay. The outbox and every other table are
// carried across as they are.

import type { Transaction } from 'dexie';
import type { AccountRow } from '../model.ts';

export const STORES_V8 = {
  accounts:
    'id, &serverId, type, archived, favorited, pipelineId, createdAt, updatedAt, status, availableOffline, ' +
    'openedAt, [archived+type], [archived+favorited], [archived+createdAt], [archived+updatedAt]',
} as const;

/** The `order` keys go from the rows already there: nothing reads them any more. */
export async function dropAccountOrder(tx: Transaction): Promise<void> {
  await tx
    .table<AccountRow & { order?: unknown }, string>('accounts')
    .toCollection()
    .modify((row) => {
      delete row.order;
    });
}
