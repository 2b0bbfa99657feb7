// Schema version 7: the account search ignores accents and punctuation (shared/search-text.ts), so
// the `search` column of the accounts already here is written again with the folded terms. No
// table or index changes; the outbox and every other table are carried across as they are.

import type { Transaction } from 'dexie';
import { searchColumn } from '../accounts.ts';
import type { AccountRow } from '../model.ts';

export const STORES_V7 = {} as const;

/** Each account's `search` terms, as `accountIndex` now writes them on every write. */
export async function writeSearchTerms(tx: Transaction): Promise<void> {
  await tx
    .table<AccountRow, string>('accounts')
    .toCollection()
    .modify((row) => {
      row.search = searchColumn(row.fields ?? {});
    });
}
