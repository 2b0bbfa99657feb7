// The forms as the Forms screens list them, without a platform (fake-indexeddb): the team's and an
// account's, newest first, a send waiting listed first and named by its template, a close waiting
// marked on its form; the list's search and status filter; and the refusals of the change module.

import { beforeEach, describe, expect, it } from 'vitest';
import { queueCloseForm, queueResendForm, queueSendForm } from '../../../renderer/src/data/changes/index.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/config.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import { formEntries } from '../../../renderer/src/data/queries/form-list.ts';
import { formRow } from '../../../renderer/src/data/records.ts';
import { filterEntries, statusWord } from '../../../renderer/src/forms/form-words.ts';
import { clientFields, storePerTest, syncedAccount } from '../../support/store.ts';

let db: AdvisorDb;
let ann: AccountRow;
let bob: AccountRow;

const template = (key: string, title: string, tags: string[]) => ({
  key,
  type: 'passwordless',
  title,
  description: '',
  status: 'published',
  modified: false,
  default: false,
  tags,
});

const form = (
  account: number,
  key: number,
  status: string,
  created: string,
  tpl = template('k1', 'Annual review', ['review']),
) => ({
  account_id: account,
  key,
  definition_key: '0b7c8f3e-1111-4222-8333-944445555666',
  status,
  template: tpl,
  recipients: [{ role: 'client', name: account === 11 ? 'Ann Tester' : 'Bob Tester' }],
  created_at: created,
  updated_at: created,
  opened_at: null,
  reminded_at: null,
  closed_at: status === 'CLOSED' ? created : null,
  urls: 'https://platform.example/forms',
});

storePerTest((fresh) => (db = fresh));
beforeEach(async () => {
  ann = await syncedAccount(db, 11, clientFields('Ann'));
  bob = await syncedAccount(db, 12, clientFields('Bob'));
  await putConfigEntry(db, CONFIG_KEYS.formTemplates, {
    pulledAt: 1,
    data: [
      template('k1', 'Annual review', ['review']),
      template('k2', 'Risk tolerance questionnaire', ['risk']),
    ],
  });
  const rows = [
    form(11, 1, 'NEW', '2026-01-10 09:00:00'),
    form(11, 2, 'CLOSED', '2026-03-01 09:00:00', template('k2', 'Risk tolerance questionnaire', ['risk'])),
    form(12, 3, 'IN_PROGRESS', '2026-02-01 09:00:00'),
    form(12, 4, 'ARCHIVED', '2026-02-02 09:00:00'),
  ].map((f) => formRow(f, 5)!);
  await db.forms.bulkPut(rows);
});

describe('formEntries', () => {
  it('lists the team’s forms newest first, a send waiting first, named by its template', async () => {
    await queueSendForm(db, { accountId: bob.id, templateKey: 'k2', recipients: ['client'] });
    const entries = await formEntries(db);
    expect(entries.map((e) => [e.title, e.accountName, e.status])).toEqual([
      ['Risk tolerance questionnaire', 'Bob Tester', null],
      ['Risk tolerance questionnaire', 'Ann Tester', 'CLOSED'],
      ['Annual review', 'Bob Tester', 'ARCHIVED'],
      ['Annual review', 'Bob Tester', 'IN_PROGRESS'],
      ['Annual review', 'Ann Tester', 'NEW'],
    ]);
    expect(entries[0]!.form).toBeNull();
    expect(entries[0]!.recipients).toEqual(['Client']);
    expect(entries[0]!.pending.map((p) => [p.kind, p.state])).toEqual([['sendForm', 'queued']]);
  });

  it('lists one account’s forms, with a close waiting marked on its form', async () => {
    await queueCloseForm(db, '11:1');
    const entries = await formEntries(db, ann.id);
    expect(entries.map((e) => e.id)).toEqual(['11:2', '11:1']);
    expect(entries[1]!.pending.map((p) => p.kind)).toEqual(['closeForm']);
    expect(entries[1]!.status).toBe('NEW');
    expect(await formEntries(db, 'no-such-account')).toEqual([]);
  });
});

describe('the change module', () => {
  it('refuses a resend of a closed form or one a close waits for, and queues no second close', async () => {
    await expect(queueResendForm(db, '11:2')).rejects.toThrow('This form is closed, so it cannot be resent.');
    expect((await queueCloseForm(db, '11:2')).opId).toBeNull();
    expect((await queueCloseForm(db, '11:1')).opId).not.toBeNull();
    expect((await queueCloseForm(db, '11:1')).opId).toBeNull();
    await expect(queueResendForm(db, '11:1')).rejects.toThrow(/closed/);
    expect(await db.outbox.count()).toBe(1);
  });

  it('refuses a template not the user’s, no recipient, and a co-client the account does not have', async () => {
    await expect(
      queueSendForm(db, { accountId: ann.id, templateKey: 'k9', recipients: ['client'] }),
    ).rejects.toThrow(/not one of your templates/);
    await expect(queueSendForm(db, { accountId: ann.id, templateKey: 'k1', recipients: [] })).rejects.toThrow(
      /Choose who receives the form/,
    );
    await expect(
      queueSendForm(db, { accountId: ann.id, templateKey: 'k1', recipients: ['coclient'] }),
    ).rejects.toThrow('This account has no co-client to send a form to.');
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('the list’s search and filter', () => {
  it('searches title, household and tag, all words; filters by status, open leaving closed out', async () => {
    const entries = await formEntries(db);
    const keys = (search: string, status: Parameters<typeof filterEntries>[2] = 'all') =>
      filterEntries(entries, search, status).map((e) => e.id);
    expect(keys('bob')).toEqual(['12:4', '12:3']);
    expect(keys('RISK')).toEqual(['11:2']);
    expect(keys('questionnaire ann')).toEqual(['11:2']);
    expect(keys('annual bob')).toEqual(['12:4', '12:3']);
    expect(keys('', 'open')).toEqual(['12:4', '12:3', '11:1']);
    expect(keys('', 'CLOSED')).toEqual(['11:2']);
    expect(keys('', 'IN_PROGRESS')).toEqual(['12:3']);
  });

  it('names the three statuses in words and shows another value as the platform sent it', () => {
    expect(['NEW', 'IN_PROGRESS', 'CLOSED', 'ARCHIVED', null].map(statusWord)).toEqual([
      'New',
      'In progress',
      'Closed',
      'ARCHIVED',
      'Not sent yet',
    ]);
  });
});
