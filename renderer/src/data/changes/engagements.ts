// Sending a questionnaire (an engagement) to a member, closing and reopening one: queued on the
// engagement's account like any change, so that they wait offline and go once the network is back.
// Deleting one asks for the password and is never queued (sync/online-only.ts).

import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../db.ts';
import {
  ENGAGEMENT_OPERATION_KINDS,
  type AccountRow,
  type EngagementOperationKind,
  type Operation,
} from '../model.ts';
import { pulledUser } from '../permissions.ts';
import {
  actedOn,
  discardAccountChange,
  queueOnAccount,
  refuseUnreachable,
  refuseWithout,
} from './account-actions.ts';
import {
  ChangeRefused,
  SYNC_TABLES,
  dropOperations,
  recordOps,
  statusOf,
  unsent,
  type Change,
} from './operations.ts';
import { announce } from './outbox-events.ts';

export interface EngagementSend {
  /** Local id of the account. */
  accountId: string;
  member: MemberRole;
  templateId: string;
  /** The version 2 create's three email options. */
  emailNew: boolean;
  emailReminders: boolean;
  emailCompleted: boolean;
}

/** Both transitions, named as the permission that allows them (`engagements.close`). */
const TRANSITIONS: readonly EngagementOperationKind[] = ['closeEngagement', 'reopenEngagement'];

export const isEngagementOp = (op: Operation): boolean =>
  (ENGAGEMENT_OPERATION_KINDS as readonly string[]).includes(op.kind);

const memberWord = (member: MemberRole) => (member === 'coclient' ? 'co-client' : 'client');

/**
 * Queues `POST /engagements`: the template sent to the account's client or co-client. Refused, in
 * words, without the permission, for a template that is not the user's, for a member without an
 * email address (the questionnaire could not reach them), and while the same questionnaire waits
 * to be sent to the same member (a second click would send it twice). The member is named by role:
 * an account made offline has no member ids yet; the push reads them once it is on the platform.
 */
export async function queueSendEngagement(db: AdvisorDb, send: EngagementSend): Promise<Change> {
  await refuseWithout(db, 'engagements.create');
  const user = await pulledUser(db);
  if (user && !user.templates.some((t) => t.id === send.templateId))
    throw new ChangeRefused(
      'This questionnaire is not one of your templates on the platform. Choose another.',
    );
  const now = Date.now();
  const change = await db.transaction('rw', [...SYNC_TABLES, 'engagements'], async () => {
    const account = await db.accounts.get(send.accountId);
    if (!account) throw new ChangeRefused(`The account ${send.accountId} is not in the local store.`);
    await refuseUnreachable(db, account, send.member, 'questionnaire');
    const ops = await recordOps(db, 'accounts', account.id);
    if (ops.some((o) => sameSend(o, send) && (unsent(o) || o.state === 'inflight')))
      throw new ChangeRefused(
        `This questionnaire is already waiting to be sent to the ${memberWord(send.member)}; it goes once you are online.`,
      );
    const fields = {
      member: send.member,
      template_id: send.templateId,
      email_new: send.emailNew,
      email_reminders: send.emailReminders,
      email_completed: send.emailCompleted,
      known: await knownEngagements(db, account, send),
    };
    return { id: account.id, opId: await queueOnAccount(db, account, ops, 'sendEngagement', fields, now) };
  });
  announce(db, []);
  return change;
}

const sameSend = (op: Operation, send: EngagementSend) =>
  op.kind === 'sendEngagement' &&
  op.fields.member === send.member &&
  op.fields.template_id === send.templateId;

/**
 * The engagements of this member and template already here: none of them can be the one this send
 * makes, which an unanswered send looks for before it is sent again (sync/reconcile.ts).
 */
async function knownEngagements(db: AdvisorDb, account: AccountRow, send: EngagementSend): Promise<string[]> {
  const memberId = send.member === 'coclient' ? account.meta.coclientId : account.meta.clientId;
  if (account.serverId === null || memberId === null) return [];
  const rows = await db.engagements.where('accountServerId').equals(Number(account.serverId)).toArray();
  return rows.filter((r) => r.memberId === memberId && r.templateId === send.templateId).map((r) => r.id);
}

/** Queues `POST /engagements/{id}/close`: the advisor ends the questionnaire; its answers go into the account. */
export function queueCloseEngagement(db: AdvisorDb, engagementId: string): Promise<Change> {
  return queueTransition(db, engagementId, 'closeEngagement');
}

/** Queues `POST /engagements/{id}/reopen`: the member may open and fill it again. */
export function queueReopenEngagement(db: AdvisorDb, engagementId: string): Promise<Change> {
  return queueTransition(db, engagementId, 'reopenEngagement');
}

/**
 * The last wish counts: a close or reopen not sent yet is replaced by the new one, and none is
 * queued when the engagement already is what is asked (as this computer last saw it) and nothing
 * of it is in flight. The change answers the engagement's id; `opId` null when nothing is to be sent.
 */
async function queueTransition(
  db: AdvisorDb,
  engagementId: string,
  kind: 'closeEngagement' | 'reopenEngagement',
): Promise<Change> {
  await refuseWithout(db, 'engagements.close');
  const now = Date.now();
  const settled: string[] = [];
  const change = await db.transaction('rw', [...SYNC_TABLES, 'engagements'], async () => {
    const found = await db.engagements.get(engagementId);
    const { row: engagement, account, ops } = await actedOn(db, found, 'questionnaire');
    const mine = ops.filter(
      (o) => TRANSITIONS.includes(o.kind as EngagementOperationKind) && o.fields.engagement === engagementId,
    );
    const waiting = mine.filter(unsent);
    await dropOperations(db, waiting, settled);
    const already = (engagement.completed === 1) === (kind === 'closeEngagement');
    const inFlight = mine.some((o) => !unsent(o));
    const rest = ops.filter((o) => !waiting.includes(o));
    let opId: string | null = null;
    if (!already || inFlight)
      opId = await queueOnAccount(db, account, rest, kind, { engagement: engagementId }, now);
    else await db.accounts.put({ ...account, status: statusOf(rest) });
    return { id: engagementId, opId };
  });
  announce(db, settled);
  return change;
}

/**
 * Takes back a questionnaire change not sent yet (waiting, waiting for a retry, or refused by the
 * platform), at the user's asking. One in flight may be on the platform already: it is not taken back.
 */
export function discardEngagementChange(db: AdvisorDb, opId: string): Promise<void> {
  return discardAccountChange(db, opId, isEngagementOp, 'a questionnaire');
}
