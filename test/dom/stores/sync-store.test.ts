// The sync store as the app frame starts it, over the app's database and the bridge: its state
// for the screens, and storage problems kept in plain words. Syncing itself is tested against the
// sandbox platform with the coordinator (test/integration/sync-coordinator.test.ts); here the
// bridge is one with no platform behind it, as when the network is gone, so that this file runs
// with the renderer's types (the sandbox is Node code).

import Dexie from 'dexie';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import { createRecord } from '../../../renderer/src/data/changes/index.ts';
import { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { StorageError } from '../../../renderer/src/data/storage.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import type { StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import type { AuthStatus } from '@shared/auth.ts';
import { SANDBOX_TEAM, clientFields, newUserKey, openDb } from '../../support/store.ts';
import { NO_NETWORK } from '../../support/no-network.ts';

let db: AdvisorDb;
let asked: ApiRequest[];
let identity: StoreIdentity;

/** The session as signed in under `signedIn` (the identity the main process keeps with the tokens). */
function signIn(signedIn: StoreIdentity | null) {
  useSessionStore().status = { identity: signedIn } as unknown as AuthStatus;
}

/** What the transport answers when no network is there. */
const noNetwork = (req: ApiRequest): Promise<ApiResult> => {
  asked.push(req);
  return Promise.resolve(NO_NETWORK);
};

beforeEach(() => {
  setActivePinia(createPinia());
  asked = [];
  useBridge({ api: { request: noNetwork } } as unknown as Bridge);
  identity = { user: newUserKey(), team: SANDBOX_TEAM };
  db = openDb(undefined, identity);
  useLocalDb(db);
  signIn(identity);
});
afterEach(async () => {
  await useSyncStore().stop();
  await db.delete();
});

describe('the sync store', () => {
  it('starts after sign-in over the app database and the bridge; shows offline and what waits', async () => {
    const sync = useSyncStore();
    expect(await sync.start()).toBe(true);
    expect(sync).toMatchObject({ started: true, worker: true, storageProblem: null });

    await sync.save(() => createRecord(db, 'accounts', { fields: clientFields('Stella') }));
    await vi.waitFor(() => expect([sync.phase, sync.pendingCount]).toEqual(['offline', 1]));
    expect(sync.message).toMatch(/cannot be reached/);
    // A new account goes once the platform confirms the team (issue 12): that is the request that failed.
    expect(asked.some((r) => r.method === 'GET' && r.path === '/user')).toBe(true);
    // The connection indicator hears the same answers.
    expect(useConnectivityStore().state).toBe('unreachable');

    // Back from signing in again: the same coordinator resumes.
    expect(await sync.start()).toBe(true);
    expect(sync.started).toBe(true);
  });

  it('sends a change only under the user and team it was made under: another team signed in, it waits unsent', async () => {
    signIn({ ...identity, team: 2 });
    const sync = useSyncStore();
    expect(await sync.start()).toBe(true);
    await sync.save(() => createRecord(db, 'accounts', { fields: clientFields('Stella') }));
    await vi.waitFor(() => expect(sync.pendingCount).toBe(1));
    // Nobody signed in at all: nothing either.
    signIn(null);
    await sync.retry();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nothing is asked either: the platform's answers would be another team's, not this store's.
    expect(asked).toEqual([]);
    expect((await db.outbox.toArray()).map((op) => op.state)).toEqual(['queued']);

    // Its own team current again: it goes (and meets no platform here, asking for the current team).
    signIn(identity);
    await sync.retry();
    await vi.waitFor(() => expect(asked.some((r) => r.path === '/user')).toBe(true));
  });

  it('"send now" resolves once the push pass ends, with what is left; no timer decides it', async () => {
    const sync = useSyncStore();
    expect(await sync.start()).toBe(true);
    await sync.save(() => createRecord(db, 'accounts', { fields: clientFields('Stella') }));
    // Counted from the change on: the pass its saving starts may have asked already when "send
    // now" is pressed (beside a load it had), and "send now" then waits for that pass.
    const before = asked.length;
    await vi.waitFor(() => expect(sync.pendingCount).toBe(1));
    // From here no timer fires: what "send now" waits for is the pass itself.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const heard: number[] = [];
      expect(await sync.sendNow((count) => heard.push(count))).toBe(1);
      // The pass did try (asking for the current team before the create), and met no platform.
      expect(asked.length).toBeGreaterThan(before);
      expect(heard).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a database that cannot be opened: start answers false, with the problem in plain words', async () => {
    useLocalDb(new AdvisorDb(`no-idb-${crypto.randomUUID()}`, {}));
    const sync = useSyncStore();
    expect(await sync.start()).toBe(false);
    expect(sync.started).toBe(false);
    expect(sync.storageProblem?.kind).toBe('unavailable');
    expect(sync.storageProblem?.whatToDo).toMatch(/normal window/);
  });

  it('a change that cannot be saved: the problem is kept until a save works again', async () => {
    const sync = useSyncStore();
    const full = sync.save(() =>
      Promise.reject(new Dexie.AbortError('Transaction aborted', new Dexie.QuotaExceededError())),
    );
    await expect(full).rejects.toBeInstanceOf(StorageError);
    expect(sync.storageProblem?.kind).toBe('quota');

    expect(await sync.save(() => Promise.resolve('saved'))).toBe('saved');
    expect(sync.storageProblem).toBeNull();
  });
});
