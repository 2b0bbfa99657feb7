// Contract of the 0.0.1 interface, financial data sections: every collection section (list, create,
// read, merge update, delete, 404, the required-field messages the document lists, enum and type
// errors), Currency and Relation values, the Documents section and the employment document over
// multipart, the single-record sections, and `/define`, checked against what validation does.

import { beforeAll, describe, expect, it } from 'vitest';
import { Definitions } from '@shared/wire/v0/define.ts';
import { expectWire } from './helpers.ts';
import { uniqueTag } from './helpers.ts';
import {
  BEYOND_THE_DOCUMENT,
  COLLECTION_CASES,
  DEFINE_OWNER_VALUES,
  DOCUMENT_FIELDS,
  ITEM_ID,
  SINGLE_CASES,
  createAccount,
  definesRequired,
  expectFileV0,
  expectKeySet,
  expectMessages,
  expectStatus,
  expectV0Error,
  isProperty,
  pdf,
  png,
  requiredFields,
  sectionPath,
  v0Sandbox,
  textFile,
  type AccountV0,
  type CurrencyV0,
  type Definition,
  type FileV0,
  type Item,
  type PropertyDefinition,
  type RelationV0,
  type SectionCase,
  type V0Api,
  expectItem,
  expectSingle,
} from './v0-helpers.ts';

const s = v0Sandbox();
let api: V0Api;
/** An account with a co-client, for the lifecycle tests. */
let household: AccountV0;
/** An account without a co-client. */
let single: AccountV0;

beforeAll(async () => {
  api = s.advisor;
  household = await createAccount(api, 'clients', true);
  single = await createAccount(api, 'prospects');
});

const fullName = (m: { first_name: string; last_name: string }) => `${m.first_name} ${m.last_name}`;
const snake = (field: string) => field.replace(/-/g, '_');

/** Creates an item and returns it (asserting 201 and an id). */
async function create(path: string, body: Record<string, unknown>): Promise<Item & { id: string }> {
  const r = await api.post<Item & { id: string }>(path, body);
  expectStatus(r, 201);
  expect(r.body.id).toMatch(ITEM_ID);
  return r.body;
}

describe.each(COLLECTION_CASES.map((c) => [c.entity, c] as [string, SectionCase]))(
  '%s collection',
  (_entity, c) => {
    const members = c.perMember ? (['client', 'coclient'] as const) : (['client'] as const);

    it.each(members)(
      'lists, creates (201, uuid|uuid id), reads, merges an update, deletes (204) and then answers 404 — %s',
      async (member) => {
        const path = sectionPath(household.id, c.path, c.perMember, member);
        const listBefore = await api.get<Item[]>(path);
        expectStatus(listBefore, 200);
        expect(Array.isArray(listBefore.body), 'the list is an array').toBe(true);

        const tag = uniqueTag();
        const created = await create(path, c.valid(tag));
        expectKeySet(created, ['id', ...c.fields], `${c.entity} item`);
        expectItem(c.path, created, `${c.entity} item`);
        for (const [field, value] of Object.entries(c.valid(tag))) {
          if (typeof value === 'string' && field !== 'owner') expect(created[field], field).toBe(value);
        }
        expect(created.id.split('|')).toHaveLength(2);

        const read = await api.get<Item>(`${path}/${encodeURIComponent(created.id)}`);
        expectStatus(read, 200);
        expect(read.body).toEqual(created);
        const list = (await api.get<Item[]>(path)).body;
        expect(list.length).toBe(listBefore.body.length + 1);
        expect(list.find((i) => i.id === created.id)).toEqual(created);

        // The update body carries no id; fields it leaves out keep their values.
        const change = c.update.body(tag);
        const updated = await api.put<Item>(`${path}/${encodeURIComponent(created.id)}`, change);
        expectStatus(updated, 200);
        const { id: _id, ...rest } = created;
        if (updated.body.id !== undefined) expect(updated.body.id).toBe(created.id);
        expect({ ...updated.body, id: created.id }).toEqual({ ...rest, ...change, id: created.id });
        expect(updated.body[c.update.field]).toEqual(change[c.update.field]);
        const reread = (await api.get<Item>(`${path}/${encodeURIComponent(created.id)}`)).body;
        expect(reread).toEqual({ ...created, ...change });

        const del = await api.delete(`${path}/${encodeURIComponent(created.id)}`);
        expectStatus(del, 204);
        expect(del.text).toBe('');
        expectV0Error(await api.get(`${path}/${encodeURIComponent(created.id)}`), 404);
        expectV0Error(await api.put(`${path}/${encodeURIComponent(created.id)}`, change), 404);
        expectV0Error(await api.delete(`${path}/${encodeURIComponent(created.id)}`), 404);
        expect((await api.get<Item[]>(path)).body.map((i) => i.id)).not.toContain(created.id);
      },
    );

    it('names exactly the documented required fields when posting {}', async () => {
      const path = sectionPath(household.id, c.path, c.perMember);
      expectMessages(
        await api.post(path, {}),
        c.required.map((f) => `${f} is required.`),
      );
      // An update may not empty a required field either.
      const item = await create(path, c.valid(uniqueTag()));
      const first = snake(c.required[0] as string);
      const blank = await api.put(`${path}/${encodeURIComponent(item.id)}`, { [first]: null });
      expectMessages(blank, [`${c.required[0]} is required.`]);
      expect((await api.get(`${path}/${encodeURIComponent(item.id)}`)).body).toEqual(item);
    });

    it('answers <field> is invalid. for a value outside an enum or of the wrong type', async () => {
      const path = sectionPath(household.id, c.path, c.perMember);
      const valid = c.valid(uniqueTag());
      for (const field of Object.keys(c.enums)) {
        expectMessages(await api.post(path, { ...valid, [field]: 'not-a-listed-value' }), [
          `${field} is invalid.`,
        ]);
      }
      expectMessages(await api.post(path, { ...valid, [c.wrongType.field]: c.wrongType.value }), [
        c.wrongType.message,
      ]);
      if (c.fields.includes('current_value')) {
        expectMessages(await api.post(path, { ...valid, current_value: 'a lot' }), [
          'current-value is invalid.',
        ]);
        expectMessages(
          await api.post(path, { ...valid, current_value: { value: 10, frequency: 'weekly' } }),
          ['current-value is invalid.'],
        );
      }
      if (c.fields.includes('owner'))
        expectMessages(await api.post(path, { ...valid, owner: 'Martian' }), ['owner is invalid.']);
    });

    it('answers 404 for an unknown account or item', async () => {
      const path = sectionPath(987654, c.path, c.perMember);
      expectV0Error(await api.get(path), 404);
      expectV0Error(await api.post(path, c.valid(uniqueTag())), 404);
      const own = sectionPath(household.id, c.path, c.perMember);
      expectV0Error(await api.get(`${own}/nope`), 404);
      const fake = '00000000-0000-4000-8000-000000000000|00000000-0000-4000-8000-000000000000';
      expectV0Error(await api.get(`${own}/${encodeURIComponent(fake)}`), 404);
      expectV0Error(await api.delete(`${own}/${encodeURIComponent(fake)}`), 404);
    });
  },
);

describe('employment', () => {
  it('keeps client and co-client employment apart and answers 404 for a missing co-client', async () => {
    const client = await create(sectionPath(household.id, 'employment', true, 'client'), {
      employer: 'Client Corp',
    });
    const co = await create(sectionPath(household.id, 'employment', true, 'coclient'), {
      employer: 'Coclient Corp',
    });
    const clientList = (await api.get<Item[]>(sectionPath(household.id, 'employment', true, 'client'))).body;
    const coList = (await api.get<Item[]>(sectionPath(household.id, 'employment', true, 'coclient'))).body;
    expect(clientList.map((i) => i.id)).toContain(client.id);
    expect(clientList.map((i) => i.id)).not.toContain(co.id);
    expect(coList.map((i) => i.id)).toContain(co.id);
    expectV0Error(
      await api.get(
        `${sectionPath(household.id, 'employment', true, 'client')}/${encodeURIComponent(co.id)}`,
      ),
      404,
    );
    expectV0Error(await api.get(sectionPath(single.id, 'employment', true, 'coclient')), 404);
    expectV0Error(
      await api.post(sectionPath(single.id, 'employment', true, 'coclient'), { employer: 'Nobody Inc' }),
      404,
    );
  });

  it('takes full employment records: address, yearly salary, integer comissions', async () => {
    const path = sectionPath(household.id, 'employment', true);
    const item = await create(path, {
      employer: 'Brightline Health',
      position: 'Nurse',
      duration: 7,
      comissions: 4000,
      salary: 82000,
      address: { line1: '1 Main St', city: 'Denver', state: 'co', zip: '80202', country: 'us' },
    });
    expect(item.address).toEqual({
      line1: '1 Main St',
      line2: null,
      city: 'Denver',
      state: 'CO',
      zip: '80202',
      country: 'US',
    });
    expect((item.salary as CurrencyV0).value).toBe(82000);
    expect(item.comissions).toBe(4000);
    expect(item.document).toBeNull();
    expectMessages(await api.post(path, { employer: 'X', duration: 2.5 }), ['duration is invalid.']);
    expectMessages(await api.post(path, { employer: 'X', comissions: '4k' }), ['comissions is invalid.']);
    expectMessages(await api.post(path, { employer: 'X', address: { state: 'ZZ', country: 'US' } }), [
      'address is invalid.',
    ]);
  });

  it('uploads an employment document (multipart) and removes it', async () => {
    const path = sectionPath(household.id, 'employment', true, 'coclient');
    const item = await create(path, { employer: 'Cobalt Software' });
    const docPath = `${path}/${encodeURIComponent(item.id)}/document`;
    const file = pdf('paystub.pdf', ['Pay stub', 'Cobalt Software']);
    const r = await api.upload<FileV0>('PUT', docPath, file);
    expectStatus(r, 200);
    expectFileV0(r.body, api.base, {
      type: 'document',
      filetype: 'application/pdf',
      filename: 'paystub.pdf',
      bytes: file.bytes.length,
    });
    expect((await api.get<Item>(`${path}/${encodeURIComponent(item.id)}`)).body.document).toEqual(r.body);
    const download = await api.download(r.body.url);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(file.bytes)).toBe(true);
    expectV0Error(await api.upload('PUT', docPath, textFile()), 422);
    expectV0Error(await api.upload('PUT', `${path}/nope/document`, file), 404);
    expectStatus(await api.delete(docPath), 204);
    expect((await api.get<Item>(`${path}/${encodeURIComponent(item.id)}`)).body.document).toBeNull();
  });
});

describe('Currency values', () => {
  const path = () => sectionPath(household.id, 'assets', false);
  const asset = (current_value: unknown) => ({
    type: 'vehicle',
    name: `Car ${uniqueTag()}`,
    owner: 'client',
    current_value,
  });

  it('takes a plain number as the value at the default frequency', async () => {
    const item = await create(path(), asset(25000.5));
    expect(item.current_value).toEqual({ value: 25000.5, frequency: 'one-time' });
    // A currency field left out reads as value 0 (the documented default).
    expect((item.original_value as CurrencyV0).value).toBe(0);
    expect(['one-time', 'monthly', 'yearly']).toContain((item.original_value as CurrencyV0).frequency);
  });

  it('takes the declared {value, frequency} object, with value defaulting to 0 and frequency to one-time', async () => {
    expect((await create(path(), asset({ value: 1200, frequency: 'monthly' }))).current_value).toEqual({
      value: 1200,
      frequency: 'monthly',
    });
    expect((await create(path(), asset({ value: 300, frequency: 'yearly' }))).current_value).toEqual({
      value: 300,
      frequency: 'yearly',
    });
    expect((await create(path(), asset({ value: 99 }))).current_value).toEqual({
      value: 99,
      frequency: 'one-time',
    });
    expect((await create(path(), asset({ frequency: 'monthly' }))).current_value).toEqual({
      value: 0,
      frequency: 'monthly',
    });
  });

  it('rejects a non-numeric value or an unknown frequency', async () => {
    expectMessages(await api.post(path(), asset({ value: '12' })), ['current-value is invalid.']);
    expectMessages(await api.post(path(), asset({ value: 12, frequency: 'daily' })), [
      'current-value is invalid.',
    ]);
    expectMessages(await api.post(path(), { ...asset(1), original_value: [] }), [
      'original-value is invalid.',
    ]);
  });

  it('keeps the frequency through an update that sends only a new plain value of another field', async () => {
    const item = await create(path(), asset({ value: 10, frequency: 'yearly' }));
    const r = await api.put<Item>(`${path()}/${encodeURIComponent(item.id)}`, { original_value: 8 });
    expectStatus(r, 200);
    expect(r.body.current_value).toEqual({ value: 10, frequency: 'yearly' });
    expect((r.body.original_value as CurrencyV0).value).toBe(8);
  });
});

describe('Relation values', () => {
  it('takes a relation as a plain string or as an object, and fills in its read-only label', async () => {
    const path = sectionPath(household.id, 'cash', false);
    const byString = await create(path, {
      type: 'checking',
      name: 'Everyday',
      owner: 'client',
      current_value: 10,
    });
    expect(byString.owner).toEqual({ type: 'client', id: null, label: fullName(household.client) });
    const byObject = await create(path, {
      type: 'checking',
      name: 'Joint',
      owner: { type: 'coclient', label: 'ignored' },
      current_value: 10,
    });
    expect(byObject.owner).toEqual({ type: 'coclient', id: null, label: fullName(household.coclient!) });
    const joint = await create(path, {
      type: 'savings',
      name: 'Shared',
      owner: { type: 'joint', id: null },
      current_value: 10,
    });
    const label = (joint.owner as RelationV0).label ?? '';
    expect((joint.owner as RelationV0).type).toBe('joint');
    expect(label).toContain(household.client.first_name);
    expect(label).toContain(household.coclient!.first_name);
  });

  it('takes the plain-string owner the document shows for plans and taxable accounts', async () => {
    const plan = await create(sectionPath(household.id, 'plans', false), {
      type: 'ira',
      name: 'IRA',
      owner: 'coclient',
      current_value: 5,
    });
    expect((plan.owner as RelationV0).type).toBe('coclient');
    const taxable = await create(sectionPath(household.id, 'taxable', false), {
      name: 'Brokerage',
      owner: 'joint',
      current_value: 5,
    });
    expect((taxable.owner as RelationV0).type).toBe('joint');
  });

  it("relates a goal to a family member as beneficiary, labelled with the member's name", async () => {
    const child = await create(sectionPath(household.id, 'family', false), {
      relationship: 'child',
      first_name: 'Milo',
      last_name: 'Lind',
      birth_date: '2015-03-02',
    });
    const goal = await create(sectionPath(household.id, 'goals', false), {
      type: 'college',
      name: 'College for Milo',
      owner: 'joint',
      beneficiary: { type: 'FamilyMember', id: child.id },
      target: { value: 80000, date: '2033-09-01' },
    });
    expect(goal.beneficiary).toEqual({ type: 'FamilyMember', id: child.id, label: 'Milo Lind' });
    expect(goal.target).toEqual({ value: 80000, date: '2033-09-01' });
    // The label follows the member.
    expectStatus(
      await api.put(`${sectionPath(household.id, 'family', false)}/${encodeURIComponent(child.id)}`, {
        first_name: 'Milan',
      }),
      200,
    );
    const reread = (
      await api.get<Item>(`${sectionPath(household.id, 'goals', false)}/${encodeURIComponent(goal.id)}`)
    ).body;
    expect((reread.beneficiary as RelationV0).label).toBe('Milan Lind');
  });

  it('rejects a relation to an item that does not exist, or to a missing co-client', async () => {
    const goals = sectionPath(household.id, 'goals', false);
    const base = {
      type: 'travel',
      name: 'Trip',
      owner: 'client',
      target: { value: 100, date: '2030-01-01' },
    };
    expectMessages(
      await api.post(goals, { ...base, beneficiary: { type: 'FamilyMember', id: 'no-such|item' } }),
      ['beneficiary is invalid.'],
    );
    expectMessages(await api.post(goals, { ...base, beneficiary: { type: 'FamilyMember' } }), [
      'beneficiary is invalid.',
    ]);
    const child = await create(sectionPath(household.id, 'family', false), {
      relationship: 'grandchild',
      first_name: 'Tess',
      last_name: 'Lind',
    });
    expectStatus(
      await api.delete(`${sectionPath(household.id, 'family', false)}/${encodeURIComponent(child.id)}`),
      204,
    );
    expectMessages(await api.post(goals, { ...base, beneficiary: { type: 'FamilyMember', id: child.id } }), [
      'beneficiary is invalid.',
    ]);
    expectMessages(
      await api.post(sectionPath(single.id, 'assets', false), {
        type: 'vehicle',
        name: 'Car',
        owner: 'coclient',
        current_value: 1,
      }),
      ['owner is invalid.'],
    );
  });

  it('requires the fields of a goal target', async () => {
    const goals = sectionPath(household.id, 'goals', false);
    expectMessages(await api.post(goals, { type: 'travel', name: 'Trip', owner: 'client', target: {} }), [
      'target.value is required.',
      'target.date is required.',
    ]);
    expectMessages(
      await api.post(goals, { type: 'travel', name: 'Trip', owner: 'client', target: { value: 100 } }),
      ['target.date is required.'],
    );
    expectMessages(
      await api.post(goals, {
        type: 'travel',
        name: 'Trip',
        owner: 'client',
        target: { value: 100, date: '2030-02-30' },
      }),
      ['target is invalid.'],
    );
  });
});

describe('Documents section (multipart)', () => {
  const path = () => sectionPath(household.id, 'documents', false);

  it('creates a document from an upload with a relation, reads, replaces the file and deletes it', async () => {
    const asset = await create(sectionPath(household.id, 'assets', false), {
      type: 'primary-residence',
      name: 'Family home',
      owner: 'joint',
      current_value: 450000,
    });
    const file = pdf('deed.pdf', ['Deed', 'Family home']);
    const r = await api.upload<Item & { id: string }>('POST', path(), file, {
      relation: JSON.stringify({ type: 'Asset', id: asset.id }),
    });
    expectStatus(r, 201);
    const doc = r.body;
    expect(doc.id).toMatch(ITEM_ID);
    expectKeySet(doc, ['id', ...DOCUMENT_FIELDS], 'Document');
    expectItem('documents', doc, 'Document');
    expectFileV0(doc.file, api.base, {
      type: 'document',
      filetype: 'application/pdf',
      filename: 'deed.pdf',
      bytes: file.bytes.length,
    });
    expect(doc.relation).toEqual({ type: 'Asset', id: asset.id, label: 'Family home' });
    const download = await api.download(doc.file.url);
    expect(download.bytes.equals(file.bytes)).toBe(true);

    const itemPath = `${path()}/${encodeURIComponent(doc.id)}`;
    expect((await api.get(itemPath)).body).toEqual(doc);
    expect((await api.get<Item[]>(path())).body.map((d) => d.id)).toContain(doc.id);

    const replaced = await api.upload<Item>('PUT', itemPath, png('photo-of-deed.png', 5));
    expectStatus(replaced, 200);
    expect((replaced.body.file as FileV0).filename).toBe('photo-of-deed.png');
    expect((replaced.body.file as FileV0).filetype).toBe('image/png');
    expect(replaced.body.relation).toEqual(doc.relation);
    expect(((await api.get<Item>(itemPath)).body.file as FileV0).filename).toBe('photo-of-deed.png');

    expectStatus(await api.delete(itemPath), 204);
    expectV0Error(await api.get(itemPath), 404);
  });

  it('names file as required, whether the body is JSON or multipart without a file', async () => {
    expectMessages(await api.post(path(), {}), ['file is required.']);
    expectMessages(await api.upload('POST', path(), null, { relation: JSON.stringify({ type: 'client' }) }), [
      'file is required.',
    ]);
  });

  it('takes a JSON body whose file points at a stored file, and rejects one that does not', async () => {
    const photo = await api.upload<FileV0>(
      'PUT',
      `/accounts/${household.id}/client/details/photo`,
      png('id.png', 9),
    );
    expectStatus(photo, 200);
    const doc = await create(path(), { file: { url: photo.body.url }, relation: 'client' });
    expect((doc.file as FileV0).url).toBe(photo.body.url);
    expect(doc.relation).toEqual({ type: 'client', id: null, label: fullName(household.client) });
    expectMessages(await api.post(path(), { file: { url: 'https://elsewhere.example/files/x.pdf' } }), [
      'file is invalid.',
    ]);
  });

  it('refuses a JSON body whose file is a stored file of another team', async () => {
    const state = s.platform.control.dump();
    const team = state.accounts.find((a) => a.id === household.id)?.teamId;
    const foreign = Object.values(state.files).find((f) => f.teamId !== undefined && f.teamId !== team);
    expect(foreign, 'a stored file of the other team').toBeDefined();
    const url = `${api.base}/files/${foreign?.id}/${encodeURIComponent(foreign?.name ?? '')}`;
    // The advisor can neither read it nor attach it.
    expect((await api.download(url)).status).toBe(404);
    const before = (await api.get<Item[]>(path())).body.length;
    expectMessages(await api.post(path(), { file: { url }, relation: 'client' }), ['file is invalid.']);
    expect((await api.get<Item[]>(path())).body).toHaveLength(before);
    // Nor can an update swap one in.
    const own = await api.upload<Item & { id: string }>('POST', path(), pdf('own.pdf'));
    expectStatus(own, 201);
    const itemPath = `${path()}/${encodeURIComponent(own.body.id)}`;
    expectMessages(await api.put(itemPath, { file: { url } }), ['file is invalid.']);
    expect((await api.get<Item>(itemPath)).body.file).toEqual(own.body.file);
  });

  it('stores an uploaded file only when the body passes validation: a refused upload leaves no file', async () => {
    const files = () => Object.keys(s.platform.control.dump().files).length;
    const before = files();
    const refused = await api.upload('POST', path(), pdf('orphan.pdf'), {
      relation: JSON.stringify({ type: 'Asset', id: 'no-such-item' }),
    });
    expectMessages(refused, ['relation is invalid.']);
    expect(files()).toBe(before);
    // The same on an update: the item keeps its file, and no new file is stored.
    const doc = await api.upload<Item & { id: string }>('POST', path(), pdf('kept.pdf'));
    expectStatus(doc, 201);
    expect(files()).toBe(before + 1);
    const itemPath = `${path()}/${encodeURIComponent(doc.body.id)}`;
    const update = await api.upload('PUT', itemPath, pdf('orphan-too.pdf'), { relation: '"nobody"' });
    expectMessages(update, ['relation is invalid.']);
    expect(files()).toBe(before + 1);
    expect((await api.get<Item>(itemPath)).body.file).toEqual(doc.body.file);
    // A JSON body cannot name the placeholder an upload stands for.
    expectMessages(await api.post(path(), { file: { url: 'uploaded-with-this-request' } }), [
      'file is invalid.',
    ]);
  });

  it('relates a document to a variable expense under either spelling of the type', async () => {
    const expense = await create(sectionPath(household.id, 'expenses-variable', false), {
      type: 'vacations',
      value: 300,
    });
    for (const type of ['ExpenseVariable', 'ExenseVariable']) {
      const r = await api.upload<Item>('POST', path(), pdf(`receipt-${type}.pdf`), {
        relation: JSON.stringify({ type, id: expense.id }),
      });
      expectStatus(r, 201);
      expect((r.body.relation as RelationV0).id).toBe(expense.id);
      expect(['ExpenseVariable', 'ExenseVariable']).toContain((r.body.relation as RelationV0).type);
    }
  });
});

describe('single-record sections', () => {
  it.each(SINGLE_CASES.map((c) => [c.entity, c] as const))(
    '%s: GET answers every field with defaults; POST answers 201 and merges',
    async (_e, c) => {
      const account = await createAccount(api, 'clients', true);
      const members = c.perMember ? (['client', 'coclient'] as const) : (['client'] as const);
      for (const member of members) {
        const path = sectionPath(account.id, c.path, c.perMember, member);
        const fresh = await api.get<Record<string, unknown>>(path);
        expectStatus(fresh, 200);
        expectKeySet(fresh.body, [...c.currencies, ...c.others], c.entity);
        expectSingle(c.path, fresh.body, c.entity);
        for (const f of c.currencies) {
          const v = fresh.body[f] as CurrencyV0;
          expect(v.value, `${f} defaults to 0`).toBe(0);
          expect(['one-time', 'monthly', 'yearly']).toContain(v.frequency);
          if (c.entity === 'ExpenseFixed') expect(v.frequency, 'fixed expenses are monthly').toBe('monthly');
        }
        for (const f of c.others) expect(fresh.body[f]).toBeNull();

        const [first, second] = c.currencies as [string, string];
        const one = await api.post<Record<string, unknown>>(path, { [first]: 1200 });
        expectStatus(one, 201);
        expect((one.body[first] as CurrencyV0).value).toBe(1200);
        const two = await api.post<Record<string, unknown>>(path, {
          [second]: { value: 75.5, frequency: 'yearly' },
          ...(c.others.length ? { comments: `for ${member}` } : {}),
        });
        expectStatus(two, 201);
        expect((two.body[first] as CurrencyV0).value, 'the first value is kept').toBe(1200);
        expect(two.body[second]).toEqual({ value: 75.5, frequency: 'yearly' });
        if (c.others.length) expect(two.body.comments).toBe(`for ${member}`);
        expect((await api.get(path)).body).toEqual(two.body);
        expectMessages(await api.post(path, { [first]: 'lots' }), [
          `${first.replace(/_/g, '-')} is invalid.`,
        ]);
        expect((await api.get(path)).body).toEqual(two.body);
      }
      if (c.perMember) {
        // Each member's record is their own.
        const client = (
          await api.get<Record<string, unknown>>(sectionPath(account.id, c.path, true, 'client'))
        ).body;
        expect(client.comments).toBe('for client');
      }
    },
  );

  it('answers 404 for an unknown account, or the co-client income of an account without one', async () => {
    for (const c of SINGLE_CASES) {
      expectV0Error(await api.get(sectionPath(987654, c.path, c.perMember)), 404);
      expectV0Error(await api.post(sectionPath(987654, c.path, c.perMember), {}), 404);
    }
    expectV0Error(await api.get(sectionPath(single.id, 'income', true, 'coclient')), 404);
    expectV0Error(await api.post(sectionPath(single.id, 'income', true, 'coclient'), { employment: 1 }), 404);
  });

  it("records account.currentdata.updated in the activity feed and moves the account's updated_at", async () => {
    const account = await createAccount(api, 'prospects');
    expectStatus(await api.post(sectionPath(account.id, 'expenses-tax', false), { fica: 5000 }), 201);
    const after = (await api.get<AccountV0>(`/accounts/${account.id}`)).body;
    expect(after.updated_at > account.updated_at).toBe(true);
    const feed = await api.get<{ items: { type: string; description: string }[] }>('/user/activities', {
      type: 'account.currentdata.updated',
      sort: '-id',
      limit: 1,
    });
    expect(feed.body.items[0]?.description).toContain(account.client.first_name);
  });
});

describe('/define/{entity}/{entityId}', () => {
  const all: {
    entity: string;
    fields: string[];
    collection: SectionCase | null;
    path: string;
    perMember: boolean;
  }[] = [
    ...COLLECTION_CASES.map((c) => ({
      entity: c.entity,
      fields: ['id', ...c.fields],
      collection: c,
      path: c.path,
      perMember: c.perMember,
    })),
    {
      entity: 'Document',
      fields: ['id', ...DOCUMENT_FIELDS],
      collection: null,
      path: 'documents',
      perMember: false,
    },
    ...SINGLE_CASES.map((c) => ({
      entity: c.entity,
      fields: [...c.currencies, ...c.others],
      collection: null,
      path: c.path,
      perMember: c.perMember,
    })),
  ];

  const define = async (entity: string, id: number = household.id) => {
    const r = await api.get<Record<string, Definition>>(`/define/${entity}/${id}`);
    expectStatus(r, 200);
    return r.body;
  };

  const expectDefinition = (d: Definition, label: string) => {
    if (isProperty(d)) {
      expectKeySet(d, ['type', 'read', 'write', 'required', 'values'], label);
      expect(typeof d.type).toBe('string');
      expect(typeof d.write).toBe('boolean');
      expect(d.values === null || typeof d.values === 'string', `${label}.values`).toBe(true);
      if (d.required) expect(d.write, `${label} is required, so it must be writable`).toBe(true);
    } else {
      expect(Object.keys(d).length, `${label} composite`).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(d)) expectDefinition(v, `${label}.${k}`);
    }
  };

  it.each(all.map((e) => [e.entity, e] as const))(
    '%s: one definition per field; required flags equal what validation names',
    async (_e, e) => {
      const def = await define(e.entity);
      expectKeySet(def, e.fields, `${e.entity} definition`);
      expectWire(Definitions, def, `${e.entity} definition`);
      for (const [field, d] of Object.entries(def)) expectDefinition(d, field);
      if (e.fields.includes('id')) expect((def.id as PropertyDefinition).write).toBe(false);

      const post = await api.post(sectionPath(household.id, e.path, e.perMember), {});
      const definedRequired = Object.entries(def)
        .filter(([, d]) => definesRequired(d))
        .map(([f]) => f)
        .sort();
      if (definedRequired.length === 0) {
        expectStatus(post, 201);
      } else {
        const body = expectV0Error(post, 422);
        const named = requiredFields(body.messages as string[])
          .map(snake)
          .sort();
        expect(definedRequired).toEqual(named);
        if (e.collection) expect(named).toEqual(e.collection.required.map(snake).sort());
      }
    },
  );

  it.each(COLLECTION_CASES.filter((c) => Object.keys(c.enums).length).map((c) => [c.entity, c] as const))(
    "%s: enum values of the definition are the document's (and the sandbox's own) and validation accepts each",
    async (_e, c) => {
      const def = await define(c.entity.toLowerCase());
      const beyond = (field: string) => BEYOND_THE_DOCUMENT[c.entity]?.[field] ?? [];
      for (const [field, values] of Object.entries(c.enums)) {
        const d = def[field] as PropertyDefinition;
        expect(isProperty(d)).toBe(true);
        expect((d.values ?? '').split(',').sort(), `${c.entity}.${field} values`).toEqual(
          [...values, ...beyond(field)].sort(),
        );
      }
      const [field, documented] = Object.entries(c.enums)[0] as [string, string[]];
      const values = [...documented, ...beyond(field)];
      const path = sectionPath(household.id, c.path, c.perMember);
      for (const value of values) {
        const r = await api.post<Item>(path, { ...c.valid(uniqueTag()), [field]: value });
        expectStatus(r, 201);
        expect(r.body[field]).toBe(value);
      }
      expectMessages(
        await api.post(path, { ...c.valid(uniqueTag()), [field]: values[0]!.toUpperCase() + '!' }),
        [`${field} is invalid.`],
      );
    },
  );

  it('describes Currency and Relation fields as nested maps; owner lists the documented values, each accepted', async () => {
    const def = await define('Asset');
    const current = def.current_value as Record<string, PropertyDefinition>;
    expectKeySet(current, ['value', 'frequency'], 'current_value');
    expect(current.value?.required).toBe(true);
    expect(current.frequency?.values?.split(',')).toEqual(['one-time', 'monthly', 'yearly']);
    const ownerDef = def.owner as Record<string, PropertyDefinition>;
    expect(Object.keys(ownerDef)).toEqual(expect.arrayContaining(['type', 'id']));
    const ownerValues = (ownerDef.type?.values ?? '').split(',');
    expect([...ownerValues].sort()).toEqual([...DEFINE_OWNER_VALUES].sort());
    if (ownerDef.label) expect(ownerDef.label.write).toBe(false);

    // Every listed owner type is accepted by validation (items of the named sections exist in a fresh account).
    const account = await createAccount(api, 'clients', true);
    const target: Record<string, string> = {};
    for (const c of COLLECTION_CASES) {
      const item = await create(sectionPath(account.id, c.path, c.perMember), c.valid(uniqueTag()));
      target[c.entity] = item.id;
    }
    const doc = await api.upload<Item & { id: string }>(
      'POST',
      sectionPath(account.id, 'documents', false),
      pdf(),
    );
    expectStatus(doc, 201);
    target.Document = doc.body.id;
    target.Note = 'note-1';
    for (const type of ownerValues) {
      const r = await api.post<Item>(sectionPath(account.id, 'assets', false), {
        type: 'other',
        name: `Owned by ${type}`,
        owner: { type, id: target[type] ?? null },
        current_value: 1,
      });
      expect(r.status, `owner ${type}: ${r.text}`).toBe(201);
      expect((r.body.owner as RelationV0).type).toBe(type);
    }
  });

  it('Account and FullMember definitions require exactly what their validation names', async () => {
    const requiredPaths = (d: Record<string, Definition>, prefix = ''): string[] =>
      Object.entries(d).flatMap(([k, v]) =>
        isProperty(v) ? (v.required ? [`${prefix}${k}`] : []) : requiredPaths(v, `${prefix}${k}.`),
      );
    const account = expectV0Error(await api.post('/accounts', {}), 422);
    expect(requiredPaths(await define('Account')).sort()).toEqual(
      requiredFields(account.messages as string[]).sort(),
    );
    const member = expectV0Error(
      await api.put(`/accounts/${single.id}/client/details`, { first_name: '', email: '' }),
      422,
    );
    expect(requiredPaths(await define('FullMember')).sort()).toEqual(
      requiredFields(member.messages as string[]).sort(),
    );
  });

  it('accepts the entity by its resource name or its path, and answers 404 for an unknown entity or account', async () => {
    expect(await define('assets')).toEqual(await define('Asset'));
    expect(await define('expenses-variable')).toEqual(await define('ExpenseVariable'));
    expectV0Error(await api.get(`/define/Spaceship/${household.id}`), 404);
    expectV0Error(await api.get('/define/Asset/987654'), 404);
  });
});
