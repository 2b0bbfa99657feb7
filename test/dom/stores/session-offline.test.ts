// @vitest-environment happy-dom
// The app frame's user and connection warning when the platform cannot be reached: after a reload
// offline the user kept by the last configuration pull fills the top bar (name, avatar, team) with
// the team switcher disabled and a reason; "cannot be reached" goes as soon as the platform answers
// again (the connection back, or any later request); other errors stay. The real frame, stores and
// local store (fake-indexeddb); the bridge answers as the main process does with no network.

import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { alex, frameRoutes, NO_NETWORK, stopSyncAfterEach } from './frame.ts';
import { defineComponent, h } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { Bridge } from '@shared/bridge.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import {
  closeLocalDb,
  hasLocalDb,
  localDb,
  useLocalDb,
} from '../../../renderer/src/data/identity/current-store.ts';
import { storeName, type StoreIdentity } from '../../../renderer/src/data/identity/index.ts';
import { useLocalStore } from '../../../renderer/src/common/local-store.ts';
import { CONFIG_KEYS, putConfigEntry } from '../../../renderer/src/data/queries/index.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { sandboxProfile } from '@shared/settings.ts';
import Dexie from 'dexie';
import { fakeIdb, identityOf, openIdentityDb } from '../../support/store.ts';

// A store the frame opens itself lives in the fake IndexedDB too.
Object.assign(Dexie.dependencies, fakeIdb);

const SIGNED_IN = { signedIn: true };
const TEAMS = [
  { id: 1, name: 'Main Street Advisors' },
  { id: 2, name: 'Harbor Wealth' },
];
const ALEX = alex(TEAMS);

const SETTINGS = { profile: sandboxProfile(), hasClientSecret: false, preferences: { theme: 'light' } };

let db: AdvisorDb;
/** The identity the main process keeps with the tokens (null: not learnt yet). */
let kept: StoreIdentity | null;
let bound: StoreIdentity[];
/** What the platform answers; the network is gone until a test says otherwise. */
let answer: (req: ApiRequest) => ApiResult | Promise<ApiResult>;

async function keepUser() {
  await putConfigEntry(db, CONFIG_KEYS.user, { pulledAt: Date.now(), data: ALEX });
}

beforeEach(async () => {
  setActivePinia(createPinia());
  kept = await identityOf(ALEX);
  bound = [];
  db = await openIdentityDb(kept);
  useLocalDb(db);
  answer = () => NO_NETWORK;
  useBridge({
    api: { request: (req: ApiRequest) => Promise.resolve(answer(req)) },
    auth: {
      status: () => Promise.resolve({ v2: SIGNED_IN, v0: SIGNED_IN, identity: kept }),
      signOut: () => Promise.resolve({ v2: {}, v0: {} }),
      bindIdentity: (identity: StoreIdentity) => {
        bound.push(identity);
        kept = identity;
        return Promise.resolve({ ok: true, status: { v2: SIGNED_IN, v0: SIGNED_IN, identity } });
      },
    },
    // The sandbox's profile: its v2 base address is part of the identity's key.
    settings: { get: () => Promise.resolve(SETTINGS) },
  } as unknown as Bridge);
});
stopSyncAfterEach(() => db);
unmountAfterEach();

const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;

async function mountFrame(started = true) {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: frameRoutes({ render: () => h('p', 'sign in') }),
  });
  await router.push('/');
  await router.isReady();
  const session = useSessionStore();
  await session.refreshStatus();
  mount(defineComponent({ render: () => h(RouterView) }), {
    attachTo: document.body,
    global: { plugins: [router, [PrimeVue, { theme: 'none' }], ToastService] },
  });
  await vi.waitFor(async () => {
    await flushPromises();
    expect(useSyncStore().started).toBe(started);
    // The frame has settled: a user to show, or the reason there is none.
    expect(session.user !== null || session.error !== null || !started).toBe(true);
  });
  await flushPromises();
  return router;
}

describe('the frame after a reload offline', () => {
  it('shows the user kept on this computer, with the team switcher disabled and why', async () => {
    await keepUser();
    useConnectivityStore().networkUp = false;
    const router = await mountFrame();

    expect(router.currentRoute.value.name).toBe('accounts');
    expect(text('user-name')).toBe('Alex Morgan');
    expect(document.querySelector('[data-testid="user"]')?.textContent).toContain('advisor@sandbox.test');
    expect(document.querySelector('[data-testid="user"]')?.textContent).toContain('AM');
    const switcher = document.querySelector('[data-testid="team-switcher"]')!;
    expect(switcher.textContent).toContain('Main Street Advisors');
    expect(switcher.querySelector('[role="combobox"]')?.getAttribute('aria-disabled')).toBe('true');
    expect(switcher.getAttribute('data-reason')).toContain('Switching teams needs the platform');
    expect(switcher.querySelector('[role="combobox"]')?.getAttribute('aria-describedby')).toBe(
      'team-switch-reason',
    );
    expect(document.getElementById('team-switch-reason')?.textContent).toContain(
      'possible again once the connection is back',
    );
    // Nothing to warn about: the frame is whole, the status control says offline.
    expect(text('session-error')).toBeNull();
    expect(useSessionStore().userIsKept).toBe(true);
  });

  it('a bridge that throws (no answer at all) is no reason to lose the user either', async () => {
    await keepUser();
    answer = () => Promise.reject(new Error('The preview host is not running.'));
    await mountFrame();
    expect(text('user-name')).toBe('Alex Morgan');
  });

  it('back online, the team switcher works again and the user is fresh from the platform', async () => {
    await keepUser();
    const connectivity = useConnectivityStore();
    connectivity.networkUp = false;
    await mountFrame();
    expect(useSessionStore().switchReason).not.toBeNull();

    answer = (req) =>
      req.path === '/user' && req.api === 'v2'
        ? { ok: true, status: 200, data: { ...ALEX, first_name: 'Alexandra' } }
        : NO_NETWORK;
    connectivity.networkUp = true;
    await vi.waitFor(() => expect(text('user-name')).toBe('Alexandra Morgan'));
    expect(useSessionStore().userIsKept).toBe(false);
    expect(useSessionStore().switchReason).toBeNull();
    const switcher = document.querySelector('[data-testid="team-switcher"]')!;
    expect(switcher.querySelector('[role="combobox"]')?.getAttribute('aria-disabled')).toBe('false');
  });
});

describe('"The platform cannot be reached right now"', () => {
  it('shows without a kept user, readable, and goes when the connection is back', async () => {
    const connectivity = useConnectivityStore();
    connectivity.networkUp = false;
    await mountFrame();
    expect(text('session-error')).toContain('The platform cannot be reached right now');
    expect(document.querySelector('[data-testid="session-error"]')?.getAttribute('role')).toBe('status');

    answer = (req) => (req.path === '/user' ? { ok: true, status: 200, data: ALEX } : NO_NETWORK);
    connectivity.networkUp = true;
    await vi.waitFor(() => expect(text('session-error')).toBeNull());
    expect(text('user-name')).toBe('Alex Morgan');
  });

  it('goes when a later request to the platform gets an answer, whatever asked it', async () => {
    await mountFrame();
    expect(text('session-error')).toContain('cannot be reached');
    expect(useConnectivityStore().state).toBe('unreachable');

    // The sync's next request is answered (even a refusal shows the platform is there).
    useConnectivityStore().observe({ ...NO_NETWORK, kind: 'validation', status: 422 });
    await flushPromises();
    expect(text('session-error')).toBeNull();
  });

  it('other problems stay until they are dealt with', async () => {
    answer = () => ({ ...NO_NETWORK, kind: 'server', status: 500, message: 'The platform failed (500).' });
    await mountFrame();
    expect(text('session-error')).toContain('The platform failed (500).');
    useConnectivityStore().observe({ ok: true, status: 200, data: null });
    await flushPromises();
    expect(text('session-error')).toContain('The platform failed (500).');
  });
});

describe('signed in, but who and which team not learnt yet (the first start after a sign-in)', () => {
  it('offline, says plainly it needs the platform once and opens no store; the connection back, it goes on', async () => {
    kept = null;
    closeLocalDb();
    const connectivity = useConnectivityStore();
    connectivity.networkUp = false;
    await mountFrame(false);
    expect(text('needs-platform')).toContain('needs the platform once to finish signing you in');
    expect(document.querySelector('[data-testid="needs-platform"]')?.getAttribute('role')).toBe('status');
    expect(hasLocalDb()).toBe(false);
    expect(text('the-list')).toBeNull();

    answer = (req) => (req.path === '/user' ? { ok: true, status: 200, data: ALEX } : NO_NETWORK);
    connectivity.networkUp = true;
    await vi.waitFor(() => expect(useSyncStore().started).toBe(true));
    expect(bound).toEqual([await identityOf(ALEX)]);
    expect(hasLocalDb()).toBe(true);
    expect(text('needs-platform')).toBeNull();
    expect(document.body.textContent).toContain('the list');
  });

  it('online, the platform naming another team than the one bound (switched on another device) opens that team’s store', async () => {
    const inHarbor = { ...ALEX, team: TEAMS[1]! };
    answer = (req) => (req.path === '/user' ? { ok: true, status: 200, data: inHarbor } : NO_NETWORK);
    await mountFrame();
    const harbor = await identityOf(inHarbor);
    await vi.waitFor(() => expect(bound).toEqual([harbor]));
    // Syncing stops on Main Street's store first (its push ends its pass), then Harbor's opens.
    await vi.waitFor(() => expect(useLocalStore().identity).toEqual(harbor), { timeout: 15_000 });
    await vi.waitFor(() => expect(useSyncStore().started).toBe(true));
    expect(db.isOpen()).toBe(false);
    expect(localDb().name).toBe(storeName(harbor));
  });
});
