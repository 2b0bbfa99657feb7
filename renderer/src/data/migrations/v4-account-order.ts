// Schema version 4: the account list walks an index in every text and quality order, as it walks
// the date indexes, instead of reading and sorting every row.

import type { Transaction } from 'dexie';
import { accountOrder } from '../accounts.ts';
import type { AccountOrder, AccountRow } from '../model.ts';
import { STORES_V1 } from './v1-records.ts';

/**
 * `order` (accounts.ts, accountOrder) holds a key per such sort, written by the database on every
 * write of an account (a middleware of db.ts, until version 8 dropped these indexes).
 */
export const STORES_V4 = {
  accounts:
    STORES_V1.accounts +
    ', order.made, order.quality, order.clientFirstName, order.clientLastName, order.clientEmail, ' +
    'order.coclientFirstName, order.coclientLastName, order.coclientEmail',
} as const;

/**
 * The upgrade writes `order` on the rows already there; the outbox and every other table are
 * carried across as they are.
 */
export async function writeAccountOrder(tx: Transaction): Promise<void> {
  await tx
    .table<AccountRow & { order?: AccountOrder }, string>('accounts')
    .toCollection()
    .modify((row) => {
      row.order = accountOrder(row);
    });
}
