// @vitest-environment happy-dom
// What the main process says when a sign-in cannot start or a sign-out goes wrong reaches the
// screen in its own words, and a failed sign-out never leaves the app frame with an unhandled
// rejection. The real sign-in screen, app frame and stores; the bridge answers as either host does.

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
import type { AuthStatus } from '@shared/auth.ts';
import type { Bridge, SignInStartResult, SignOutResult } from '@shared/bridge.ts';
import { sandboxProfile } from '@shared/settings.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { hasLocalDb, useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import SignInView from '../../../renderer/src/sign-in/SignInView.vue';
import { identityOf, openIdentityDb } from '../../support/store.ts';

const ALEX = alex([{ id: 1, name: 'Main Street Advisors' }]);
const statusOf = (signedIn: boolean): AuthStatus => ({
  v2: { signedIn, needsSignIn: !signedIn },
  v0: { signedIn, needsSignIn: !signedIn },
  shared: true,
  persistent: true,
  persistenceNote: null,
  identity: null,
});

let db: AdvisorDb;
/** Errors Vue caught from components (a rejected click handler lands here). */
let caught: unknown[];
let beginSignIn: () => Promise<SignInStartResult>;
let signOut: () => Promise<SignOutResult>;

beforeEach(async () => {
  setActivePinia(createPinia());
  // Alex's store, as a sign-in leaves it: the frame binds and opens it after reading /user.
  const alex = await identityOf(ALEX);
  db = await openIdentityDb(alex);
  useLocalDb(db);
  caught = [];
  let signedIn = true;
  let bound: AuthStatus['identity'] = null;
  beginSignIn = () => Promise.resolve({ ok: false, message: 'not set up by the test' });
  signOut = () => {
    signedIn = false;
    return Promise.resolve({ ok: true, status: statusOf(false) });
  };
  useBridge({
    api: {
      request: (req: ApiRequest): Promise<ApiResult> =>
        Promise.resolve(req.path === '/user' ? { ok: true, status: 200, data: ALEX } : NO_NETWORK),
    },
    auth: {
      status: () => Promise.resolve({ ...statusOf(signedIn), identity: signedIn ? bound : null }),
      bindIdentity: (identity: AuthStatus['identity']) => {
        bound = identity;
        return Promise.resolve({ ok: true, status: { ...statusOf(true), identity } });
      },
      beginSignIn: () => beginSignIn(),
      finishSignIn: () => Promise.reject(new Error('no sign-in was started')),
      cancelSignIn: () => Promise.resolve(),
      signOut: () => signOut(),
    },
    settings: {
      get: () =>
        Promise.resolve({
          profile: sandboxProfile(),
          hasClientSecret: false,
          preferences: { theme: 'light' },
        }),
    },
  } as unknown as Bridge);
});

stopSyncAfterEach(() => db);
unmountAfterEach();

const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;

async function mountApp(start: '/' | '/sign-in') {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: frameRoutes(SignInView),
  });
  await router.push(start);
  await router.isReady();
  await useSessionStore().refreshStatus();
  mount(defineComponent({ render: () => h(RouterView) }), {
    attachTo: document.body,
    global: {
      plugins: [router, [PrimeVue, { theme: 'none' }], ToastService],
      config: { errorHandler: (error) => void caught.push(error) },
    },
  });
  await flushPromises();
  return router;
}

async function click(id: string) {
  const button = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  expect(button, id).not.toBeNull();
  button?.click();
  await flushPromises();
  await flushPromises();
}

describe('the sign-in screen', () => {
  it('shows why a sign-in could not start, in the words of the main process', async () => {
    beginSignIn = () =>
      Promise.resolve({
        ok: false,
        message:
          'The two interfaces use different sign-in servers: sign in to each one separately (version 2, then version 0.0.1).',
      });
    await mountApp('/sign-in');
    await click('sign-in');
    expect(text('sign-in-error')).toBe(
      'The two interfaces use different sign-in servers: sign in to each one separately (version 2, then version 0.0.1).',
    );
    expect(useSessionStore().phase).toBe('idle');
    expect(caught).toEqual([]);
  });
});

describe('signing out from the app frame', () => {
  /** Sign out, and confirm in the sign-out dialog (nothing removed). */
  async function signOutFromFrame() {
    await click('sign-out');
    await vi.waitFor(() => expect(document.querySelector('[data-testid="sign-out-confirm"]')).not.toBeNull());
    await click('sign-out-confirm');
  }

  async function mountFrame() {
    const router = await mountApp('/');
    await vi.waitFor(async () => {
      await flushPromises();
      expect(useSyncStore().started).toBe(true);
    });
    expect(text('user-name')).toBe('Alex Morgan');
    return router;
  }

  it('goes to the sign-in screen', async () => {
    const router = await mountFrame();
    await signOutFromFrame();
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('sign-in'), { timeout: 5000 });
    expect(useSessionStore().user).toBeNull();
    // The store closed with the session: nothing of Alex's is open for whoever signs in next.
    expect(hasLocalDb()).toBe(false);
    expect(db.isOpen()).toBe(false);
    expect(caught).toEqual([]);
  });

  it('a sign-out the main process did not answer is said plainly; the frame stays and syncing goes on', async () => {
    signOut = () =>
      Promise.reject(
        new Error('The preview host is not running. Start it again with npm run web and reload this page.'),
      );
    const router = await mountFrame();
    await signOutFromFrame();
    await vi.waitFor(() => expect(useSessionStore().error).not.toBeNull(), { timeout: 5000 });
    expect(caught).toEqual([]);
    expect(router.currentRoute.value.name).toBe('accounts');
    expect(useSessionStore().error).toBe(
      'Advisor Desk could not sign you out. The preview host is not running. Start it again with npm run web and reload this page. Try signing out again.',
    );
    expect(document.body.textContent).toContain('Advisor Desk could not sign you out.');
    await vi.waitFor(() => expect(useSyncStore().started).toBe(true));
  });

  it('a saved sign-in the secret store could not forget is said on the sign-in screen', async () => {
    const message =
      "You are signed out, but Advisor Desk could not remove your saved sign-in from the system's secret store, so it may come back after a restart. Sign in and sign out again to remove it.";
    signOut = () => Promise.resolve({ ok: false, message, status: statusOf(false) });
    const router = await mountFrame();
    await signOutFromFrame();
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('sign-in'), { timeout: 5000 });
    expect(caught).toEqual([]);
    await vi.waitFor(() => expect(text('sign-in-error')).toBe(message));
  });
});
