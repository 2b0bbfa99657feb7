// The meeting change summary's rows read as the advisor knows the household (issue 23, point 1):
// a stage change by the stages' names, not two ids; a relation by the person's name, a choice by
// its label, an amount with its frequency; the account's phone as one number; and a change that
// only wrote a value another way (a phone's spaces) is no change. Real changes through the change
// module on a fake-indexeddb store; the expected words are the screens' (the board's stage names,
// the forms' labels), written here by hand.

import { describe, expect, it } from 'vitest';
import { putConfigEntries, CONFIG_KEYS } from '../../../renderer/src/data/config.ts';
import { createRecord, deleteRecord, updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { meetingSummary } from '../../../renderer/src/export/meeting-summary.ts';
import { clientFields, storePerTest, syncedAccount, syncedItem, syncedSingle } from '../../support/store.ts';

let db: AdvisorDb;
storePerTest((fresh) => (db = fresh));

const ONBOARD = '2d9d1745-7a0c-4d7e-9a55-1c0f4b2e8a01';
const ACQUIRE = '0b6c830b-51f2-4a4e-8d0e-7f3c9a6b2c02';

/** The user resource as the pull keeps it: two client stages. */
async function pipelines(): Promise<void> {
  const stage = (id: string, title: string) => ({ id, type: 'CLIENT', title, description: '', icon: '' });
  await putConfigEntries(db, [
    [
      CONFIG_KEYS.user,
      {
        pulledAt: Date.now(),
        data: { pipelines: [stage(ONBOARD, 'Onboard'), stage(ACQUIRE, 'Acquire')] },
      },
    ],
  ]);
}

const rowsSince = async (accountId: string, from: number) =>
  (await meetingSummary(db, accountId, { from, to: Date.now() })).rows.map((r) => [
    r.section,
    r.item,
    r.field,
    r.before,
    r.after,
  ]);

describe('meeting summary rows, in the advisor’s words', () => {
  it('a stage change names both stages; favorite reads Yes or No', async () => {
    await pipelines();
    const account = await syncedAccount(db, 11, { ...clientFields(), 'pipeline.id': ONBOARD });
    const from = Date.now();
    await updateRecord(db, 'accounts', account.id, { 'pipeline.id': ACQUIRE });
    await updateRecord(db, 'accounts', account.id, { favorited: true });
    expect(await rowsSince(account.id, from)).toEqual([
      ['Household', '', 'Stage', 'Onboard', 'Acquire'],
      ['Household', '', 'Favorite', 'No', 'Yes'],
    ]);
  });

  it('a phone written another way is no change; a new number is one row with the whole number', async () => {
    const account = await syncedAccount(db, 12, {
      ...clientFields(),
      'client.phone.code': '+1',
      'client.phone.number': '6927088843',
      'client.phone.country': 'US',
    });
    await syncedSingle(db, account.id, 'details:client', {
      first_name: 'Ann',
      last_name: 'Tester',
      phone: '+16927088843',
    });
    const from = Date.now();
    // The same numbers, with spaces: nothing the advisor would call a change.
    await updateRecord(db, 'accounts', account.id, { 'client.phone.number': '692 708 8843' });
    await createRecord(db, 'singles', {
      accountId: account.id,
      key: 'details:client',
      fields: { phone: '+1 692 708 8843' },
    });
    expect(await rowsSince(account.id, from)).toEqual([]);

    // Another number, and another country with it: one row, both parts read together.
    await updateRecord(db, 'accounts', account.id, {
      'client.phone.number': '4165550199',
      'client.phone.country': 'CA',
    });
    expect(await rowsSince(account.id, from)).toEqual([
      ['Household', '', 'Client mobile phone', '+1 692 708 8843 (United States)', '+1 4165550199 (Canada)'],
    ]);
  });

  it('relations by name, choices by label, amounts with their frequency', async () => {
    const account = await syncedAccount(db, 13);
    const child = await syncedItem(db, account.id, 'family', 'f1', {
      relationship: 'child',
      first_name: 'Mia',
      last_name: 'Tester',
    });
    const goal = await syncedItem(db, account.id, 'goals', 'g1', {
      name: 'College',
      type: 'travel',
      owner: { type: 'client', id: null },
    });
    const from = Date.now();
    await updateRecord(db, 'sectionItems', goal.id, {
      type: 'wedding',
      beneficiary: { type: 'FamilyMember', id: child.id },
    });
    await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'expenses-variable',
      fields: { type: 'groceries', value: { value: 1200, frequency: 'monthly' } },
    });
    const rows = await rowsSince(account.id, from);
    expect(rows.slice(0, 2)).toEqual([
      ['Goals', 'College', 'Type', 'Travel', 'Wedding'],
      ['Goals', 'College', 'Beneficiary', '', 'Mia Tester'],
    ]);
    expect(rows[2]?.slice(0, 3)).toEqual(['Variable expenses', '', 'Added']);
    expect(rows[2]?.[4]).toContain('$1,200 /mo');
    expect(rows[2]?.[4]).toContain('Groceries');
    // No raw value anywhere: no id, no enum value, no JSON.
    for (const cell of rows.flat()) {
      expect(cell).not.toMatch(/[{}"]|[0-9a-f]{8}-[0-9a-f]{4}/);
      expect(cell).not.toMatch(/\b(groceries|wedding|FamilyMember)\b/);
    }
  });

  it('a relation to someone added and removed in the meeting keeps their name', async () => {
    const account = await syncedAccount(db, 14);
    const goal = await syncedItem(db, account.id, 'goals', 'g2', {
      name: 'Trip',
      type: 'travel',
      owner: { type: 'client', id: null },
    });
    const from = Date.now();
    const { id: leo } = await createRecord(db, 'sectionItems', {
      accountId: account.id,
      section: 'family',
      fields: { relationship: 'child', first_name: 'Leo', last_name: 'Tester' },
    });
    await updateRecord(db, 'sectionItems', goal.id, { beneficiary: { type: 'FamilyMember', id: leo } });
    await deleteRecord(db, 'sectionItems', leo);
    const rows = await rowsSince(account.id, from);
    expect(rows[1]).toEqual(['Goals', 'Trip', 'Beneficiary', '', 'Leo Tester']);
  });

  it('a household made here lists its type, stage and phone in words', async () => {
    await pipelines();
    const from = Date.now();
    const { id } = await createRecord(db, 'accounts', {
      fields: {
        ...clientFields('Nora'),
        'client.phone.code': '+1',
        'client.phone.number': '5550100199',
        'client.phone.country': 'US',
        'pipeline.id': ONBOARD,
      },
    });
    const [added] = await rowsSince(id, from);
    expect(added?.slice(0, 3)).toEqual(['Household', '', 'Added']);
    expect(added?.[4]).toContain('Type: Client');
    expect(added?.[4]).toContain('Stage: Onboard');
    expect(added?.[4]).toContain('Client mobile phone: +1 5550100199 (United States)');
    expect(added?.[4]).not.toContain(ONBOARD);
  });
});
