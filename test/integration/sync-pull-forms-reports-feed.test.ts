// The pulls of the team's forms, report metadata, the advisor's feed and statistics against the
// sandbox platform over real HTTP, through the real main-side transport, into Dexie over
// fake-indexeddb: compared with what the platform answers through its own API, with request
// counts, and kept apart by team after a team switch elsewhere.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import {
  STATS_KEY,
  CONFIG_KEYS,
  configEntry,
  listForms,
  listReports,
  userActivity,
} from '../../renderer/src/data/queries/index.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { newUserKey, openDb } from '../support/store.ts';
import { ASSISTANT } from '../support/sandbox-client.ts';
import {
  accountOf,
  api,
  freshDb,
  get,
  ids,
  readOnlyPulls,
  requestsSince,
  send,
  teamAccounts,
  type Listed,
} from './read-only-pulls.ts';

readOnlyPulls();

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
