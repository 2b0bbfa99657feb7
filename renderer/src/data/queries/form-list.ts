// The forms (0.0.1) the screens list: the team's or one account's, as pulled, with the form changes
// waiting to be sent (a send not on the platform yet is an entry of its own, a resend or close
// marks its form), each named by its account, for the Forms list and the workspace's Forms tab.

import {
  FORM_OPERATION_KINDS,
  type AccountRow,
  type FormRow,
  type Operation,
  type OperationState,
} from '../model.ts';
import type { AdvisorDb } from '../db.ts';
import { accountLabel } from '../labels.ts';

export type FormStatus = 'NEW' | 'IN_PROGRESS' | 'CLOSED';

export interface FormEntry {
  /** The FormRow id; for a send not on the platform yet, its operation's id. */
  id: string;
  /** The form on the platform, or null for a send waiting. */
  form: FormRow | null;
  accountId: string | null;
  accountName: string;
  title: string;
  tags: string[];
  /** The platform's status as it came (an unknown one is shown as it is), or null for a send waiting. */
  status: string | null;
  /** Who receives it: names where the platform gives them, else roles. */
  recipients: string[];
  createdAt: string | null;
  remindedAt: string | null;
  closedAt: string | null;
  /** A change of this form waiting to be sent: what it is, its state and why it was refused. */
  pending: { kind: Operation['kind']; opId: string; state: OperationState; error: string | null }[];
}

const isFormKind = (op: Operation) => (FORM_OPERATION_KINDS as readonly string[]).includes(op.kind);
const roleWord = (role: unknown) => (role === 'coclient' ? 'Co-client' : 'Client');
const pendingOf = (op: Operation) => ({
  kind: op.kind,
  opId: op.id,
  state: op.state,
  error: op.lastError?.message ?? null,
});

/** The team's forms (`accountId` undefined) or one account's, newest first, sends waiting first. */
export async function formEntries(db: AdvisorDb, accountId?: string): Promise<FormEntry[]> {
  const account = accountId === undefined ? undefined : await db.accounts.get(accountId);
  if (account === undefined && accountId !== undefined) return [];
  const serverId = account?.serverId ?? null;
  const [rows, ops] = await Promise.all([
    account === undefined
      ? db.forms.toArray()
      : serverId === null
        ? Promise.resolve([])
        : db.forms.where('accountServerId').equals(Number(serverId)).toArray(),
    account === undefined
      ? db.outbox.toArray()
      : db.outbox.where('[table+recordId]').equals(['accounts', account.id]).toArray(),
  ]);
  const formOps = ops.filter(isFormKind).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const accounts = new Map<number | string, AccountRow>();
  const byId = new Map<string, AccountRow>();
  // Only the accounts the forms and the sends name: a team's list at a firm's scale holds few of them.
  const named = account
    ? [account]
    : [
        ...(await db.accounts
          .where('serverId')
          // A server id is kept as the platform sent it: a number, or its text.
          .anyOf([...new Set(rows.map((r) => r.accountServerId))].flatMap((id) => [id, String(id)]))
          .toArray()),
        ...(await db.accounts.bulkGet([...new Set(formOps.map((op) => op.recordId))])).filter(
          (a): a is AccountRow => a !== undefined,
        ),
      ];
  for (const a of named) {
    if (a.serverId !== null) accounts.set(Number(a.serverId), a);
    byId.set(a.id, a);
  }
  const sends: FormEntry[] = formOps
    .filter((op) => op.kind === 'sendForm')
    .map((op) => ({
      id: op.id,
      form: null,
      accountId: op.recordId,
      accountName: accountLabel(byId.get(op.recordId)),
      title: String(op.fields.template_title ?? op.fields.template_key),
      tags: [],
      status: null,
      recipients: (Array.isArray(op.fields.recipients) ? op.fields.recipients : []).map(roleWord),
      createdAt: null,
      remindedAt: null,
      closedAt: null,
      pending: [pendingOf(op)],
    }));
  const forms: FormEntry[] = rows
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .map((row) => {
      const holder = accounts.get(row.accountServerId);
      const s = row.server;
      return {
        id: row.id,
        form: row,
        accountId: holder?.id ?? null,
        accountName: holder ? accountLabel(holder) : `Account ${row.accountServerId}`,
        title: s.template?.title || 'Form',
        tags: s.template?.tags ?? [],
        status: row.status,
        recipients: s.recipients.map((r) => r.name || roleWord(r.role)),
        createdAt: s.created_at,
        remindedAt: s.reminded_at,
        closedAt: s.closed_at,
        pending: formOps.filter((op) => op.fields.form === row.id).map(pendingOf),
      };
    });
  return [...sends, ...forms];
}
