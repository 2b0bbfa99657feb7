// What questionnaires (engagements) and forms have in common when they are sent, closed or
// reopened: the permission asked first, the member reached by email, the row acted on and its
// account looked up (refused in words when either is not here), the operation queued on the
// account with its status, and taking back one not sent yet.

import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../db.ts';
import { memberContact } from '../member-contact.ts';
import type { AccountRow, Operation, OperationKind } from '../model.ts';
import { permissionRefusal } from '../permissions.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  dropOperations,
  newOperation,
  recordOps,
  statusOf,
  unsent,
} from './operations.ts';
import { announce } from './outbox-events.ts';
import { hasCoclient } from './pin-reset.ts';

/** What the advisor sends: named so in the refusals. */
export type Sendable = 'questionnaire' | 'form';

const memberWord = (member: MemberRole) => (member === 'coclient' ? 'co-client' : 'client');

/** Refuses, in words, what the user's role does not allow (as the pulled user says). */
export async function refuseWithout(db: AdvisorDb, permission: string): Promise<void> {
  const refusal = await permissionRefusal(db, permission);
  if (refusal) throw new ChangeRefused(refusal);
}

/**
 * Refuses sending to a co-client the account does not have, and to a member without an email
 * address (what is sent could not reach them). Inside the caller's transaction.
 */
export async function refuseUnreachable(
  db: AdvisorDb,
  account: AccountRow,
  member: MemberRole,
  what: Sendable,
): Promise<void> {
  const word = memberWord(member);
  if (member === 'coclient' && !hasCoclient(account))
    throw new ChangeRefused(`This account has no co-client to send a ${what} to.`);
  const details = await db.singles.get(`${account.id}:details:${member}`);
  if (!memberContact(account, details, member).email)
    throw new ChangeRefused(
      `The ${word} has no email address, so the ${what} could not reach them. Add one to the ${word}'s details first.`,
    );
}

/**
 * The questionnaire or form acted on (`found`: its row, if here), its account and the account's
 * queued operations; refused in words when either is not on this computer. Inside the caller's
 * transaction.
 */
export async function actedOn<T extends { accountServerId: number }>(
  db: AdvisorDb,
  found: T | undefined,
  what: Sendable,
): Promise<{ row: T; account: AccountRow; ops: Operation[] }> {
  if (!found)
    throw new ChangeRefused(
      `This ${what} is not on this computer. If it was just sent, wait until it has reached the platform.`,
    );
  const account = await db.accounts.where('serverId').equals(found.accountServerId).first();
  if (!account) throw new ChangeRefused(`The account of this ${what} is not on this computer.`);
  return { row: found, account, ops: await recordOps(db, 'accounts', account.id) };
}

/**
 * Queues `kind` on the account and sets the account's sync status from `others` (what stays
 * queued on it) and the new operation: the new operation's id. Inside the caller's transaction.
 */
export async function queueOnAccount(
  db: AdvisorDb,
  account: AccountRow,
  others: readonly Operation[],
  kind: OperationKind,
  fields: Record<string, unknown>,
  now: number,
): Promise<string> {
  const op = await newOperation(db, 'accounts', account.id, kind, fields, {}, null, now);
  await db.outbox.add(op);
  await db.accounts.put({ ...account, status: statusOf([...others, op]) });
  return op.id;
}

/** Takes back a change queued on an account (`accepts` says which kinds; `what` names one). */
export async function discardAccountChange(
  db: AdvisorDb,
  opId: string,
  accepts: (op: Operation) => boolean,
  what: string,
): Promise<void> {
  const settled: string[] = [];
  await db.transaction('rw', SYNC_TABLES, async () => {
    const op = await db.outbox.where('id').equals(opId).first();
    if (!op || !accepts(op)) throw new ChangeRefused(`The change ${opId} is not ${what} waiting to be sent.`);
    if (!unsent(op))
      throw new ChangeRefused(
        'This change is being sent now and may have reached the platform; it cannot be taken back.',
      );
    await dropOperations(db, [op], settled);
    const account = await db.accounts.get(op.recordId);
    if (account)
      await db.accounts.put({ ...account, status: statusOf(await recordOps(db, 'accounts', account.id)) });
  });
  announce(db, settled);
}
