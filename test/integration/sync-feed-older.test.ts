// "Load older" on the Activity screen past the entries stored here, against the sandbox platform
// over real HTTP into Dexie over fake-indexeddb: one older page of `/user/activities` (0.0.1:
// `sort`, `limit`, `offset`, `type`) from the offset of what the store holds, at interactive
// priority, kept beside it; the end of the feed said; nothing kept when the platform answers for
// another team than the store's. The same for an account's activity (version 2
// `/accounts/{id}/activity`, which the account pull brings only its newest page of).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { accountActivity, userActivity } from '../../renderer/src/data/queries/index.ts';
import { PullEngine } from '../../renderer/src/sync/pull/index.ts';
import { sandbox } from '../support/sandbox.ts';
import { openDb } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

const platform = sandbox({ accounts: 60 });
const advisor = sandboxUser(platform, ADVISOR);
let db: AdvisorDb;
/** Pages of 25, so that the feed takes several. */
let engine: PullEngine;

beforeAll(async () => {
  db = openDb();
  await db.open();
  engine = new PullEngine({ db, send: advisor.send, pageSizes: [25] });
});

afterAll(async () => {
  await db.delete();
});

interface Feed {
  items: { id: number; type: string }[];
  total: number;
}

/** The feed as the platform lists it, newest first (the oracle). */
async function served(query = ''): Promise<Feed> {
  const token = platform.control.token(ADVISOR).access_token;
  const res = await fetch(`${platform.url}/api/v0/user/activities?sort=-created_at&limit=500${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await res.json()) as Feed;
}

async function switchTeam(id: number): Promise<void> {
  const token = platform.control.token(ADVISOR).access_token;
  const res = await fetch(`${platform.url}/api/v2/user/switch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  expect(res.ok).toBe(true);
}

const heldIds = async (type?: string) =>
  (await userActivity(db, { type, limit: 10_000 })).items.map((r) => r.id);

/** The feed requests sent since `from`, with their query. */
const feedAsks = (from: number) => advisor.requests.slice(from).filter((r) => r.path === '/user/activities');

describe('one older page of the feed', () => {
  it('asks from the offset of the entries held, keeps the page beside them, and says when the feed ends', async () => {
    const feed = await served();
    expect(feed.total).toBeGreaterThan(60);
    // The store holds the newest 30 entries only (the rest never arrived here).
    expect((await engine.pullUserActivity()).failures).toEqual([]);
    const beyond = feed.items.slice(30).map((a) => a.id);
    await db.userActivity.bulkDelete(beyond);
    expect(await heldIds()).toEqual(feed.items.slice(0, 30).map((a) => a.id));

    const from = advisor.requests.length;
    const report = await engine.pullOlderUserActivity();
    expect(report.failures).toEqual([]);
    // One page, right below the 30 held, at interactive priority.
    const [ask, ...others] = feedAsks(from);
    expect(others).toEqual([]);
    expect(ask).toMatchObject({ api: 'v0', method: 'GET', priority: 'interactive' });
    expect(ask?.query).toEqual({ sort: '-created_at', limit: 25, offset: 30 });
    expect(await heldIds()).toEqual(feed.items.slice(0, 55).map((a) => a.id));
    expect(report.olderEnd).toBeUndefined();

    // Page after page, to the end of the feed, which the last one says.
    let last = report;
    for (let i = 0; i < 10 && !last.olderEnd; i++) last = await engine.pullOlderUserActivity();
    expect(last.olderEnd).toBe(true);
    expect(await heldIds()).toEqual(feed.items.map((a) => a.id));
  });

  it('of one type: from the offset of the entries of that type held, asking for that type', async () => {
    const type = 'form.sent';
    const sent = await served(`&type=${type}`);
    expect(sent.total).toBeGreaterThan(3);
    const kept = sent.items.slice(0, 2).map((a) => a.id);
    await db.userActivity.bulkDelete(sent.items.slice(2).map((a) => a.id));
    expect(await heldIds(type)).toEqual(kept);

    const from = advisor.requests.length;
    await engine.pullOlderUserActivity({ type });
    expect(feedAsks(from).map((r) => r.query)).toEqual([{ sort: '-created_at', type, limit: 25, offset: 2 }]);
    expect(await heldIds(type)).toEqual(sent.items.slice(0, 27).map((a) => a.id));
  });

  it('keeps nothing when the platform answers for another team than the store’s', async () => {
    const feed = await served();
    await db.userActivity.bulkDelete(feed.items.slice(10).map((a) => a.id));
    const before = await db.userActivity.orderBy('id').toArray();
    await switchTeam(2);
    try {
      const report = await engine.pullOlderUserActivity();
      expect(report).toMatchObject({ failures: [], written: 0, teamMoved: 2 });
      expect(report.olderEnd).toBeUndefined();
      expect(await db.userActivity.orderBy('id').toArray()).toEqual(before);
    } finally {
      await switchTeam(1);
    }
  });
});

describe('one older page of an account’s activity', () => {
  it('asks from the offset of the entries held, of the type asked, keeps them, and says when it ends', async () => {
    // Pages of 2: the account pull brings the newest 2 entries.
    const small = new PullEngine({ db, send: advisor.send, pageSizes: [2] });
    await small.pullAccountList();
    const state = platform.control.dump();
    const team = state.users.find((u) => u.email === ADVISOR)!.currentTeamId;
    const record = state.accounts.find(
      (a) => a.teamId === team && state.accountActivities.filter((x) => x.accountId === a.id).length >= 5,
    )!;
    const local = (await db.accounts.where('serverId').equals(record.id).first())!;
    expect((await small.pullAccount(local.id)).failures).toEqual([]);
    const token = platform.control.token(ADVISOR).access_token;
    const res = await fetch(
      `${platform.url}/api/v2/accounts/${record.id}/activity?sort=-created_at&limit=500`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const served = ((await res.json()) as { items: { id: number; type: string }[] }).items;
    const held = async (type?: string) =>
      (await accountActivity(db, local.id, { type, limit: 1000 })).items.map((r) => r.id);
    expect(await held()).toEqual(served.slice(0, 2).map((a) => a.id));

    const from = advisor.requests.length;
    const report = await small.pullOlderAccountActivity(local.id);
    const asks = advisor.requests.slice(from);
    expect(asks).toHaveLength(1);
    expect(asks[0]).toMatchObject({
      api: 'v2',
      path: `/accounts/${record.id}/activity`,
      priority: 'interactive',
    });
    expect(asks[0]?.query).toEqual({ sort: '-created_at', limit: 2, offset: 2 });
    expect(await held()).toEqual(served.slice(0, 4).map((a) => a.id));
    expect(report.olderEnd).toBeUndefined();

    let last = report;
    for (let i = 0; i < 50 && !last.olderEnd; i++) last = await small.pullOlderAccountActivity(local.id);
    expect(last.olderEnd).toBe(true);
    expect(await held()).toEqual(served.map((a) => a.id));

    // Of one type: the type asked for, from the offset of that type's entries held.
    const type = served.at(-1)!.type;
    const ofType = served.filter((a) => a.type === type);
    await db.accountActivity.bulkDelete(ofType.slice(1).map((a) => a.id));
    const typed = advisor.requests.length;
    await small.pullOlderAccountActivity(local.id, { type });
    expect(advisor.requests.slice(typed).map((r) => r.query)).toEqual([
      { sort: '-created_at', type, limit: 2, offset: 1 },
    ]);
    expect(await held(type)).toEqual(ofType.slice(0, 3).map((a) => a.id));
  });
});
