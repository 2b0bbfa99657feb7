// The engagement side of the data layer without a platform (fake-indexeddb): a completed
// engagement's answers grouped as its template groups them, panel → group → element; the changes
// of engagements waiting to be sent, as the screens list them; and taking one back.

import { describe, expect, it } from 'vitest';
import {
  ChangeRefused,
  discardEngagementChange,
  queueSendEngagement,
  recordOps,
} from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { EngagementDataItem } from '../../../renderer/src/data/model.ts';
import { groupAnswers, pendingEngagementChanges } from '../../../renderer/src/data/queries/index.ts';
import type { FlatStructure } from '@shared/wire/v2/config.ts';
import { clientFields, storePerTest, syncedAccount } from '../../support/store.ts';

/** An intake template: "Your household" is the second panel, though listed first. */
const structure: FlatStructure = {
  panels: [
    { id: 'p-house', type: 'ACCOUNT', title: 'Your household', description: null, position: 2 },
    { id: 'p-you', type: 'INDIVIDUAL', title: 'About you', description: null, position: 1 },
  ],
  groups: [
    { id: 'g-goals', panel_id: 'p-house', type: 'SINGLE', title: 'Goals', description: null, position: 1 },
    { id: 'g-contact', panel_id: 'p-you', type: 'SINGLE', title: 'Contact', description: null, position: 2 },
    { id: 'g-name', panel_id: 'p-you', type: 'SINGLE', title: 'Name', description: null, position: 1 },
  ],
  elements: [
    {
      id: 'e-email',
      group_id: 'g-contact',
      type: 'EMAIL',
      title: 'Email',
      description: null,
      size: 1,
      position: '0,1',
    },
    {
      id: 'e-phone',
      group_id: 'g-contact',
      type: 'STRING',
      title: 'Mobile phone',
      description: null,
      size: 1,
      position: '0,0',
    },
    {
      id: 'e-first',
      group_id: 'g-name',
      type: 'STRING',
      title: 'Preferred name',
      description: null,
      size: 1,
      position: '0,0',
    },
    {
      id: 'e-goal',
      group_id: 'g-goals',
      type: 'TEXT',
      title: 'Top goal',
      description: null,
      size: 1,
      position: '0,0',
    },
  ],
};

const answer = (
  title: string,
  value: string,
  datasetId: string | null,
  path: string[],
): EngagementDataItem => ({
  id: `${title}-value`,
  dataset_id: datasetId,
  member_id: 1001,
  row_id: `${title}-row`,
  type: 'STRING',
  value,
  title,
  description: null,
  path,
});

describe('groupAnswers', () => {
  it('orders panels, groups and elements by their positions, answers placed by their dataset id', () => {
    const items = [
      answer('Top goal', 'Retire at 60', 'e-goal', ['Your household', 'Goals', 'Top goal']),
      answer('Email', 'erin@example.com', 'e-email', ['About you', 'Contact', 'Email']),
      answer('Mobile phone', '+1 5125550101', 'e-phone', ['About you', 'Contact', 'Mobile phone']),
      answer('Preferred name', 'Erin', 'e-first', ['About you', 'Name', 'Preferred name']),
    ];
    const grouped = groupAnswers(items, structure);
    expect(
      grouped.map((p) => [p.title, p.groups.map((g) => [g.title, g.answers.map((a) => a.value)])]),
    ).toEqual([
      [
        'About you',
        [
          ['Name', ['Erin']],
          ['Contact', ['+1 5125550101', 'erin@example.com']],
        ],
      ],
      ['Your household', [['Goals', ['Retire at 60']]]],
    ]);
    expect(grouped[0]?.groups[0]?.answers[0]?.member_id).toBe(1001);
  });

  it('an answer of the template alone (no dataset id) goes by its path; an unknown panel comes last', () => {
    const items = [
      answer('Questions for your advisor', 'None', null, [
        'Later panel',
        'Anything else',
        'Questions for your advisor',
      ]),
      answer('Top goal', 'Travel', null, ['Your household', 'Goals', 'Top goal']),
      answer('Preferred name', 'Erin', 'e-first', ['About you', 'Name', 'Preferred name']),
    ];
    expect(groupAnswers(items, structure).map((p) => [p.title, p.groups.map((g) => g.title)])).toEqual([
      ['About you', ['Name']],
      ['Your household', ['Goals']],
      ['Later panel', ['Anything else']],
    ]);
  });

  it('without the structure here, the paths alone group them, in the order they came', () => {
    const items = [
      answer('Top goal', 'Travel', 'e-goal', ['Your household', 'Goals', 'Top goal']),
      answer('Preferred name', 'Erin', 'e-first', ['About you', 'Name', 'Preferred name']),
    ];
    expect(
      groupAnswers(items, null)
        .map((p) => p.title)
        .sort(),
    ).toEqual(['About you', 'Your household']);
  });
});

describe('engagement changes waiting', () => {
  let db: AdvisorDb;
  storePerTest((fresh) => (db = fresh));

  it('lists a send with its member and template, and takes it back at the user asking', async () => {
    const account = await syncedAccount(db, 41, clientFields('Erin'));
    const send = {
      accountId: account.id,
      member: 'client' as const,
      templateId: 'tpl-intake',
      emailNew: true,
      emailReminders: false,
      emailCompleted: true,
    };
    const { opId } = await queueSendEngagement(db, send);
    expect(await pendingEngagementChanges(db, account.id)).toEqual([
      expect.objectContaining({
        opId,
        kind: 'sendEngagement',
        state: 'queued',
        engagementId: null,
        member: 'client',
        templateId: 'tpl-intake',
        error: null,
      }),
    ]);
    expect((await db.accounts.get(account.id))?.status).toBe('pending');

    await discardEngagementChange(db, opId!);
    expect(await pendingEngagementChanges(db)).toEqual([]);
    expect(await recordOps(db, 'accounts', account.id)).toEqual([]);
    expect((await db.accounts.get(account.id))?.status).toBe('synced');
  });

  it('one in flight may have reached the platform: it is not taken back', async () => {
    const account = await syncedAccount(db, 42, clientFields('Erin'));
    const { opId } = await queueSendEngagement(db, {
      accountId: account.id,
      member: 'client',
      templateId: 'tpl-intake',
      emailNew: false,
      emailReminders: false,
      emailCompleted: false,
    });
    await db.outbox.where('id').equals(opId!).modify({ state: 'inflight' });
    await expect(discardEngagementChange(db, opId!)).rejects.toThrow(ChangeRefused);
    expect(await pendingEngagementChanges(db, account.id)).toHaveLength(1);
  });
});
