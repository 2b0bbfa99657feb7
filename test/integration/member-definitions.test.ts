// The member details form's lists (gender, marital status) from `/define/FullMember/{id}` (0.0.1)
// against the sandbox over real HTTP, into Dexie over fake-indexeddb: the fields the form draws
// (the member form's, with the definition this computer holds) offer the marital status the
// platform allows beyond the document (`separated`) under its raw value; a member saved with it
// keeps it through push, pull and an edit of another field. Without an answer the form offers the
// document's table, and a held value it lacks is still offered, never blanked.

import { describe, expect, it } from 'vitest';
import { definedFieldList, withStoredValue, type AllowedByEntity } from '@shared/allowed-values.ts';
import type { FormField } from '@shared/section-forms/form.ts';
import { MEMBER_ENTITY, MEMBER_FIELDS } from '@shared/section-forms/member-form.ts';
import { CONFIG_KEYS, configEntry } from '../../renderer/src/data/queries/index.ts';
import { createRecord } from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { PushEngine } from '../../renderer/src/sync/push/index.ts';
import { draftOf, patchOf } from '../../renderer/src/household/values.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 4 });
const advisor = sandboxUser(platform, ADVISOR);

/** The document's marital statuses ("Account Full Member"), in its order. */
const DOCUMENTED_MARITAL = ['single', 'married', 'divorced', 'widowed', 'other', 'partner'];
/** The same in the words the form shows them. */
const MARITAL_WORDS = ['Single', 'Married', 'Divorced', 'Widowed', 'Other', 'Partner'];

/** The member form's fields as it draws them: with the definition of the full member held here. */
async function memberFields(db: AdvisorDb): Promise<readonly FormField[]> {
  const held = await configEntry<AllowedByEntity>(db, CONFIG_KEYS.definitions);
  return definedFieldList(MEMBER_FIELDS, held?.data[MEMBER_ENTITY]);
}

/** What the marital status list offers for a stored value, as [value, label] pairs. */
async function maritalChoices(db: AdvisorDb, stored: unknown): Promise<string[][]> {
  const field = (await memberFields(db)).find((f) => f.name === 'marital_status')!;
  return withStoredValue(field.options ?? [], stored).map((o) => [o.value, o.label]);
}

/** Saves the client's details form as SingleRecordEditor does: only the fields that changed. */
async function saveDetails(db: AdvisorDb, accountId: string, change: Record<string, unknown>) {
  const fields = await memberFields(db);
  const stored = (await db.singles.get(`${accountId}:details:client`))?.fields ?? {};
  const patch = patchOf(fields, stored, { ...draftOf(fields, stored), ...change });
  await createRecord(db, 'singles', { accountId, key: 'details:client', fields: patch });
  return patch;
}

async function onServer(serverId: number) {
  const r = await advisor.send({ api: 'v0', method: 'GET', path: `/accounts/${serverId}/client/details` });
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return r.ok ? (r.data as Record<string, unknown>) : {};
}

describe('the member details form’s lists', () => {
  it('offer a marital status only the platform allows, and a member saved with it keeps it through push, pull and another edit', async () => {
    const db = openDb();
    await db.open();
    const pull = new PullEngine({ db, send: advisor.send });
    const push = new PushEngine({ db, send: advisor.send });
    await pull.pullAccountList();
    const account = (await db.accounts.orderBy('serverId').first())!;
    const serverId = account.serverId as number;
    await pull.pullAccount(account.id);
    expect((await pull.pullDefinitions()).failures).toEqual([]);

    // The platform's order: `separated` between married and divorced, under its raw value.
    expect(await maritalChoices(db, null)).toEqual([
      ['single', 'Single'],
      ['married', 'Married'],
      ['separated', 'separated'],
      ['divorced', 'Divorced'],
      ['widowed', 'Widowed'],
      ['other', 'Other'],
      ['partner', 'Partner'],
    ]);
    const gender = (await memberFields(db)).find((f) => f.name === 'gender')!;
    expect(gender.options?.map((o) => [o.value, o.label])).toEqual([
      ['male', 'Male'],
      ['female', 'Female'],
    ]);

    // Chosen and saved: only the marital status is queued, and the platform holds it.
    expect(await saveDetails(db, account.id, { marital_status: 'separated' })).toEqual({
      marital_status: 'separated',
    });
    expect(await push.run()).toMatchObject({ synced: 1, rejected: 0 });
    expect((await onServer(serverId)).marital_status).toBe('separated');

    // Pulled back, shown as it is; a note saved beside it leaves it alone.
    await pull.pullAccount(account.id);
    const stored = (await db.singles.get(`${account.id}:details:client`))!.fields;
    expect(stored.marital_status).toBe('separated');
    expect(draftOf(await memberFields(db), stored).marital_status).toBe('separated');
    expect(await saveDetails(db, account.id, { comments: 'Separated since March.' })).toEqual({
      comments: 'Separated since March.',
    });
    expect(await push.run()).toMatchObject({ synced: 1, rejected: 0 });
    const server = await onServer(serverId);
    expect(server).toMatchObject({ marital_status: 'separated', comments: 'Separated since March.' });
    expect((await db.singles.get(`${account.id}:details:client`))!.fields.marital_status).toBe('separated');
  });

  it('without an answer from the platform, offer the document’s table, and a held value it lacks under its raw value', async () => {
    const db = openDb();
    await db.open();
    const pull = new PullEngine({ db, send: advisor.send });
    await pull.pullAccountList();
    platform.control.setFaults({ queue: [{ kind: 'drop-before', path: '^/api/v0/define/', count: 100 }] });
    try {
      const report = await pull.pullDefinitions();
      expect(report.failures.length).toBeGreaterThan(0);
    } finally {
      platform.control.setFaults({ queue: [] });
    }
    expect(await configEntry(db, CONFIG_KEYS.definitions)).toBeUndefined();

    expect(await maritalChoices(db, null)).toEqual(DOCUMENTED_MARITAL.map((v, i) => [v, MARITAL_WORDS[i]]));
    // A member the platform already holds as separated: shown so, at the end of the list.
    expect(await maritalChoices(db, 'separated')).toEqual([
      ...DOCUMENTED_MARITAL.map((v, i) => [v, MARITAL_WORDS[i]]),
      ['separated', 'separated'],
    ]);
  });
});
