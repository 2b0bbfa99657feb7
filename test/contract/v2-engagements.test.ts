// Contract tests of the version 2 engagements endpoints: list (filters, sort, paging), create,
// read, close and reopen, delete with password, preview, data, and the documents, signatures and
// history lists with their files.

import { beforeAll, describe, expect, it } from 'vitest';
import { listV2 } from '@shared/wire/lists.ts';
import {
  EngagementDataItem,
  EngagementDocument,
  EngagementHistoryItem,
  EngagementSignature,
} from '@shared/wire/v2/engagement-parts.ts';
import { Engagement as EngagementSchema } from '@shared/wire/v2/engagement.ts';
import {
  ASSISTANT,
  ENGAGEMENT_KEYS,
  PASSWORD,
  PROFILE_KEYS,
  TIMESTAMP,
  UUID,
  distinct,
  expectJsonError,
  expectKeys,
  expectWire,
  expectOrdered,
  expectValidation,
  later,
  v2Client,
  type Account,
  type Activity,
  type Api,
  type DataItem,
  type Engagement,
  type FlatStructure,
  type HistoryItem,
  type List,
  type ProfileValue,
  type Signature,
  type SortValue,
  type User,
  contractSandbox,
} from './helpers.ts';

const platform = contractSandbox();
let api: Api;
let assistant: Api;
let user: User;
let accounts: Account[];
/** Every engagement the advisor sees, after the ones this file creates up front. */
let everyone: Engagement[];

const isPdf = (b: Buffer) => b.subarray(0, 4).toString('latin1') === '%PDF';
const isPng = (b: Buffer) => b.subarray(0, 4).toString('latin1') === '\x89PNG';

function expectEngagement(e: Engagement): void {
  expectKeys(e, ENGAGEMENT_KEYS, `engagement ${e.id}`);
  expectWire(EngagementSchema, e, `engagement ${e.id}`);
  expect(e.id).toMatch(UUID);
  expect(e.template_id).toMatch(UUID);
  expect(Number.isInteger(e.account_id)).toBe(true);
  expect(Number.isInteger(e.member_id)).toBe(true);
  for (const k of ['title', 'description', 'name', 'email'] as const) expect(typeof e[k], k).toBe('string');
  expect(['HIGH', 'LOW']).toContain(e.security);
  expect(['NEW', 'COMPLETED']).toContain(e.status);
  expect(Number.isInteger(e.filled)).toBe(true);
  expect(Number.isInteger(e.time)).toBe(true);
  expect(e.created_at).toMatch(TIMESTAMP);
  for (const k of ['opened_at', 'reminded_at', 'completed_at'] as const)
    if (e[k] !== null) expect(e[k], k).toMatch(TIMESTAMP);
  expect(e.completed_at !== null, 'completed_at is set exactly when COMPLETED').toBe(
    e.status === 'COMPLETED',
  );
  expect(typeof e.email_reminders).toBe('boolean');
  expect(typeof e.email_completed).toBe('boolean');
  expect(e.url).toBe(`${platform.url}/api/v2/engagements/${e.id}/preview`);
}

async function listAll(query: Record<string, string | number> = {}): Promise<List<Engagement>> {
  const r = await api.get<List<Engagement>>('/engagements', { limit: 500, ...query });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

async function create(
  account: Account,
  member: 'client' | 'coclient' = 'client',
  extra: Record<string, unknown> = {},
  template = user.templates[0],
): Promise<Engagement> {
  const r = await api.post<Engagement>('/engagements', {
    template_id: template?.id,
    account_id: account.id,
    member_id: account[member].id,
    ...extra,
  });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

beforeAll(async () => {
  api = await v2Client(platform);
  assistant = await v2Client(platform, ASSISTANT);
  user = (await api.get<User>('/user')).body;
  accounts = (await api.get<List<Account>>('/accounts', { type: 'all', limit: 500 })).body.items;
  // Enough engagements that the default page of 50 is full, with a few of every template.
  const withCo = accounts.filter((a) => a.coclient.id !== null);
  const seeded = (await listAll()).params.total;
  for (let i = 0; i < Math.max(12, 56 - seeded); i++) {
    const account = (i % 2 ? withCo[i % withCo.length] : accounts[i % accounts.length]) as Account;
    await create(
      account,
      i % 2 ? 'coclient' : 'client',
      { email_reminders: i % 3 === 0, email_completed: i % 4 === 0 },
      user.templates[i % user.templates.length],
    );
  }
  everyone = (await listAll()).items;
});

describe('GET /engagements', () => {
  it('answers items and params with the defaults: sort -created_at, limit 50, offset 0', async () => {
    const r = await api.get<List<Engagement>>('/engagements');
    expect(r.status).toBe(200);
    expectKeys(r.body, ['items', 'params'], 'list');
    expectWire(listV2(EngagementSchema), r.body, 'engagement list');
    expect(r.body.params).toEqual({ limit: 50, offset: 0, sort: '-created_at', total: everyone.length });
    expect(everyone.length).toBeGreaterThan(50);
    expect(r.body.items).toHaveLength(50);
    expectOrdered(
      r.body.items.map((e) => e.created_at),
      true,
      'default order',
    );
    for (const e of everyone) expectEngagement(e);
    const ids = new Set(accounts.map((a) => a.id));
    expect(
      everyone.every((e) => ids.has(e.account_id)),
      'only engagements of the team accounts',
    ).toBe(true);
    for (const e of everyone) {
      const a = accounts.find((x) => x.id === e.account_id) as Account;
      expect([a.client.id, a.coclient.id], 'member_id is the client or co-client').toContain(e.member_id);
    }
  });

  it('filters by type: completed and in-progress split the list', async () => {
    const done = await listAll({ type: 'completed' });
    const open = await listAll({ type: 'in-progress' });
    expect(done.items.length).toBeGreaterThan(0);
    expect(open.items.length).toBeGreaterThan(0);
    expect(done.items.every((e) => e.status === 'COMPLETED')).toBe(true);
    expect(open.items.every((e) => e.status !== 'COMPLETED')).toBe(true);
    expect(done.params.total + open.params.total).toBe(everyone.length);
    expectValidation(await api.get('/engagements', { type: 'finished' }), ['type']);
  });

  it('filters by account_id, member_id and template_id', async () => {
    const sample = everyone[3] as Engagement;
    const byAccount = await listAll({ account_id: sample.account_id });
    expect(byAccount.items.map((e) => e.id).sort()).toEqual(
      everyone
        .filter((e) => e.account_id === sample.account_id)
        .map((e) => e.id)
        .sort(),
    );
    const byMember = await listAll({ member_id: sample.member_id });
    expect(byMember.items.map((e) => e.id).sort()).toEqual(
      everyone
        .filter((e) => e.member_id === sample.member_id)
        .map((e) => e.id)
        .sort(),
    );
    for (const t of user.templates) {
      const byTemplate = await listAll({ template_id: t.id });
      expect(byTemplate.items.map((e) => e.id).sort(), t.title).toEqual(
        everyone
          .filter((e) => e.template_id === t.id)
          .map((e) => e.id)
          .sort(),
      );
    }
    const combined = await listAll({
      account_id: sample.account_id,
      template_id: sample.template_id,
      type: sample.status === 'COMPLETED' ? 'completed' : 'in-progress',
    });
    expect(combined.items.map((e) => e.id)).toContain(sample.id);
    expect(
      combined.items.every(
        (e) =>
          e.account_id === sample.account_id &&
          e.template_id === sample.template_id &&
          e.status === sample.status,
      ),
    ).toBe(true);
    expect((await listAll({ account_id: 999999 })).params.total).toBe(0);
    expectValidation(await api.get('/engagements', { account_id: 'abc' }), ['account_id']);
    expectValidation(await api.get('/engagements', { member_id: '1.5' }), ['member_id']);
  });

  it('query matches engagements whose title or name starts with the value', async () => {
    const starts = (v: string, q: string) => v.toLowerCase().startsWith(q.toLowerCase());
    const sample = everyone[0] as Engagement;
    for (const q of [sample.title.slice(0, 4), sample.name.split(' ')[0] as string, sample.name, 'Annual']) {
      const r = await listAll({ query: q });
      expect(r.items.map((e) => e.id).sort(), `query ${q}`).toEqual(
        everyone
          .filter((e) => starts(e.title, q) || starts(e.name, q))
          .map((e) => e.id)
          .sort(),
      );
      expect(r.items.length, `query ${q}`).toBeGreaterThan(0);
    }
    const middle = 'review';
    expect((await listAll({ query: middle })).items.map((e) => e.id).sort()).toEqual(
      everyone
        .filter((e) => starts(e.title, middle) || starts(e.name, middle))
        .map((e) => e.id)
        .sort(),
    );
  });

  const KEYS = [
    'account_id',
    'member_id',
    'template_id',
    'title',
    'description',
    'security',
    'name',
    'email',
    'status',
    'filled',
    'created_at',
    'opened_at',
    'reminded_at',
    'completed_at',
  ] as const;
  it.each(KEYS)('sorts by %s ascending and descending', async (key) => {
    const value = (e: Engagement): SortValue => e[key];
    const asc = await listAll({ sort: key });
    const desc = await listAll({ sort: `-${key}` });
    expect(asc.params.sort).toBe(key);
    expect(desc.params.sort).toBe(`-${key}`);
    expect(distinct(asc.items.map(value)), `${key} needs two distinct values`).toBeGreaterThan(1);
    expectOrdered(asc.items.map(value), false, `${key} ascending`);
    expectOrdered(desc.items.map(value), true, `${key} descending`);
    expect(asc.items).toHaveLength(everyone.length);
  });

  it('pages with limit and offset and rejects bad paging or sort with 422', async () => {
    const whole = await listAll({ sort: 'email' });
    const seen: string[] = [];
    for (let offset = 0; offset < whole.params.total; offset += 9) {
      const r = await api.get<List<Engagement>>('/engagements', { sort: 'email', limit: 9, offset });
      expect(r.body.params).toEqual({ limit: 9, offset, sort: 'email', total: whole.params.total });
      seen.push(...r.body.items.map((e) => e.id));
    }
    expect(seen).toEqual(whole.items.map((e) => e.id));
    expectValidation(await api.get('/engagements', { sort: 'time' }), ['sort']);
    for (const sort of ['__proto__', '-__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expectValidation(await api.get('/engagements', { sort }), ['sort']);
    expectValidation(await api.get('/engagements', { limit: -5 }), ['limit']);
    expectValidation(await api.get('/engagements', { offset: 'x' }), ['offset']);
  });
});

describe('POST /engagements', () => {
  it('creates a NEW engagement from the template and the member (200)', async () => {
    const account = accounts.find((a) => a.coclient.id !== null) as Account;
    const template = user.templates[1] as User['templates'][number];
    const r = await api.post<Engagement>('/engagements', {
      template_id: template.id,
      account_id: account.id,
      member_id: account.coclient.id,
      email_new: false,
      email_reminders: true,
      email_completed: false,
    });
    expect(r.status, r.text).toBe(200);
    const e = r.body;
    expectEngagement(e);
    expect(e).toMatchObject({
      account_id: account.id,
      member_id: account.coclient.id,
      template_id: template.id,
      title: template.title,
      description: template.description,
      security: template.security,
      name: `${account.coclient.first_name} ${account.coclient.last_name}`,
      email: account.coclient.email,
      status: 'NEW',
      filled: 0,
      time: 0,
      opened_at: null,
      reminded_at: null,
      completed_at: null,
      email_reminders: true,
      email_completed: false,
    });
    const read = await api.get<Engagement>(`/engagements/${e.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(e);
    expect((await listAll({ account_id: account.id })).items.map((x) => x.id)).toContain(e.id);
    expect((await api.get<List<Engagement>>('/engagements')).body.items[0]?.id, 'newest first').toBe(e.id);
  });

  it('records an engagement.created activity on the account with author, template and name', async () => {
    const account = accounts[5] as Account;
    const template = user.templates[2] as User['templates'][number];
    const e = await create(account, 'client', {}, template);
    const r = await api.get<{ items: Activity[] }>(`/accounts/${account.id}/activity`, {
      type: 'engagement.created',
      limit: 500,
    });
    const mine = r.body.items.filter((x) => x.created_at >= e.created_at);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.options).toEqual({
      author: `${user.first_name} ${user.last_name}`,
      template: template.title,
      name: e.name,
    });
    expect(mine[0]?.icon).toBe(
      (await api.get<Record<string, { icon: string }>>('/config/activities')).body['engagement.created']
        ?.icon,
    );
  });

  it('accepts a form-encoded body and defaults the flags to false', async () => {
    const account = accounts[7] as Account;
    const template = user.templates[3] as User['templates'][number];
    const r = await api.postForm<Engagement>('/engagements', {
      template_id: template.id,
      account_id: String(account.id),
      member_id: String(account.client.id),
      email_reminders: 'true',
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      account_id: account.id,
      member_id: account.client.id,
      template_id: template.id,
      email_reminders: true,
      email_completed: false,
      status: 'NEW',
    });
  });

  it('answers 422 with field errors for missing or unknown template, account and member', async () => {
    const total = (await listAll()).params.total;
    expectValidation(await api.post('/engagements', {}), ['template_id', 'account_id', 'member_id']);
    const a = accounts[0] as Account;
    const b = accounts[1] as Account;
    const t = user.templates[0]?.id as string;
    expectValidation(
      await api.post('/engagements', {
        template_id: '00000000-0000-4000-8000-000000000000',
        account_id: a.id,
        member_id: a.client.id,
      }),
      ['template_id'],
    );
    expectValidation(
      await api.post('/engagements', { template_id: t, account_id: a.id, member_id: b.client.id }),
      ['member_id'],
    );
    expectValidation(
      await api.post('/engagements', { template_id: t, account_id: 'first', member_id: a.client.id }),
      ['account_id'],
    );
    for (const flag of ['email_new', 'email_reminders', 'email_completed'])
      expectValidation(
        await api.post('/engagements', {
          template_id: t,
          account_id: a.id,
          member_id: a.client.id,
          [flag]: 'sometimes',
        }),
        [flag],
      );
    const state = platform.control.store().state;
    const foreign = state.accounts.find((x) => x.teamId !== user.team.id);
    const foreignTemplate = state.templates.find((x) => x.teamId !== user.team.id);
    expectValidation(
      await api.post('/engagements', {
        template_id: t,
        account_id: foreign?.id,
        member_id: foreign?.client.id,
      }),
      ['account_id'],
    );
    expectValidation(
      await api.post('/engagements', {
        template_id: foreignTemplate?.id,
        account_id: a.id,
        member_id: a.client.id,
      }),
      ['template_id'],
    );
    expectValidation(
      await api.post('/engagements', {
        template_id: t,
        account_id: a.id,
        member_id: a.client.id,
        email_reminders: 'often',
      }),
      ['email_reminders'],
    );
    expect((await listAll()).params.total, 'nothing created').toBe(total);
  });
});

describe('GET /engagements/{engagement}', () => {
  it('answers the engagement as listed, 404 JSON for an unknown id', async () => {
    for (const e of everyone.slice(0, 5)) expect((await api.get(`/engagements/${e.id}`)).body).toEqual(e);
    expectJsonError(await api.get('/engagements/00000000-0000-4000-8000-000000000000'), 404);
    expectJsonError(await api.get('/engagements/not-a-uuid'), 404);
  });
});

describe('close and reopen', () => {
  it('close sets COMPLETED with completed_at; reopen sets NEW with completed_at null', async () => {
    const e = await create(accounts[10] as Account);
    const closed = await api.post<Engagement>(`/engagements/${e.id}/close`);
    expect(closed.status, closed.text).toBe(200);
    expectEngagement(closed.body);
    expect(closed.body.status).toBe('COMPLETED');
    expect(closed.body.completed_at).toMatch(TIMESTAMP);
    expect(closed.body.completed_at! >= e.created_at).toBe(true);
    expect((await api.get<Engagement>(`/engagements/${e.id}`)).body).toEqual(closed.body);
    expect((await listAll({ type: 'completed' })).items.map((x) => x.id)).toContain(e.id);

    const reopened = await api.post<Engagement>(`/engagements/${e.id}/reopen`);
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body.status).toBe('NEW');
    expect(reopened.body.completed_at).toBeNull();
    expect((await listAll({ type: 'in-progress' })).items.map((x) => x.id)).toContain(e.id);
    expect((await api.get<Engagement>(`/engagements/${e.id}`)).body).toEqual(reopened.body);
  });

  it('the assistant, without engagements.close, gets 403 and nothing changes', async () => {
    const e = await create(accounts[11] as Account);
    expectJsonError(await assistant.post(`/engagements/${e.id}/close`), 403);
    expect((await api.get<Engagement>(`/engagements/${e.id}`)).body.status).toBe('NEW');
    await api.post(`/engagements/${e.id}/close`);
    expectJsonError(await assistant.post(`/engagements/${e.id}/reopen`), 403);
    expect((await api.get<Engagement>(`/engagements/${e.id}`)).body.status).toBe('COMPLETED');
    // Reading is allowed to the assistant.
    expect((await assistant.get(`/engagements/${e.id}`)).status).toBe(200);
  });

  it('answers 404 for an unknown engagement, before any permission check', async () => {
    const unknown = '/engagements/00000000-0000-4000-8000-000000000000';
    for (const client of [api, assistant]) {
      expectJsonError(await client.post(`${unknown}/close`), 404);
      expectJsonError(await client.post(`${unknown}/reopen`), 404);
      expectJsonError(await client.delete(unknown, { password: PASSWORD }), 404);
      expectJsonError(await client.delete(unknown), 404);
    }
  });
});

describe('DELETE /engagements/{engagement}', () => {
  it('asks for the password; the assistant is refused; the right password deletes (204, then 404)', async () => {
    const e = await create(accounts[12] as Account);
    expectJsonError(await assistant.delete(`/engagements/${e.id}`, { password: PASSWORD }), 403);
    expectValidation(await api.delete(`/engagements/${e.id}`), ['password']);
    expectValidation(await api.delete(`/engagements/${e.id}`, { password: 'nope' }), ['password']);
    expect((await api.get(`/engagements/${e.id}`)).status).toBe(200);
    const r = await api.delete(`/engagements/${e.id}`, { password: PASSWORD });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expectJsonError(await api.get(`/engagements/${e.id}`), 404);
    expect((await listAll()).items.some((x) => x.id === e.id)).toBe(false);
    expectJsonError(await api.delete(`/engagements/${e.id}`, { password: PASSWORD }), 404);
  });
});

describe('GET /engagements/{engagement}/preview', () => {
  it('answers the HTML of the engagement', async () => {
    const done = everyone.find((e) => e.status === 'COMPLETED') as Engagement;
    const res = await fetch(done.url, { headers: { authorization: `Bearer ${api.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain(done.title);
    expectJsonError(await api.get('/engagements/00000000-0000-4000-8000-000000000000/preview'), 404);
  });
});

describe('GET /engagements/{engagement}/data', () => {
  it('answers 422 while the engagement is not completed', async () => {
    const open = everyone.find((e) => e.status === 'NEW') as Engagement;
    expectJsonError(await api.get(`/engagements/${open.id}/data`), 422);
  });

  it('answers data items whose path is panel, group and element title of the template', async () => {
    const dataset = (await api.get<FlatStructure>('/config/dataset')).body;
    const datasetIds = new Set(dataset.elements.map((x) => x.id));
    let checked = 0;
    for (const e of everyone.filter((x) => x.status === 'COMPLETED').slice(0, 8)) {
      const r = await api.get<DataItem[]>(`/engagements/${e.id}/data`);
      expect(r.status, r.text).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      const structure = (await api.get<FlatStructure>(`/config/template/${e.template_id}`)).body;
      for (const item of r.body) {
        expectKeys(item, [...PROFILE_KEYS, 'title', 'description', 'path'], 'data item');
        expectWire(EngagementDataItem, item, 'data item');
        expect(item.id).toMatch(UUID);
        expect(item.row_id).toMatch(UUID);
        expect(item.member_id).toBe(e.member_id);
        if (item.dataset_id !== null)
          expect(datasetIds.has(item.dataset_id), 'dataset_id names a dataset element').toBe(true);
        expect(typeof item.type).toBe('string');
        expect(typeof item.value).toBe('string');
        expect(item.description === null || typeof item.description === 'string').toBe(true);
        expect(item.path).toHaveLength(3);
        expect(item.path[2]).toBe(item.title);
        const [panelTitle, groupTitle, elementTitle] = item.path;
        const found = structure.elements.some((el) => {
          const group = structure.groups.find((g) => g.id === el.group_id);
          const panel = structure.panels.find((p) => p.id === group?.panel_id);
          return (
            el.title === elementTitle &&
            group?.title === groupTitle &&
            panel?.title === panelTitle &&
            el.type === item.type
          );
        });
        expect(found, `path ${item.path.join(' / ')} exists in the template`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('a freshly closed engagement reads as data and reopened it is 422 again', async () => {
    const e = await create(accounts[13] as Account);
    await api.post(`/engagements/${e.id}/close`);
    const r = await api.get<DataItem[]>(`/engagements/${e.id}/data`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    await api.post(`/engagements/${e.id}/reopen`);
    expectJsonError(await api.get(`/engagements/${e.id}/data`), 422);
  });
});

describe('documents, signatures and history', () => {
  let withDocs: { e: Engagement; docs: List<EngagementDocument> }[] = [];
  let withSigs: { e: Engagement; sigs: List<Signature> }[] = [];

  beforeAll(async () => {
    withDocs = [];
    withSigs = [];
    for (const e of everyone) {
      const docs = (await api.get<List<EngagementDocument>>(`/engagements/${e.id}/documents`)).body;
      if (docs.items.length) withDocs.push({ e, docs });
      const sigs = (await api.get<List<Signature>>(`/engagements/${e.id}/signatures`)).body;
      if (sigs.items.length) withSigs.push({ e, sigs });
    }
  });

  it('lists documents with the list shape and serves their files', async () => {
    expect(withDocs.length).toBeGreaterThan(0);
    let pdfs = 0;
    let pngs = 0;
    for (const { e, docs } of withDocs.slice(0, 6)) {
      expectKeys(docs, ['items', 'params'], 'documents list');
      expectWire(listV2(EngagementDocument), docs, 'documents list');
      expect(docs.params).toEqual({ limit: 50, offset: 0, sort: '-updated_at', total: docs.items.length });
      for (const d of docs.items) {
        expectKeys(d, ['id', 'field_id', 'title', 'files', 'updated_at'], 'document');
        expect(d.id).toMatch(UUID);
        expect(d.field_id).toMatch(UUID);
        expect(d.updated_at).toMatch(TIMESTAMP);
        expect(d.files.length).toBeGreaterThan(0);
        for (const f of d.files) {
          expectKeys(f, ['name', 'url'], 'document file');
          expect(f.url.startsWith(`${platform.url}/api/v2/engagements/${e.id}/documents/`)).toBe(true);
          const got = await api.bytes(f.url);
          expect(got.status).toBe(200);
          expect(got.bytes.length).toBeGreaterThan(8);
          if (f.name.endsWith('.pdf')) {
            expect(isPdf(got.bytes), `${f.name} is a PDF`).toBe(true);
            expect(got.headers.get('content-type')).toMatch(/^application\/pdf/);
            pdfs++;
          } else if (f.name.endsWith('.png')) {
            expect(isPng(got.bytes), `${f.name} is a PNG`).toBe(true);
            expect(got.headers.get('content-type')).toMatch(/^image\/png/);
            pngs++;
          }
          // The name segment is optional.
          const withoutName = f.url.slice(0, f.url.lastIndexOf('/'));
          const again = await api.bytes(withoutName);
          expect(again.status).toBe(200);
          expect(again.bytes.equals(got.bytes)).toBe(true);
          expect((await api.bytes(`${withoutName}/wrong-name.bin`)).status).toBe(404);
        }
      }
    }
    expect(pdfs, 'some documents are PDFs').toBeGreaterThan(0);
    expect(pngs, 'some documents are PNG images').toBeGreaterThan(0);
  });

  it('sorts documents by updated_at only, and pages them', async () => {
    const { e, docs } = withDocs.reduce((a, b) => (b.docs.items.length > a.docs.items.length ? b : a));
    expect(docs.items.length).toBeGreaterThan(1);
    const asc = (
      await api.get<List<EngagementDocument>>(`/engagements/${e.id}/documents`, { sort: 'updated_at' })
    ).body;
    expect(asc.params.sort).toBe('updated_at');
    expectOrdered(
      asc.items.map((d) => d.updated_at),
      false,
      'documents updated_at',
    );
    expectOrdered(
      docs.items.map((d) => d.updated_at),
      true,
      'documents -updated_at',
    );
    const first = (
      await api.get<List<EngagementDocument>>(`/engagements/${e.id}/documents`, { limit: 1, offset: 1 })
    ).body;
    expect(first.params).toEqual({ limit: 1, offset: 1, sort: '-updated_at', total: docs.items.length });
    expect(first.items.map((d) => d.id)).toEqual([docs.items[1]?.id]);
    expectValidation(await api.get(`/engagements/${e.id}/documents`, { sort: 'title' }), ['sort']);
    const none = (
      await api.get<List<EngagementDocument>>(
        `/engagements/${(await create(accounts[14] as Account)).id}/documents`,
      )
    ).body;
    expect(none).toEqual({ items: [], params: { limit: 50, offset: 0, sort: '-updated_at', total: 0 } });
    expectJsonError(await api.get('/engagements/00000000-0000-4000-8000-000000000000/documents'), 404);
  });

  it('lists signatures with the list shape and serves the signature PNG', async () => {
    expect(withSigs.length).toBeGreaterThan(0);
    for (const { e, sigs } of withSigs.slice(0, 4)) {
      expect(sigs.params).toEqual({ limit: 50, offset: 0, sort: '-signed_at', total: sigs.items.length });
      for (const s of sigs.items) {
        expectKeys(s, ['id', 'field_id', 'title', 'name', 'email', 'ip', 'signed_at', 'file'], 'signature');
        expectWire(EngagementSignature, s, 'signature');
        expect(Number.isInteger(s.id)).toBe(true);
        expect(s.field_id).toMatch(UUID);
        expect(s.signed_at).toMatch(TIMESTAMP);
        expect(s.name).toBe(e.name);
        expect(s.email).toBe(e.email);
        expect(s.ip).toMatch(/^\d{1,3}(\.\d{1,3}){3}$|:/);
        expect(
          s.file.startsWith(`${platform.url}/api/v2/engagements/${e.id}/signatures/${s.field_id}/`),
        ).toBe(true);
        const got = await api.bytes(s.file);
        expect(got.status).toBe(200);
        expect(isPng(got.bytes), 'the signature is a PNG').toBe(true);
        expect(got.headers.get('content-type')).toMatch(/^image\/png/);
        expect(
          (await api.bytes(`${platform.url}/api/v2/engagements/${e.id}/signatures/${s.field_id}/other.png`))
            .status,
        ).toBe(404);
      }
    }
  });

  it('sorts signatures by name, email, ip and signed_at in both directions', async () => {
    const { e } = withSigs[0] as { e: Engagement };
    for (const key of ['name', 'email', 'ip', 'signed_at'] as const) {
      const asc = await api.get<List<Signature>>(`/engagements/${e.id}/signatures`, { sort: key });
      const desc = await api.get<List<Signature>>(`/engagements/${e.id}/signatures`, { sort: `-${key}` });
      expect(asc.status).toBe(200);
      expect(asc.body.params.sort).toBe(key);
      expect(desc.body.params.sort).toBe(`-${key}`);
      expectOrdered(
        asc.body.items.map((s) => s[key]),
        false,
        `signatures ${key}`,
      );
      expectOrdered(
        desc.body.items.map((s) => s[key]),
        true,
        `signatures -${key}`,
      );
    }
    expectValidation(await api.get(`/engagements/${e.id}/signatures`, { sort: 'title' }), ['sort']);
    expectValidation(await api.get(`/engagements/${e.id}/signatures`, { limit: 0 }), ['limit']);
  });

  it('history grows with each completion; sorts by created_at and updated_at; urls are previews', async () => {
    const e = await create(accounts[15] as Account);
    const empty = (await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`)).body;
    expect(empty).toEqual({ items: [], params: { limit: 50, offset: 0, sort: '-created_at', total: 0 } });
    for (let i = 0; i < 3; i++) {
      await api.post(`/engagements/${e.id}/close`);
      await api.post(`/engagements/${e.id}/reopen`);
    }
    const r = await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`);
    expect(r.status).toBe(200);
    expect(r.body.params).toEqual({ limit: 50, offset: 0, sort: '-created_at', total: 3 });
    for (const h of r.body.items) {
      expectKeys(h, ['id', 'url', 'author', 'created_at', 'completed_at'], 'history item');
      expectWire(EngagementHistoryItem, h, 'history item');
      expect(h.id).toMatch(UUID);
      expect(h.created_at).toMatch(TIMESTAMP);
      expect(h.completed_at).toMatch(TIMESTAMP);
      expect(typeof h.author).toBe('string');
      expect(h.url.startsWith(`${platform.url}/api/v2/engagements/${e.id}/preview`)).toBe(true);
      const page = await fetch(h.url, { headers: { authorization: `Bearer ${api.token}` } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      await page.text();
    }
    expect(new Set(r.body.items.map((h) => h.completed_at)).size, 'three completions, three times').toBe(3);
    const byCompletion = (
      await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`, { sort: 'updated_at' })
    ).body.items;
    expectOrdered(
      byCompletion.map((h) => h.completed_at),
      false,
      'history updated_at',
    );
    const byCompletionDesc = (
      await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`, { sort: '-updated_at' })
    ).body.items;
    expectOrdered(
      byCompletionDesc.map((h) => h.completed_at),
      true,
      'history -updated_at',
    );
    expect(byCompletionDesc.map((h) => h.id)).toEqual([...byCompletion].reverse().map((h) => h.id));
    const byCreation = (
      await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`, { sort: 'created_at' })
    ).body.items;
    expectOrdered(
      byCreation.map((h) => h.created_at),
      false,
      'history created_at',
    );
    const paged = (
      await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`, {
        sort: 'updated_at',
        limit: 2,
        offset: 1,
      })
    ).body;
    expect(paged.items.map((h) => h.id)).toEqual(byCompletion.slice(1, 3).map((h) => h.id));
    expectValidation(await api.get(`/engagements/${e.id}/history`, { sort: 'author' }), ['sort']);
  });

  it('pages 50 history items by default', async () => {
    const e = await create(accounts[17] as Account);
    for (let i = 0; i < 51; i++) {
      expect((await api.post(`/engagements/${e.id}/close`)).status).toBe(200);
      expect((await api.post(`/engagements/${e.id}/reopen`)).status).toBe(200);
    }
    const r = (await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`)).body;
    expect(r.params).toEqual({ limit: 50, offset: 0, sort: '-created_at', total: 51 });
    expect(r.items).toHaveLength(50);
    const last = (await api.get<List<HistoryItem>>(`/engagements/${e.id}/history`, { offset: 50 })).body;
    expect(last.items).toHaveLength(1);
    expect(r.items.some((h) => h.id === last.items[0]?.id)).toBe(false);
  });

  it('closing an engagement puts its uploaded files in the member profile, downloadable from the account', async () => {
    const dataset = (await api.get<FlatStructure>('/config/dataset')).body;
    const fileElements = new Set(dataset.elements.filter((x) => x.type === 'FILE').map((x) => x.id));
    const found = withDocs.find(
      ({ e, docs }) => e.status === 'COMPLETED' && docs.items.some((d) => fileElements.has(d.field_id)),
    );
    expect(found, 'a completed engagement with a document for a profile FILE element').toBeDefined();
    const { e, docs } = found as { e: Engagement; docs: List<EngagementDocument> };
    const doc = docs.items.find((d) => fileElements.has(d.field_id)) as EngagementDocument;
    const uploaded = await api.bytes((doc.files[0] as { url: string }).url);
    expect(isPdf(uploaded.bytes)).toBe(true);
    // Reopen and close again: the answers are written to the profile anew.
    expect((await api.post(`/engagements/${e.id}/reopen`)).status).toBe(200);
    expect((await api.post(`/engagements/${e.id}/close`)).status).toBe(200);
    const profile = (await api.get<ProfileValue[]>(`/accounts/${e.account_id}/profile`)).body;
    const same = profile.filter((v) => v.type === 'FILE' && v.dataset_id === doc.field_id);
    const mine = same.filter((v) => v.member_id === e.member_id);
    expect(mine, 'one value per member and element').toHaveLength(1);
    const value = mine[0] as ProfileValue;
    expect(value.value).toBe(doc.files[0]?.name);
    const got = await api.bytes(
      `/accounts/${e.account_id}/file/document/${doc.field_id}/${same.indexOf(value)}/${encodeURIComponent(value.value)}`,
    );
    expect(got.status).toBe(200);
    expect(got.bytes.equals(uploaded.bytes), 'the profile file is the file uploaded in the engagement').toBe(
      true,
    );
  });
});

describe('closing writes the profile', () => {
  it("moves the account's updated_at when the answers change its profile, and only then", async () => {
    const state = platform.control.store().state;
    const visible = new Set(accounts.map((a) => a.id));
    // A seeded engagement in progress whose answers would change the member's profile.
    const e = state.engagements.find((x) => {
      const account = state.accounts.find((a) => a.id === x.account_id);
      return (
        x.status === 'NEW' &&
        account &&
        visible.has(account.id) &&
        x.answers.some(
          (answer) =>
            answer.dataset_id &&
            !account.profile.some(
              (v) =>
                v.dataset_id === answer.dataset_id && v.member_id === x.member_id && v.value === answer.value,
            ),
        )
      );
    });
    expect(e, 'an open engagement whose answers change the profile').toBeDefined();
    const { id, account_id: accountId } = e as { id: string; account_id: number };
    const read = async () => ({
      account: (await api.get<Account>(`/accounts/${accountId}`)).body,
      profile: (await api.get<ProfileValue[]>(`/accounts/${accountId}/profile`)).body,
    });
    const before = await read();
    expect((await api.post(`/engagements/${id}/close`)).status).toBe(200);
    const closed = await read();
    expect(closed.profile).not.toEqual(before.profile);
    expect(closed.account.updated_at).toMatch(TIMESTAMP);
    expect(
      later(closed.account.updated_at, before.account.updated_at),
      `${closed.account.updated_at} after ${before.account.updated_at}`,
    ).toBe(true);
    // The account list says the same.
    const listed = (await api.get<List<Account>>('/accounts', { type: 'all', limit: 500 })).body.items;
    expect(listed.find((a) => a.id === accountId)?.updated_at).toBe(closed.account.updated_at);
    // Reopening and closing again writes the same values: no change, no new updated_at.
    expect((await api.post(`/engagements/${id}/reopen`)).status).toBe(200);
    expect((await api.post(`/engagements/${id}/close`)).status).toBe(200);
    const again = await read();
    expect(again.account.updated_at).toBe(closed.account.updated_at);
  });
});

describe('activities of an engagement', () => {
  it('every activity its life records is a configured type with the configured icon and options', async () => {
    const account = accounts[16] as Account;
    // The account's activity so far: the set-up may have engaged it within the same second.
    const activity = () =>
      api.get<{ items: Activity[] }>(`/accounts/${account.id}/activity`, { limit: 500, sort: 'created_at' });
    const before = new Set((await activity()).body.items.map((x) => x.id));
    const e = await create(account);
    await api.post(`/engagements/${e.id}/close`);
    await api.post(`/engagements/${e.id}/reopen`);
    expect((await api.delete(`/engagements/${e.id}`, { password: PASSWORD })).status).toBe(204);
    const config = (await api.get<Record<string, { icon: string; options: string[] }>>('/config/activities'))
      .body;
    const items = (await activity()).body.items.filter((x) => !before.has(x.id));
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items[0]?.type).toBe('engagement.created');
    for (const x of items) {
      const entry = config[x.type];
      expect(entry, `${x.type} is in the activities configuration`).toBeDefined();
      expect(x.icon).toBe(entry?.icon);
      expect(Object.keys(x.options).sort(), x.type).toEqual([...(entry?.options ?? [])].sort());
      expect(x.options.template ?? e.title).toBe(e.title);
    }
  });
});

describe('engagements and teams', () => {
  it('an account of another team cannot be engaged or listed', async () => {
    const state = platform.control.store().state;
    const foreign = state.engagements.find(
      (e) => state.accounts.find((a) => a.id === e.account_id)?.teamId !== user.team.id,
    );
    expect(foreign).toBeDefined();
    expect(everyone.some((e) => e.id === foreign?.id)).toBe(false);
    expectJsonError(await api.get(`/engagements/${foreign?.id}`), 404);
    expect((await listAll({ account_id: foreign?.account_id ?? 0 })).params.total).toBe(0);
  });
});
