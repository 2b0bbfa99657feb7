// The pulls of the engagement list and one engagement's outputs against the sandbox platform over
// real HTTP, through the real main-side transport, into Dexie over fake-indexeddb: compared with
// what the platform answers through its own API, with their removals, request counts and the
// version 2 list's filters, search, sort and pages.

import { beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import {
  ENGAGEMENT_SORT_KEYS,
  engagementParts,
  listEngagements,
  type EngagementQuery,
} from '../../renderer/src/data/queries/index.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import {
  accountOf,
  api,
  freshDb,
  get,
  ids,
  KNOWN_PAGE_SIZES,
  platform,
  readOnlyPulls,
  requestsSince,
  send,
  teamAccounts,
  teamEngagements,
  type Listed,
} from './read-only-pulls.ts';

readOnlyPulls();

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
