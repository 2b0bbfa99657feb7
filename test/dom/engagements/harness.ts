// What the engagement screens' tests share: the user resource with engagement permissions and
// two templates, and an engagement as the platform lists it, stored as the pull stores it.

import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { engagementRow } from '../../../renderer/src/data/records.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/queries/index.ts';

export const INTAKE = {
  id: 'tpl-intake',
  title: 'Client intake questionnaire',
  description: 'Getting started',
  type: 'OTHER',
  security: 'HIGH',
  owned: true,
};
export const RISK = {
  id: 'tpl-risk',
  title: 'Risk tolerance questionnaire',
  description: '',
  type: 'OTHER',
  security: 'LOW',
  owned: true,
};
const ENGAGEMENT_PERMISSIONS = [
  'engagements.in-progress',
  'engagements.completed',
  'engagements.create',
  'engagements.close',
  'engagements.delete',
];

/** The user resource as the sync pulls it, with every engagement permission but `without`. */
export async function user(db: AdvisorDb, without: string[] = []) {
  await putConfigEntry(db, CONFIG_KEYS.user, {
    pulledAt: Date.now(),
    data: {
      first_name: 'Alex',
      last_name: 'Morgan',
      permissions: Object.fromEntries(
        ['accounts.clients', 'accounts.clients.update', ...ENGAGEMENT_PERMISSIONS].map((k) => [
          k,
          !without.includes(k),
        ]),
      ),
      templates: [INTAKE, RISK],
      pipelines: [],
    },
  });
}

/** An engagement as the list gives it (`extra` overrides), as a stored row. */
export function engagement(id: string, accountId: number, memberId: number, extra: Record<string, unknown>) {
  return engagementRow(
    {
      id,
      account_id: accountId,
      member_id: memberId,
      template_id: RISK.id,
      title: RISK.title,
      description: '',
      security: 'LOW',
      name: 'Ann Tester',
      email: 'ann@example.com',
      url: `http://127.0.0.1:4010/api/v2/engagements/${id}/preview`,
      status: 'NEW',
      filled: 0,
      time: 0,
      created_at: '2026-11-01 10:00:00',
      opened_at: null,
      email_reminders: true,
      reminded_at: null,
      email_completed: true,
      completed_at: null,
      ...extra,
    },
    Date.now(),
  )!;
}
