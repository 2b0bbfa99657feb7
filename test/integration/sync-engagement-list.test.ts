// The team's engagement list pulled incrementally (issue 15, point 1), against the sandbox platform
// over real HTTP: the first pull sweeps; then each pull asks the newest sent (`-created_at`) and
// the newest completed (`type=completed`, `-completed_at`), one request each; what the platform no
// longer lists goes with the next sweep only; a list read under another team keeps nothing.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '@shared/api/request.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import { AREA_SWEEP_MS } from '../../renderer/src/sync/pull/engagement-list.ts';
import {
  ENGAGEMENT_LIST_STATE,
  PullEngine,
  type EngagementListState,
} from '../../renderer/src/sync/pull/index.ts';
import type { Send } from '../../renderer/src/sync/send.ts';
import { TeamWatch } from '../../renderer/src/sync/team.ts';
import { SANDBOX_PASSWORD } from '../platform/seed.ts';
import { sandbox } from '../support/sandbox.ts';
import { SANDBOX_TEAM, storePerTest } from '../support/store.ts';
import { ADVISOR, sandboxUser } from '../support/sandbox-client.ts';

/** The advisor's other team in the sandbox (Harbor Wealth Partners). */
const HARBOR = 2;
const HOUR = 3_600_000;

interface Listed {
  id: string;
  account_id: number;
  member_id: number;
  status: string;
  created_at: string;
  completed_at: string | null;
}

const platform = sandbox({ accounts: 30 });
const advisor = sandboxUser(platform, ADVISOR, { perTest: true });
/** The same user on another device: sends engagements, deletes them, switches the team. */
const elsewhere = sandboxUser(platform, ADVISOR, { perTest: true });
let db: AdvisorDb;
let now: number;
let engine: PullEngine;

storePerTest((fresh) => (db = fresh));
beforeEach(() => {
  now = Date.now();
  // The largest page the sandbox takes, known: the team's list is one page, a request is a request.
  engine = new PullEngine({
    db,
    send: advisor.send,
    now: () => now,
    sweepIntervalMs: HOUR,
    pageSizes: [500],
  });
});
afterEach(async () => {
  await switchTeam(SANDBOX_TEAM);
});

/** A request of the other device; throws when the platform refuses it. */
async function fromElsewhere(req: ApiRequest): Promise<unknown> {
  const res = await elsewhere.send(req);
  if (!res.ok) throw new Error(`${req.method} ${req.path}: ${res.status} ${res.message}`);
  return res.data;
}

const switchTeam = (id: number) =>
  fromElsewhere({ api: 'v2', method: 'POST', path: '/user/switch', body: { id } });

/** The team's list as the platform serves it to the advisor now: the oracle. */
async function served(query: Record<string, string> = {}): Promise<Listed[]> {
  const data = await fromElsewhere({
    api: 'v2',
    method: 'GET',
    path: '/engagements',
    query: { limit: 500, ...query },
  });
  return (data as { items: Listed[] }).items;
}

/** An engagement sent to a household of the team from another device (or the web). */
async function sentElsewhere(): Promise<Listed> {
  const account = (await served()).at(-1)!;
  const template = platform.control.dump().templates.find((t) => t.teamId === SANDBOX_TEAM)!;
  return (await fromElsewhere({
    api: 'v2',
    method: 'POST',
    path: '/engagements',
    body: { template_id: template.id, account_id: account.account_id, member_id: account.member_id },
  })) as Listed;
}

/** The engaged member acts on the platform (the sandbox's control endpoint). */
async function member(id: string, action: 'open' | 'complete'): Promise<void> {
  const res = await fetch(`${platform.url}/__sandbox/engagements/${id}/member`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, seed: 7 }),
  });
  expect(res.status).toBe(200);
}

const state = async () =>
  (await db.meta.get(ENGAGEMENT_LIST_STATE))?.value as EngagementListState | undefined;
const idsHere = async () => (await db.engagements.orderBy('id').primaryKeys()).map(String);
const newest = (stamps: (string | null)[]) =>
  stamps
    .filter((s): s is string => s !== null)
    .sort()
    .at(-1) ?? null;

/** The requests this pull sent, as `GET /path sort type`. */
function sentSince(): () => string[] {
  const from = advisor.requests.length;
  return () =>
    advisor.requests
      .slice(from)
      .map((r) => [r.method, r.path, r.query?.sort, r.query?.type].filter((v) => v !== undefined).join(' '));
}

const NEW_ONES = 'GET /engagements -created_at';
const COMPLETED_ONES = 'GET /engagements -completed_at completed';
/** The platform's current team asked before what a list brings is kept (issue 12). */
const TEAM = 'GET /user';

describe('the team’s engagement list', () => {
  it('sweeps first: every engagement the team lists, both watermarks at the newest stamps', async () => {
    const sent = sentSince();
    const report = await engine.pullEngagements();
    expect(report.failures).toEqual([]);
    expect(sent()).toEqual([NEW_ONES, TEAM]);
    const listed = await served();
    expect(listed.length).toBeGreaterThan(5);
    expect(await idsHere()).toEqual(listed.map((e) => e.id).sort());
    expect(await state()).toEqual({
      newestCreatedAt: newest(listed.map((e) => e.created_at)),
      newestCompletedAt: newest(listed.map((e) => e.completed_at)),
      pulledAt: now,
      sweptAt: now,
    });
  });

  it('then keeps one sent elsewhere, at two requests and the team’s confirmation', async () => {
    await engine.pullEngagements();
    const swept = await state();
    now += 60_000;
    // Nothing new: two requests, nothing written, the team not asked.
    let sent = sentSince();
    expect(await engine.pullEngagements()).toMatchObject({ requests: 2, written: 0, removed: 0 });
    expect(sent()).toEqual([NEW_ONES, COMPLETED_ONES]);

    const made = await sentElsewhere();
    sent = sentSince();
    const report = await engine.pullEngagements();
    expect(report).toMatchObject({ requests: 3, written: 1, removed: 0, failures: [] });
    expect(sent()).toEqual([NEW_ONES, COMPLETED_ONES, TEAM]);
    expect((await db.engagements.get(made.id))?.server).toEqual(
      (await served()).find((e) => e.id === made.id),
    );
    expect(await state()).toEqual({ ...swept, newestCreatedAt: made.created_at, pulledAt: now });
  });

  it('shows one completed on the platform as completed after an incremental pull', async () => {
    await engine.pullEngagements();
    // The oldest one still open: sent long before the newest, so only the second pass can see it.
    const open = (await served({ type: 'in-progress' })).at(-1)!;
    expect((await db.engagements.get(open.id))?.completed).toBe(0);
    await member(open.id, 'complete');
    const done = (await served()).find((e) => e.id === open.id)!;
    expect(done.status).toBe('COMPLETED');
    // Completed now: at or after the newest completion the sweep saw.
    expect(done.completed_at! >= (await state())!.newestCompletedAt!).toBe(true);

    now += 60_000;
    const sent = sentSince();
    const report = await engine.pullEngagements();
    expect(report).toMatchObject({ written: 1, removed: 0, failures: [] });
    expect(sent()).toEqual([NEW_ONES, COMPLETED_ONES, TEAM]);
    expect(await db.engagements.get(open.id)).toMatchObject({ completed: 1, server: done });
    expect((await state())?.newestCompletedAt).toBe(done.completed_at);
    expect((await state())?.sweptAt).toBe(now - 60_000);
  });

  it('keeps one deleted on the platform until the sweep, which removes it', async () => {
    await engine.pullEngagements();
    const gone = (await served()).at(-1)!;
    await fromElsewhere({
      api: 'v2',
      method: 'DELETE',
      path: `/engagements/${gone.id}`,
      body: { password: SANDBOX_PASSWORD },
    });

    now += HOUR - 1;
    expect(await engine.pullEngagements()).toMatchObject({ requests: 2, removed: 0 });
    expect(await db.engagements.get(gone.id)).toBeDefined();

    // The sweep is due an hour after the last: every page of the list, and the team confirmed.
    now += 1;
    const sent = sentSince();
    const report = await engine.pullEngagements();
    expect(sent()).toEqual([NEW_ONES, TEAM]);
    expect(report).toMatchObject({ removed: 1, failures: [] });
    expect(await db.engagements.get(gone.id)).toBeUndefined();
    expect(await idsHere()).toEqual((await served()).map((e) => e.id).sort());
    expect((await state())?.sweptAt).toBe(now);

    // Asked for (`full`), a sweep runs whenever the last one was.
    const again = sentSince();
    expect(await engine.pullEngagements({ full: true })).toMatchObject({ requests: 1, removed: 0 });
    expect(again()).toEqual([NEW_ONES]);
  });

  it('opened as the Engagements area, sweeps once the last sweep is an hour old: a contact’s progress shows', async () => {
    engine = new PullEngine({
      db,
      send: advisor.send,
      now: () => now,
      sweepIntervalMs: 24 * HOUR,
      // Pages of 5: the list is several pages, and an incremental pull reads only the newest one.
      pageSizes: [5],
    });
    await engine.pullEngagements();
    // The oldest one still open (the first pass reads the newest again): its contact opens it.
    const open = (await served({ type: 'in-progress' })).at(-1)!;
    await member(open.id, 'open');
    const opened = (await served()).find((e) => e.id === open.id)! as Listed & { opened_at: string | null };
    expect(opened.opened_at).not.toBeNull();

    // Within the hour, only what is new and completed is asked: the opening is not seen yet.
    now += HOUR - 1;
    const area = { sweepAfterMs: AREA_SWEEP_MS };
    expect(await engine.pullEngagements(area)).toMatchObject({ requests: 2, written: 0 });
    expect((await db.engagements.get(open.id))?.server).toMatchObject({ opened_at: null });

    // An hour after the last sweep (not the background's day), the area's pull reads every page.
    now += 1;
    const sent = sentSince();
    expect(await engine.pullEngagements(area)).toMatchObject({ written: 1, failures: [] });
    const pages = Math.ceil((await served()).length / 5);
    expect(pages).toBeGreaterThan(1);
    expect(sent()).toEqual([...Array<string>(pages).fill(NEW_ONES), TEAM]);
    expect((await db.engagements.get(open.id))?.server).toEqual(opened);
    expect((await state())?.sweptAt).toBe(now);
  });

  it('read under another team keeps nothing and moves no watermark; back on its team it catches up', async () => {
    await engine.pullEngagements();
    const before = { rows: await db.engagements.toArray(), state: await state() };
    const made = await sentElsewhere();
    // Another device switches the team between the pull's start and its first list.
    let switched = false;
    const send: Send = async (req) => {
      if (!switched && req.path === '/engagements') {
        switched = true;
        await switchTeam(HARBOR);
      }
      return advisor.send(req);
    };
    now += 60_000;
    const moved = new PullEngine({
      db,
      send,
      team: new TeamWatch(db, send),
      now: () => now,
      sweepIntervalMs: HOUR,
    });
    const report = await moved.pullEngagements();
    expect(switched).toBe(true);
    // Harbor's list was read, and none of it was kept.
    expect(report.records).toBeGreaterThan(0);
    expect(report).toMatchObject({ teamMoved: HARBOR, written: 0, removed: 0, failures: [] });
    expect(await db.engagements.toArray()).toEqual(before.rows);
    expect(await state()).toEqual(before.state);

    await switchTeam(SANDBOX_TEAM);
    const back = await engine.pullEngagements();
    expect(back).toMatchObject({ written: 1, removed: 0, failures: [] });
    expect(back.teamMoved).toBeUndefined();
    expect(await idsHere()).toEqual((await served()).map((e) => e.id).sort());
    expect((await db.engagements.get(made.id))?.server.id).toBe(made.id);
  });

  it('a role that may not see completed ones asks only for the new ones', async () => {
    const user = platform.control.store().state.users.find((u) => u.email === ADVISOR)!;
    user.permissions['engagements.completed'] = false;
    try {
      // The user resource, as the app holds it, says so.
      await engine.pullConfig();
      await engine.pullEngagements();
      expect(await db.engagements.where('completed').equals(1).count()).toBe(0);
      now += 60_000;
      const sent = sentSince();
      expect(await engine.pullEngagements()).toMatchObject({ requests: 1, failures: [] });
      expect(sent()).toEqual([NEW_ONES]);
    } finally {
      user.permissions['engagements.completed'] = true;
    }
  });

  it('an account’s list stays one request, whatever the team’s list remembers', async () => {
    await engine.pullEngagements();
    // The team's list brings no accounts: the account list does.
    await engine.pullAccountList({ full: true });
    const one = (await served()).at(0)!;
    const row = (await db.accounts.where('serverId').equals(one.account_id).first())!;
    const sent = sentSince();
    expect(await engine.pullEngagements({ accountId: row.id })).toMatchObject({ requests: 1, written: 0 });
    expect(sent()).toHaveLength(1);
  });
});
