// What a member already has open: the questionnaires (engagements) of one template not completed,
// and the forms of one template not closed, as this computer last saw them (one with a close
// waiting to be sent counts as closed: the advisor ended it). A send of the same again would make
// a second one and email the member again, so the send dialogs ask first.

import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../db.ts';
import type { EngagementRow, FormRow } from '../model.ts';

/** The ids of the account's engagements (or forms) whose last transition waiting here is a close. */
async function closing(db: AdvisorDb, accountId: string, field: 'engagement' | 'form'): Promise<Set<string>> {
  const ops = await db.outbox.where('[table+recordId]').equals(['accounts', accountId]).toArray();
  const last = new Map<string, string>();
  for (const op of ops.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)))
    if (['closeEngagement', 'reopenEngagement', 'closeForm'].includes(op.kind))
      last.set(String(op.fields[field]), op.kind);
  return new Set([...last].filter(([, kind]) => kind.startsWith('close')).map(([id]) => id));
}

/** The engagements of this template to this member of the account that are not completed, oldest first. */
export async function openEngagements(
  db: AdvisorDb,
  accountId: string,
  member: MemberRole,
  templateId: string,
): Promise<EngagementRow[]> {
  const account = await db.accounts.get(accountId);
  const memberId = member === 'coclient' ? account?.meta.coclientId : account?.meta.clientId;
  if (typeof account?.serverId !== 'number' || memberId === null || memberId === undefined) return [];
  const rows = await db.engagements.where('accountServerId').equals(account.serverId).toArray();
  const closed = await closing(db, accountId, 'engagement');
  return rows
    .filter(
      (r) => r.memberId === memberId && r.templateId === templateId && r.completed === 0 && !closed.has(r.id),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/** The forms of this template of the account, not closed, sent to any of these members; oldest first. */
export async function openForms(
  db: AdvisorDb,
  accountId: string,
  templateKey: string,
  recipients: readonly MemberRole[],
): Promise<FormRow[]> {
  const account = await db.accounts.get(accountId);
  if (typeof account?.serverId !== 'number') return [];
  const rows = await db.forms.where('accountServerId').equals(account.serverId).toArray();
  const closed = await closing(db, accountId, 'form');
  return rows
    .filter(
      (r) =>
        r.status !== 'CLOSED' &&
        !closed.has(r.id) &&
        r.server.template?.key === templateKey &&
        r.server.recipients.some((p) => (recipients as readonly string[]).includes(p.role.toLowerCase())),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}
