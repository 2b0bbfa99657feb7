// The sync state against the sandbox platform over real HTTP, through the real main-side
// transport, with the local store in fake-indexeddb: phases (idle → syncing → idle, offline and
// back, sign-in needed and back with every change kept), pending count, refused changes with
// their field messages, conflicts, last synced time kept in the store, progress of long pulls,
// interactive pulls, and two windows sharing one database behind a Web Locks manager: only the
// lock holder sends, and nothing is sent twice.

import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '@shared/api/request.ts';
import {
  createRecord,
  resolveConflict,
  retryRejected,
  updateRecord,
} from '../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../renderer/src/data/db.ts';
import type { Fields } from '../../renderer/src/data/model.ts';
import type { SyncCoordinator } from '../../renderer/src/sync/coordinator/index.ts';
import {
  LAST_SYNCED_KEY,
  type SyncCoordinatorOptions,
  type SyncLocks,
  type SyncPhase,
  type SyncProgress,
  type SyncState,
  syncName,
} from '../../renderer/src/sync/coordinator/index.ts';
import { userKey } from '../../renderer/src/data/identity/index.ts';
import { openStore } from '../../renderer/src/data/identity/current-store.ts';
import { sandboxProfile } from '@shared/settings.ts';
import type { Platform } from '../platform/server.ts';
import { fakeIdb, openDb } from '../support/store.ts';
import { loneCoordinator, onSandbox, untilState } from './coordinator-harness.ts';
import { ADVISOR, ASSISTANT, sandboxClient, type SandboxClient } from '../support/sandbox-client.ts';

/**
 * Web Locks `request()` as browsers implement it, for one process: one holder per name, waiters
 * granted in order, the lock held until the callback's promise settles, and a waiting request
 * given up through its signal (rejected with AbortError).
 */
class FakeLocks implements SyncLocks {
  private readonly held = new Set<string>();
  private readonly waiting = new Map<string, (() => void)[]>();

  request(
    name: string,
    options: { signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const { signal } = options;
      const grant = () => {
        signal?.removeEventListener('abort', abandon);
        this.held.add(name);
        void Promise.resolve()
          .then(() => callback({ name, mode: 'exclusive' }))
          .finally(() => this.release(name))
          .then(resolve, reject);
      };
      const abandon = () => {
        const queue = this.waiting.get(name) ?? [];
        if (queue.includes(grant)) queue.splice(queue.indexOf(grant), 1);
        reject(new DOMException('The lock request was aborted.', 'AbortError'));
      };
      if (signal?.aborted) return abandon();
      if (!this.held.has(name)) return grant();
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting.set(name, [...(this.waiting.get(name) ?? []), grant]);
    });
  }

  private release(name: string): void {
    this.held.delete(name);
    this.waiting.get(name)?.shift()?.();
  }
}

let platform: Platform;
let advisor: SandboxClient;
let db: AdvisorDb;
const cleanup: (() => Promise<void> | void)[] = [];

onSandbox(20, cleanup, (world) => ({ platform, advisor, db } = world));

/** One window's coordinator; by default alone (no locks, no channel, no window events). */
function coordinator(options: Partial<SyncCoordinatorOptions> = {}): SyncCoordinator {
  // A failed send waits (a minute) for the retry or a rearm: what these tests look at.
  return loneCoordinator(db, advisor.send, cleanup, { push: { backoff: { baseMs: 60_000 } }, ...options });
}

/** The first state that passes `test` (the current one included). */
function until(c: SyncCoordinator, test: (s: SyncState) => boolean, timeoutMs = 10_000): Promise<SyncState> {
  return untilState(c, test, cleanup, timeoutMs);
}

/** Every phase the coordinator goes through from now on, without repeats. */
function phases(c: SyncCoordinator): SyncPhase[] {
  const seen: SyncPhase[] = [];
  cleanup.push(c.subscribe((s) => (seen.at(-1) === s.phase ? undefined : seen.push(s.phase))));
  return seen;
}

/** Started, with the start-up pulls done. */
async function started(c: SyncCoordinator): Promise<SyncState> {
  c.start();
  return until(c, (s) => s.phase === 'idle' && s.lastSyncedAt !== null);
}

let unique = 0;
function newClient(first = 'Cora'): Fields {
  unique++;
  return {
    type: 'CLIENT',
    'client.first_name': first,
    'client.last_name': `Coord${unique}`,
    'client.email': `coord-${unique}-${Date.now()}@example.com`,
  };
}

const onServer = (email: unknown) => platform.control.dump().accounts.filter((a) => a.client.email === email);
const writes = (requests: readonly ApiRequest[]) => requests.filter((r) => r.method !== 'GET');

function teamAccounts() {
  const state = platform.control.dump();
  const team = state.users.find((u) => u.email === ADVISOR)?.currentTeamId;
  return state.accounts.filter((a) => a.teamId === team);
}

describe('phases', () => {
  it('starts with the background pulls (progress reported), then idle; the last sync time is kept', async () => {
    const c = coordinator();
    const seen = phases(c);
    const progress: SyncProgress[] = [];
    cleanup.push(c.subscribe((s) => progress.push(...s.progress)));

    const idle = await started(c);

    expect(seen).toEqual(['idle', 'syncing', 'idle']);
    expect(idle).toMatchObject({ worker: true, message: null, pendingCount: 0, rejected: [], conflicts: [] });
    const team = teamAccounts().length;
    expect(await db.accounts.count()).toBe(team);
    expect(progress).toContainEqual(
      expect.objectContaining({ label: 'Updating the account list', done: team, total: team }),
    );
    expect((await db.meta.get(LAST_SYNCED_KEY))?.value).toBe(idle.lastSyncedAt);

    // Another window, or the next start of the app, reads it from the store.
    await c.stop();
    const next = coordinator({ locks: new FakeLocks(), push: {}, name: `held-${crypto.randomUUID()}` });
    next.start();
    await until(next, (s) => s.lastSyncedAt === idle.lastSyncedAt);
  });

  it('the background brings the team’s questionnaires: every one at first, then what is new in two requests', async () => {
    const events = new EventTarget();
    const c = coordinator({ events });
    await started(c);
    const lists = advisor.requests.filter((r) => r.path === '/engagements');
    expect(new Set(lists.map((r) => r.priority))).toEqual(new Set(['background']));
    const listed = await advisor.send({
      api: 'v2',
      method: 'GET',
      path: '/engagements',
      query: { limit: 500 },
    });
    const ids = ((listed.ok ? listed.data : null) as { items: { id: string }[] }).items.map((e) => e.id);
    expect(ids.length).toBeGreaterThan(0);
    expect((await db.engagements.orderBy('id').primaryKeys()).map(String)).toEqual(ids.sort());

    // The next run (back online): the list swept minutes ago, so only the newest of its two sorts.
    advisor.requests.length = 0;
    events.dispatchEvent(new Event('online'));
    await expect.poll(() => advisor.requests.some((r) => r.query?.type === 'completed')).toBe(true);
    await until(c, (s) => s.phase === 'idle');
    expect(
      advisor.requests.filter((r) => r.path === '/engagements').map((r) => [r.query?.sort, r.query?.type]),
    ).toEqual([
      ['-created_at', undefined],
      ['-completed_at', 'completed'],
    ]);
  });

  it('pushes a change: syncing while it goes out, idle once the server has it', async () => {
    const c = coordinator();
    await started(c);
    const seen = phases(c);
    const before = c.state.lastSyncedAt ?? 0;

    const fields = newClient();
    const { opId } = await createRecord(db, 'accounts', { fields });
    await c.whenSynced(opId!);
    const idle = await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0);

    expect(seen).toEqual(['idle', 'syncing', 'idle']);
    expect(idle.lastSyncedAt).toBeGreaterThanOrEqual(before);
    expect(onServer(fields['client.email'])).toHaveLength(1);
  });

  it('offline when the platform cannot be reached; changes wait, counted, and go once on rearm', async () => {
    const c = coordinator();
    await started(c);
    platform.control.setFaults({ probability: 1, kinds: ['drop-before'], queue: [] });

    const first = newClient();
    const second = newClient();
    await createRecord(db, 'accounts', { fields: first });
    await createRecord(db, 'accounts', { fields: second });
    const offline = await until(c, (s) => s.phase === 'offline' && s.pendingCount === 2);
    expect(offline.message).toMatch(/cannot be reached.*saved on this computer/);
    // Both were tried, and wait a minute for their retry.
    await expect
      .poll(async () => (await db.outbox.toArray()).map((op) => op.lastError?.kind))
      .toEqual(['network', 'network']);

    platform.control.setFaults({ probability: 0, queue: [] });
    await c.rearm();
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0);
    expect(onServer(first['client.email'])).toHaveLength(1);
    expect(onServer(second['client.email'])).toHaveLength(1);
  });

  it('follows the window: offline on its "offline" event, syncing again on "online"', async () => {
    let up = true;
    const events = new EventTarget();
    const c = coordinator({ events, online: () => up });
    await started(c);

    up = false;
    events.dispatchEvent(new Event('offline'));
    expect(c.state.phase).toBe('offline');
    expect(c.state.message).toMatch(/You are offline/);
    // Nothing is asked of the platform while the system says there is no network.
    advisor.requests.length = 0;
    const { id } = await createRecord(db, 'accounts', { fields: newClient() });
    expect(await c.openAccount(id)).toMatchObject({ skipped: true, requests: 0 });

    up = true;
    events.dispatchEvent(new Event('online'));
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0);
  });

  it('offline: no request and no write to the outbox, even on focus; "online" sends the queue at once', async () => {
    let up = true;
    const events = new EventTarget();
    const c = coordinator({ events, online: () => up });
    await started(c);
    // A change that met no platform before the network went: it waits a minute for its retry.
    platform.control.setFaults({ probability: 1, kinds: ['drop-before'], queue: [] });
    const first = newClient();
    await createRecord(db, 'accounts', { fields: first });
    await expect
      .poll(async () => (await db.outbox.toArray()).map((op) => op.lastError?.kind))
      .toEqual(['network']);
    platform.control.setFaults({ probability: 0, queue: [] });

    up = false;
    events.dispatchEvent(new Event('offline'));
    advisor.requests.length = 0;
    const second = newClient();
    await createRecord(db, 'accounts', { fields: second });
    const before = await db.outbox.orderBy('seq').toArray();
    const writes: string[] = [];
    db.outbox.hook('creating', () => void writes.push('creating'));
    db.outbox.hook('updating', () => void writes.push('updating'));
    db.outbox.hook('deleting', () => void writes.push('deleting'));
    events.dispatchEvent(new Event('focus'));
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(c.state).toMatchObject({ phase: 'offline', pendingCount: 2 });
    expect(c.state.message).toMatch(/You are offline/);
    expect(advisor.requests).toEqual([]);
    expect(writes).toEqual([]);
    expect(await db.outbox.orderBy('seq').toArray()).toEqual(before);
    expect(before[1]).toMatchObject({ state: 'queued', attempts: 0, lastError: null });

    // Well before the minute of the first one's retry: the reconnect makes every retry due.
    up = true;
    events.dispatchEvent(new Event('online'));
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0, 10_000);
    expect(onServer(first['client.email'])).toHaveLength(1);
    expect(onServer(second['client.email'])).toHaveLength(1);
  });

  it('needs sign-in when the token cannot be renewed; keeps every change; back to idle after signing in', async () => {
    const c = coordinator();
    await started(c);
    platform.control.revokeTokens();
    advisor.tokens.refuse = true;

    const first = newClient();
    const second = newClient();
    await createRecord(db, 'accounts', { fields: first });
    await createRecord(db, 'accounts', { fields: second });
    const waiting = await until(c, (s) => s.phase === 'needs-sign-in' && s.pendingCount === 2);
    expect(waiting.message).toMatch(/Sign in again/);
    // Kept as they were (the one being sent when the platform refused goes back in line).
    await expect
      .poll(async () => (await db.outbox.toArray()).map((op) => op.state))
      .toEqual(['queued', 'queued']);
    expect(onServer(first['client.email'])).toHaveLength(0);

    advisor.tokens.signIn();
    await c.signedIn();
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0);
    expect(onServer(first['client.email'])).toHaveLength(1);
    expect(onServer(second['client.email'])).toHaveLength(1);
  });
});

describe('the inbox', () => {
  it('lists a refused change with its field messages (422), named; fixing the record sends it', async () => {
    const c = coordinator();
    await started(c);

    const { id, opId } = await createRecord(db, 'accounts', {
      fields: { ...newClient('Rex'), 'client.last_name': 'Refused', 'client.email': 'not-an-email' },
    });
    const refused = await until(c, (s) => s.rejected.length === 1 && s.phase === 'idle');
    expect(refused.pendingCount).toBe(0);
    expect(refused.rejected[0]).toMatchObject({
      opId,
      table: 'accounts',
      recordId: id,
      label: 'Rex Refused',
      change: 'create',
      status: 422,
      fields: { 'client.email': [expect.stringMatching(/valid email/)] },
    });

    const email = `fixed-${Date.now()}@example.com`;
    await updateRecord(db, 'accounts', id, { 'client.email': email });
    await until(c, (s) => s.rejected.length === 0 && s.pendingCount === 0 && s.phase === 'idle');
    expect(onServer(email)).toHaveLength(1);
  });

  it('a change refused for a permission (403) is sent again as it is once the permission is there', async () => {
    const assistant = sandboxClient(platform, ASSISTANT);
    cleanup.push(() => assistant.transport.dispose());
    let user = assistant;
    const c = coordinator({ send: (req) => user.send(req) });
    await started(c);
    const { id, opId } = await createRecord(db, 'accounts', { fields: newClient('Pat') });
    await c.whenSynced(opId!);

    const converted = await updateRecord(db, 'accounts', id, { type: 'PROSPECT' });
    const refused = await until(c, (s) => s.rejected.length === 1);
    expect(refused.rejected[0]).toMatchObject({ opId: converted.opId, status: 403 });

    user = advisor;
    await retryRejected(db, converted.opId!);
    await c.whenSynced(converted.opId!);
    await until(c, (s) => s.rejected.length === 0 && s.pendingCount === 0);
    const row = await db.accounts.get(id);
    expect(platform.control.dump().accounts.find((a) => a.id === row?.serverId)?.type).toBe('PROSPECT');
  });

  it('lists a conflict, mine against theirs, named; resolving it sends my value', async () => {
    const assistant = sandboxClient(platform, ASSISTANT);
    cleanup.push(() => assistant.transport.dispose());
    const c = coordinator();
    await started(c);
    const { id, opId } = await createRecord(db, 'accounts', { fields: newClient('Cleo') });
    await c.whenSynced(opId!);
    const row = await db.accounts.get(id);

    // A colleague changes the name on the platform before my edit goes out.
    const theirs = await assistant.transport.request({
      api: 'v2',
      method: 'POST',
      path: `/accounts/${row?.serverId}`,
      body: { 'client.first_name': 'Theirs' },
    });
    expect(theirs.ok).toBe(true);
    const mine = await updateRecord(db, 'accounts', id, { 'client.first_name': 'Mine' });

    const waiting = await until(c, (s) => s.conflicts.length === 1 && s.phase === 'idle');
    expect(waiting.conflicts[0]).toMatchObject({
      id: mine.opId,
      recordId: id,
      label: `Mine ${row?.fields['client.last_name'] as string}`,
      deletedOnServer: false,
      fields: { 'client.first_name': { base: 'Cleo', mine: 'Mine', theirs: 'Theirs' } },
    });
    expect(waiting.pendingCount).toBe(0);

    await resolveConflict(db, mine.opId!, 'mine');
    await c.whenSynced(mine.opId!);
    await until(c, (s) => s.conflicts.length === 0 && s.pendingCount === 0);
    expect(platform.control.dump().accounts.find((a) => a.id === row?.serverId)?.client.first_name).toBe(
      'Mine',
    );
  });
});

describe('interactive pulls', () => {
  it('opening an account pulls it first (interactive) and marks it recently opened', async () => {
    const c = coordinator();
    await started(c);
    const account = (await db.accounts.toArray()).find((a) => a.pulledAt === null)!;
    advisor.requests.length = 0;

    const report = await c.openAccount(account.id);

    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(10);
    const row = await db.accounts.get(account.id);
    expect(row?.openedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(row?.pulledAt).not.toBeNull();
    expect(await db.singles.where('accountId').equals(account.id).count()).toBeGreaterThan(0);
    expect(new Set(advisor.requests.map((r) => r.priority))).toEqual(new Set(['interactive']));
  });

  it('making an account available offline pulls it with its progress, x of y', async () => {
    const c = coordinator();
    await started(c);
    const account = (await db.accounts.toArray()).find((a) => a.pulledAt === null)!;
    const progress: SyncProgress[] = [];
    cleanup.push(c.subscribe((s) => progress.push(...s.progress)));

    const report = await c.setAvailableOffline(account.id, true);

    expect((await db.accounts.get(account.id))?.availableOffline).toBe(1);
    const mine = progress.filter((p) => p.label.startsWith('Keeping offline:'));
    expect(mine.at(-1)).toMatchObject({ done: report?.requests, total: report?.requests });
    // It counted up: the parts go out together after the account, then come back one by one.
    expect(new Set(mine.map((p) => p.done)).size).toBeGreaterThan(2);
    for (const p of mine) expect(p.done).toBeLessThanOrEqual(p.total ?? 0);
    await until(c, (s) => s.progress.length === 0);

    expect(await c.setAvailableOffline(account.id, false)).toBeNull();
    expect((await db.accounts.get(account.id))?.availableOffline).toBe(0);
  });
});

describe('two windows on one database', () => {
  it('only the lock holder sends; changes made in the other window go out once; the lock passes on', async () => {
    const locks = new FakeLocks();
    const name = `sync-${crypto.randomUUID()}`;
    // Each window has its own connection to the same database, and its own transport.
    const dbB = openDb(db.name);
    const other = sandboxClient(platform, ADVISOR);
    cleanup.push(() => other.transport.dispose());
    const a = coordinator({ locks, name, channel: undefined });
    const b = coordinator({ db: dbB, send: other.send, locks, name, channel: undefined });
    cleanup.push(() => dbB.close());

    await started(a);
    b.start();
    const seenByB = phases(b);
    await until(b, (s) => s.lastSyncedAt === a.state.lastSyncedAt);
    expect(b.state.worker).toBe(false);
    expect(other.requests).toEqual([]);

    // Changes made in window B: the worker's push hears of them at once, through the channel.
    const emails: unknown[] = [];
    const ops: string[] = [];
    for (let i = 0; i < 3; i++) {
      const fields = newClient('Bea');
      emails.push(fields['client.email']);
      ops.push((await createRecord(dbB, 'accounts', { fields })).opId!);
    }
    await Promise.all(ops.map((op) => b.whenSynced(op)));
    await until(b, (s) => s.pendingCount === 0 && s.phase === 'idle');

    expect(writes(other.requests)).toEqual([]);
    expect(writes(advisor.requests).filter((r) => r.path === '/accounts')).toHaveLength(3);
    for (const email of emails) expect(onServer(email)).toHaveLength(1);
    // Window B showed what the worker was doing.
    expect(seenByB).toContain('syncing');

    // Window A closes: B takes the lock and sends from then on.
    await a.stop();
    await until(b, (s) => s.worker);
    const last = newClient('Bo');
    await b.whenSynced((await createRecord(dbB, 'accounts', { fields: last })).opId!);
    expect(writes(other.requests).filter((r) => r.path === '/accounts')).toHaveLength(1);
    expect(onServer(last['client.email'])).toHaveLength(1);
  });
});

describe('retries and badges', () => {
  it('window focus re-arms the retries: a change waiting a minute for its retry goes at once', async () => {
    const events = new EventTarget();
    const c = coordinator({ events });
    await started(c);
    platform.control.setFaults({ probability: 1, kinds: ['drop-before'], queue: [] });
    const fields = newClient();
    await createRecord(db, 'accounts', { fields });
    await until(c, (s) => s.phase === 'offline' && s.pendingCount === 1);
    // Tried once; uncertain (no answer), it waits for its retry.
    await expect.poll(async () => (await db.outbox.toArray())[0]?.lastError?.kind).toBe('network');
    // The retry is a minute away (the backoff of these tests): only the focus can send it now.
    expect((await db.outbox.toArray())[0]!.nextAttemptAt).toBeGreaterThan(Date.now() + 10_000);

    platform.control.setFaults({ probability: 0, queue: [] });
    events.dispatchEvent(new Event('focus'));
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0, 5_000);
    expect(onServer(fields['client.email'])).toHaveLength(1);
  });

  it('without a focus, the same change keeps waiting for its retry', async () => {
    const c = coordinator({ events: new EventTarget() });
    await started(c);
    platform.control.setFaults({ probability: 1, kinds: ['drop-before'], queue: [] });
    await createRecord(db, 'accounts', { fields: newClient() });
    // Tried once; uncertain (no answer), it waits for its retry.
    await expect.poll(async () => (await db.outbox.toArray())[0]?.lastError?.kind).toBe('network');
    platform.control.setFaults({ probability: 0, queue: [] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await db.outbox.count()).toBe(1);
  });

  it('watchStatus follows one record: pending, then conflict, then synced once resolved', async () => {
    const c = coordinator();
    await started(c);
    const { id, opId } = await createRecord(db, 'accounts', { fields: newClient() });
    const seen: (string | null)[] = [];
    const off = c.watchStatus('accounts', id, (status) => seen.push(status));
    cleanup.push(off);
    await expect.poll(() => seen.at(-1)).toBe('synced');
    expect(seen[0]).toBe('pending');
    await c.whenSynced(opId as string);

    // Changed on both sides: a conflict, then my value once resolved.
    const row = await db.accounts.get(id);
    const assistant = sandboxClient(platform, ASSISTANT);
    cleanup.push(() => assistant.transport.dispose());
    const theirs = await assistant.transport.request({
      api: 'v2',
      method: 'POST',
      path: `/accounts/${row?.serverId}`,
      body: { 'client.first_name': 'Theirs' },
    });
    expect(theirs.ok).toBe(true);
    const { opId: edit } = await updateRecord(db, 'accounts', id, { 'client.first_name': 'Mine' });
    await expect.poll(() => seen.at(-1)).toBe('conflict');
    await resolveConflict(db, edit as string, 'mine');
    await expect.poll(() => seen.at(-1)).toBe('synced');
    expect(seen).toEqual(['pending', 'synced', 'pending', 'conflict', 'pending', 'synced']);

    // Another record's changes do not call this listener; after unsubscribing, nothing does.
    const count = seen.length;
    await createRecord(db, 'accounts', { fields: newClient() });
    off();
    await updateRecord(db, 'accounts', id, { 'client.first_name': 'Later' });
    await until(c, (s) => s.phase === 'idle' && s.pendingCount === 0);
    expect(seen).toHaveLength(count);
  });
});

describe('a store per team', () => {
  /** The ids of a team's accounts on the platform (its own state, not through the app). */
  const teamIds = (team: number) =>
    platform.control
      .store()
      .state.accounts.filter((a) => a.teamId === team)
      .map((a) => a.id)
      .sort((a, b) => a - b);
  const storedIds = async (store: AdvisorDb) =>
    (await store.accounts.toArray()).map((a) => Number(a.serverId)).sort((a, b) => a - b);

  it('a team switch syncs the new team’s store: its whole list at once, none of the other team’s rows', async () => {
    const base = sandboxProfile(platform.url).v2.baseUrl;
    const user = await userKey(base, ADVISOR);
    const mainStreet = await openStore({ user, team: 1 }, { dexie: fakeIdb });
    const harbor = await openStore({ user, team: 2 }, { dexie: fakeIdb });
    cleanup.push(
      () => mainStreet.delete(),
      () => harbor.delete(),
    );
    const locks = new FakeLocks();
    expect(teamIds(1).length).toBeGreaterThan(0);
    expect(teamIds(2).length).toBeGreaterThan(0);

    // Main Street, as signed in: its list is pulled when the coordinator starts (no timer due).
    const first = coordinator({ db: mainStreet, locks });
    first.start();
    await until(first, (s) => s.worker && s.phase === 'idle' && s.lastSyncedAt !== null);
    expect(await storedIds(mainStreet)).toEqual(teamIds(1));
    await first.stop();

    // The switch: on the platform, then Harbor's store syncs; the background timer is an hour away.
    const switched = await advisor.send({ api: 'v2', method: 'POST', path: '/user/switch', body: { id: 2 } });
    cleanup.push(async () => {
      await advisor.send({ api: 'v2', method: 'POST', path: '/user/switch', body: { id: 1 } });
    });
    expect(switched.ok).toBe(true);
    const second = coordinator({ db: harbor, locks });
    second.start();
    await until(second, (s) => s.worker && s.phase === 'idle' && s.lastSyncedAt !== null);
    // Harbor's whole list (a team never pulled here: no watermark of Main Street's stops it).
    expect(await storedIds(harbor)).toEqual(teamIds(2));
    // Main Street's store is as it was: not one Harbor row was written there.
    expect(await storedIds(mainStreet)).toEqual(teamIds(1));
  });

  it('each store has its own lock: windows on two stores each sync their own', async () => {
    const locks = new FakeLocks();
    const other = openDb();
    cleanup.push(() => other.delete());
    const a = coordinator({ locks });
    const b = coordinator({ db: other, locks });
    a.start();
    b.start();
    await until(a, (s) => s.worker);
    await until(b, (s) => s.worker);
    expect(syncName(db.name)).not.toBe(syncName(other.name));
  });
});
