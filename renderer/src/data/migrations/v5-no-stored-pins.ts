// Schema version 5: no PIN on disk (sync/pins.ts keeps them in memory). No table or index
// changes; the outbox and every other table are carried across as they are.

import type { Transaction } from 'dexie';
import type { MemberSecurityRow } from '../model.ts';

export const STORES_V5 = {} as const;

/** Each member's security row is rewritten with its status alone, as `memberSecurityRow` now writes it. */
export async function forgetStoredPins(tx: Transaction): Promise<void> {
  await tx
    .table<MemberSecurityRow, string>('memberSecurity')
    .toCollection()
    .modify((row) => {
      const { account_id, type, status } = row.server;
      row.server = { account_id, type, status };
    });
}
