// Contract of the 0.0.1 interface, the user: /user, /user/stats (counts per day over a range,
// checked against the accounts and forms themselves), /user/activities (types, filter, sort,
// paging), /user/templates and /user/forms; and the error body shared by every endpoint.

import { beforeAll, describe, expect, it } from 'vitest';
import { listV0 } from '@shared/wire/lists.ts';
import { FormTemplate } from '@shared/wire/v0/forms.ts';
import { UserActivity, UserStats, UserV0 as UserV0Schema } from '@shared/wire/v0/user.ts';
import { compareValues, expectOrdered, expectWire, distinct, TIMESTAMP } from './helpers.ts';
import {
  ACTIVITY_KEYS_V0,
  ACTIVITY_TYPES,
  STATS_KEYS,
  TEMPLATE_KEYS_V0,
  USER_KEYS_V0,
  addDays,
  createAccount,
  expectFileV0,
  expectKeySet,
  expectStatus,
  expectV0Error,
  v0Sandbox,
  today,
  type AccountListV0,
  type ActivityV0,
  type FormV0,
  type StatsV0,
  type TemplateV0,
  type ListV0,
  type UserV0,
  type V0Api,
} from './v0-helpers.ts';

type ActivityList = ListV0<ActivityV0>;

const s = v0Sandbox();
let api: V0Api;

beforeAll(() => {
  api = s.advisor;
});

const days = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

describe('GET /user', () => {
  it('answers the User: phone a string with its country code, photo and company logo as File objects', async () => {
    const r = await api.get<UserV0>('/user');
    expectStatus(r, 200);
    const u = r.body;
    expectKeySet(u, USER_KEYS_V0, 'user');
    expectWire(UserV0Schema, u, 'user');
    expect(u.email).toBe('advisor@sandbox.test');
    for (const k of ['first_name', 'last_name', 'company', 'company_email', 'company_phone'] as const)
      expect(typeof u[k]).toBe('string');
    expect(u.phone).toMatch(/^\+\d{6,18}$/);
    expectFileV0(u.photo, api.base, { type: 'image' });
    expectFileV0(u.company_logo, api.base, { type: 'image' });
    const photo = await api.download(u.photo.url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe(u.photo.filetype);
    expect(u.photo.filesize).toBe(Math.ceil(photo.bytes.length / 1024));

    const assistant = await s.assistant.get<UserV0>('/user');
    expectStatus(assistant, 200);
    expect(assistant.body.email).toBe('assistant@sandbox.test');
  });

  it('answers 401 in the 0.0.1 error shape for a missing or unknown token', async () => {
    expectV0Error(await api.get('/user', {}, { token: null }), 401);
    expectV0Error(await api.get('/user', {}, { token: 'not-a-token' }), 401);
  });

  it('answers 404 in the 0.0.1 error shape for an unknown path', async () => {
    expectV0Error(await api.get('/no/such/path'), 404);
  });
});

describe('GET /user/stats', () => {
  it('answers four arrays of day counts covering the range, both ends included', async () => {
    const r = await api.get<StatsV0>('/user/stats', { start_date: '2024-02-01', end_date: '2024-03-01' });
    expectStatus(r, 200);
    expectKeySet(r.body, STATS_KEYS, 'stats');
    expectWire(UserStats, r.body, 'stats');
    for (const k of STATS_KEYS) {
      const list = r.body[k as 'prospects' | 'clients' | 'sent_forms' | 'closed_forms'];
      expect(list, k).toHaveLength(30); // 2024 is a leap year: 29 days of February and 1 March
      expect(list.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
    }
    const one = await api.get<StatsV0>('/user/stats', { start_date: '2025-06-15', end_date: '2025-06-15' });
    expect(one.body.clients).toHaveLength(1);
  });

  it('also reads the dates as path segments, /user/stats/{start_date}/{end_date}, as the document declares them', async () => {
    const query = await api.get<StatsV0>('/user/stats', { start_date: '2024-02-01', end_date: '2024-03-01' });
    const path = await api.get<StatsV0>('/user/stats/2024-02-01/2024-03-01');
    expectStatus(path, 200);
    expect(path.body).toEqual(query.body);
    expect(path.body.clients).toHaveLength(30);
    expectV0Error(await api.get('/user/stats/2024-03-02/2024-03-01'), 422);
    expectV0Error(await api.get('/user/stats/yesterday/today'), 422);
    expectV0Error(await api.request('POST', '/user/stats/2024-02-01/2024-03-01'), 405);
  });

  it('defaults to the month up to today', async () => {
    const r = await api.get<StatsV0>('/user/stats');
    expectStatus(r, 200);
    const end = today();
    const d = new Date(`${end}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 1);
    const expected = days(d.toISOString().slice(0, 10), end);
    expect(r.body.prospects).toHaveLength(expected);
    expect(r.body.prospects.length).toBeGreaterThanOrEqual(29);
    expect(r.body.prospects.length).toBeLessThanOrEqual(32);
    const explicit = await api.get<StatsV0>('/user/stats', {
      start_date: d.toISOString().slice(0, 10),
      end_date: end,
    });
    expect(explicit.body).toEqual(r.body);
    const onlyEnd = await api.get<StatsV0>('/user/stats', { end_date: end });
    expect(onlyEnd.body).toEqual(r.body);
  });

  it('counts match the accounts and forms of each day', async () => {
    const end = addDays(today(), -1);
    const start = addDays(end, -179);
    const stats = (await api.get<StatsV0>('/user/stats', { start_date: start, end_date: end })).body;
    expect(stats.clients).toHaveLength(180);
    const accounts = (await api.get<AccountListV0>('/accounts', { limit: 500 })).body.items;
    const forms = (await api.get<FormV0[]>('/user/forms')).body;
    const count = (dates: (string | null)[]) => {
      const out = new Array<number>(180).fill(0);
      for (const d of dates) {
        if (!d) continue;
        const i = days(start, d.slice(0, 10)) - 1;
        if (i >= 0 && i < 180) out[i]! += 1;
      }
      return out;
    };
    expect(stats.clients).toEqual(
      count(accounts.filter((a) => a.type === 'clients').map((a) => a.created_at)),
    );
    expect(stats.prospects).toEqual(
      count(accounts.filter((a) => a.type === 'prospects').map((a) => a.created_at)),
    );
    expect(stats.sent_forms).toEqual(count(forms.map((f) => f.created_at)));
    expect(stats.closed_forms).toEqual(count(forms.map((f) => f.closed_at)));
    const total = (l: number[]) => l.reduce((a, b) => a + b, 0);
    expect(
      total(stats.clients) + total(stats.prospects),
      'the seed created accounts in the range',
    ).toBeGreaterThan(0);
  });

  it("creating a prospect today, sending and closing a form bump today's counts", async () => {
    const t = today();
    const range = { start_date: addDays(t, -2), end_date: t };
    const before = (await api.get<StatsV0>('/user/stats', range)).body;
    expect(before.prospects).toHaveLength(3);
    const account = await createAccount(api, 'prospects');
    const templates = (await api.get<TemplateV0[]>('/user/templates')).body;
    const form = await api.post<FormV0>(`/accounts/${account.id}/forms`, { template: templates[0]!.key });
    expectStatus(form, 201);
    expectStatus(
      await api.request(
        'PUT',
        `/accounts/${account.id}/forms/${encodeURIComponent(String(form.body.key))}/close`,
      ),
      200,
    );
    const after = (await api.get<StatsV0>('/user/stats', range)).body;
    expect(after.prospects[2]).toBe(before.prospects[2]! + 1);
    expect(after.clients).toEqual(before.clients);
    expect(after.sent_forms[2]).toBe(before.sent_forms[2]! + 1);
    expect(after.closed_forms[2]).toBe(before.closed_forms[2]! + 1);
    expect(after.prospects.slice(0, 2)).toEqual(before.prospects.slice(0, 2));
  });

  it('rejects dates that are not YYYY-MM-DD or an end before the start', async () => {
    expectV0Error(await api.get('/user/stats', { start_date: '01/02/2024' }), 422);
    expectV0Error(await api.get('/user/stats', { start_date: '2024-02-30', end_date: '2024-03-01' }), 422);
    expectV0Error(await api.get('/user/stats', { start_date: '2024-03-02', end_date: '2024-03-01' }), 422);
  });
});

describe('GET /user/activities', () => {
  const list = async (query: Record<string, string | number> = {}) => {
    const r = await api.get<ActivityList>('/user/activities', query);
    expectStatus(r, 200);
    expectKeySet(r.body, ['items', 'limit', 'offset', 'total'], 'activity list');
    expectWire(listV0(UserActivity), r.body, 'activity list');
    return r.body;
  };

  it('answers items, limit, offset and total with the defaults limit 100 and offset 0; types from the document', async () => {
    const r = await list();
    expect(r.limit).toBe(100);
    expect(r.offset).toBe(0);
    expect(r.items.length).toBe(Math.min(100, r.total));
    expect(r.total).toBeGreaterThan(20);
    for (const a of r.items) {
      expectKeySet(a, ACTIVITY_KEYS_V0, 'activity');
      expect(Number.isInteger(a.id)).toBe(true);
      expect(ACTIVITY_TYPES).toContain(a.type);
      expect(a.icon).toMatch(/^mdi-[a-z0-9-]+$/);
      for (const k of ['icon_color', 'title', 'description'] as const) expect(typeof a[k]).toBe('string');
      expect(a.created_at).toMatch(TIMESTAMP);
    }
    expect(new Set(r.items.map((a) => a.type)).size).toBeGreaterThan(2);
  });

  it('filters by type; total counts the filtered items', async () => {
    const all = (await list({ limit: 500 })).items;
    for (const type of ['account.client.created', 'form.sent', 'account.coclient.created']) {
      const r = await list({ type, limit: 500 });
      expect(r.items.length).toBeGreaterThan(0);
      expect(r.items.every((a) => a.type === type)).toBe(true);
      expect(r.total).toBe(all.filter((a) => a.type === type).length);
    }
    // The seeded feed holds every documented type, so that a client meets each one.
    const types = new Set(all.map((a) => a.type));
    for (const type of ACTIVITY_TYPES) {
      expect(types.has(type), `a seeded ${type}`).toBe(true);
      const r = await list({ type, limit: 500 });
      expect(r.total, type).toBe(all.filter((a) => a.type === type).length);
    }
    expectV0Error(await api.get('/user/activities', { type: 'account.teleported' }), 422);
    for (const type of ['constructor', 'toString', '__proto__'])
      expectV0Error(await api.get('/user/activities', { type }), 422);
  });

  it('records what the advisor does: a created client shows first', async () => {
    const account = await createAccount(api, 'clients', true);
    const r = await list({ sort: '-id', limit: 2 });
    const types = r.items.map((a) => a.type).sort();
    expect(types).toEqual(['account.client.created', 'account.coclient.created']);
    expect(r.items.some((a) => a.description.includes(account.client.first_name))).toBe(true);
  });

  it('sorts by created_at, id and type, ascending and descending, and by a comma-delimited list', async () => {
    for (const key of ['created_at', 'id', 'type', 'title'] as const) {
      for (const descending of [false, true]) {
        const items = (await list({ sort: `${descending ? '-' : ''}${key}`, limit: 500 })).items;
        const values = items.map((a) => a[key]);
        expect(distinct(values)).toBeGreaterThan(1);
        expectOrdered(values, descending, `sort=${descending ? '-' : ''}${key}`);
      }
    }
    const items = (await list({ sort: 'type,-created_at', limit: 500 })).items;
    for (let i = 1; i < items.length; i++) {
      const a = items[i - 1] as ActivityV0;
      const b = items[i] as ActivityV0;
      const byType = compareValues(a.type, b.type);
      expect(byType, `type order at ${i}`).toBeLessThanOrEqual(0);
      if (byType === 0)
        expect(a.created_at >= b.created_at, `created_at descending within ${a.type} at ${i}`).toBe(true);
    }
    expectV0Error(await api.get('/user/activities', { sort: 'colour' }), 422);
    for (const sort of ['__proto__', 'constructor', '-hasOwnProperty', 'type,toString']) {
      const err = expectV0Error(await api.get('/user/activities', { sort }), 422);
      expect(err.messages, sort).toEqual([expect.stringMatching(/^sort is invalid: use one of id, /)]);
    }
  });

  it('pages with limit and offset over the same order', async () => {
    const all = await list({ sort: 'id', limit: 500 });
    const page = await list({ sort: 'id', limit: 7, offset: 4 });
    expect(page.limit).toBe(7);
    expect(page.offset).toBe(4);
    expect(page.total).toBe(all.total);
    expect(page.items).toEqual(all.items.slice(4, 11));
    const filteredAll = await list({ type: 'account.client.created', sort: '-id', limit: 500 });
    const filteredPage = await list({ type: 'account.client.created', sort: '-id', limit: 3, offset: 2 });
    expect(filteredPage.items).toEqual(filteredAll.items.slice(2, 5));
    expect(filteredPage.total).toBe(filteredAll.total);
    expectV0Error(await api.get('/user/activities', { limit: 0 }), 422);
  });
});

describe('templates and forms of the user', () => {
  it('GET /user/templates answers Templates with their id', async () => {
    const r = await api.get<TemplateV0[]>('/user/templates');
    expectStatus(r, 200);
    expect(r.body.length).toBeGreaterThan(0);
    for (const t of r.body) {
      expectKeySet(t, ['id', ...TEMPLATE_KEYS_V0], 'template');
      expectWire(FormTemplate, t, 'template');
      expect(typeof t.id).toBe('string');
      expect(typeof t.key).toBe('string');
      expect(typeof t.modified).toBe('boolean');
      expect(typeof t.default).toBe('boolean');
      expect(Array.isArray(t.tags)).toBe(true);
      expect(t.status).toBe('published');
    }
    expect(r.body.map((t) => t.type)).toContain('passwordless');
    expect(new Set(r.body.map((t) => t.key)).size).toBe(r.body.length);
  });

  it("GET /user/forms answers the forms of the user's accounts", async () => {
    const r = await api.get<FormV0[]>('/user/forms');
    expectStatus(r, 200);
    expect(r.body.length).toBeGreaterThan(0);
    const ids = new Set(
      (await api.get<AccountListV0>('/accounts', { limit: 500 })).body.items.map((a) => a.id),
    );
    for (const f of r.body)
      expect(ids.has(f.account_id), `form ${String(f.key)} of account ${f.account_id}`).toBe(true);
    const byAccount = new Map<number, FormV0[]>();
    for (const f of r.body) byAccount.set(f.account_id, [...(byAccount.get(f.account_id) ?? []), f]);
    const [accountId, forms] = [...byAccount.entries()][0]!;
    expect((await api.get<FormV0[]>(`/accounts/${accountId}/forms`)).body).toEqual(forms);
  });
});
