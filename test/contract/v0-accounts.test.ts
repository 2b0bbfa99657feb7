// Contract of the 0.0.1 interface, "Accounts and members": the account list (type, sort, paging),
// create, read, merge update, convert, delete; full member details with their validation; photo
// and driver's-license document uploads; member security and its PIN reset.

import { beforeAll, describe, expect, it } from 'vitest';
import { listV0 } from '@shared/wire/lists.ts';
import { AccountV0 as AccountV0Schema } from '@shared/wire/v0/account.ts';
import { MemberDetails, MemberSecurity } from '@shared/wire/v0/member.ts';
import { expectWire } from './helpers.ts';
import { compareValues, expectOrdered, distinct, TIMESTAMP, type SortValue } from './helpers.ts';
import {
  accountBody,
  createAccount,
  expectAccountV0,
  expectFileV0,
  expectKeySet,
  expectMessage,
  expectMessages,
  expectStatus,
  expectV0Error,
  ADDRESS_KEYS,
  FULL_MEMBER_KEYS,
  LICENSE_KEYS,
  SECURITY_KEYS,
  pdf,
  png,
  v0Sandbox,
  textFile,
  type AccountListV0,
  type AccountV0,
  type ActivityV0,
  type FileV0,
  type FullMemberV0,
  type SecurityV0,
  type V0Api,
} from './v0-helpers.ts';

const s = v0Sandbox();
let api: V0Api;

beforeAll(() => {
  api = s.advisor;
});

const allAccounts = async (query: Record<string, string | number> = {}) => {
  const r = await api.get<AccountListV0>('/accounts', { limit: 500, ...query });
  expectStatus(r, 200);
  return r.body;
};

const activities = async (type: string) => {
  const r = await api.get<{ items: ActivityV0[] }>('/user/activities', { type, sort: '-id', limit: 500 });
  expectStatus(r, 200);
  return r.body.items;
};

describe('GET /accounts', () => {
  it('answers items, limit, offset and total with the defaults limit 100 and offset 0', async () => {
    const r = await api.get<AccountListV0>('/accounts');
    expectStatus(r, 200);
    expectKeySet(r.body, ['items', 'limit', 'offset', 'total'], 'account list');
    expectWire(listV0(AccountV0Schema), r.body, 'account list');
    expect(r.body.limit).toBe(100);
    expect(r.body.offset).toBe(0);
    expect(Number.isInteger(r.body.total)).toBe(true);
    expect(r.body.items.length).toBe(Math.min(100, r.body.total));
    expect(r.body.items.length).toBeGreaterThan(5);
    for (const a of r.body.items) expectAccountV0(a);
    expect(
      r.body.items.some((a) => a.coclient !== null),
      'some seeded account has a co-client',
    ).toBe(true);
    expect(
      r.body.items.some((a) => a.coclient === null),
      'some seeded account has none',
    ).toBe(true);
  });

  it('filters by type clients or prospects; the two make up the whole list', async () => {
    const all = await allAccounts();
    const clients = await allAccounts({ type: 'clients' });
    const prospects = await allAccounts({ type: 'prospects' });
    expect(clients.items.length).toBeGreaterThan(0);
    expect(prospects.items.length).toBeGreaterThan(0);
    expect(clients.items.every((a) => a.type === 'clients')).toBe(true);
    expect(prospects.items.every((a) => a.type === 'prospects')).toBe(true);
    expect(clients.total).toBe(clients.items.length);
    expect(clients.total + prospects.total).toBe(all.total);
    expect([...clients.items, ...prospects.items].map((a) => a.id).sort((x, y) => x - y)).toEqual(
      all.items.map((a) => a.id).sort((x, y) => x - y),
    );
  });

  it('rejects an unknown type with a 422 error body', async () => {
    expectV0Error(await api.get('/accounts', { type: 'CLIENT' }), 422);
  });

  it.each([
    ['client.last_name', (a) => a.client.last_name],
    ['client.first_name', (a) => a.client.first_name],
    ['created_at', (a) => a.created_at],
    ['updated_at', (a) => a.updated_at],
    ['id', (a) => a.id],
  ] as [string, (a: AccountV0) => SortValue][])(
    'sorts by %s ascending and, with -, descending',
    async (key, value) => {
      for (const descending of [false, true]) {
        const list = await allAccounts({ sort: descending ? `-${key}` : key });
        const values = list.items.map(value);
        expect(distinct(values)).toBeGreaterThan(1);
        expectOrdered(values, descending, `sort=${descending ? '-' : ''}${key}`);
      }
    },
  );

  it('sorts by a comma-delimited list of keys: the second orders ties of the first', async () => {
    const list = await allAccounts({ sort: 'type,-client.last_name' });
    const keys = list.items.map((a) => [a.type, a.client.last_name] as [SortValue, SortValue]);
    expect(new Set(keys.map((k) => k[0])).size).toBe(2);
    for (let i = 1; i < keys.length; i++) {
      const [pt, pn] = keys[i - 1] as [SortValue, SortValue];
      const [t, n] = keys[i] as [SortValue, SortValue];
      const byType = compareValues(pt, t);
      expect(byType, `type order at ${i}`).toBeLessThanOrEqual(0);
      if (byType === 0)
        expect(
          compareValues(pn, n),
          `last_name descending within ${String(t)} at ${i}`,
        ).toBeGreaterThanOrEqual(0);
    }
    // And the other way round gives another order, so the list did not come back in one fixed order.
    const reversed = await allAccounts({ sort: '-type,client.last_name' });
    expect(reversed.items[0]?.type).toBe('prospects');
    expect(list.items[0]?.type).toBe('clients');
  });

  it('rejects an unknown sort key, names of Object.prototype included, in the 0.0.1 message form', async () => {
    for (const sort of ['shoe_size', '__proto__', '-constructor', 'toString', 'id,hasOwnProperty']) {
      const err = expectV0Error(await api.get('/accounts', { sort }), 422);
      expect(err.messages, sort).toEqual([expect.stringMatching(/^sort is invalid: use one of id, type, /)]);
    }
    const limit = expectV0Error(await api.get('/accounts', { limit: 0 }), 422);
    expect(limit.messages).toEqual(['limit is invalid: use an integer from 1 to 500.']);
  });

  it('pages with limit and offset over the same order, total unchanged', async () => {
    const all = await allAccounts({ sort: 'client.email' });
    const page = await api.get<AccountListV0>('/accounts', { sort: 'client.email', limit: 5, offset: 3 });
    expectStatus(page, 200);
    expect(page.body.limit).toBe(5);
    expect(page.body.offset).toBe(3);
    expect(page.body.total).toBe(all.total);
    expect(page.body.items.map((a) => a.id)).toEqual(all.items.slice(3, 8).map((a) => a.id));
    const beyond = await api.get<AccountListV0>('/accounts', { offset: all.total + 10 });
    expectStatus(beyond, 200);
    expect(beyond.body.items).toEqual([]);
    expect(beyond.body.total).toBe(all.total);
  });

  it('rejects a limit or offset that is not a non-negative integer', async () => {
    expectV0Error(await api.get('/accounts', { limit: 'ten' }), 422);
    expectV0Error(await api.get('/accounts', { offset: -1 }), 422);
  });

  it('answers 401 in the 0.0.1 error shape without a token', async () => {
    const r = await api.get('/accounts', {}, { token: null });
    expectV0Error(r, 401);
  });
});

describe('POST /accounts', () => {
  it('creates an account: 201 with the Account, client and co-client in the 0.0.1 shape', async () => {
    const body = accountBody('prospects', true);
    const before = await allAccounts();
    const r = await api.post<AccountV0>('/accounts', body);
    expectStatus(r, 201);
    expectAccountV0(r.body);
    const a = r.body;
    expect(a.type).toBe('prospects');
    expect(a.client).toEqual({ ...body.client, status: 'NEW', type: 'CLIENT' });
    expect(a.coclient).toEqual({ ...body.coclient, status: 'NEW', type: 'COCLIENT' });
    expect(a.created_at).toBe(a.updated_at);
    const read = await api.get<AccountV0>(`/accounts/${a.id}`);
    expectStatus(read, 200);
    expect(read.body).toEqual(a);
    const after = await allAccounts();
    expect(after.total).toBe(before.total + 1);
    expect(after.items.map((x) => x.id)).toContain(a.id);
    expect(before.items.map((x) => x.id)).not.toContain(a.id);
  });

  it('creates a client account without a co-client: coclient is null', async () => {
    const body = accountBody('clients');
    const r = await api.post<AccountV0>('/accounts', body);
    expectStatus(r, 201);
    expect(r.body.type).toBe('clients');
    expect(r.body.coclient).toBeNull();
    expect(
      (await activities('account.client.created')).some((x) =>
        x.description.includes(body.client.first_name),
      ),
    ).toBe(true);
  });

  it('names client.first_name and client.email when they are missing', async () => {
    const r = await api.post('/accounts', {});
    expectMessage(r, 'client.first_name is required.');
    expectMessage(r, 'client.email is required.');
    const body = accountBody();
    expectMessages(await api.post('/accounts', { ...body, client: { ...body.client, first_name: '' } }), [
      'client.first_name is required.',
    ]);
    const { email: _email, ...noEmail } = body.client;
    expectMessages(await api.post('/accounts', { ...body, client: noEmail }), ['client.email is required.']);
  });

  it('rejects an invalid email, type or phone, and creates nothing', async () => {
    const body = accountBody();
    const before = (await allAccounts()).total;
    expectMessages(
      await api.post('/accounts', { ...body, client: { ...body.client, email: 'not-an-address' } }),
      ['client.email is invalid.'],
    );
    expectMessages(await api.post('/accounts', { ...body, type: 'CLIENT' }), ['type is invalid.']);
    expectMessages(await api.post('/accounts', { ...body, client: { ...body.client, phone: 'call me' } }), [
      'client.phone is invalid.',
    ]);
    expect((await allAccounts()).total).toBe(before);
  });

  it('keeps email addresses unique within an account', async () => {
    const body = accountBody('prospects', true);
    const r = await api.post('/accounts', {
      ...body,
      coclient: { ...body.coclient, email: body.client.email.toUpperCase() },
    });
    const err = expectV0Error(r, 422);
    expect(err.messages).toHaveLength(1);
    expect((err.messages as string[])[0]).toMatch(/^coclient\.email is invalid/);
  });
});

describe('GET, PUT, DELETE /accounts/{accountId}', () => {
  it('answers 404 for an account that does not exist', async () => {
    expectV0Error(await api.get('/accounts/987654'), 404);
    expectV0Error(await api.get('/accounts/not-a-number'), 404);
    expectV0Error(await api.put('/accounts/987654', { client: { last_name: 'X' } }), 404);
  });

  it('merges a PUT: fields left out keep their values, updated_at moves on', async () => {
    const a = await createAccount(api, 'prospects');
    const r = await api.put<AccountV0>(`/accounts/${a.id}`, { client: { last_name: 'Okafor' } });
    expectStatus(r, 200);
    expectAccountV0(r.body);
    expect(r.body.client).toEqual({ ...a.client, last_name: 'Okafor' });
    expect(r.body.type).toBe(a.type);
    expect(r.body.created_at).toBe(a.created_at);
    expect(r.body.updated_at > a.updated_at, 'updated_at moved on').toBe(true);
    expect((await api.get(`/accounts/${a.id}`)).body).toEqual(r.body);

    const phone = await api.put<AccountV0>(`/accounts/${a.id}`, { client: { phone: '+49 30 1234567' } });
    expectStatus(phone, 200);
    expect(phone.body.client.phone).toBe('+49301234567');
    expect(phone.body.client.last_name).toBe('Okafor');
  });

  it('validates a PUT like a create and changes nothing on failure', async () => {
    const a = await createAccount(api, 'prospects');
    expectMessages(await api.put(`/accounts/${a.id}`, { client: { email: 'nope' } }), [
      'client.email is invalid.',
    ]);
    expectMessages(await api.put(`/accounts/${a.id}`, { client: { first_name: '' } }), [
      'client.first_name is required.',
    ]);
    expectMessages(await api.put(`/accounts/${a.id}`, { type: 'clientele' }), ['type is invalid.']);
    expect((await api.get(`/accounts/${a.id}`)).body).toEqual(a);
  });

  it("keeps the co-client's first name and email required through a PUT", async () => {
    const a = await createAccount(api, 'clients', true);
    expectMessages(await api.put(`/accounts/${a.id}`, { coclient: { first_name: '', last_name: 'Kept' } }), [
      'coclient.first_name is required.',
    ]);
    expectMessages(await api.put(`/accounts/${a.id}`, { coclient: { email: '', last_name: 'Kept' } }), [
      'coclient.email is required.',
    ]);
    expectMessages(await api.put(`/accounts/${a.id}`, { coclient: { email: 'broken' } }), [
      'coclient.email is invalid.',
    ]);
    expect((await api.get(`/accounts/${a.id}`)).body).toEqual(a);
    const renamed = await api.put<AccountV0>(`/accounts/${a.id}`, { coclient: { last_name: 'Changed' } });
    expectStatus(renamed, 200);
    expect(renamed.body.coclient).toEqual({ ...a.coclient, last_name: 'Changed' });
  });

  it('adds a co-client with PUT and removes it with coclient null', async () => {
    const a = await createAccount(api, 'clients');
    const co = {
      first_name: 'Iris',
      last_name: 'Novak',
      email: `iris.${a.id}@example.org`,
      phone: '+13125550199',
    };
    const added = await api.put<AccountV0>(`/accounts/${a.id}`, { coclient: co });
    expectStatus(added, 200);
    expect(added.body.coclient).toEqual({ ...co, status: 'NEW', type: 'COCLIENT' });
    expect(added.body.client).toEqual(a.client);
    const removed = await api.put<AccountV0>(`/accounts/${a.id}`, { coclient: null });
    expectStatus(removed, 200);
    expect(removed.body.coclient).toBeNull();
    expectV0Error(await api.get(`/accounts/${a.id}/coclient/details`), 404);
  });

  it('converts a prospect with type clients; the assistant lacks accounts.convert and gets 403', async () => {
    const a = await createAccount(api, 'prospects');
    const denied = await s.assistant.put(`/accounts/${a.id}`, { type: 'clients' });
    expectV0Error(denied, 403);
    expect((await api.get<AccountV0>(`/accounts/${a.id}`)).body.type).toBe('prospects');
    // The assistant may still edit the members.
    const edited = await s.assistant.put<AccountV0>(`/accounts/${a.id}`, {
      client: { last_name: 'Assisted' },
    });
    expectStatus(edited, 200);
    const converted = await api.put<AccountV0>(`/accounts/${a.id}`, { type: 'clients' });
    expectStatus(converted, 200);
    expect(converted.body.type).toBe('clients');
    expect((await allAccounts({ type: 'clients' })).items.map((x) => x.id)).toContain(a.id);
    expect((await allAccounts({ type: 'prospects' })).items.map((x) => x.id)).not.toContain(a.id);
    expect(
      (await activities('account.converted')).some((x) => x.description.includes(a.client.first_name)),
    ).toBe(true);
  });

  it('deletes: 204, then 404; the assistant lacks the delete permission', async () => {
    const a = await createAccount(api, 'prospects');
    expectV0Error(await s.assistant.delete(`/accounts/${a.id}`), 403);
    // An account that is not there is not found, whoever asks.
    expectV0Error(await s.assistant.delete('/accounts/999999'), 404);
    expectStatus(await api.get(`/accounts/${a.id}`), 200);
    const del = await api.delete(`/accounts/${a.id}`);
    expectStatus(del, 204);
    expect(del.text).toBe('');
    expectV0Error(await api.get(`/accounts/${a.id}`), 404);
    expectV0Error(await api.put(`/accounts/${a.id}`, { client: { last_name: 'Gone' } }), 404);
    expectV0Error(await api.get(`/accounts/${a.id}/client/details`), 404);
    expectV0Error(await api.delete(`/accounts/${a.id}`), 404);
    expect((await allAccounts()).items.map((x) => x.id)).not.toContain(a.id);
    expect(
      (await activities('account.client.deleted')).some((x) => x.description.includes(a.client.first_name)),
    ).toBe(true);
  });
});

describe('full member details', () => {
  it('GET answers the Account Full Member of client and co-client', async () => {
    const a = await createAccount(api, 'clients', true);
    for (const role of ['client', 'coclient'] as const) {
      const r = await api.get<FullMemberV0>(`/accounts/${a.id}/${role}/details`);
      expectStatus(r, 200);
      const m = r.body;
      expectKeySet(m, FULL_MEMBER_KEYS, `${role} details`);
      expectWire(MemberDetails, m, `${role} details`);
      expectKeySet(m.address, ADDRESS_KEYS, 'address');
      expectKeySet(m.citizenship, ['country'], 'citizenship');
      expectKeySet(m.drivers_license, LICENSE_KEYS, 'drivers_license');
      expectKeySet(m.drivers_license.jurisdiction, ['state', 'country'], 'jurisdiction');
      const summary = a[role]!;
      expect([m.first_name, m.last_name, m.email, m.phone]).toEqual([
        summary.first_name,
        summary.last_name,
        summary.email,
        summary.phone,
      ]);
      expect(m.photo).toBeNull();
      expect(m.drivers_license.document).toBeNull();
    }
  });

  it('seeded members carry their details in the documented forms', async () => {
    const list = await allAccounts();
    let checked = 0;
    for (const a of list.items.slice(0, 12)) {
      const m = (await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body;
      if (m.birth_date === null) continue;
      checked++;
      expect(m.birth_date).toMatch(TIMESTAMP);
      if (m.gender !== null) expect(['male', 'female']).toContain(m.gender);
      if (m.marital_status !== null)
        expect(['single', 'married', 'divorced', 'widowed', 'other', 'partner']).toContain(m.marital_status);
      if (m.address.country) expect(m.address.country).toMatch(/^[A-Z]{2}$/);
      if (m.photo) expectFileV0(m.photo, api.base, { type: 'image' });
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('answers 404 for a missing co-client or account', async () => {
    const a = await createAccount(api, 'prospects');
    expectV0Error(await api.get(`/accounts/${a.id}/coclient/details`), 404);
    expectV0Error(await api.put(`/accounts/${a.id}/coclient/details`, { first_name: 'Nobody' }), 404);
    expectV0Error(await api.get('/accounts/987654/client/details'), 404);
  });

  it('PUT merges the details, upper-cases country codes and US state codes, keeps dates in timestamp form', async () => {
    const a = await createAccount(api, 'clients', true);
    const body = {
      middle_initial: 'Q',
      gender: 'female',
      birth_date: '1980-04-12',
      marital_status: 'married',
      previous_marriages: 1,
      citizenship: { country: 'de' },
      home_phone: '+15125550100',
      work_phone: '+15125550111',
      risk_score: 6.5,
      comments: 'Prefers mornings.',
      address: { line1: '12 Elm St', line2: null, city: 'Austin', state: 'tx', zip: '78701', country: 'us' },
      drivers_license: {
        number: 'D1234567',
        issue_date: '2020-01-15',
        expire_date: '2028-01-15 00:00:00',
        jurisdiction: { state: 'tx', country: 'us' },
      },
    };
    const r = await api.put<FullMemberV0>(`/accounts/${a.id}/client/details`, body);
    expectStatus(r, 200);
    const m = r.body;
    expectKeySet(m, FULL_MEMBER_KEYS, 'details');
    expectWire(MemberDetails, m, 'details');
    expect(m.first_name).toBe(a.client.first_name);
    expect(m.email).toBe(a.client.email);
    expect(m.middle_initial).toBe('Q');
    expect(m.gender).toBe('female');
    expect(m.birth_date).toBe('1980-04-12 00:00:00');
    expect(m.marital_status).toBe('married');
    expect(m.previous_marriages).toBe(1);
    expect(m.citizenship).toEqual({ country: 'DE' });
    expect(m.home_phone).toBe('+15125550100');
    expect(m.risk_score).toBe(6.5);
    expect(m.address).toEqual({
      line1: '12 Elm St',
      line2: null,
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
    });
    expect(m.drivers_license).toEqual({
      number: 'D1234567',
      issue_date: '2020-01-15 00:00:00',
      expire_date: '2028-01-15 00:00:00',
      jurisdiction: { state: 'TX', country: 'US' },
      document: null,
    });
    expect((await api.get(`/accounts/${a.id}/client/details`)).body).toEqual(m);

    // A later partial PUT keeps everything it does not name.
    const again = await api.put<FullMemberV0>(`/accounts/${a.id}/client/details`, {
      address: { line2: 'Apt 4' },
      comments: null,
    });
    expectStatus(again, 200);
    expect(again.body.address).toEqual({ ...m.address, line2: 'Apt 4' });
    expect(again.body.comments).toBeNull();
    expect(again.body.gender).toBe('female');
    // The jurisdiction is an Address too: a part of it alone keeps the other part.
    const state = await api.put<FullMemberV0>(`/accounts/${a.id}/client/details`, {
      drivers_license: { jurisdiction: { state: 'ny' } },
    });
    expectStatus(state, 200);
    expect(state.body.drivers_license.jurisdiction).toEqual({ state: 'NY', country: 'US' });

    // The co-client's details are their own.
    const co = (await api.get<FullMemberV0>(`/accounts/${a.id}/coclient/details`)).body;
    expect(co.gender).toBeNull();
    expect(co.address.city).toBeNull();
  });

  it('shows name, email and phone changes of the details in the account', async () => {
    const a = await createAccount(api, 'prospects', true);
    const r = await api.put<FullMemberV0>(`/accounts/${a.id}/coclient/details`, {
      first_name: 'Renamed',
      phone: '+33 1 23 45 67 89',
    });
    expectStatus(r, 200);
    const account = (await api.get<AccountV0>(`/accounts/${a.id}`)).body;
    expect(account.coclient?.first_name).toBe('Renamed');
    expect(account.coclient?.phone).toBe('+33123456789');
    expect(account.updated_at > a.updated_at).toBe(true);
    expect(account.client).toEqual(a.client);
  });

  it.each([
    [{ gender: 'other' }, 'gender is invalid.'],
    [{ marital_status: 'engaged' }, 'marital_status is invalid.'],
    [{ previous_marriages: 1.5 }, 'previous_marriages is invalid.'],
    [{ previous_marriages: 'two' }, 'previous_marriages is invalid.'],
    [{ email: 'no-at-sign' }, 'email is invalid.'],
    [{ email: '' }, 'email is required.'],
    [{ first_name: '' }, 'first_name is required.'],
    [{ birth_date: '12/04/1980' }, 'birth_date is invalid.'],
    [{ risk_score: 'high' }, 'risk_score is invalid.'],
    [{ citizenship: { country: 'XX' } }, 'citizenship.country is invalid.'],
    [{ phone: 'none' }, 'phone is invalid.'],
    [
      { drivers_license: { jurisdiction: { state: 'ZZ', country: 'US' } } },
      'drivers_license.jurisdiction.state is invalid.',
    ],
    [{ drivers_license: { issue_date: 'yesterday' } }, 'drivers_license.issue_date is invalid.'],
  ])('PUT %j → 422 %s, nothing changes', async (body, message) => {
    const a = await createAccount(api, 'prospects');
    const before = (await api.get(`/accounts/${a.id}/client/details`)).body;
    expectMessages(await api.put(`/accounts/${a.id}/client/details`, body), [message]);
    expect((await api.get(`/accounts/${a.id}/client/details`)).body).toEqual(before);
    expect((await api.get<AccountV0>(`/accounts/${a.id}`)).body.updated_at).toBe(a.updated_at);
  });

  it('accepts only US state codes for a US address, whether the country comes with the state or is already stored', async () => {
    const a = await createAccount(api, 'prospects');
    const path = `/accounts/${a.id}/client/details`;
    const bad = expectV0Error(await api.put(path, { address: { state: 'Texas', country: 'US' } }), 422);
    expect((bad.messages as string[]).some((m) => m.startsWith('address is invalid'))).toBe(true);
    expectStatus(await api.put(path, { address: { city: 'Austin', state: 'TX', country: 'US' } }), 200);
    const later = expectV0Error(await api.put(path, { address: { state: 'ZZ' } }), 422);
    expect((later.messages as string[]).some((m) => m.startsWith('address is invalid'))).toBe(true);
    expect((await api.get<FullMemberV0>(path)).body.address.state).toBe('TX');
    // Outside the US the state is free text; the country code must still be ISO alpha-2.
    const abroad = await api.put<FullMemberV0>(path, { address: { state: 'Bavaria', country: 'de' } });
    expectStatus(abroad, 200);
    expect(abroad.body.address).toMatchObject({ state: 'Bavaria', country: 'DE' });
    expectV0Error(await api.put(path, { address: { country: 'Germany' } }), 422);
    // null clears the address.
    const cleared = await api.put<FullMemberV0>(path, { address: null });
    expectStatus(cleared, 200);
    expect(cleared.body.address).toEqual({
      line1: null,
      line2: null,
      city: null,
      state: null,
      zip: null,
      country: null,
    });
  });

  it('keeps email addresses unique per account, ignoring case', async () => {
    const a = await createAccount(api, 'prospects', true);
    const r = await api.put(`/accounts/${a.id}/coclient/details`, { email: a.client.email.toUpperCase() });
    const err = expectV0Error(r, 422);
    expect((err.messages as string[]).some((m) => m.startsWith('email is invalid'))).toBe(true);
    expect((await api.get<FullMemberV0>(`/accounts/${a.id}/coclient/details`)).body.email).toBe(
      a.coclient?.email,
    );
    // Another account may use the same address.
    const b = await createAccount(api, 'prospects');
    expectStatus(await api.put(`/accounts/${b.id}/client/details`, { email: a.client.email }), 200);
  });
});

describe("photo and driver's-license document", () => {
  it('PUT photo (multipart field file) answers the File; the url downloads the same bytes with a token', async () => {
    const a = await createAccount(api, 'clients', true);
    const file = png('portrait.png', 7);
    const r = await api.upload<FileV0>('PUT', `/accounts/${a.id}/coclient/details/photo`, file);
    expectStatus(r, 200);
    expectFileV0(r.body, api.base, {
      type: 'image',
      filetype: 'image/png',
      filename: 'portrait.png',
      bytes: file.bytes.length,
    });
    expect(r.body.filesize).toBeGreaterThan(1);
    const details = (await api.get<FullMemberV0>(`/accounts/${a.id}/coclient/details`)).body;
    expect(details.photo).toEqual(r.body);
    expect((await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body.photo).toBeNull();
    const download = await api.download(r.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.bytes.equals(file.bytes)).toBe(true);
    expect((await api.download(r.body.url, false)).status, 'files need authentication').toBe(401);
  });

  it('serves a file only to the team of its account: another team reads it as not found', async () => {
    const a = await createAccount(api, 'clients');
    const r = await api.upload<FileV0>('PUT', `/accounts/${a.id}/client/details/photo`, png('team.png', 5));
    expectStatus(r, 200);
    expect((await s.v2.post('/user/switch', { id: 2 })).status).toBe(200);
    try {
      expect((await api.download(r.body.url)).status).toBe(404);
    } finally {
      expect((await s.v2.post('/user/switch', { id: 1 })).status).toBe(200);
    }
    expect((await api.download(r.body.url)).status).toBe(200);
  });

  it('reads the type of an upload from its bytes: a PNG sent as octet-stream is an image', async () => {
    const a = await createAccount(api, 'prospects');
    const file = { ...png('me.png', 3), type: 'application/octet-stream' };
    const r = await api.upload<FileV0>('PUT', `/accounts/${a.id}/client/details/photo`, file);
    expectStatus(r, 200);
    expect(r.body.filetype).toBe('image/png');
  });

  it('rejects a photo that is not a picture, or no file at all, with 422', async () => {
    const a = await createAccount(api, 'prospects');
    const path = `/accounts/${a.id}/client/details/photo`;
    expectV0Error(await api.upload('PUT', path, textFile('notes.png')), 422);
    expectV0Error(await api.upload('PUT', path, pdf('scan.pdf')), 422);
    expectMessages(await api.upload('PUT', path, null, { note: 'no file here' }), ['file is required.']);
    expect((await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body.photo).toBeNull();
  });

  it('replaces the photo on a second upload and removes it with DELETE (204)', async () => {
    const a = await createAccount(api, 'prospects');
    const path = `/accounts/${a.id}/client/details/photo`;
    const first = (await api.upload<FileV0>('PUT', path, png('one.png', 1))).body;
    const second = await api.upload<FileV0>('PUT', path, png('two.png', 2));
    expectStatus(second, 200);
    expect(second.body.url).not.toBe(first.url);
    expect((await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body.photo?.filename).toBe(
      'two.png',
    );
    const del = await api.delete(path);
    expectStatus(del, 204);
    expect((await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body.photo).toBeNull();
    expectV0Error(await api.upload('PUT', `/accounts/${a.id}/coclient/details/photo`, png()), 404);
  });

  it("uploads the driver's-license document (PDF) and removes it", async () => {
    const a = await createAccount(api, 'clients');
    const path = `/accounts/${a.id}/client/details/drivers_license/document`;
    const file = pdf('license.pdf', ['Driver license', a.client.last_name]);
    const r = await api.upload<FileV0>('PUT', path, file);
    expectStatus(r, 200);
    expectFileV0(r.body, api.base, {
      type: 'document',
      filetype: 'application/pdf',
      filename: 'license.pdf',
      bytes: file.bytes.length,
    });
    const m = (await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body;
    expect(m.drivers_license.document).toEqual(r.body);
    expect(m.photo).toBeNull();
    const download = await api.download(r.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.bytes.equals(file.bytes)).toBe(true);
    expectV0Error(await api.upload('PUT', path, textFile()), 422);
    expectStatus(await api.delete(path), 204);
    expect(
      (await api.get<FullMemberV0>(`/accounts/${a.id}/client/details`)).body.drivers_license.document,
    ).toBeNull();
  });
});

describe('security', () => {
  it('GET answers the Security record: pin an integer, type client or co-client', async () => {
    const a = await createAccount(api, 'clients', true);
    const client = await api.get<SecurityV0>(`/accounts/${a.id}/client/security`);
    expectStatus(client, 200);
    expectKeySet(client.body, SECURITY_KEYS, 'security');
    expectWire(MemberSecurity, client.body, 'security');
    expect(client.body.account_id).toBe(a.id);
    expect(client.body.type).toBe('client');
    expect(client.body.status).toBe(a.client.status);
    expect(Number.isInteger(client.body.pin)).toBe(true);
    const co = await api.get<SecurityV0>(`/accounts/${a.id}/coclient/security`);
    expectStatus(co, 200);
    expect(co.body.type).toBe('co-client');
    expect(Number.isInteger(co.body.pin)).toBe(true);
    const lone = await createAccount(api, 'prospects');
    expectV0Error(await api.get(`/accounts/${lone.id}/coclient/security`), 404);
    expectV0Error(await api.get('/accounts/987654/client/security'), 404);
    expectV0Error(await api.post('/accounts/987654/client/security/reset'), 404);
  });

  it('seeded members show each documented status', async () => {
    const statuses = new Set<string>();
    for (const a of (await allAccounts()).items) {
      const sec = (await api.get<SecurityV0>(`/accounts/${a.id}/client/security`)).body;
      expect(sec.status).toBe(a.client.status);
      statuses.add(sec.status);
    }
    expect([...statuses].every((x) => ['BLOCKED', 'ACTIVE', 'NEW'].includes(x))).toBe(true);
    expect(statuses.has('ACTIVE')).toBe(true);
  });

  it('reset issues a new PIN with status NEW and records account.security.reset', async () => {
    const list = await allAccounts();
    const active = list.items.find((a) => a.client.status !== 'NEW') as AccountV0;
    expect(active, 'a seeded member that is not NEW').toBeDefined();
    const path = `/accounts/${active.id}/client/security`;
    const before = (await api.get<SecurityV0>(path)).body;
    const r = await api.post<SecurityV0>(`${path}/reset`);
    expectStatus(r, 200);
    expectKeySet(r.body, SECURITY_KEYS, 'security');
    expectWire(MemberSecurity, r.body, 'security');
    expect(r.body.status).toBe('NEW');
    expect(r.body.type).toBe('client');
    expect(r.body.account_id).toBe(active.id);
    expect(Number.isInteger(r.body.pin)).toBe(true);
    expect(r.body.pin).not.toBe(before.pin);
    expect((await api.get<SecurityV0>(path)).body).toEqual(r.body);
    const account = (await api.get<AccountV0>(`/accounts/${active.id}`)).body;
    expect(account.client.status).toBe('NEW');
    const feed = await activities('account.security.reset');
    expect(feed[0]?.type).toBe('account.security.reset');
    expect(feed[0]?.description).toContain(active.client.first_name);
  });
});
