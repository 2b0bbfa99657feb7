// A member's PIN reset, queued: it may wait for a connection, and two resets not yet sent are one.

import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../db.ts';
import type { AccountRow } from '../model.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  newOperation,
  recordOps,
  reopened,
  statusOf,
  unsent,
  type Change,
} from './operations.ts';
import { announce } from './outbox-events.ts';

/**
 * Queues a PIN reset of a member (0.0.1 `POST …/{client}/security/reset`). Unlike a delete it may
 * wait for a connection: it asks for no password, and every reset issues a new PIN that replaces
 * the last one, so sending it later, or again, leaves the member with one PIN in force, the
 * newest. Two resets of a member not yet sent are therefore one; a reset asked while another is in
 * flight follows it. The operation belongs to the account (its badge shows it pending) and
 * changes none of its fields; the platform's answer gives the member's security status, which is
 * stored, and the new PIN, which is kept in memory only (sync/pins.ts).
 */
export async function queueResetPin(db: AdvisorDb, accountId: string, member: MemberRole): Promise<Change> {
  const now = Date.now();
  const change = await db.transaction('rw', SYNC_TABLES, async () => {
    const account = await db.accounts.get(accountId);
    if (!account) throw new ChangeRefused(`The account ${accountId} is not in the local store.`);
    if (member === 'coclient' && !hasCoclient(account))
      throw new ChangeRefused('This account has no co-client, so there is no PIN to reset.');
    const ops = await recordOps(db, 'accounts', accountId);
    const waiting = ops.find((o) => o.kind === 'resetPin' && o.fields.member === member && unsent(o));
    const op = waiting
      ? reopened(waiting, now)
      : await newOperation(db, 'accounts', accountId, 'resetPin', { member }, {}, null, now);
    await db.outbox.put(op);
    const status = statusOf(await recordOps(db, 'accounts', accountId));
    await db.accounts.put({ ...account, status });
    return { id: accountId, opId: op.id };
  });
  announce(db, []);
  return change;
}

/** The account has a co-client: on the platform, or added here. */
export const hasCoclient = (account: AccountRow) =>
  account.meta.coclientId !== null ||
  ['coclient.first_name', 'coclient.last_name', 'coclient.email'].some(
    (k) => typeof account.fields[k] === 'string' && account.fields[k] !== '',
  );
