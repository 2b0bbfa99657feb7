// What a member already has open: the questionnaires (engagements) of one template not completed,
// and the forms of one template not closed, as this computer last saw them. A send of the same
// again would make a second one and email the member again, so the send dialogs ask first.

import type { MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../db.ts';
import type { EngagementRow, FormRow } from '../model.ts';

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
  return rows
    .filter((r) => r.memberId === memberId && r.templateId === templateId && r.completed === 0)
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
  return rows
    .filter(
      (r) =>
        r.status !== 'CLOSED' &&
        r.server.template?.key === templateKey &&
        r.server.recipients.some((p) => (recipients as readonly string[]).includes(p.role.toLowerCase())),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}
