// The app's account rules (shared/account-rules.ts) against the platform itself: for each body,
// the messages the form shows before saving are exactly the 422 `errors` the version 2 interface
// answers, word for word, and a body the rules accept is accepted.

import { beforeAll, describe, expect, it } from 'vitest';
import { checkAccount, normalizeAccount, type AccountFields } from '@shared/account-rules.ts';
import { v2Client, type Account, type Api, contractSandbox } from './helpers.ts';

const platform = contractSandbox();
let api: Api;
let n = 0;
const unique = () => `rules${++n}.${Date.now()}@example.com`;

beforeAll(async () => {
  api = await v2Client(platform);
});

const valid = (): AccountFields => ({
  type: 'PROSPECT',
  'client.first_name': 'Nora',
  'client.last_name': 'Quist',
  'client.email': unique(),
});

/** The platform's answer to a body: its field errors, or {} when it took it. */
async function answer(method: 'create' | 'update', body: AccountFields, id?: number) {
  const reply = await api.request<{ errors?: Record<string, string[]> }>(
    'POST',
    method === 'create' ? '/accounts' : `/accounts/${id}`,
    { json: body },
  );
  if (reply.status === 200 || reply.status === 201) return {};
  expect(reply.status, reply.text).toBe(422);
  return reply.body.errors ?? {};
}

const CREATES: [string, AccountFields][] = [
  ['nothing at all', {}],
  ['an unknown type', { ...valid(), type: 'LEAD' }],
  ['a valid prospect', valid()],
  ['a malformed email', { ...valid(), 'client.email': 'nora.quist@' }],
  ['a name too long', { ...valid(), 'client.last_name': 'Q'.repeat(256) }],
  [
    'a phone with a bad code, number and country',
    { ...valid(), 'client.phone.code': 'abc', 'client.phone.number': '12', 'client.phone.country': 'XX' },
  ],
  [
    'a phone written loosely',
    {
      ...valid(),
      'client.phone.code': '1',
      'client.phone.number': '(555) 014-2770',
      'client.phone.country': 'us',
    },
  ],
  ['a calling code too long for its format', { ...valid(), 'client.phone.code': '+12345' }],
  ['a co-client with a first name only', { ...valid(), 'coclient.first_name': 'Omar' }],
  ['a co-client with a phone only', { ...valid(), 'coclient.phone.number': '5550142' }],
  [
    'a co-client with the client’s email',
    {
      ...valid(),
      'client.email': 'same@example.com',
      'coclient.first_name': 'Omar',
      'coclient.last_name': 'Quist',
      'coclient.email': 'SAME@example.com',
    },
  ],
  ['blank names', { ...valid(), 'client.first_name': '  ', 'client.last_name': '' }],
];

describe('account rules, as the platform answers a create', () => {
  it.each(CREATES)('%s', async (_name, body) => {
    expect(checkAccount(body, { mode: 'create' })).toEqual(await answer('create', body));
  });

  it('normalizes the way the platform stores', async () => {
    const body = normalizeAccount({
      ...valid(),
      'client.first_name': ' Nora ',
      'client.phone.code': '44',
      'client.phone.number': '020 7946-0958',
      'client.phone.country': 'gb',
      'coclient.email': '',
    });
    expect(checkAccount(body, { mode: 'create' })).toEqual({});
    const reply = await api.request<Account>('POST', '/accounts', { json: body });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.client).toMatchObject({
      first_name: body['client.first_name'],
      phone: {
        code: body['client.phone.code'],
        number: body['client.phone.number'],
        country: body['client.phone.country'],
      },
    });
  });
});

describe('account rules, as the platform answers an update', () => {
  let single: number;
  let couple: number;
  beforeAll(async () => {
    single = (await api.request<Account>('POST', '/accounts', { json: valid() })).body.id;
    couple = (
      await api.request<Account>('POST', '/accounts', {
        json: {
          ...valid(),
          'coclient.first_name': 'Omar',
          'coclient.last_name': 'Quist',
          'coclient.email': unique(),
        },
      })
    ).body.id;
  });

  const UPDATES: [string, 'single' | 'couple', AccountFields][] = [
    ['an emptied first name', 'single', { 'client.first_name': '' }],
    ['a malformed email', 'single', { 'client.email': 'nora' }],
    ['a co-client added with a first name only', 'single', { 'coclient.first_name': 'Omar' }],
    [
      'a co-client’s email set to the client’s',
      'couple',
      { 'client.email': 'x@example.com', 'coclient.email': 'x@example.com' },
    ],
    ['a valid change', 'couple', { 'coclient.phone.number': '555-0100' }],
  ];

  it.each(UPDATES)('%s', async (_name, which, body) => {
    const id = which === 'single' ? single : couple;
    const local = checkAccount(body, { mode: 'update', hadCoclient: which === 'couple' });
    expect(local).toEqual(await answer('update', body, id));
  });
});
