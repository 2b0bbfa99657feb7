// Contract tests of the version 2 accounts endpoints: list (filters, sort, paging), create (flat,
// nested and form bodies), read, update (flags, stage, convert), delete with password, profile,
// activity and the account's stored files.

import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listV2 } from '@shared/wire/lists.ts';
import { wireObject } from '@shared/wire/parse.ts';
import { Account as AccountSchema, Member as MemberSchema } from '@shared/wire/v2/account.ts';
import { AccountActivity } from '@shared/wire/v2/activity.ts';
import { ProfileValue as ProfileValueSchema } from '@shared/wire/v2/profile.ts';
import { User as UserSchema } from '@shared/wire/v2/user.ts';
import {
  ACCOUNT_KEYS,
  ACTIVITY_KEYS,
  ASSISTANT,
  MEMBER_KEYS,
  PASSWORD,
  PROFILE_KEYS,
  TIMESTAMP,
  UUID,
  distinct,
  expectJsonError,
  expectKeys,
  expectOrdered,
  expectValidation,
  expectWire,
  later,
  newAccountBody,
  uniqueTag,
  v2Client,
  type Account,
  type Activity,
  type Api,
  type FlatStructure,
  type List,
  type Member,
  type ProfileValue,
  type RequestOptions,
  type SortValue,
  type User,
  contractSandbox,
} from './helpers.ts';

const platform = contractSandbox();
let api: Api;
let assistant: Api;
let user: User;
/** Every account of the advisor's team, archived ones included, as the list returns them. */
let everyone: Account[];

const stagePosition = (a: Account) => user.pipelines.findIndex((p) => p.id === a.pipeline.id);

function expectMember(m: Member, label: string): void {
  expectWire(MemberSchema, m, label);
  expectKeys(m, MEMBER_KEYS, label);
  expectKeys(m.phone, ['code', 'number', 'country'], `${label}.phone`);
  expect(Number.isInteger(m.id), `${label}.id is an integer`).toBe(true);
  expect(typeof m.first_name).toBe('string');
  expect(typeof m.last_name).toBe('string');
  expect(typeof m.email).toBe('string');
  expect(typeof m.status).toBe('string');
  expect(m.pin, `${label}.pin is numeric text`).toMatch(/^\d+$/);
  if (m.phone.country !== null) expect(m.phone.country).toMatch(/^[A-Z]{2}$/);
  if (m.phone.code !== null) expect(m.phone.code).toMatch(/^\+\d{1,4}$/);
}

function expectAccount(a: Account): void {
  expectWire(AccountSchema, a, `account ${a.id}`);
  expectKeys(a, ACCOUNT_KEYS, `account ${a.id}`);
  expect(Number.isInteger(a.id)).toBe(true);
  expect(['CLIENT', 'PROSPECT']).toContain(a.type);
  expectMember(a.client, `account ${a.id} client`);
  expectKeys(a.coclient, MEMBER_KEYS, `account ${a.id} coclient`);
  if (a.coclient.id !== null) expectMember(a.coclient, `account ${a.id} coclient`);
  else
    for (const k of ['first_name', 'last_name', 'email', 'status', 'pin'] as const)
      expect([null, '']).toContain(a.coclient[k]);
  expectKeys(a.quality, ['score', 'rules'], 'quality');
  expect(Number.isInteger(a.quality.score)).toBe(true);
  for (const r of a.quality.rules) {
    expectKeys(r, ['message', 'valid'], 'quality rule');
    expect(typeof r.message).toBe('string');
    expect(typeof r.valid).toBe('boolean');
  }
  expectKeys(a.pipeline, ['id', 'icon', 'title', 'description'], 'pipeline');
  expect(a.pipeline.id).toMatch(UUID);
  const stage = user.pipelines.find((p) => p.id === a.pipeline.id);
  expect(stage, 'the stage is one of the user resource pipelines').toBeDefined();
  expect(stage?.type, 'a client sits in a client stage, a prospect in a prospect stage').toBe(a.type);
  expect(a.pipeline).toEqual({
    id: stage?.id,
    icon: stage?.icon,
    title: stage?.title,
    description: stage?.description,
  });
  expect(typeof a.favorited).toBe('boolean');
  expect(typeof a.archived).toBe('boolean');
  expect(a.created_at).toMatch(TIMESTAMP);
  expect(a.updated_at).toMatch(TIMESTAMP);
  expect(a.updated_at >= a.created_at, 'updated_at is not before created_at').toBe(true);
}

async function createAccount(body: Record<string, unknown> = newAccountBody()): Promise<Account> {
  const r = await api.post<Account>('/accounts', body);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

async function listAll(query: Record<string, string | number> = {}): Promise<List<Account>> {
  const r = await api.get<List<Account>>('/accounts', { limit: 500, ...query });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

beforeAll(async () => {
  api = await v2Client(platform);
  assistant = await v2Client(platform, ASSISTANT);
  user = expectWire(UserSchema, (await api.get('/user')).body, 'user') as User;
  // More accounts than one default page, and some archived and favorite ones, whatever the seed gives.
  for (let n = (await listAll({ type: 'all' })).params.total; n <= 55; n++) await createAccount();
  for (const flags of [{ archived: true }, { favorited: true }, { archived: true, favorited: true }]) {
    const a = await createAccount(newAccountBody({ type: 'CLIENT' }));
    expect((await api.post(`/accounts/${a.id}`, flags)).status).toBe(200);
  }
  everyone = (await listAll({ type: 'all' })).items;
});

describe('GET /accounts', () => {
  it('answers items and params with the documented defaults: sort -created_at, limit 50, offset 0', async () => {
    const r = await api.get<List<Account>>('/accounts', { type: 'all' });
    expect(r.status).toBe(200);
    expectKeys(r.body, ['items', 'params'], 'list');
    expectWire(listV2(AccountSchema), r.body, 'account list');
    expectKeys(r.body.params, ['limit', 'offset', 'sort', 'total'], 'params');
    expect(r.body.params).toEqual({ limit: 50, offset: 0, sort: '-created_at', total: everyone.length });
    expect(everyone.length, 'the seed gives more accounts than one default page').toBeGreaterThan(50);
    expect(r.body.items).toHaveLength(50);
    expectOrdered(
      r.body.items.map((a) => a.created_at),
      true,
      'default order',
    );
    expect(r.body.items.map((a) => a.id)).toEqual(everyone.slice(0, 50).map((a) => a.id));
    for (const a of everyone) expectAccount(a);
  });

  it('leaves archived accounts out unless the type filter asks for them', async () => {
    const archived = everyone.filter((a) => a.archived);
    expect(archived.length).toBeGreaterThan(0);
    const plain = await listAll();
    expect(plain.items.some((a) => a.archived)).toBe(false);
    expect(plain.params.total).toBe(everyone.length - archived.length);
    const onlyArchived = await listAll({ type: 'archived' });
    expect(onlyArchived.items.map((a) => a.id).sort()).toEqual(archived.map((a) => a.id).sort());
    const all = await listAll({ type: 'all' });
    expect(all.params.total).toBe(everyone.length);
  });

  it('filters by type client, prospect and favorite', async () => {
    const live = everyone.filter((a) => !a.archived);
    const ids = (xs: Account[]) => xs.map((a) => a.id).sort((x, y) => x - y);
    const clients = await listAll({ type: 'client' });
    const prospects = await listAll({ type: 'prospect' });
    const favorites = await listAll({ type: 'favorite' });
    expect(ids(clients.items)).toEqual(ids(live.filter((a) => a.type === 'CLIENT')));
    expect(ids(prospects.items)).toEqual(ids(live.filter((a) => a.type === 'PROSPECT')));
    expect(ids(favorites.items)).toEqual(ids(live.filter((a) => a.favorited)));
    expect(clients.items.length).toBeGreaterThan(0);
    expect(prospects.items.length).toBeGreaterThan(0);
    expect(favorites.items.length).toBeGreaterThan(0);
    expect(clients.params.total + prospects.params.total).toBe(live.length);
  });

  it('rejects an unknown type filter with 422', async () => {
    expectValidation(await api.get('/accounts', { type: 'clients' }), ['type']);
  });

  it('filters by pipeline stage id', async () => {
    const live = everyone.filter((a) => !a.archived);
    let sum = 0;
    for (const stage of user.pipelines) {
      const r = await listAll({ pipeline: stage.id });
      expect(
        r.items.every((a) => a.pipeline.id === stage.id),
        `stage ${stage.title}`,
      ).toBe(true);
      expect(r.params.total).toBe(live.filter((a) => a.pipeline.id === stage.id).length);
      sum += r.params.total;
    }
    expect(sum).toBe(live.length);
    const used = live[0]?.pipeline.id as string;
    expect((await listAll({ pipeline: used })).params.total).toBeGreaterThan(0);
  });

  it('query matches accounts whose client or co-client first name, last name or email starts with the value', async () => {
    const live = everyone.filter((a) => !a.archived);
    const starts = (v: string | null, q: string) =>
      typeof v === 'string' && v.toLowerCase().startsWith(q.toLowerCase());
    const matches = (a: Account, q: string) =>
      [a.client, a.coclient].some(
        (m) => starts(m.first_name, q) || starts(m.last_name, q) || starts(m.email, q),
      );
    const withCo =
      live.find(
        (a) =>
          a.coclient.id !== null &&
          a.coclient.first_name !== a.client.first_name &&
          a.coclient.last_name !== a.client.last_name,
      ) ?? live.find((a) => a.coclient.id !== null && a.coclient.first_name !== a.client.first_name);
    expect(withCo, 'an account with a co-client').toBeDefined();
    const target = withCo as Account;
    const queries = [
      (target.client.first_name as string).slice(0, 3),
      target.client.last_name as string,
      (target.client.email as string).slice(0, 8),
      target.coclient.first_name as string,
      (target.coclient.email as string).slice(0, 6),
      (target.coclient.last_name as string).slice(0, 4),
    ];
    for (const q of queries) {
      const r = await listAll({ query: q });
      expect(
        r.items.map((a) => a.id),
        `query ${q}`,
      ).toContain(target.id);
      expect(r.items.map((a) => a.id).sort(), `query ${q}`).toEqual(
        live
          .filter((a) => matches(a, q))
          .map((a) => a.id)
          .sort(),
      );
    }
    // Only the start counts: the middle of an email address finds nothing by itself.
    const middle = (target.client.email as string).slice(3, 9);
    const r = await listAll({ query: middle });
    expect(r.items.map((a) => a.id).sort()).toEqual(
      live
        .filter((a) => matches(a, middle))
        .map((a) => a.id)
        .sort(),
    );
    expect((await listAll({ query: 'zzzz-nobody' })).params.total).toBe(0);
  });

  const SORTS: [string, (a: Account) => SortValue][] = [
    ['type', (a) => a.type],
    ['quality', (a) => a.quality.score],
    ['pipeline', stagePosition],
    ['favorited', (a) => a.favorited],
    ['archived', (a) => a.archived],
    ['created_at', (a) => a.created_at],
    ['updated_at', (a) => a.updated_at],
    ['client.first_name', (a) => a.client.first_name],
    ['client.last_name', (a) => a.client.last_name],
    ['client.email', (a) => a.client.email],
    ['coclient.first_name', (a) => a.coclient.first_name],
    ['coclient.last_name', (a) => a.coclient.last_name],
    ['coclient.email', (a) => a.coclient.email],
  ];
  it.each(SORTS)('sorts by %s ascending and descending', async (key, value) => {
    const asc = await listAll({ type: 'all', sort: key });
    const desc = await listAll({ type: 'all', sort: `-${key}` });
    expect(asc.params.sort).toBe(key);
    expect(desc.params.sort).toBe(`-${key}`);
    expect(asc.params.total).toBe(everyone.length);
    expect(desc.params.total).toBe(everyone.length);
    const ascValues = asc.items.map(value);
    const descValues = desc.items.map(value);
    expect(distinct(ascValues), `${key} needs two distinct values to mean anything`).toBeGreaterThan(1);
    expectOrdered(ascValues, false, `${key} ascending`);
    expectOrdered(descValues, true, `${key} descending`);
    expect(asc.items.map((a) => a.id).sort()).toEqual(everyone.map((a) => a.id).sort());
  });

  it('pages with limit and offset; the pages add up to the whole list', async () => {
    const whole = await listAll({ sort: 'client.email' });
    const seen: number[] = [];
    for (let offset = 0; offset < whole.params.total; offset += 7) {
      const r = await api.get<List<Account>>('/accounts', { sort: 'client.email', limit: 7, offset });
      expect(r.status).toBe(200);
      expect(r.body.params).toEqual({ limit: 7, offset, sort: 'client.email', total: whole.params.total });
      expect(r.body.items.length).toBe(Math.min(7, whole.params.total - offset));
      seen.push(...r.body.items.map((a) => a.id));
    }
    expect(seen).toEqual(whole.items.map((a) => a.id));
    const past = await api.get<List<Account>>('/accounts', { offset: whole.params.total + 10 });
    expect(past.status).toBe(200);
    expect(past.body.items).toEqual([]);
    expect(past.body.params.total).toBe(whole.params.total);
  });

  it('rejects an unknown sort key and a bad limit or offset with 422', async () => {
    expectValidation(await api.get('/accounts', { sort: 'client.phone' }), ['sort']);
    expectValidation(await api.get('/accounts', { sort: '-nothing' }), ['sort']);
    expectValidation(await api.get('/accounts', { limit: 0 }), ['limit']);
    expectValidation(await api.get('/accounts', { limit: 'ten' }), ['limit']);
    expectValidation(await api.get('/accounts', { offset: -1 }), ['offset']);
  });

  it('reads names of Object.prototype as unknown sort keys (422), never as keys', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const sort of [name, `-${name}`]) {
        const r = await api.get('/accounts', { sort });
        expect(r.status, `sort=${sort}: ${r.text}`).toBe(422);
        const body = expectValidation(r, ['sort']);
        expect(body.message).toContain('client.first_name');
      }
    }
  });
});

describe('POST /accounts', () => {
  it('creates an account from flat dotted keys and answers 200 with the account', async () => {
    const body = newAccountBody({
      type: 'CLIENT',
      'client.phone.code': '1',
      'client.phone.number': '512-555-0199',
      'client.phone.country': 'us',
    });
    const r = await api.post<Account>('/accounts', body);
    expect(r.status, r.text).toBe(200);
    const a = r.body;
    expectAccount(a);
    expect(a.type).toBe('CLIENT');
    expect(a.client).toMatchObject({
      first_name: body['client.first_name'],
      last_name: body['client.last_name'],
      email: body['client.email'],
    });
    expect(a.client.phone, 'country comes back upper case; the calling code carries +').toEqual({
      code: '+1',
      number: '5125550199',
      country: 'US',
    });
    expect(a.client.status).toBe('NEW');
    expect(a.coclient.id, 'no co-client was given').toBeNull();
    expect(a.favorited).toBe(false);
    expect(a.archived).toBe(false);
    expect(a.pipeline.id, 'a new client starts in the first client stage').toBe(
      user.pipelines.find((p) => p.type === 'CLIENT')?.id,
    );
    expect(a.created_at).toBe(a.updated_at);
    expect(a.id).toBeGreaterThan(Math.max(...everyone.map((x) => x.id)));
  });

  it('creates an account with a co-client from a nested JSON body', async () => {
    const tag = uniqueTag('nest');
    const r = await api.post<Account>('/accounts', {
      type: 'PROSPECT',
      client: {
        first_name: 'Nadia',
        last_name: `Nest${tag}`,
        email: `nadia.${tag}@example.net`,
        phone: { country: 'gb', code: '+44', number: '7700900123' },
      },
      coclient: {
        first_name: 'Omar',
        last_name: `Nest${tag}`,
        email: `omar.${tag}@example.net`,
        phone: { country: 'US', code: '+1', number: '3213211212' },
      },
    });
    expect(r.status, r.text).toBe(200);
    const a = r.body;
    expectAccount(a);
    expect(a.type).toBe('PROSPECT');
    expect(a.client).toMatchObject({
      first_name: 'Nadia',
      last_name: `Nest${tag}`,
      email: `nadia.${tag}@example.net`,
      phone: { code: '+44', number: '7700900123', country: 'GB' },
    });
    expect(a.coclient).toMatchObject({
      first_name: 'Omar',
      email: `omar.${tag}@example.net`,
      phone: { code: '+1', number: '3213211212', country: 'US' },
      status: 'NEW',
    });
    expect(a.coclient.id).not.toBe(a.client.id);
    expect(a.pipeline.id).toBe(user.pipelines.find((p) => p.type === 'PROSPECT')?.id);
    const read = await api.get<Account>(`/accounts/${a.id}`);
    expect(read.body).toEqual(a);
  });

  it('creates an account from a form-encoded body with dotted keys', async () => {
    const body = newAccountBody({
      'coclient.first_name': 'Pia',
      'coclient.last_name': 'Form',
      'coclient.email': `pia.${uniqueTag()}@example.net`,
      'coclient.phone.country': 'de',
    });
    const r = await api.postForm<Account>('/accounts', body);
    expect(r.status, r.text).toBe(200);
    expectAccount(r.body);
    expect(r.body.client.email).toBe(body['client.email']);
    expect(r.body.coclient).toMatchObject({
      first_name: 'Pia',
      last_name: 'Form',
      email: body['coclient.email'],
    });
    expect(r.body.coclient.phone.country).toBe('DE');
  });

  it('lists, reads and finds the new account by query', async () => {
    const a = await createAccount();
    const first = await api.get<List<Account>>('/accounts');
    expect(first.body.items[0]?.id, 'newest first by default').toBe(a.id);
    const found = await listAll({ query: a.client.email as string });
    expect(found.items.map((x) => x.id)).toEqual([a.id]);
    expect(found.items[0]).toEqual(a);
    const read = await api.get<Account>(`/accounts/${a.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(a);
  });

  it('answers 422 with Laravel-style field errors', async () => {
    const empty = expectValidation(await api.post('/accounts', {}), [
      'type',
      'client.first_name',
      'client.last_name',
      'client.email',
    ]);
    expect(empty.errors.type?.[0]).toMatch(/type/);
    expectValidation(await api.post('/accounts', newAccountBody({ 'client.email': 'not-an-email' })), [
      'client.email',
    ]);
    expectValidation(await api.post('/accounts', newAccountBody({ type: 'LEAD' })), ['type']);
    expectValidation(await api.post('/accounts', newAccountBody({ 'client.phone.country': 'XX' })), [
      'client.phone.country',
    ]);
    expectValidation(await api.post('/accounts', newAccountBody({ 'client.phone.country': 'USA' })), [
      'client.phone.country',
    ]);
    const partial = expectValidation(
      await api.post('/accounts', newAccountBody({ 'coclient.first_name': 'Half' })),
      ['coclient.last_name', 'coclient.email'],
    );
    expect(Object.keys(partial.errors)).not.toContain('client.email');
    const body = newAccountBody();
    expectValidation(
      await api.post('/accounts', {
        ...body,
        'coclient.first_name': 'Twin',
        'coclient.last_name': 'Same',
        'coclient.email': body['client.email'],
      }),
      ['coclient.email'],
    );
    const nested = expectValidation(
      await api.post('/accounts', {
        type: 'CLIENT',
        client: { first_name: 'Ann', last_name: 'Bee', email: 'ann@' },
      }),
      ['client.email'],
    );
    expect(nested.errors['client.email']?.[0]).toContain('client.email');
    // Nothing was created by the refused requests.
    expect((await listAll({ query: body['client.first_name'] as string })).params.total).toBe(0);
  });

  it('refuses __proto__, constructor and prototype in body keys with 422 naming the field; no prototype changes', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const raw = (entries: [string, unknown][]) =>
      `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
    const body = newAccountBody();
    const cases: [string, RequestOptions][] = [
      ['__proto__.polluted', { raw: raw([...Object.entries(body), ['__proto__.polluted', 'yes']]) }],
      [
        'constructor.prototype.polluted',
        { raw: raw([...Object.entries(body), ['constructor.prototype.polluted', 'yes']]) },
      ],
      [
        'client.__proto__.polluted',
        { raw: raw([...Object.entries(body), ['client.__proto__.polluted', 'yes']]) },
      ],
      ['__proto__', { raw: raw([...Object.entries(body), ['__proto__', { polluted: 'yes' }]]) }],
      [
        'client.__proto__',
        {
          raw: raw([
            ['type', 'CLIENT'],
            ['client', JSON.parse(raw([['__proto__', { polluted: 'yes' }]]))],
          ]),
        },
      ],
      ['client.prototype', { raw: raw([...Object.entries(body), ['client', { prototype: 'yes' }]]) }],
      ['__proto__.polluted', { form: { ...body, '__proto__.polluted': 'yes' } }],
      ['client.constructor', { form: { ...body, 'client.constructor': 'yes' } }],
    ];
    for (const [field, request] of cases) {
      const r = await api.request('POST', '/accounts', request);
      const refused = expectValidation(r, [field]);
      expect(refused.message, field).toContain(field);
      expect(({} as Record<string, unknown>).polluted, `after ${field}`).toBeUndefined();
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    // The update reads bodies the same way.
    const a = everyone[0] as Account;
    expectValidation(
      await api.request('POST', `/accounts/${a.id}`, { raw: raw([['__proto__.favorited', true]]) }),
      ['__proto__.favorited'],
    );
    expect(({} as Record<string, unknown>).favorited).toBeUndefined();
    // Nothing was created by the refused requests.
    expect((await listAll({ query: body['client.first_name'] as string })).params.total).toBe(0);
  });

  it('records an account.created activity with author, type and name', async () => {
    const a = await createAccount(newAccountBody({ type: 'CLIENT' }));
    const r = await api.get<{ items: Activity[] }>(`/accounts/${a.id}/activity`);
    expect(r.status).toBe(200);
    const created = r.body.items.filter((x) => x.type === 'account.created');
    expect(created).toHaveLength(1);
    expect(created[0]?.options).toEqual({
      author: `${user.first_name} ${user.last_name}`,
      type: 'CLIENT',
      name: `${a.client.first_name} ${a.client.last_name}`,
    });
    expect(created[0]?.created_at).toMatch(TIMESTAMP);
    expect((created[0]?.created_at ?? '') >= a.created_at, 'recorded when the account was created').toBe(
      true,
    );
  });
});

describe('GET /accounts/{account}', () => {
  it('answers the same account as the list', async () => {
    const sample = everyone.slice(0, 5);
    for (const a of sample) {
      const r = await api.get<Account>(`/accounts/${a.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(a);
    }
  });

  it('answers 404 JSON for an unknown id, a non-numeric id and an account of another team', async () => {
    expectJsonError(await api.get('/accounts/999999'), 404);
    expectJsonError(await api.get('/accounts/abc'), 404);
    const state = platform.control.store().state;
    const other = state.accounts.find((a) => a.teamId !== user.team.id);
    expect(other).toBeDefined();
    expectJsonError(await api.get(`/accounts/${other?.id}`), 404);
    expect(everyone.some((a) => a.id === other?.id)).toBe(false);
  });
});

describe('POST /accounts/{account}', () => {
  it('updates member fields and moves updated_at on every change', async () => {
    const a = await createAccount();
    const r1 = await api.post<Account>(`/accounts/${a.id}`, {
      'client.first_name': 'Renamed',
      'client.phone.country': 'ca',
      'client.phone.number': '4165550100',
      'client.phone.code': '+1',
    });
    expect(r1.status, r1.text).toBe(200);
    expectAccount(r1.body);
    expect(r1.body.client.first_name).toBe('Renamed');
    expect(r1.body.client.last_name).toBe(a.client.last_name);
    expect(r1.body.client.phone).toEqual({ code: '+1', number: '4165550100', country: 'CA' });
    expect(later(r1.body.updated_at, a.updated_at), 'updated_at moves').toBe(true);
    expect(r1.body.created_at).toBe(a.created_at);
    const r2 = await api.post<Account>(`/accounts/${a.id}`, {
      coclient: { first_name: 'Co', last_name: 'Added', email: `co.${uniqueTag()}@example.net` },
    });
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body.coclient.first_name).toBe('Co');
    expect(Number.isInteger(r2.body.coclient.id)).toBe(true);
    expect(later(r2.body.updated_at, r1.body.updated_at)).toBe(true);
    const r3 = await api.postForm<Account>(`/accounts/${a.id}`, { 'client.last_name': 'Formed' });
    expect(r3.status, r3.text).toBe(200);
    expect(r3.body.client.last_name).toBe('Formed');
    expect(later(r3.body.updated_at, r2.body.updated_at)).toBe(true);
    expect((await api.get<Account>(`/accounts/${a.id}`)).body).toEqual(r3.body);
  });

  it('changes one part of a phone and keeps the other parts (updates are partial)', async () => {
    const a = await createAccount(
      newAccountBody({
        'client.phone.code': '+44',
        'client.phone.number': '7700900123',
        'client.phone.country': 'GB',
      }),
    );
    const r = await api.post<Account>(`/accounts/${a.id}`, { 'client.phone.number': '7700900999' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.client.phone).toEqual({ code: '+44', number: '7700900999', country: 'GB' });
    const cleared = await api.post<Account>(`/accounts/${a.id}`, { client: { phone: { country: null } } });
    expect(cleared.body.client.phone).toEqual({ code: '+44', number: '7700900999', country: null });
  });

  it('sets archived: archived accounts leave the default list and come back with type archived', async () => {
    const a = await createAccount();
    const r = await api.post<Account>(`/accounts/${a.id}`, { archived: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.archived).toBe(true);
    expect(later(r.body.updated_at, a.updated_at)).toBe(true);
    expect((await listAll()).items.some((x) => x.id === a.id)).toBe(false);
    expect((await listAll({ type: 'archived' })).items.some((x) => x.id === a.id)).toBe(true);
    expect((await listAll({ type: 'all' })).items.some((x) => x.id === a.id)).toBe(true);
    const back = await api.postForm<Account>(`/accounts/${a.id}`, { archived: 'false' });
    expect(back.status, back.text).toBe(200);
    expect(back.body.archived).toBe(false);
    expect(later(back.body.updated_at, r.body.updated_at)).toBe(true);
    expect((await listAll()).items.some((x) => x.id === a.id)).toBe(true);
  });

  it('sets favorited and the favorite filter follows', async () => {
    const a = await createAccount();
    const r = await api.post<Account>(`/accounts/${a.id}`, { favorited: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.favorited).toBe(true);
    expect(later(r.body.updated_at, a.updated_at)).toBe(true);
    expect((await listAll({ type: 'favorite' })).items.some((x) => x.id === a.id)).toBe(true);
    const off = await api.post<Account>(`/accounts/${a.id}`, { favorited: false });
    expect(off.body.favorited).toBe(false);
    expect((await listAll({ type: 'favorite' })).items.some((x) => x.id === a.id)).toBe(false);
    expectValidation(await api.post(`/accounts/${a.id}`, { favorited: 'maybe' }), ['favorited']);
  });

  it('moves the account to a pipeline stage with pipeline.id (flat and nested)', async () => {
    const a = await createAccount(newAccountBody({ type: 'PROSPECT' }));
    const stages = user.pipelines.filter((p) => p.type === 'PROSPECT');
    expect(stages.length).toBeGreaterThan(1);
    const second = stages[1] as (typeof stages)[number];
    const r = await api.post<Account>(`/accounts/${a.id}`, { 'pipeline.id': second.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.pipeline).toEqual({
      id: second.id,
      icon: second.icon,
      title: second.title,
      description: second.description,
    });
    expect(later(r.body.updated_at, a.updated_at)).toBe(true);
    expect((await listAll({ pipeline: second.id })).items.some((x) => x.id === a.id)).toBe(true);
    const third = stages[2] as (typeof stages)[number];
    const nested = await api.post<Account>(`/accounts/${a.id}`, { pipeline: { id: third.id } });
    expect(nested.body.pipeline.id).toBe(third.id);
    expectValidation(
      await api.post(`/accounts/${a.id}`, { 'pipeline.id': '00000000-0000-4000-8000-000000000000' }),
      ['pipeline.id'],
    );
    const clientStage = user.pipelines.find((p) => p.type === 'CLIENT') as (typeof stages)[number];
    expectValidation(await api.post(`/accounts/${a.id}`, { 'pipeline.id': clientStage.id }), ['pipeline.id']);
    expect((await api.get<Account>(`/accounts/${a.id}`)).body.pipeline.id).toBe(third.id);
  });

  it('records an account.updated activity with author and name on each change', async () => {
    const a = await createAccount();
    await api.post(`/accounts/${a.id}`, { favorited: true });
    await api.post(`/accounts/${a.id}`, { 'client.first_name': 'Changed' });
    const r = await api.get<{ items: Activity[] }>(`/accounts/${a.id}/activity`, { type: 'account.updated' });
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(2);
    expect(r.body.items[0]?.options).toEqual({
      author: `${user.first_name} ${user.last_name}`,
      name: `Changed ${a.client.last_name}`,
    });
  });

  it('validates an update with 422 and changes nothing', async () => {
    const a = await createAccount();
    expectValidation(await api.post(`/accounts/${a.id}`, { 'client.email': 'broken', favorited: true }), [
      'client.email',
    ]);
    expectValidation(await api.post(`/accounts/${a.id}`, { 'client.first_name': '' }), ['client.first_name']);
    expectValidation(await api.post(`/accounts/${a.id}`, { type: 'CUSTOMER' }), ['type']);
    expectValidation(await api.post(`/accounts/${a.id}`, { archived: 'sometimes' }), ['archived']);
    expect((await api.get<Account>(`/accounts/${a.id}`)).body).toEqual(a);
    expectJsonError(await api.post('/accounts/999999', { favorited: true }), 404);
  });

  it('converts a prospect to a client with type CLIENT; the assistant gets 403', async () => {
    const a = await createAccount(newAccountBody({ type: 'PROSPECT' }));
    const denied = await assistant.post(`/accounts/${a.id}`, { type: 'CLIENT' });
    expectJsonError(denied, 403);
    expect((await api.get<Account>(`/accounts/${a.id}`)).body.type).toBe('PROSPECT');
    const r = await api.post<Account>(`/accounts/${a.id}`, { type: 'CLIENT' });
    expect(r.status, r.text).toBe(200);
    expectAccount(r.body);
    expect(r.body.type).toBe('CLIENT');
    expect(user.pipelines.find((p) => p.id === r.body.pipeline.id)?.type).toBe('CLIENT');
    expect(later(r.body.updated_at, a.updated_at)).toBe(true);
    expect((await listAll({ type: 'client' })).items.some((x) => x.id === a.id)).toBe(true);
    expect((await listAll({ type: 'prospect' })).items.some((x) => x.id === a.id)).toBe(false);
  });

  it('lets the assistant change flags and fields it has permissions for', async () => {
    const a = await createAccount();
    const r = await assistant.post<Account>(`/accounts/${a.id}`, {
      favorited: true,
      'client.last_name': 'ByAssistant',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.favorited).toBe(true);
    expect(r.body.client.last_name).toBe('ByAssistant');
  });
});

describe('quality', () => {
  it('the score is an integer from 0 to 100 that follows the rules', async () => {
    const accounts = (await listAll({ type: 'all' })).items;
    const byRules = new Map<string, Set<number>>();
    for (const a of accounts) {
      const { score, rules } = a.quality;
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
      expect(rules.length).toBeGreaterThan(0);
      const valid = rules.filter((r) => r.valid).length;
      if (valid === rules.length) expect(score, `account ${a.id}: every rule holds`).toBe(100);
      else if (valid === 0) expect(score, `account ${a.id}: no rule holds`).toBe(0);
      else {
        expect(score, `account ${a.id}: some rules hold`).toBeGreaterThan(0);
        expect(score).toBeLessThan(100);
      }
      const key = JSON.stringify(rules);
      byRules.set(key, (byRules.get(key) ?? new Set()).add(score));
    }
    for (const [rules, scores] of byRules) expect(scores.size, `same rules, same score: ${rules}`).toBe(1);
  });

  it('a rule that starts to hold raises the score', async () => {
    const a = await createAccount();
    const phoneRule = a.quality.rules.findIndex((r) => /phone/i.test(r.message));
    expect(phoneRule, 'a phone rule exists').toBeGreaterThanOrEqual(0);
    expect(a.quality.rules[phoneRule]?.valid).toBe(false);
    const r = await api.post<Account>(`/accounts/${a.id}`, {
      'client.phone.code': '+1',
      'client.phone.number': '5125550111',
      'client.phone.country': 'US',
    });
    expect(r.body.quality.rules[phoneRule]?.valid).toBe(true);
    expect(r.body.quality.score).toBeGreaterThan(a.quality.score);
  });
});

describe('DELETE /accounts/{account}', () => {
  it('asks for the password: missing or wrong is 422, the assistant is refused, the right one deletes (204, then 404)', async () => {
    const a = await createAccount();
    expectValidation(await api.delete(`/accounts/${a.id}`), ['password']);
    expectValidation(await api.delete(`/accounts/${a.id}`, { password: '' }), ['password']);
    expectValidation(await api.delete(`/accounts/${a.id}`, { password: 'wrong-password' }), ['password']);
    expectJsonError(await assistant.delete(`/accounts/${a.id}`, { password: PASSWORD }), 403);
    // An account that is not there is not found, whoever asks.
    expectJsonError(await assistant.delete('/accounts/999999', { password: PASSWORD }), 404);
    expect((await api.get(`/accounts/${a.id}`)).status, 'still there').toBe(200);
    const template = user.templates[0]?.id as string;
    const engagement = await api.post<{ id: string }>('/engagements', {
      template_id: template,
      account_id: a.id,
      member_id: a.client.id,
    });
    expect(engagement.status).toBe(200);
    const ok = await api.delete(`/accounts/${a.id}`, { password: PASSWORD });
    expect(ok.status, ok.text).toBe(204);
    expect(ok.text).toBe('');
    expectJsonError(await api.get(`/accounts/${a.id}`), 404);
    expectJsonError(await api.get(`/accounts/${a.id}/activity`), 404);
    expectJsonError(await api.get(`/engagements/${engagement.body.id}`), 404);
    expect((await listAll({ type: 'all' })).items.some((x) => x.id === a.id)).toBe(false);
    expectJsonError(await api.delete(`/accounts/${a.id}`, { password: PASSWORD }), 404);
  });

  it('takes the password from a form-encoded body too', async () => {
    const a = await createAccount();
    const r = await api.request('DELETE', `/accounts/${a.id}`, { form: { password: PASSWORD } });
    expect(r.status, r.text).toBe(204);
    expectJsonError(await api.get(`/accounts/${a.id}`), 404);
  });
});

describe('GET /accounts/{account}/profile', () => {
  it('answers an array of profile values of the account members, typed as documented', async () => {
    const dataset = (await api.get<FlatStructure>('/config/dataset')).body;
    const elementIds = new Set(dataset.elements.map((e) => e.id));
    let seen = 0;
    for (const a of everyone.slice(0, 25)) {
      const r = await api.get<ProfileValue[]>(`/accounts/${a.id}/profile`);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      for (const v of r.body) {
        expectKeys(v, PROFILE_KEYS, 'profile value');
        expectWire(ProfileValueSchema, v, 'profile value');
        expect(v.id).toMatch(UUID);
        expect(v.row_id).toMatch(UUID);
        expect(v.dataset_id).toMatch(UUID);
        expect(elementIds.has(v.dataset_id), 'dataset_id names a dataset element').toBe(true);
        expect([a.client.id, a.coclient.id]).toContain(v.member_id);
        expect(typeof v.type).toBe('string');
        expect(typeof v.value).toBe('string');
        seen++;
      }
    }
    expect(seen, 'the seed fills some profiles').toBeGreaterThan(0);
    const fresh = await createAccount();
    expect((await api.get(`/accounts/${fresh.id}/profile`)).body).toEqual([]);
    expectJsonError(await api.get('/accounts/999999/profile'), 404);
  });
});

describe('GET /accounts/{account}/activity', () => {
  let richest: Account;
  let all: Activity[];

  beforeAll(async () => {
    // The account with the longest timeline, plus a few changes of our own.
    let best: [Account, number] | null = null;
    for (const a of everyone.filter((x) => !x.archived)) {
      const n = (await api.get<{ items: Activity[] }>(`/accounts/${a.id}/activity`, { limit: 500 })).body
        .items.length;
      if (!best || n > best[1]) best = [a, n];
    }
    richest = (best as [Account, number])[0];
    await api.post(`/accounts/${richest.id}`, { favorited: !richest.favorited });
    await api.post(`/accounts/${richest.id}`, { favorited: richest.favorited });
    all = (await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, { limit: 500 })).body
      .items;
  });

  it('answers items only, newest first, each activity shaped as documented', async () => {
    const r = await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`);
    expect(r.status).toBe(200);
    expectKeys(r.body, ['items'], 'activity list');
    expectWire(wireObject('ActivityList', { items: z.array(AccountActivity) }), r.body, 'activity list');
    expect(r.body.items.length).toBe(Math.min(50, all.length));
    expect(all.length).toBeGreaterThan(3);
    expectOrdered(
      r.body.items.map((x) => x.created_at),
      true,
      'default -created_at',
    );
    const icons = (await api.get<string[]>('/config/icons')).body;
    const config = (await api.get<Record<string, { icon: string; options: string[] }>>('/config/activities'))
      .body;
    for (const x of all) {
      expectKeys(x, ACTIVITY_KEYS, 'activity');
      expectWire(AccountActivity, x, 'activity');
      expect(Number.isInteger(x.id)).toBe(true);
      expect(x.created_at).toMatch(TIMESTAMP);
      expect(icons).toContain(x.icon);
      expect(typeof x.description).toBe('string');
      expect(config[x.type], `activity type ${x.type} is configured`).toBeDefined();
      expect(x.icon).toBe(config[x.type]?.icon);
      expect(Object.keys(x.options).sort(), `options of ${x.type}`).toEqual(
        [...(config[x.type]?.options ?? [])].sort(),
      );
      for (const v of Object.values(x.options)) expect(typeof v).toBe('string');
    }
  });

  it('sorts by type and created_at in both directions', async () => {
    for (const key of ['type', 'created_at'] as const) {
      const asc = (
        await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, { sort: key, limit: 500 })
      ).body.items;
      const desc = (
        await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, {
          sort: `-${key}`,
          limit: 500,
        })
      ).body.items;
      expect(distinct(asc.map((x) => x[key]))).toBeGreaterThan(1);
      expectOrdered(
        asc.map((x) => x[key]),
        false,
        `activity ${key}`,
      );
      expectOrdered(
        desc.map((x) => x[key]),
        true,
        `activity -${key}`,
      );
      expect(asc).toHaveLength(all.length);
    }
    expectValidation(await api.get(`/accounts/${richest.id}/activity`, { sort: 'description' }), ['sort']);
  });

  it('pages 50 activities by default', async () => {
    const a = await createAccount();
    for (let i = 0; i < 52; i++) {
      const r = await api.post(`/accounts/${a.id}`, { favorited: i % 2 === 0 });
      expect(r.status).toBe(200);
    }
    const first = (await api.get<{ items: Activity[] }>(`/accounts/${a.id}/activity`)).body.items;
    expect(first).toHaveLength(50);
    const rest = (await api.get<{ items: Activity[] }>(`/accounts/${a.id}/activity`, { offset: 50 })).body
      .items;
    expect(rest).toHaveLength(3);
    expect(rest.at(-1)?.type, 'the oldest is the creation').toBe('account.created');
    expect(new Set([...first, ...rest].map((x) => x.id)).size).toBe(53);
  });

  it('filters by type and pages with limit and offset', async () => {
    const updated = (
      await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, {
        type: 'account.updated',
        limit: 500,
      })
    ).body.items;
    expect(updated.length).toBeGreaterThanOrEqual(2);
    expect(updated.every((x) => x.type === 'account.updated')).toBe(true);
    expect(updated.length).toBe(all.filter((x) => x.type === 'account.updated').length);
    expect(
      (await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, { type: 'no.such.type' }))
        .body.items,
    ).toEqual([]);
    const pages: number[] = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      const r = await api.get<{ items: Activity[] }>(`/accounts/${richest.id}/activity`, {
        limit: 2,
        offset,
      });
      expect(r.body.items.length).toBe(Math.min(2, all.length - offset));
      pages.push(...r.body.items.map((x) => x.id));
    }
    expect(pages).toEqual(all.map((x) => x.id));
    expectValidation(await api.get(`/accounts/${richest.id}/activity`, { limit: 0 }), ['limit']);
  });
});

describe('account files', () => {
  it('serves profile documents and images by element, index and name', async () => {
    let document: { account: number; value: ProfileValue; index: number } | null = null;
    let image: { account: number; value: ProfileValue } | null = null;
    for (const a of everyone) {
      if (document && image) break;
      const profile = (await api.get<ProfileValue[]>(`/accounts/${a.id}/profile`)).body;
      if (!document) {
        const v = profile.find((x) => x.type === 'FILE');
        if (v)
          document = {
            account: a.id,
            value: v,
            index: profile.filter((x) => x.type === 'FILE' && x.dataset_id === v.dataset_id).indexOf(v),
          };
      }
      if (!image) {
        const v = profile.find((x) => x.type === 'IMAGE');
        if (v) image = { account: a.id, value: v };
      }
    }
    expect(document, 'a seeded profile document').not.toBeNull();
    expect(image, 'a seeded profile image').not.toBeNull();
    const d = document as { account: number; value: ProfileValue; index: number };
    const i = image as { account: number; value: ProfileValue };

    const pdf = await api.bytes(
      `/accounts/${d.account}/file/document/${d.value.dataset_id}/${d.index}/${encodeURIComponent(d.value.value)}`,
    );
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(Number(pdf.headers.get('content-length'))).toBe(pdf.bytes.length);

    const png = await api.bytes(
      `/accounts/${i.account}/file/image/${i.value.dataset_id}/${encodeURIComponent(i.value.value)}`,
    );
    expect(png.status).toBe(200);
    expect(png.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(png.headers.get('content-type')).toMatch(/^image\/png/);

    expectJsonError(
      await api.get(`/accounts/${d.account}/file/document/${d.value.dataset_id}/${d.index}/other-name.pdf`),
      404,
    );
    expectJsonError(
      await api.get(
        `/accounts/${d.account}/file/document/${d.value.dataset_id}/99/${encodeURIComponent(d.value.value)}`,
      ),
      404,
    );
    expectJsonError(await api.get(`/accounts/${i.account}/file/image/${i.value.dataset_id}/nope.png`), 404);
    expectJsonError(
      await api.get(`/accounts/999999/file/image/${i.value.dataset_id}/${encodeURIComponent(i.value.value)}`),
      404,
    );
  });
});
