// Server payloads → local rows: accounts (with and without a co-client), every collection section
// with its relations and File objects, single sections, member details, and the local ids that
// relations point at, whatever the order in which items arrive.

import * as fakeIndexedDb from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import { COLLECTION_SECTIONS, SECTIONS, fieldsOfKind, sectionOfKey } from '@shared/sections.ts';
import { ACCOUNT_FIELDS } from '../../../renderer/src/data/accounts.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import {
  accountSnapshot,
  detailsFields,
  itemLocalIds,
  itemServerId,
  localRelation,
  localSectionItem,
  newAccountRow,
  relationTargetsKey,
  releaseLocalIds,
  sectionItemFields,
  singleFields,
} from '../../../renderer/src/data/mappers.ts';
import { unflatten } from '../../../renderer/src/data/view.ts';
import { PullEngine } from '../../../renderer/src/sync/pull/index.ts';

// Its types name the DOM's IndexedDB types, which the Node configuration does not load.
const { indexedDB, IDBKeyRange } = fakeIndexedDb as unknown as NonNullable<
  ConstructorParameters<typeof AdvisorDb>[1]
>;

const member = (id: number, first: string, email: string) => ({
  id,
  first_name: first,
  last_name: 'Rivera',
  email,
  phone: { code: '+1', number: '3213211212', country: 'US' },
  status: 'NEW',
  pin: '123456',
});

const nullMember = {
  id: null,
  first_name: null,
  last_name: null,
  email: null,
  phone: { code: null, number: null, country: null },
  status: null,
  pin: null,
};

const v2Account = (coclient: unknown) => ({
  id: 41,
  type: 'PROSPECT',
  client: member(7, 'Ana', 'ana@example.com'),
  coclient,
  quality: { score: 63, rules: [{ message: 'Client email', valid: true }] },
  pipeline: { id: 'stage-1', icon: 'i_user', title: 'Onboard', description: 'First stage' },
  favorited: true,
  archived: false,
  created_at: '2024-03-01 10:00:00',
  updated_at: '2024-05-02 11:30:00',
});

const fileObject = (name: string) => ({
  type: 'document',
  url: `http://127.0.0.1:4010/api/v0/files/0b0e7c1a-1111-4222-8333-444455556666/${name}`,
  filetype: 'application/pdf',
  filesize: 12,
  filename: name,
});

describe('accountSnapshot', () => {
  it('gives every ACCOUNT_FIELDS path and the read-only meta of a version 2 account', () => {
    const snapshot = accountSnapshot(v2Account(member(8, 'Ben', 'ben@example.com')));
    expect(snapshot?.serverId).toBe(41);
    expect(Object.keys(snapshot!.fields).sort()).toEqual([...ACCOUNT_FIELDS].sort());
    expect(snapshot!.fields).toMatchObject({
      type: 'PROSPECT',
      'client.first_name': 'Ana',
      'client.phone.code': '+1',
      'coclient.first_name': 'Ben',
      'coclient.email': 'ben@example.com',
      favorited: true,
      archived: false,
      'pipeline.id': 'stage-1',
    });
    expect(snapshot!.meta).toEqual({
      clientId: 7,
      coclientId: 8,
      clientStatus: 'NEW',
      coclientStatus: 'NEW',
      quality: { score: 63, rules: [{ message: 'Client email', valid: true }] },
      pipeline: { id: 'stage-1', icon: 'i_user', title: 'Onboard', description: 'First stage' },
      created_at: '2024-03-01 10:00:00',
      updated_at: '2024-05-02 11:30:00',
    });
  });

  it.each([
    ['an object of nulls', nullMember],
    ['an object of empty texts', { ...nullMember, first_name: '', email: '' }],
    ['null', null],
  ])('reads a co-client given as %s as no co-client: every coclient.* is null', (_, coclient) => {
    const snapshot = accountSnapshot(v2Account(coclient))!;
    for (const path of ACCOUNT_FIELDS.filter((p) => p.startsWith('coclient.')))
      expect(snapshot.fields[path]).toBeNull();
    expect(snapshot.meta).toMatchObject({ coclientId: null, coclientStatus: null });
  });

  it('refuses what is not an account', () => {
    expect(accountSnapshot({ message: 'Not found' })).toBeNull();
    expect(accountSnapshot(null)).toBeNull();
  });
});

describe('section items', () => {
  const local = (serverId: string) => `local-of-${serverId}`;

  /** A payload of the section with every relation pointing at an item and every File given. */
  function payload(section: (typeof COLLECTION_SECTIONS)[number]) {
    const item: Record<string, unknown> = { id: 'acc-uuid|item-uuid', extra_from_server: 3 };
    for (const field of Object.keys(section.fields)) item[field] = `${field} value`;
    for (const field of fieldsOfKind(section, 'relation'))
      item[field] = { type: 'FamilyMember', id: `acc-uuid|${field}`, label: 'Sam Rivera' };
    for (const field of fieldsOfKind(section, 'file')) item[field] = fileObject(`${field}.pdf`);
    return item;
  }

  it.each(COLLECTION_SECTIONS.map((s) => [s.path, s] as const))(
    '%s: relations point at local ids without label, File objects stay whole, the server id is left out',
    (_, section) => {
      const item = payload(section);
      const fields = sectionItemFields(section, item, local);
      expect(fields).not.toHaveProperty('id');
      expect(fields.extra_from_server).toBe(3);
      for (const field of Object.keys(section.fields)) {
        const kind = section.fields[field]!.kind;
        if (kind === 'relation')
          expect(fields[field]).toEqual({ type: 'FamilyMember', id: local(`acc-uuid|${field}`) });
        else expect(fields[field]).toEqual(item[field]);
      }
    },
  );

  it('covers every collection of the 0.0.1 document, with a relation or a File where it has one', () => {
    expect(COLLECTION_SECTIONS.map((s) => s.path).sort()).toEqual(
      [
        'annuities',
        'assets',
        'cash',
        'contacts',
        'documents',
        'employment',
        'expenses-variable',
        'family',
        'goals',
        'insurance',
        'liabilities',
        'plans',
        'taxable',
      ].sort(),
    );
    const withFiles = COLLECTION_SECTIONS.filter((s) => fieldsOfKind(s, 'file').length > 0).map(
      (s) => s.path,
    );
    expect(withFiles.sort()).toEqual(['documents', 'employment']);
  });

  it('reads people relations and plain strings without an id, keeps ids of types without a section', () => {
    expect(localRelation({ type: 'client', id: null, label: 'Ana Rivera' }, local)).toEqual({
      type: 'client',
      id: null,
    });
    expect(localRelation('joint', local)).toEqual({ type: 'joint', id: null });
    expect(localRelation(null, local)).toBeNull();
    expect(localRelation({ type: 'Note', id: 'n|1', label: null }, local)).toEqual({
      type: 'Note',
      id: 'n|1',
    });
    // The document's spelling of variable expenses is an item relation too.
    expect(localRelation({ type: 'ExenseVariable', id: 'x|1' }, local)).toEqual({
      type: 'ExenseVariable',
      id: local('x|1'),
    });
  });

  it('keeps single sections as returned', () => {
    const income = { employment: { value: 5000, frequency: 'monthly' }, comments: null };
    expect(singleFields(income)).toEqual(income);
    expect(sectionOfKey('income:coclient')).toMatchObject({
      section: { path: 'income' },
      member: 'coclient',
    });
    expect(sectionOfKey('expenses-fixed')?.section.single).toBe(true);
    expect(sectionOfKey('assets:client')).toBeUndefined();
    expect(SECTIONS.filter((s) => s.single).map((s) => s.path)).toEqual([
      'expenses-fixed',
      'expenses-tax',
      'income',
    ]);
  });
});

describe('member details', () => {
  const details = {
    first_name: 'Ana',
    middle_initial: 'L',
    last_name: 'Rivera',
    gender: 'female',
    birth_date: '1984-02-29 00:00:00',
    marital_status: 'married',
    previous_marriages: 0,
    citizenship: { country: 'US' },
    email: 'ana@example.com',
    phone: '+13213211212',
    home_phone: null,
    work_phone: null,
    address: {
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    },
    photo: { ...fileObject('ana.png'), type: 'image', filetype: 'image/png' },
    risk_score: 62.5,
    comments: null,
    drivers_license: {
      number: 'D123',
      issue_date: '2019-01-01 00:00:00',
      expire_date: '2027-01-01 00:00:00',
      jurisdiction: { state: 'IL', country: 'US' },
      document: fileObject('license.pdf'),
    },
  };

  it('flattens the details, keeping the photo and the license document whole', () => {
    const fields = detailsFields(details);
    expect(fields).toMatchObject({
      'address.city': 'Springfield',
      'citizenship.country': 'US',
      'drivers_license.jurisdiction.state': 'IL',
      'drivers_license.number': 'D123',
      photo: details.photo,
      'drivers_license.document': details.drivers_license.document,
    });
    expect(Object.keys(fields)).not.toContain('photo.url');
    expect(Object.keys(fields)).not.toContain('drivers_license.document.url');
  });

  it('comes back to the interface shape with unflatten', () => {
    expect(unflatten(detailsFields(details))).toEqual(details);
    const withoutFiles = {
      ...details,
      photo: null,
      drivers_license: { ...details.drivers_license, document: null },
    };
    expect(unflatten(detailsFields(withoutFiles))).toEqual(withoutFiles);
  });
});

describe('local ids of items', () => {
  let db: AdvisorDb;
  let n = 0;

  beforeEach(async () => {
    db = new AdvisorDb(`mappers-${++n}`, { indexedDB, IDBKeyRange });
    await db.open();
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  const itemRow = (id: string, serverId: string, accountId: string) => ({
    id,
    serverId,
    accountId,
    section: 'family',
    fields: {},
    server: {},
    status: 'synced' as const,
    changedAt: 0,
  });

  it('maps a known item to its row, and the same server id of another account to another id', async () => {
    await db.sectionItems.bulkAdd([itemRow('row-1', 'a|1', 'acc-A'), itemRow('row-2', 'b|1', 'acc-B')]);
    const ids = await itemLocalIds(db, 'acc-A', ['a|1', 'b|1']);
    expect(ids.get('a|1')).toBe('row-1');
    expect(ids.get('b|1')).not.toBe('row-2');
  });

  it('reserves an id for an item not yet known, gives it again, and forgets it once the item has a row', async () => {
    const first = (await itemLocalIds(db, 'acc-A', ['a|9'])).get('a|9')!;
    expect((await itemLocalIds(db, 'acc-A', ['a|9'])).get('a|9')).toBe(first);
    expect(await itemServerId(db, 'acc-A', first)).toBe('a|9');
    await db.sectionItems.add(itemRow(first, 'a|9', 'acc-A'));
    await releaseLocalIds(db, 'acc-A', ['a|9']);
    expect((await db.meta.get(relationTargetsKey('acc-A')))?.value).toEqual({});
    expect((await itemLocalIds(db, 'acc-A', ['a|9'])).get('a|9')).toBe(first);
    expect(await itemServerId(db, 'acc-A', first)).toBe('a|9');
  });

  it('maps an answer of the push the way the pull does', async () => {
    await db.sectionItems.add(itemRow('row-1', 'a|1', 'acc-A'));
    const goals = SECTIONS.find((s) => s.path === 'goals')!;
    const mapped = await localSectionItem(db, 'acc-A', goals, {
      id: 'a|2',
      name: 'College',
      beneficiary: { type: 'FamilyMember', id: 'a|1', label: 'Sam' },
    });
    expect(mapped).toEqual({
      serverId: 'a|2',
      fields: { name: 'College', beneficiary: { type: 'FamilyMember', id: 'row-1' } },
    });
  });

  it('resolves a relation pulled before its item: the item arrives later with the id the relation holds', async () => {
    const child = { id: 'acc|child', relationship: 'child', first_name: 'Sam', last_name: 'Rivera' };
    const goal = {
      id: 'acc|goal',
      name: 'College for Sam',
      beneficiary: { type: 'FamilyMember', id: 'acc|child', label: 'Sam Rivera' },
    };
    let family: unknown[] = [];
    const send = (req: ApiRequest): Promise<ApiResult> => {
      const data = req.path === '/accounts/41' ? v2Account(nullMember) : answerOf(req.path);
      return Promise.resolve({ ok: true, status: 200, data });
    };
    const answerOf = (path: string): unknown => {
      if (path.endsWith('/goals')) return [goal];
      if (path.endsWith('/family')) return family;
      return /(details|expenses-fixed|expenses-tax|income)$/.test(path) ? {} : [];
    };
    await db.accounts.add({ ...newAccountRow(accountSnapshot(v2Account(nullMember))!), id: 'acc-A' });
    const engine = new PullEngine({ db, send });

    await engine.pullAccount('acc-A');
    const pulledGoal = await db.sectionItems.where('serverId').equals('acc|goal').first();
    const reserved = (pulledGoal?.fields.beneficiary as { id: string }).id;
    expect(await db.sectionItems.where('serverId').equals('acc|child').count()).toBe(0);

    family = [child];
    await engine.pullAccount('acc-A');
    const arrived = await db.sectionItems.where('serverId').equals('acc|child').first();
    expect(arrived?.id).toBe(reserved);
    expect((await db.meta.get(relationTargetsKey('acc-A')))?.value).toEqual({});
  });
});
