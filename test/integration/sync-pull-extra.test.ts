// The pulls of the read-only records against the sandbox platform over real HTTP, through the real
// main-side transport, into Dexie over fake-indexeddb: member security, profile values and
// activity with every account pull, the engagement list and one engagement's outputs, forms,
// report metadata, the advisor's feed and statistics. Each is compared with what the platform
// answers through its own API; removals and request counts are checked; and a database made at
// schema version 1 opens at version 2 with its rows and outbox intact.

import Dexie from 'dexie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOrder } from '../../renderer/src/data/accounts.ts';
import { AdvisorDb } from '../../renderer/src/data/db.ts';
import { STORES_V1 } from '../../renderer/src/data/migrations/index.ts';
import type { AccountRow, EngagementRow, Operation } from '../../renderer/src/data/model.ts';
import {
  ENGAGEMENT_SORT_KEYS,
  STATS_KEY,
  CONFIG_KEYS,
  accountActivity,
  configEntry,
  engagementParts,
  listEngagements,
  listForms,
  listReports,
  memberSecurity,
  profileValues,
  userActivity,
  type EngagementQuery,
} from '../../renderer/src/data/queries/index.ts';
import { PAGE_SIZES, PullEngine } from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import type { AccountRecord, EngagementRecord } from '../platform/model.ts';
import { startPlatform, type Platform } from '../platform/server.ts';
import { fakeIdb, newUserKey, openDb } from '../unit/data/helpers.ts';
import { ADVISOR, ASSISTANT, sandboxClient, type SandboxClient } from './sandbox-client.ts';

let platform: Platform;
let advisor: SandboxClient;
let send: Send;

beforeAll(async () => {
  platform = await startPlatform({ port: 0, rateLimit: 0, accounts: 120 });
  advisor = sandboxClient(platform, ADVISOR);
  send = (req) => advisor.transport.request(req);
});

afterAll(async () => {
  advisor.transport.dispose();
  await platform.close();
});

async function freshDb(): Promise<AdvisorDb> {
  const db = openDb();
  await db.open();
  return db;
}

/** A request to the platform through its API, as `email` (default the advisor): the oracle. */
async function api<T = unknown>(method: string, path: string, body?: unknown, email = ADVISOR): Promise<T> {
  const token = platform.control.token(email).access_token;
  const res = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}
const get = <T = unknown>(path: string) => api<T>('GET', path);

/** A security answer as it is stored: everything but the PIN. */
function withoutPin(answer: unknown): unknown {
  const { pin, ...rest } = answer as { pin: unknown };
  expect(pin).toEqual(expect.any(Number));
  return rest;
}

/** Requests the platform receives from now on. */
function requestsSince(): () => number {
  platform.control.resetStats();
  return () => platform.control.stats().total;
}

function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const user = state.users.find((u) => u.email === ADVISOR)!;
  return state.accounts.filter((a) => a.teamId === user.currentTeamId);
}

const activitiesOf = (accountId: number) =>
  platform.control.dump().accountActivities.filter((a) => a.accountId === accountId);

function teamEngagements(): EngagementRecord[] {
  const ids = new Set(teamAccounts().map((a) => a.id));
  return platform.control.dump().engagements.filter((e) => ids.has(e.account_id));
}

async function accountOf(db: AdvisorDb, serverId: number): Promise<AccountRow> {
  const row = await db.accounts.where('serverId').equals(serverId).first();
  if (!row) throw new Error(`account ${serverId} was not pulled`);
  return row;
}

const sorted = <T>(values: T[]) => [...values].sort();
const ids = (rows: { id: unknown }[]) => sorted(rows.map((r) => r.id));

interface Listed<T> {
  items: T[];
  params?: { total: number };
  total?: number;
}

/** The sizes the sandbox accepts (it caps a page at 500). */
const KNOWN_PAGE_SIZES = PAGE_SIZES.filter((size) => size <= 500);

describe('an account pull brings security, profile values and activity', () => {
  let db: AdvisorDb;
  let engine: PullEngine;
  let account: AccountRecord;

  beforeAll(async () => {
    db = await freshDb();
    // Counted here: the requests once every list's page size is known (the probe of a list's
    // largest size, refused once by the sandbox, is tested with the account list).
    engine = new PullEngine({ db, send, pageSizes: KNOWN_PAGE_SIZES });
    await engine.pullAccountList();
    // A co-client, activity of several types and profile values written by completed engagements.
    account = teamAccounts().find(
      (a) => a.coclient && a.profile.length > 0 && new Set(activitiesOf(a.id).map((x) => x.type)).size >= 3,
    )!;
  });

  it('in 25 requests with a co-client: the 21 of its data and 4 more', async () => {
    const row = await accountOf(db, account.id);
    const count = requestsSince();
    const report = await engine.pullAccount(row.id, { priority: 'interactive' });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(25);
    expect(count()).toBe(25);

    const security = await memberSecurity(db, row.id);
    // Stored as the platform answers it, but for the PIN: no PIN is written to disk.
    for (const member of ['client', 'coclient'] as const)
      expect(security[member]?.server).toEqual(
        withoutPin(await get(`/api/v0/accounts/${account.id}/${member}/security`)),
      );

    const profile = await get<{ id: string }[]>(`/api/v2/accounts/${account.id}/profile`);
    const local = await profileValues(db, row.id);
    expect(ids(local)).toEqual(ids(profile));
    expect(local.map((r) => r.server).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [...profile].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    const member = account.coclient!.id;
    expect(ids(await profileValues(db, row.id, { memberId: member }))).toEqual(
      ids(profile.filter((v) => (v as unknown as { member_id: number }).member_id === member)),
    );

    const activity = await get<Listed<{ id: number }>>(`/api/v2/accounts/${account.id}/activity?limit=500`);
    const page = await accountActivity(db, row.id, { limit: 500 });
    expect(page.total).toBe(activity.items.length);
    expect(page.items.map((r) => r.server)).toEqual(activity.items);
  });

  it('queries the activity as the interface sorts and filters it', async () => {
    const row = await accountOf(db, account.id);
    const types = new Set((await accountActivity(db, row.id, { limit: 500 })).items.map((r) => r.type));
    for (const type of [undefined, ...types]) {
      for (const sort of ['created_at', '-created_at'] as const) {
        const query = `sort=${sort}&limit=500${type ? `&type=${type}` : ''}`;
        const served = await get<Listed<{ id: number }>>(`/api/v2/accounts/${account.id}/activity?${query}`);
        const local = await accountActivity(db, row.id, { sort, limit: 500, ...(type ? { type } : {}) });
        expect(
          local.items.map((r) => r.id),
          query,
        ).toEqual(served.items.map((a) => a.id));
        const window = await accountActivity(db, row.id, {
          sort,
          offset: 1,
          limit: 2,
          ...(type ? { type } : {}),
        });
        expect(
          window.items.map((r) => r.id),
          query,
        ).toEqual(served.items.slice(1, 3).map((a) => a.id));
      }
    }
  });

  it('takes changes and removes what the platform no longer has, in 4 requests without the rest', async () => {
    const row = await accountOf(db, account.id);
    // The co-client was blocked (too many wrong passwords), as the app last saw; the reset lets them
    // in again. (The new PIN alone changes nothing stored: no PIN is written to disk.)
    account.coclient!.status = 'BLOCKED';
    await engine.pullAccountExtras(row.id);
    expect((await memberSecurity(db, row.id)).coclient?.status).toBe('BLOCKED');
    await api('POST', `/api/v0/accounts/${account.id}/coclient/security/reset`, undefined, ASSISTANT);
    const count = requestsSince();
    const report = await engine.pullAccountExtras(row.id);
    expect(report).toMatchObject({ requests: 4, failures: [] });
    expect(count()).toBe(4);
    // The new status (the reset recorded its activity in the advisor's feed, not the account's).
    expect(report.written).toBe(1);
    expect((await memberSecurity(db, row.id)).coclient?.server).toEqual(
      withoutPin(await get(`/api/v0/accounts/${account.id}/coclient/security`)),
    );
    expect((await engine.pullAccountExtras(row.id)).written).toBe(0);

    // Rows the platform does not list any more: a stray activity and profile value are removed.
    const [activity] = (await accountActivity(db, row.id, { limit: 1 })).items;
    await db.accountActivity.put({ ...activity!, id: 10_000_000 });
    const [value] = await profileValues(db, row.id);
    await db.profileValues.put({ ...value!, id: 'gone-value' });
    expect(await engine.pullAccountExtras(row.id)).toMatchObject({ removed: 2, written: 0 });
    expect(await db.accountActivity.get(10_000_000)).toBeUndefined();
    expect(await db.profileValues.get('gone-value')).toBeUndefined();

    // The co-client is removed: their security goes, and only the client's is asked.
    await api('POST', `/api/v2/accounts/${account.id}`, { coclient: null });
    const without = await engine.pullAccount(row.id);
    expect(without).toMatchObject({ requests: 21, failures: [] });
    expect(Object.keys(await memberSecurity(db, row.id))).toEqual(['client']);
    expect((await engine.pullAccountExtras(row.id)).requests).toBe(3);
  });

  it('reads only the newest page of activity with the account, all of it on demand', async () => {
    const fresh = await freshDb();
    const small = new PullEngine({ db: fresh, send, pageSizes: [2] });
    await small.pullAccountList();
    const target = teamAccounts().find((a) => activitiesOf(a.id).length >= 5)!;
    const row = await accountOf(fresh, target.id);
    const all = await get<Listed<{ id: number; created_at: string }>>(
      `/api/v2/accounts/${target.id}/activity?limit=500`,
    );
    // Two rows the platform does not have: one among the newest page's times, one older than it.
    const stray = (id: number, created_at: string) => ({
      id,
      accountServerId: target.id,
      type: 'account.updated',
      createdAt: created_at,
      server: { ...all.items[0]!, id, created_at } as never,
      pulledAt: 0,
    });
    await fresh.accountActivity.bulkPut([
      stray(20_000_001, '9999-01-01 00:00:00'),
      stray(20_000_002, '0001-01-01 00:00:00'),
    ]);

    const count = requestsSince();
    const extras = await small.pullAccountExtras(row.id);
    expect(extras.failures).toEqual([]);
    // Security of each member, the profile, one page of activity.
    expect(count()).toBe(target.coclient ? 4 : 3);
    expect(await fresh.accountActivity.get(20_000_001)).toBeUndefined();
    expect(await fresh.accountActivity.get(20_000_002)).toBeDefined();
    expect((await accountActivity(fresh, row.id, { limit: 2 })).items.map((r) => r.id)).toEqual(
      all.items.slice(0, 2).map((a) => a.id),
    );

    const more = requestsSince();
    const report = await small.pullAccountActivity(row.id);
    // Pages of 2 up to the first short one (an empty one when they come out even): no total here.
    expect(more()).toBe(Math.floor(all.items.length / 2) + 1);
    expect(report.removed).toBe(1);
    const local = await accountActivity(fresh, row.id, { limit: 500 });
    expect(local.items.map((r) => r.server)).toEqual(all.items);
  });

  it('removes the records of an account deleted on the server, with its engagements and forms', async () => {
    const victim = teamAccounts().find(
      (a) =>
        a.id !== account.id &&
        teamEngagements().some((e) => e.account_id === a.id && e.status === 'COMPLETED') &&
        platform.control.dump().forms.some((f) => f.account_id === a.id),
    )!;
    const row = await accountOf(db, victim.id);
    await engine.pullAccount(row.id);
    await engine.pullEngagements({ accountId: row.id });
    await engine.pullForms({ accountId: row.id });
    const engagement = teamEngagements().find((e) => e.account_id === victim.id && e.status === 'COMPLETED')!;
    await engine.pullEngagement(engagement.id);
    const held = async () => ({
      security: await db.memberSecurity.where('accountServerId').equals(victim.id).count(),
      profile: await db.profileValues.where('accountServerId').equals(victim.id).count(),
      activity: await db.accountActivity.where('accountServerId').equals(victim.id).count(),
      forms: await db.forms.where('accountServerId').equals(victim.id).count(),
      engagements: await db.engagements.where('accountServerId').equals(victim.id).count(),
      parts: await db.engagementParts.where('engagementId').equals(engagement.id).count(),
    });
    const before = await held();
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const data =
      (await db.sectionItems.where('accountId').equals(row.id).count()) +
      (await db.singles.where('accountId').equals(row.id).count());

    await api('DELETE', `/api/v2/accounts/${victim.id}`, { password: 'sandbox' });
    const report = await engine.pullAccountList({ full: true });
    const records = Object.values(before).reduce((a, b) => a + b, 0);
    expect(report.removed).toBe(1 + data + records);
    expect(await held()).toEqual({
      security: 0,
      profile: 0,
      activity: 0,
      forms: 0,
      engagements: 0,
      parts: 0,
    });
  });
});

describe('engagements', () => {
  let db: AdvisorDb;
  let engine: PullEngine;

  beforeAll(async () => {
    db = await freshDb();
    // Counted here: the requests once every list's page size is known (the probe of a list's
    // largest size, refused once by the sandbox, is tested with the account list).
    engine = new PullEngine({ db, send, pageSizes: KNOWN_PAGE_SIZES });
    await engine.pullAccountList();
  });

  const served = (query = '') =>
    get<Listed<Record<string, unknown> & { id: string }>>(`/api/v2/engagements?limit=500${query}`);

  it('pulls every engagement the user sees in one page, and an account’s in one request', async () => {
    const count = requestsSince();
    const report = await engine.pullEngagements();
    expect(report.failures).toEqual([]);
    // The page, and the platform's current team confirmed before what it brings is kept (issue 12).
    expect(report.requests).toBe(2);
    expect(count()).toBe(2);
    const all = await served();
    expect(all.items.length).toBe(teamEngagements().length);
    expect(report).toMatchObject({ records: all.items.length, written: all.items.length });
    const rows = await db.engagements.toArray();
    expect(ids(rows)).toEqual(ids(all.items));
    const byId = new Map(all.items.map((e) => [e.id, e]));
    for (const row of rows) expect(row.server).toEqual(byId.get(row.id));
    expect((await engine.pullEngagements()).written).toBe(0);

    const accountId = all.items[0]!.account_id as number;
    const account = await accountOf(db, accountId);
    const one = requestsSince();
    expect(await engine.pullEngagements({ accountId: account.id })).toMatchObject({
      requests: 1,
      written: 0,
    });
    expect(one()).toBe(1);
  });

  it('pages with the largest size the platform takes: one request per page, no more', async () => {
    const paged = await freshDb();
    const small = new PullEngine({ db: paged, send, pageSizes: [7] });
    const total = teamEngagements().length;
    const count = requestsSince();
    const progress: (number | null)[] = [];
    const report = await small.pullEngagements({ onProgress: (p) => progress.push(p.done) });
    // And the team confirmed before they are kept.
    expect(report.requests).toBe(Math.ceil(total / 7) + 1);
    expect(count()).toBe(Math.ceil(total / 7) + 1);
    expect(await paged.engagements.count()).toBe(total);
    expect(progress.at(-1)).toBe(total);
  });

  it('brings one engagement’s data, documents, signatures and history on demand', async () => {
    const engagement = teamEngagements().find(
      (e) => e.status === 'COMPLETED' && e.documents.length > 0 && e.signatures.length > 0,
    )!;
    const count = requestsSince();
    const report = await engine.pullEngagement(engagement.id, { priority: 'interactive' });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(5);
    expect(count()).toBe(5);
    const base = `/api/v2/engagements/${engagement.id}`;
    expect((await engagementParts(db, engagement.id, 'data')).map((r) => r.server)).toEqual(
      await get(`${base}/data`),
    );
    for (const kind of ['documents', 'signatures', 'history'] as const) {
      const list = await get<Listed<unknown>>(`${base}/${kind}`);
      expect(list.items.length, kind).toBeGreaterThan(0);
      expect(
        (await engagementParts(db, engagement.id, kind)).map((r) => r.server),
        kind,
      ).toEqual(list.items);
    }
    expect((await db.engagements.get(engagement.id))?.partsPulledAt).toBeGreaterThan(0);

    // Reopened: the platform refuses its data (422), so none is kept, and the data is not asked.
    await api('POST', `${base}/reopen`);
    const reopened = await engine.pullEngagement(engagement.id);
    expect(reopened).toMatchObject({ requests: 4, failures: [] });
    expect(reopened.removed).toBeGreaterThan(0);
    expect(await engagementParts(db, engagement.id, 'data')).toEqual([]);
    expect((await db.engagements.get(engagement.id))?.server.status).toBe('NEW');
    // Closed again: a second history item, the data back.
    await api('POST', `${base}/close`);
    await engine.pullEngagement(engagement.id);
    expect(await engagementParts(db, engagement.id, 'history')).toHaveLength(2);
    expect((await engagementParts(db, engagement.id, 'data')).length).toBeGreaterThan(0);
  });

  it('keeps the outputs of an engagement through list pulls, and removes both once it is deleted', async () => {
    const engagement = teamEngagements().find((e) => e.status === 'COMPLETED' && e.documents.length > 0)!;
    await engine.pullEngagement(engagement.id);
    const parts = await db.engagementParts.where('engagementId').equals(engagement.id).count();
    expect(parts).toBeGreaterThan(0);
    await engine.pullEngagements();
    const kept = await db.engagements.get(engagement.id);
    expect(kept?.partsPulledAt).toBeGreaterThan(0);

    await api('DELETE', `/api/v2/engagements/${engagement.id}`, { password: 'sandbox' });
    // A sweep notices what the platform no longer lists (an incremental pull cannot).
    const report = await engine.pullEngagements({ full: true });
    expect(report.removed).toBe(1 + parts);
    expect(await db.engagements.get(engagement.id)).toBeUndefined();
    expect(await db.engagementParts.where('engagementId').equals(engagement.id).count()).toBe(0);

    // Opened from a stale screen: the platform answers 404, its current team is the store's, and the row goes.
    await db.engagements.put(kept!);
    expect(await engine.pullEngagement(engagement.id)).toMatchObject({
      requests: 2,
      removed: 1,
      failures: [],
    });
    expect(await db.engagements.get(engagement.id)).toBeUndefined();
  });

  it('a new engagement arrives with the account’s list; one of another account is left alone', async () => {
    const account = teamAccounts().find((a) => !a.archived)!;
    const row = await accountOf(db, account.id);
    const template = platform.control.dump().templates.find((t) => t.teamId === 1)!;
    const made = await api<{ id: string }>('POST', '/api/v2/engagements', {
      template_id: template.id,
      account_id: account.id,
      member_id: account.client.id,
    });
    const others = await db.engagements.where('accountServerId').notEqual(account.id).count();
    const report = await engine.pullEngagements({ accountId: row.id });
    // The list, and the team confirmed before the new one is kept.
    expect(report).toMatchObject({ requests: 2, written: 1, removed: 0 });
    expect((await db.engagements.get(made.id))?.accountServerId).toBe(account.id);
    expect(await db.engagements.where('accountServerId').notEqual(account.id).count()).toBe(others);
  });

  it('lists as the version 2 list filters, searches, sorts and pages', async () => {
    await engine.pullEngagements();
    const value = (e: Record<string, unknown>, key: string) => {
      const v = e[key];
      return v === '' || v === undefined ? null : v;
    };
    // Every sort key both ways; ties may come in another order, so the keys' sequence and the set.
    for (const key of ENGAGEMENT_SORT_KEYS) {
      for (const sort of [key, `-${key}`] as const) {
        const platformList = await served(`&sort=${sort}`);
        const local = await listEngagements(db, { sort, limit: 500 });
        expect(local.total, sort).toBe(platformList.params!.total);
        expect(
          local.items.map((r) => value(r.server as unknown as Record<string, unknown>, key)),
          sort,
        ).toEqual(platformList.items.map((e) => value(e, key)));
        expect(ids(local.items), sort).toEqual(ids(platformList.items));
      }
    }

    const sample = (await db.engagements.toArray()).filter((r) => r.memberId !== null)[0]!;
    const account = await accountOf(db, sample.accountServerId);
    const cases: [EngagementQuery, string][] = [
      [{ type: 'completed' }, '&type=completed'],
      [{ type: 'in-progress' }, '&type=in-progress'],
      [{ accountId: account.id }, `&account_id=${sample.accountServerId}`],
      [{ accountId: account.id, type: 'completed' }, `&account_id=${sample.accountServerId}&type=completed`],
      [{ memberId: sample.memberId! }, `&member_id=${sample.memberId}`],
      [{ templateId: sample.templateId }, `&template_id=${sample.templateId}`],
      [
        { templateId: sample.templateId, type: 'in-progress' },
        `&template_id=${sample.templateId}&type=in-progress`,
      ],
      [{ search: sample.server.name.slice(0, 3).toUpperCase() }, `&query=${sample.server.name.slice(0, 3)}`],
      [
        { search: sample.server.title.slice(0, 4) },
        `&query=${encodeURIComponent(sample.server.title.slice(0, 4))}`,
      ],
      [{ search: 'zzz' }, '&query=zzz'],
    ];
    for (const [query, params] of cases) {
      for (const sort of ['-created_at', 'name'] as const) {
        const platformList = await served(`${params}&sort=${sort}`);
        const local = await listEngagements(db, { ...query, sort, limit: 500 });
        const label = `${params} ${sort}`;
        expect(local.total, label).toBe(platformList.params!.total);
        expect(ids(local.items), label).toEqual(ids(platformList.items));
        const key = sort.replace('-', '');
        expect(
          local.items.map((r) => value(r.server as unknown as Record<string, unknown>, key)),
          label,
        ).toEqual(platformList.items.map((e) => value(e, key)));
        const window = await listEngagements(db, { ...query, sort, offset: 2, limit: 3 });
        expect(
          window.items.map((r) => r.id),
          label,
        ).toEqual(local.items.slice(2, 5).map((r) => r.id));
      }
    }
  });
});

describe('forms, reports, the advisor’s feed and statistics', () => {
  let db: AdvisorDb;
  let engine: PullEngine;

  beforeAll(async () => {
    db = await freshDb();
    engine = new PullEngine({ db, send });
    await engine.pullAccountList();
  });

  afterAll(async () => {
    // The team switch below changes the advisor's current team for every token: back to the first.
    await api('POST', '/api/v2/user/switch', { id: 1 });
  });

  const sameForms = async (local: { server: unknown }[], path: string) => {
    const forms = await get<{ key: string }[]>(path);
    const byKey = (a: { key: string }, b: { key: string }) => Number(a.key) - Number(b.key);
    expect(local.map((r) => r.server as { key: string }).sort(byKey)).toEqual([...forms].sort(byKey));
  };

  it('pulls the user’s forms in one request, an account’s in one, and a sent form arrives', async () => {
    const count = requestsSince();
    const report = await engine.pullForms();
    // The list, and the platform's current team confirmed before what it brings is kept (issue 12).
    expect(report).toMatchObject({ requests: 2, failures: [] });
    expect(count()).toBe(2);
    await sameForms(await listForms(db), '/api/v0/user/forms');
    for (const status of ['NEW', 'IN_PROGRESS', 'CLOSED'])
      expect((await listForms(db, { status })).every((f) => f.status === status)).toBe(true);

    const account = teamAccounts().find((a) => !a.archived)!;
    const row = await accountOf(db, account.id);
    const template = await get<{ key: string }[]>('/api/v0/user/templates');
    await api('POST', `/api/v0/accounts/${account.id}/forms`, { template: template[0]!.key });
    const one = await engine.pullForms({ accountId: row.id });
    expect(one).toMatchObject({ requests: 2, written: 1, removed: 0 });
    await sameForms(await listForms(db, { accountId: row.id }), `/api/v0/accounts/${account.id}/forms`);
    expect((await listForms(db, { accountId: row.id, status: 'NEW' }))[0]?.server.template?.key).toBe(
      template[0]!.key,
    );
  });

  it('pulls report metadata in one request', async () => {
    const count = requestsSince();
    // And one confirming the team before they are kept.
    expect(await engine.pullReports()).toMatchObject({ requests: 2, failures: [], written: 3 });
    expect(count()).toBe(2);
    const reports = await get<{ title: string }[]>('/api/v0/user/reports');
    expect((await listReports(db)).map((r) => r.server)).toEqual(
      [...reports].sort((a, b) => a.title.localeCompare(b.title)),
    );
    // Nothing to change here: nothing to confirm.
    expect(await engine.pullReports()).toMatchObject({ requests: 1, written: 0 });
  });

  it('pulls the feed whole the first time, then only what is new', async () => {
    const small = new PullEngine({ db, send, pageSizes: [25] });
    const feed = await get<Listed<{ id: number }>>('/api/v0/user/activities?limit=500');
    const count = requestsSince();
    const first = await small.pullUserActivity();
    expect(first.failures).toEqual([]);
    // And the team confirmed before it is kept.
    expect(count()).toBe(Math.ceil(feed.total! / 25) + 1);
    expect((await userActivity(db, { limit: 500 })).items.map((r) => r.server)).toEqual(feed.items);

    // Two new items (a PIN reset, a form sent): one page.
    const account = teamAccounts().find((a) => !a.archived)!;
    await api('POST', `/api/v0/accounts/${account.id}/client/security/reset`, undefined, ASSISTANT);
    const [template] = await get<{ key: string }[]>('/api/v0/user/templates');
    await api('POST', `/api/v0/accounts/${account.id}/forms`, { template: template!.key });
    const more = requestsSince();
    const next = await small.pullUserActivity();
    expect(more()).toBe(2);
    const now = await get<Listed<{ id: number; type: string }>>('/api/v0/user/activities?limit=500');
    expect(now.total! - feed.total!).toBe(2);
    expect(next).toMatchObject({ requests: 2, written: 2, removed: 0 });
    expect((await userActivity(db, { limit: 500 })).items.map((r) => r.server)).toEqual(now.items);
    const resets = await userActivity(db, { type: 'account.security.reset', limit: 500 });
    expect(resets.items.map((r) => r.id)).toEqual(
      now.items.filter((a) => a.type === 'account.security.reset').map((a) => a.id),
    );
    expect((await small.pullUserActivity()).written).toBe(0);
  });

  it('pulls statistics for a range in one request', async () => {
    const count = requestsSince();
    // And one confirming the team before they are kept.
    expect(await engine.pullStats({ start: '2020-01-01', end: '2020-12-31' })).toMatchObject({
      requests: 2,
      failures: [],
    });
    expect(count()).toBe(2);
    const stored = (await db.meta.get(STATS_KEY))?.value as { data: { clients: number[] }; start: string };
    expect(stored.start).toBe('2020-01-01');
    expect(stored.data).toEqual(await get('/api/v0/user/stats?start_date=2020-01-01&end_date=2020-12-31'));
    expect(stored.data.clients).toHaveLength(366);
  });

  it('keeps the 0.0.1 user and its templates with the configuration', async () => {
    const report = await engine.pullConfig({ force: true });
    const templates = (await get<{ templates: unknown[] }>('/api/v2/user')).templates;
    expect(report).toMatchObject({ requests: 6 + templates.length, failures: [] });
    expect(await configEntry(db, CONFIG_KEYS.userV0)).toMatchObject({ data: await get('/api/v0/user') });
    expect(await configEntry(db, CONFIG_KEYS.formTemplates)).toMatchObject({
      data: await get('/api/v0/user/templates'),
    });
  });

  it('after a team switch elsewhere: this team’s store keeps its forms, reports and feed; the other team’s go to its own store', async () => {
    const before = {
      forms: await db.forms.orderBy('id').toArray(),
      reports: await db.reports.orderBy('id').toArray(),
      feed: await db.userActivity.orderBy('id').toArray(),
    };
    expect(before.forms.length * before.reports.length * before.feed.length).toBeGreaterThan(0);
    await api('POST', '/api/v2/user/switch', { id: 2 });
    const forms = await engine.pullForms();
    const reports = await engine.pullReports();
    const feed = await engine.pullUserActivity({ full: true });
    // Each read the other team's list, and wrote none of it (issue 12: one store per team).
    for (const report of [forms, reports, feed])
      expect(report).toMatchObject({ failures: [], written: 0, removed: 0, teamMoved: 2 });
    expect(await db.forms.orderBy('id').toArray()).toEqual(before.forms);
    expect(await db.reports.orderBy('id').toArray()).toEqual(before.reports);
    expect(await db.userActivity.orderBy('id').toArray()).toEqual(before.feed);

    // The other team's store takes them.
    const harbor = openDb(undefined, { user: newUserKey(), team: 2 });
    const there = new PullEngine({ db: harbor, send });
    await there.pullForms();
    await there.pullReports();
    await there.pullUserActivity({ full: true });
    await sameForms(await listForms(harbor), '/api/v0/user/forms');
    expect(ids(await harbor.reports.toArray())).toEqual(
      ids(await get<{ id: string }[]>('/api/v0/user/reports')),
    );
    const served = await get<Listed<{ id: number }>>('/api/v0/user/activities?limit=500');
    expect((await userActivity(harbor, { limit: 500 })).items.map((r) => r.id)).toEqual(
      served.items.map((a) => a.id),
    );
    await harbor.delete();
  });
});

describe('schema version 2', () => {
  it('opens a version 1 database with its rows and its outbox as they were', async () => {
    const name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name, fakeIdb);
    old.version(1).stores(STORES_V1);
    const account = {
      id: 'local-1',
      serverId: 7,
      fields: { 'client.first_name': 'Ann' },
      server: { 'client.first_name': 'Ann' },
      status: 'pending',
      type: 'CLIENT',
      archived: 0,
      favorited: 0,
      search: ['ann'],
    };
    const op = (id: string, state: Operation['state'], kind: Operation['kind']): Operation => ({
      id,
      table: 'accounts',
      recordId: 'local-1',
      kind,
      fields: { 'client.first_name': id },
      base: { 'client.first_name': 'Ann' },
      parentId: null,
      state,
      attempts: state === 'retry' ? 2 : 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: 1,
      updatedAt: 1,
    });
    await old.table('accounts').add(account);
    await old
      .table('sectionItems')
      .add({ id: 'item-1', serverId: 'a|b', accountId: 'local-1', section: 'assets' });
    await old
      .table('outbox')
      .bulkAdd([
        op('op-1', 'inflight', 'update'),
        op('op-2', 'retry', 'update'),
        op('op-3', 'queued', 'delete'),
      ]);
    await old.table('conflicts').add({ id: 'op-2', recordId: 'local-1', fields: {} });
    await old.table('meta').add({ key: 'pull.accounts', value: { pageSize: 200 } });
    const outboxBefore = await old.table<Operation, number>('outbox').orderBy('seq').toArray();
    old.close();

    const db = new AdvisorDb(name, fakeIdb);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(2);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(outboxBefore);
    // As it was, with the list's order keys (version 4) written beside it.
    expect(await db.accounts.get('local-1')).toEqual({
      ...account,
      order: accountOrder(account as unknown as AccountRow),
    });
    expect(await db.accounts.where('serverId').equals(7).count()).toBe(1);
    expect(await db.sectionItems.where('[accountId+section]').equals(['local-1', 'assets']).count()).toBe(1);
    expect(await db.conflicts.get('op-2')).toBeDefined();
    expect((await db.meta.get('pull.accounts'))?.value).toEqual({ pageSize: 200 });
    // The outbox keeps counting where it was.
    const seq = await db.outbox.add(op('op-4', 'queued', 'update'));
    expect(seq).toBeGreaterThan(Math.max(...outboxBefore.map((o) => o.seq!)));
    // The new tables are there, empty, and take rows.
    for (const table of [
      'memberSecurity',
      'profileValues',
      'accountActivity',
      'engagements',
      'engagementParts',
      'forms',
      'reports',
      'userActivity',
    ])
      expect(await db.table(table).count(), table).toBe(0);
    const engagement = {
      id: 'e-1',
      accountServerId: 7,
      completed: 0,
      createdAt: '2024-01-01 00:00:00',
      search: ['intake'],
    };
    await db.engagements.add(engagement as unknown as EngagementRow);
    expect(
      await db.engagements.where('[accountServerId+createdAt]').equals([7, '2024-01-01 00:00:00']).count(),
    ).toBe(1);
    db.close();
  });
});
