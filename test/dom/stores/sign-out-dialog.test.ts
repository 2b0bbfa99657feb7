// @vitest-environment happy-dom
// The sign-out dialog while the platform has asked us to wait (a 503 with Retry-After): after
// "Send them first" it says until when and how many changes are left, Cancel closes it at once
// with the change kept and nobody signed out, and the change is sent once the wait is over.
// Real dialog, sync store, coordinator and store (fake-indexeddb); behind the bridge, the main
// process's request budget (rate-limiter.ts, paused as the transport pauses it) over the scripted
// platform of the push tests.

import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import Dexie from 'dexie';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { h } from 'vue';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import type { ApiRequest, ApiResult } from '@shared/api/request.ts';
import type { AuthStatus } from '@shared/auth.ts';
import type { Bridge } from '@shared/bridge.ts';
import { RateLimiter } from '../../../electron/main/transport/rate-limiter.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useSessionStore } from '../../../renderer/src/common/session.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import type { AccountRow } from '../../../renderer/src/data/model.ts';
import SignOutDialog from '../../../renderer/src/shell/SignOutDialog.vue';
import { FakeApi, failure } from '../../unit/data/fake-api.ts';
import {
  SANDBOX_TEAM,
  clientFields,
  fakeIdb,
  newUserKey,
  openDb,
  syncedAccount,
} from '../../support/store.ts';

// Live queries need an IndexedDB of Dexie's own: the fake one the test stores live in.
Object.assign(Dexie.dependencies, fakeIdb);

/**
 * How long the platform asks us to wait: long enough to look at the dialog (1.5 s was not, beside
 * a second load: the dialog opened after the wait had ended), short for a test.
 */
const WAIT_MS = 4000;

const clock = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(new Date(ms));

let pinia: Pinia;
let db: AdvisorDb;
let account: AccountRow;
let platform: FakeApi;
let budget: RateLimiter;
let signOuts: number;

beforeEach(async () => {
  pinia = createPinia();
  setActivePinia(pinia);
  signOuts = 0;
  platform = new FakeApi();
  platform.accounts.set(7, { id: 7, client: { first_name: 'Ann', last_name: 'Tester' } });
  // The first write meets a 503 asking us to wait.
  let unavailable = 1;
  platform.overrides.push((req) =>
    req.method !== 'GET' && unavailable-- > 0
      ? failure('unavailable', 503, { retryAfterMs: WAIT_MS })
      : undefined,
  );
  // What the main process does with each request: waits for the budget, which a 503 with
  // Retry-After pauses (transport.ts, failureOf).
  budget = new RateLimiter({
    perMinute: 0,
    clock: {
      now: Date.now,
      setTimeout: (f, ms) => setTimeout(f, ms),
      clearTimeout: (t) => clearTimeout(t as never),
    },
  });
  const request = async (req: ApiRequest): Promise<ApiResult> => {
    await budget.acquire(req.priority ?? 'interactive');
    const answer = await platform.send(req);
    if (!answer.ok && answer.retryAfterMs !== null && ['rate-limited', 'unavailable'].includes(answer.kind))
      budget.pauseUntil(Date.now() + answer.retryAfterMs, req.priority ?? 'interactive');
    return answer;
  };
  useBridge({
    api: { request },
    auth: {
      signOut: () => {
        signOuts++;
        return Promise.resolve({ ok: true, status: { v2: { signedIn: false }, v0: { signedIn: false } } });
      },
    },
    diagnostics: { report: () => Promise.resolve() },
  } as unknown as Bridge);
  const identity = { user: newUserKey(), team: SANDBOX_TEAM };
  db = openDb(undefined, identity);
  useLocalDb(db);
  useSessionStore().status = { identity } as unknown as AuthStatus;
  account = await syncedAccount(db, 7, clientFields('Ann'));
});

afterEach(async () => {
  await useSyncStore().stop();
  budget.dispose();
  await db.delete();
});
unmountAfterEach();

/** The dialog, open, as the shell shows it (closing it sets `visible` to false). */
async function openDialog(): Promise<Router> {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: { render: () => h('div', 'home') } },
      { path: '/sign-in', name: 'sign-in', component: { render: () => h('div', 'sign-in') } },
    ],
  });
  await router.push('/');
  const mounted: VueWrapper = mount(SignOutDialog, {
    attachTo: document.body,
    props: {
      visible: true,
      'onUpdate:visible': (open: boolean) => void mounted.setProps({ visible: open }),
    },
    global: {
      plugins: [pinia, router, [PrimeVue, { theme: 'none' }]],
      stubs: { transition: false },
    },
  });
  await flushPromises();
  return router;
}

const find = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const button = (label: string) =>
  [...document.body.querySelectorAll<HTMLButtonElement>('button')].find(
    (b) => b.textContent?.trim() === label,
  );

/** A change of Ann's name whose sending met the 503: until when the platform asked us to wait. */
async function changeMetTheWait(): Promise<number> {
  const sync = useSyncStore();
  expect(await sync.start()).toBe(true);
  const before = Date.now();
  await sync.save(() => updateRecord(db, 'accounts', account.id, { 'client.first_name': 'Annie' }));
  await vi.waitFor(() => expect(sync.platformWaitUntil).not.toBeNull(), { timeout: 5000 });
  const until = sync.platformWaitUntil!;
  expect(until).toBeGreaterThanOrEqual(before + WAIT_MS);
  expect(until).toBeLessThanOrEqual(Date.now() + WAIT_MS);
  return until;
}

describe('the sign-out dialog while the platform asked us to wait', () => {
  it('says until when; Cancel closes it at once, nobody signed out, the change kept and sent after the wait', async () => {
    const until = await changeMetTheWait();
    const queued = await db.outbox.toArray();
    expect(queued.map((op) => op.fields)).toEqual([{ 'client.first_name': 'Annie' }]);
    await openDialog();
    expect(find('sign-out-unsent')?.textContent).toMatch(/1 change has not reached the platform yet\./);
    // Before asking to send, the advisor learns that sending waits, and until when.
    expect(find('sign-out-platform-wait')?.textContent?.trim()).toBe(
      `The platform asked us to wait until ${clock(until)}; 1 change still to send. Sending them first waits until then.`,
    );

    find('sign-out-send-first')!.click();
    await vi.waitFor(() =>
      expect(find('sign-out-sending')?.textContent).toBe(
        `The platform asked us to wait until ${clock(until)}; 1 change still to send.`,
      ),
    );
    // Cancel is there while it waits.
    const cancel = button('Cancel')!;
    expect(cancel.disabled).toBe(false);
    cancel.click();
    await vi.waitFor(() => expect(find('sign-out-dialog')).toBeNull());
    expect(Date.now()).toBeLessThan(until);
    expect(signOuts).toBe(0);
    expect((await db.outbox.toArray()).map((op) => [op.id, op.fields])).toEqual(
      queued.map((op) => [op.id, op.fields]),
    );

    // The wait over, the change reaches the platform; the cancelled dialog signs nobody out.
    await vi.waitFor(() => expect(useSyncStore().pendingCount).toBe(0), { timeout: WAIT_MS + 5000 });
    expect(Date.now()).toBeGreaterThanOrEqual(until - 50);
    expect(platform.accounts.get(7)).toMatchObject({ client: { first_name: 'Annie' } });
    expect(await db.outbox.count()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signOuts).toBe(0);
  });

  it('left open, it sends the change once the wait is over and then signs out', async () => {
    const until = await changeMetTheWait();
    const router = await openDialog();
    find('sign-out-send-first')!.click();
    await vi.waitFor(() =>
      expect(find('sign-out-sending')?.textContent).toBe(
        `The platform asked us to wait until ${clock(until)}; 1 change still to send.`,
      ),
    );
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('sign-in'), {
      timeout: WAIT_MS + 5000,
    });
    expect(Date.now()).toBeGreaterThanOrEqual(until - 50);
    expect(platform.accounts.get(7)).toMatchObject({ client: { first_name: 'Annie' } });
    expect(signOuts).toBe(1);
  });
});

describe('the sign-out dialog with this computer’s copy to remove', () => {
  it('says the unsent change is lost with the copy, not kept and sent later (issue 23, point 10)', async () => {
    await changeMetTheWait();
    await openDialog();
    const kept = () => find('sign-out-kept')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(kept()).toBe('It is kept here and sent at your next sign-in, unless you send it first.');
    find('sign-out-remove')!.querySelector('input')!.click();
    await flushPromises();
    expect(kept()).toBe(
      "Removing this computer's copy loses it for good: it never reaches the platform. Send it first, or keep the copy to send it at your next sign-in.",
    );
    expect(find('sign-out-unsent')?.textContent).not.toMatch(/kept here and sent/);
  });
});
