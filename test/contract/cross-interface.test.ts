// Both interfaces show the same accounts (DESIGN.md §1): what one writes, the other reads, each in
// its own shape — `clients` ↔ `CLIENT`, phone string ↔ phone object, co-client null ↔ a co-client
// of null fields — and `updated_at` and the version 2 quality score follow changes made through
// either interface.

import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_KEYS,
  MEMBER_KEYS,
  PASSWORD,
  expectKeys,
  type Account,
  type Api,
  type List,
  type Reply,
} from './helpers.ts';
import {
  accountBody,
  createAccount,
  expectAccountV0,
  expectStatus,
  expectV0Error,
  sectionPath,
  v0Sandbox,
  type AccountV0,
  type FullMemberV0,
  type SecurityV0,
  type V0Api,
} from './v0-helpers.ts';

const s = v0Sandbox();
let v0: V0Api;
let v2: Api;

beforeAll(() => {
  v0 = s.advisor;
  v2 = s.v2;
});

const NULL_MEMBER = {
  id: null,
  first_name: null,
  last_name: null,
  email: null,
  phone: { code: null, number: null, country: null },
  status: null,
  pin: null,
};

async function readV2(id: number): Promise<Account> {
  const r = await v2.get<Account>(`/accounts/${id}`);
  expect(r.status, r.text).toBe(200);
  expectKeys(r.body, ACCOUNT_KEYS, 'v2 account');
  expectKeys(r.body.client, MEMBER_KEYS, 'v2 client');
  expectKeys(r.body.coclient, MEMBER_KEYS, 'v2 coclient');
  return r.body;
}

async function readV0(id: number): Promise<AccountV0> {
  const r = await v0.get<AccountV0>(`/accounts/${id}`);
  expectStatus(r, 200);
  expectAccountV0(r.body);
  return r.body;
}

const expectOk = (r: Reply<unknown>) => expect([200, 201], r.text).toContain(r.status);

describe('an account created through version 0.0.1', () => {
  it('reads through version 2 in its shape: CLIENT, phone object, member status, a co-client of null fields', async () => {
    const body = accountBody('clients');
    const created = await v0.post<AccountV0>('/accounts', body);
    expectStatus(created, 201);
    const a = created.body;
    const b = await readV2(a.id);
    expect(b.id).toBe(a.id);
    expect(b.type).toBe('CLIENT');
    expect(b.client).toMatchObject({
      first_name: body.client.first_name,
      last_name: body.client.last_name,
      email: body.client.email,
      phone: { code: '+1', number: '3213211212', country: 'US' },
      status: a.client.status,
    });
    expect(Number.isInteger(b.client.id)).toBe(true);
    expect(a.coclient).toBeNull();
    expect(b.coclient).toEqual(NULL_MEMBER);
    expect(b.created_at).toBe(a.created_at);
    expect(b.updated_at).toBe(a.updated_at);
    expect(b.archived).toBe(false);

    const prospect = await createAccount(v0, 'prospects', true);
    const p = await readV2(prospect.id);
    expect(p.type).toBe('PROSPECT');
    expect(p.coclient).toMatchObject({
      first_name: prospect.coclient!.first_name,
      email: prospect.coclient!.email,
      status: prospect.coclient!.status,
      phone: { code: '+44', number: '7700900123', country: 'GB' },
    });
    const found = await v2.get<List<Account>>('/accounts', { query: body.client.email, type: 'all' });
    expect(found.body.items.map((x) => x.id)).toEqual([a.id]);
  });

  it('updates through version 2 and shows the change through version 0.0.1; updated_at moves on', async () => {
    const a = await createAccount(v0, 'prospects');
    const r = await v2.post<Account>(`/accounts/${a.id}`, {
      type: 'CLIENT',
      client: { last_name: 'Okafor', phone: { code: '+44', number: '7700 900456', country: 'gb' } },
      coclient: { first_name: 'Ines', last_name: 'Okafor', email: `ines.${a.id}@example.org` },
    });
    expect(r.status, r.text).toBe(200);
    const after = await readV0(a.id);
    expect(after.type).toBe('clients');
    expect(after.client).toEqual({ ...a.client, last_name: 'Okafor', phone: '+447700900456' });
    expect(after.coclient).toMatchObject({
      first_name: 'Ines',
      last_name: 'Okafor',
      email: `ines.${a.id}@example.org`,
      phone: '',
      type: 'COCLIENT',
    });
    expect(after.coclient?.status).toBe(r.body.coclient.status);
    expect(after.updated_at > a.updated_at).toBe(true);
    expect(after.updated_at).toBe(r.body.updated_at);

    // Removing the co-client through version 2 leaves null in version 0.0.1.
    const removed = await v2.post<Account>(`/accounts/${a.id}`, { coclient: null });
    expect(removed.status, removed.text).toBe(200);
    expect((await readV0(a.id)).coclient).toBeNull();
    expectV0Error(await v0.get(`/accounts/${a.id}/coclient/details`), 404);
  });

  it('deletes through version 2; version 0.0.1 then answers 404', async () => {
    const a = await createAccount(v0, 'prospects');
    const r = await v2.delete(`/accounts/${a.id}`, { password: PASSWORD });
    expect([200, 204], r.text).toContain(r.status);
    expectV0Error(await v0.get(`/accounts/${a.id}`), 404);
    expectV0Error(await v0.get(sectionPath(a.id, 'assets', false)), 404);
    const list = await v0.get<{ items: AccountV0[] }>('/accounts', { limit: 500 });
    expect(list.body.items.map((x) => x.id)).not.toContain(a.id);
  });
});

describe('an account created through version 2', () => {
  let id: number;
  const email = `nora.v2.${process.pid}@example.org`;

  beforeAll(async () => {
    const r = await v2.post<Account>('/accounts', {
      type: 'PROSPECT',
      client: {
        first_name: 'Nora',
        last_name: 'Quist',
        email,
        phone: { code: '+1', number: '3213211212', country: 'US' },
      },
      coclient: {
        first_name: 'Otto',
        last_name: 'Quist',
        email: `otto.v2.${process.pid}@example.org`,
        phone: { code: '+49', number: '301234567', country: 'DE' },
      },
    });
    expectOk(r);
    id = r.body.id;
  });

  it('reads through version 0.0.1 in its shape: prospects, phone strings with the country code, member type', async () => {
    const b = await readV2(id);
    const a = await readV0(id);
    expect(a.type).toBe('prospects');
    expect(a.client).toEqual({
      first_name: 'Nora',
      last_name: 'Quist',
      email,
      phone: '+13213211212',
      status: b.client.status,
      type: 'CLIENT',
    });
    expect(a.coclient).toEqual({
      first_name: 'Otto',
      last_name: 'Quist',
      email: `otto.v2.${process.pid}@example.org`,
      phone: '+49301234567',
      status: b.coclient.status,
      type: 'COCLIENT',
    });
    expect([a.created_at, a.updated_at]).toEqual([b.created_at, b.updated_at]);
    const details = (await v0.get<FullMemberV0>(`/accounts/${id}/client/details`)).body;
    expect(details.phone).toBe('+13213211212');
  });

  it('updates through version 0.0.1 and shows the change through version 2; updated_at moves on', async () => {
    const before = await readV2(id);
    const r = await v0.put<AccountV0>(`/accounts/${id}`, {
      type: 'clients',
      client: { phone: '+44 7700 900999' },
      coclient: null,
    });
    expectStatus(r, 200);
    const after = await readV2(id);
    expect(after.type).toBe('CLIENT');
    expect(after.client.phone).toEqual({ code: '+44', number: '7700900999', country: 'GB' });
    expect(after.client.first_name).toBe('Nora');
    expect(after.coclient).toEqual(NULL_MEMBER);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(after.updated_at).toBe(r.body.updated_at);
  });

  it('deletes through version 0.0.1; version 2 then answers 404', async () => {
    expectStatus(await v0.delete(`/accounts/${id}`), 204);
    expect((await v2.get(`/accounts/${id}`)).status).toBe(404);
    const list = await v2.get<List<Account>>('/accounts', { query: email, type: 'all' });
    expect(list.body.items).toEqual([]);
  });
});

describe('member details, security and financial data through version 0.0.1, seen through version 2', () => {
  it('shows a name and email changed in the v0 details in the v2 client object', async () => {
    const a = await createAccount(v0, 'clients', true);
    const before = await readV2(a.id);
    expectStatus(
      await v0.put(`/accounts/${a.id}/client/details`, {
        first_name: 'Greta',
        email: `greta.${a.id}@example.org`,
      }),
      200,
    );
    expectStatus(await v0.put(`/accounts/${a.id}/coclient/details`, { phone: '+33 1 23 45 67 89' }), 200);
    const after = await readV2(a.id);
    expect(after.client).toEqual({
      ...before.client,
      first_name: 'Greta',
      email: `greta.${a.id}@example.org`,
    });
    expect(after.coclient.phone).toEqual({ code: '+33', number: '123456789', country: 'FR' });
    expect(after.updated_at > before.updated_at).toBe(true);
  });

  it('raises the v2 quality score when the v0 details fill the missing fields', async () => {
    const a = await createAccount(v0, 'prospects');
    const before = (await readV2(a.id)).quality;
    expect(Number.isInteger(before.score)).toBe(true);
    expect(
      before.rules.some((r) => !r.valid),
      'a new account misses some know-your-customer data',
    ).toBe(true);
    const r = await v0.put(`/accounts/${a.id}/client/details`, {
      birth_date: '1975-09-30',
      marital_status: 'single',
      citizenship: { country: 'US' },
      risk_score: 7,
      address: { line1: '5 Park Pl', city: 'Albany', state: 'NY', zip: '12207', country: 'US' },
      drivers_license: {
        number: 'N7654321',
        issue_date: '2021-05-01',
        expire_date: '2029-05-01',
        jurisdiction: { state: 'NY', country: 'US' },
      },
    });
    expectStatus(r, 200);
    const after = (await readV2(a.id)).quality;
    expect(after.score).toBeGreaterThan(before.score);
    expect(after.rules.filter((x) => x.valid).length).toBeGreaterThan(
      before.rules.filter((x) => x.valid).length,
    );
    if (after.rules.every((x) => x.valid)) expect(after.score).toBe(100);
    // Clearing a field through v0 lowers it again.
    expectStatus(await v0.put(`/accounts/${a.id}/client/details`, { birth_date: null }), 200);
    expect((await readV2(a.id)).quality.score).toBeLessThan(after.score);
  });

  it('shows a v0 security reset as the v2 member status and pin', async () => {
    const a = await createAccount(v0, 'clients');
    const r = await v0.post<SecurityV0>(`/accounts/${a.id}/client/security/reset`);
    expectStatus(r, 200);
    const b = await readV2(a.id);
    expect(b.client.status).toBe(r.body.status);
    expect(Number(b.client.pin)).toBe(r.body.pin);
  });

  it('moves updated_at in both interfaces when v0 financial data changes', async () => {
    const a = await createAccount(v0, 'clients');
    const before = await readV2(a.id);
    const r = await v0.post(sectionPath(a.id, 'assets', false), {
      type: 'vehicle',
      name: 'Pickup',
      owner: 'client',
      current_value: 18000,
    });
    expectStatus(r, 201);
    const after = await readV2(a.id);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await readV0(a.id)).updated_at).toBe(after.updated_at);
  });
});
