// "Prepare for a meeting" against the sandbox platform over real HTTP, through the real main-side
// transport, with the local store in fake-indexeddb: two households chosen are kept offline and
// pulled whole, one after the other, each reported waiting → getting (its parts counted up) →
// ready; every part of both is here afterwards, as the platform has it. A part that fails leaves
// its household not ready, with the reason, until it is tried again; offline, the households wait
// and go once the platform can be reached. The preparation is kept in the store: a restart (the
// store opened again, a new coordinator) lists it again, and what waited goes on.

import { describe, expect, it } from 'vitest';
import { COLLECTION_SECTIONS, SECTIONS, sectionKey, type MemberRole } from '@shared/sections.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { AccountRow } from '../../renderer/src/data/model.ts';
import {
  type SyncCoordinator,
  type HouseholdStep,
  type SyncCoordinatorOptions,
  type SyncState,
} from '../../renderer/src/sync/coordinator/index.ts';
import { AdvisorDb as StoreDb } from '../../renderer/src/data/db.ts';
import type { AccountRecord } from '../platform/model.ts';
import { fakeIdb } from '../support/store.ts';
import type { Platform } from '../platform/server.ts';
import { loneCoordinator, onSandbox, untilState } from './coordinator-harness.ts';
import { ADVISOR, type SandboxClient } from '../support/sandbox-client.ts';

let platform: Platform;
let advisor: SandboxClient;
let db: AdvisorDb;
const cleanup: (() => Promise<void> | void)[] = [];

onSandbox(24, cleanup, (world) => ({ platform, advisor, db } = world));

function coordinator(options: Partial<SyncCoordinatorOptions> = {}): SyncCoordinator {
  // The background keeps nothing offline of its own here: only what a test chooses is pulled whole.
  return loneCoordinator(db, advisor.send, cleanup, { pull: { recentAccounts: 0 }, ...options });
}

/** Started, with the start-up pulls (the account list) done. */
function started(c: SyncCoordinator): Promise<SyncState> {
  c.start();
  return settled(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null);
}

/** The first state that passes `test` (the current one included). */
const settled = (c: SyncCoordinator, test: (s: SyncState) => boolean) => untilState(c, test, cleanup, 20_000);

/** Every change of one household's step, in order: its state, and its parts done of total. */
function watchSteps(c: SyncCoordinator): { id: string; state: string; done: number; total: number }[] {
  const seen: { id: string; state: string; done: number; total: number }[] = [];
  const last = new Map<string, string>();
  cleanup.push(
    c.subscribe((s) => {
      for (const h of s.households.filter((x: HouseholdStep) => x.purpose === 'meeting')) {
        const key = `${h.state}:${h.done}:${h.total}`;
        if (last.get(h.accountId) === key) continue;
        last.set(h.accountId, key);
        seen.push({ id: h.accountId, state: h.state, done: h.done, total: h.total });
      }
    }),
  );
  return seen;
}

/** The states one household went through, without repeats. */
const statesOf = (seen: readonly { id: string; state: string }[], id: string) =>
  seen
    .filter((e) => e.id === id)
    .reduce<string[]>((out, e) => (out.at(-1) === e.state ? out : [...out, e.state]), []);

function teamAccounts(): AccountRecord[] {
  const state = platform.control.dump();
  const team = state.users.find((u) => u.email === ADVISOR)?.currentTeamId;
  return state.accounts.filter((a) => a.teamId === team && !a.archived);
}

async function local(serverId: number): Promise<AccountRow> {
  const row = await db.accounts.where('serverId').equals(serverId).first();
  if (!row) throw new Error(`account ${serverId} is not in the local store`);
  return row;
}

/** Every part of a household's pull is here as the platform has it. */
async function holdsEverything(record: AccountRecord): Promise<void> {
  const row = await local(record.id);
  const members: MemberRole[] = record.coclient ? ['client', 'coclient'] : ['client'];
  const server = platform.control.dump().accounts.find((a) => a.id === record.id)!;
  for (const section of COLLECTION_SECTIONS)
    for (const member of section.perMember ? members : [undefined]) {
      const key = sectionKey(section, member);
      const items = await db.sectionItems.where('[accountId+section]').equals([row.id, key]).toArray();
      expect(items.map((i) => i.serverId).sort(), key).toEqual(
        (server.sections?.[key] ?? []).map((i) => i.id).sort(),
      );
    }
  const singles = (await db.singles.where('accountId').equals(row.id).toArray()).map((s) => s.key).sort();
  const expected = [
    ...members.map((m) => `details:${m}`),
    ...SECTIONS.filter((s) => s.single).flatMap((s) =>
      (s.perMember ? members : [undefined]).map((m) => sectionKey(s, m)),
    ),
  ].sort();
  expect(singles).toEqual(expected);
  const security = await db.memberSecurity.where('accountServerId').equals(record.id).toArray();
  expect(security.map((s) => s.member).sort()).toEqual([...members].sort());
  expect(await db.profileValues.where('accountServerId').equals(record.id).count()).toBe(
    server.profile.length,
  );
  const activity = await db.accountActivity.where('accountServerId').equals(record.id).toArray();
  const served = platform.control.dump().accountActivities.filter((a) => a.accountId === record.id);
  expect(activity.map((a) => a.id).sort()).toEqual(served.map((a) => a.id).sort());
}

describe('prepare for a meeting', () => {
  it('pulls every part of two households, one after the other, and marks both ready offline', async () => {
    const c = coordinator();
    await started(c);
    const withCo = teamAccounts().find((a) => a.coclient && (a.sections?.assets?.length ?? 0) > 0)!;
    const alone = teamAccounts().find((a) => !a.coclient)!;
    const [first, second] = [await local(withCo.id), await local(alone.id)];
    expect([first.pulledAt, second.pulledAt]).toEqual([null, null]);
    const seen = watchSteps(c);
    const sentBefore = advisor.requests.length;

    await c.prepareForMeeting([first.id, second.id]);

    // One after the other: the first was ready before the second started.
    expect(statesOf(seen, first.id)).toEqual(['waiting', 'getting', 'ready']);
    expect(statesOf(seen, second.id)).toEqual(['waiting', 'getting', 'ready']);
    const firstReady = seen.findIndex((e) => e.id === first.id && e.state === 'ready');
    const secondGetting = seen.findIndex((e) => e.id === second.id && e.state === 'getting');
    expect(firstReady).toBeLessThan(secondGetting);
    // Each counted its parts up to its whole: 25 requests with a co-client, 21 without (account-data.ts).
    for (const [id, whole] of [
      [first.id, 25],
      [second.id, 21],
    ] as const) {
      const getting = seen.filter((e) => e.id === id && e.state === 'getting');
      expect(getting[0]).toMatchObject({ done: 0, total: whole });
      expect(getting.map((e) => e.done)).toEqual([...getting.map((e) => e.done)].sort((a, b) => a - b));
      expect(new Set(getting.map((e) => e.done)).size).toBeGreaterThan(2);
      expect(seen.filter((e) => e.id === id).at(-1)).toMatchObject({
        state: 'ready',
        done: whole,
        total: whole,
      });
    }
    // At interactive priority, ahead of the background; every request of the two households.
    const sent = advisor.requests.slice(sentBefore);
    expect(new Set(sent.map((r) => r.priority))).toEqual(new Set(['interactive']));
    expect(sent.filter((r) => r.path.startsWith(`/accounts/${withCo.id}`))).toHaveLength(25);
    expect(sent.filter((r) => r.path.startsWith(`/accounts/${alone.id}`))).toHaveLength(21);

    for (const record of [withCo, alone]) {
      const row = await local(record.id);
      expect(row.availableOffline).toBe(1);
      expect(row.pulledAt).not.toBeNull();
      await holdsEverything(record);
    }
    expect(c.state.households.map((h) => [h.accountId, h.state])).toEqual([
      [first.id, 'ready'],
      [second.id, 'ready'],
    ]);
  });

  it('a part that fails leaves the household not ready, with the reason; trying again makes it ready', async () => {
    const c = coordinator();
    await started(c);
    const record = teamAccounts().find((a) => !a.coclient && (a.sections?.assets?.length ?? 0) > 0)!;
    const row = await local(record.id);
    platform.control.setFaults({
      queue: [{ kind: 'server-error', path: `/accounts/${record.id}/assets$`, count: 1 }],
    });

    await c.prepareForMeeting([row.id]);

    const [step] = c.state.households;
    expect(step).toMatchObject({ accountId: row.id, state: 'failed' });
    expect(step?.reason).toMatch(/^Assets could not be fetched: /);
    // Not ready: no whole pull has completed here, though it is kept offline for the next try.
    expect((await local(record.id)).pulledAt).toBeNull();
    expect((await local(record.id)).availableOffline).toBe(1);

    await c.retryPreparation(row.id);

    expect(c.state.households).toEqual([
      expect.objectContaining({ accountId: row.id, state: 'ready', reason: null }),
    ]);
    expect((await local(record.id)).pulledAt).not.toBeNull();
    await holdsEverything(record);
  });

  it('offline, the households wait (nothing is sent) and go once the platform can be reached', async () => {
    let online = true;
    const c = coordinator({ online: () => online });
    await started(c);
    const record = teamAccounts().find((a) => a.coclient)!;
    const row = await local(record.id);
    online = false;
    const sentBefore = advisor.requests.length;

    await c.prepareForMeeting([row.id]);

    expect(c.state.phase).toBe('offline');
    expect(c.state.households).toEqual([expect.objectContaining({ accountId: row.id, state: 'waiting' })]);
    expect(advisor.requests.length).toBe(sentBefore);
    expect((await local(record.id)).availableOffline).toBe(1);

    online = true;
    // What the window's "online" event and a focus do.
    await c.rearm();
    await settled(c, (s) => s.households[0]?.state === 'ready');
    expect((await local(record.id)).pulledAt).not.toBeNull();
    await holdsEverything(record);
  });
});

describe('a preparation across restarts', () => {
  it('is listed again from the store; what waited goes on; a household added keeps the ready ones listed', async () => {
    let online = true;
    const first = coordinator({ online: () => online });
    await started(first);
    const [a, b] = teamAccounts().filter((x) => !x.coclient);
    const [ann, bob] = [await local(a!.id), await local(b!.id)];
    await first.prepareForMeeting([ann.id]);
    expect(first.state.households).toEqual([expect.objectContaining({ accountId: ann.id, state: 'ready' })]);
    await first.stop();
    db.close();

    // The app starts again, offline: the store (opened again) still holds Ann's household, ready.
    online = false;
    db = new StoreDb(db.name, fakeIdb);
    const sentBefore = advisor.requests.length;
    const second = coordinator({ online: () => online });
    second.start();
    await settled(second, (s) => s.households.length > 0);
    expect(second.state.households).toEqual([
      expect.objectContaining({ accountId: ann.id, purpose: 'meeting', state: 'ready', reason: null }),
    ]);
    // Bob's household added offline, once Ann's is ready: both are listed until the list is cleared.
    await second.prepareForMeeting([bob.id]);
    expect(second.state.households).toEqual([
      expect.objectContaining({ accountId: ann.id, state: 'ready' }),
      expect.objectContaining({ accountId: bob.id, state: 'waiting' }),
    ]);
    expect(advisor.requests.length).toBe(sentBefore);
    await second.stop();
    db.close();

    // Started again online: Bob's household, still waiting in the store, is pulled whole.
    online = true;
    db = new StoreDb(db.name, fakeIdb);
    const third = coordinator({ online: () => online });
    third.start();
    await settled(third, (s) => s.households.find((h) => h.accountId === bob.id)?.state === 'ready');
    expect(third.state.households.map((h) => [h.accountId, h.state])).toEqual([
      [ann.id, 'ready'],
      [bob.id, 'ready'],
    ]);
    expect(
      advisor.requests.slice(sentBefore).filter((r) => r.path.startsWith(`/accounts/${b!.id}`)),
    ).toHaveLength(21);
    await holdsEverything(b!);

    // Cleared: the preparation ends, and a restart lists nothing.
    await third.clearPrepared();
    await third.stop();
    const fourth = coordinator({ online: () => false });
    fourth.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fourth.state.households).toEqual([]);
  });
});

describe('the background’s households kept offline', () => {
  it('go quietly, one after another, each listed while it waits and while it is updated', async () => {
    const c = coordinator();
    await started(c);
    const [a, b] = teamAccounts().filter((x) => !x.favorited);
    const rows = [await local(a!.id), await local(b!.id)];
    await db.accounts.bulkUpdate(rows.map((r) => ({ key: r.id, changes: { availableOffline: 1 } })));
    const seen: { id: string; state: string }[] = [];
    let shownProgress = 0;
    cleanup.push(
      c.subscribe((s) => {
        shownProgress += s.progress.filter((p) => /offline/i.test(p.label)).length;
        const listed = s.households.filter((h) => h.purpose === 'background');
        seen.push({ id: listed.map((h) => `${h.accountId}:${h.state}`).join(' '), state: s.phase });
      }),
    );

    // What a sign-in, a reconnect or the interval does: a background run.
    await c.signedIn();
    await settled(c, (s) => s.households.length > 0);
    await settled(c, (s) => s.phase === 'idle' && s.households.length === 0);

    // Oldest pull first (both never pulled: the order they were marked in is not promised).
    const lists = seen.map((e) => e.id).filter((id, i, all) => id !== '' && id !== all[i - 1]);
    const [x, y] = lists[0]!.startsWith(rows[0]!.id)
      ? [rows[0]!.id, rows[1]!.id]
      : [rows[1]!.id, rows[0]!.id];
    expect(lists).toEqual([`${x}:getting ${y}:waiting`, `${y}:getting`]);
    // Empty again once the run is over; never a progress bar in the frame for it.
    expect(c.state.households).toEqual([]);
    expect(shownProgress).toBe(0);
    for (const row of rows) expect((await db.accounts.get(row.id))?.pulledAt).not.toBeNull();
  });
});
