// @vitest-environment happy-dom
// The status control in each phase the coordinator reports: syncing with the progress of a long
// pull (x of y), sign-in needed with a way back that keeps the queue, an error, and a storage
// problem in plain words with its way out. The coordinator is replaced by one whose state the
// test sets, as the real one reports it (its own behaviour is tested in test/integration).

import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { defineComponent, h, nextTick } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import type { Bridge } from '@shared/bridge.ts';
import SyncStatus from '../../../renderer/src/sync-status/SyncStatus.vue';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import type { SyncState } from '../../../renderer/src/sync/coordinator/index.ts';
import { useSyncStore } from '../../../renderer/src/common/sync.ts';
import { click, one, openDb, settle } from './harness.ts';

const fake = vi.hoisted(() => ({
  listeners: new Set<(s: unknown) => void>(),
  state: null as SyncState | null,
  signedIn: 0,
  stopped: 0,
}));

vi.mock('../../../renderer/src/sync/coordinator/index.ts', () => ({
  SyncCoordinator: class {
    subscribe(listener: (s: unknown) => void) {
      fake.listeners.add(listener);
      listener(fake.state);
      return () => fake.listeners.delete(listener);
    }
    start() {}
    stop() {
      fake.stopped++;
      return Promise.resolve();
    }
    signedIn() {
      fake.signedIn++;
      return Promise.resolve();
    }
    rearm() {
      return Promise.resolve();
    }
  },
}));

const IDLE: SyncState = {
  phase: 'idle',
  message: null,
  worker: true,
  pendingCount: 0,
  rejected: [],
  conflicts: [],
  lastSyncedAt: null,
  progress: [],
  households: [],
  storage: null,
  teamMoved: null,
};

function report(change: Partial<SyncState>) {
  fake.state = { ...IDLE, ...change };
  for (const l of fake.listeners) l(fake.state);
}

let router: Router;

beforeEach(async () => {
  fake.listeners.clear();
  fake.state = IDLE;
  fake.signedIn = fake.stopped = 0;
  useLocalDb(openDb());
  useBridge({ auth: { status: () => Promise.resolve({}) } } as unknown as Bridge);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/accounts/:id?', name: 'accounts', component: { render: () => h('div', 'accounts') } },
      { path: '/sign-in', name: 'sign-in', component: { render: () => h('div', 'sign in') } },
    ],
  });
  await router.push('/accounts/x?tab=financials');
  await router.isReady();
  const pinia = createPinia();
  setActivePinia(pinia);
  const Frame = defineComponent({ render: () => h('div', [h(SyncStatus), h(RouterView)]) });
  mount(Frame, {
    attachTo: document.body,
    global: {
      plugins: [pinia, router, [PrimeVue, { theme: 'none' }]],
      stubs: { transition: false, 'transition-group': false },
    },
  });
  expect(await useSyncStore().start()).toBe(true);
  await settle();
});
unmountAfterEach();

describe('the status control, phase by phase', () => {
  it('idle with nothing waiting says so, and the panel says when the platform last had everything', async () => {
    report({ lastSyncedAt: Date.now() - 2 * 60_000 });
    await nextTick();
    expect(one('sync-state').textContent).toContain('All changes sent');
    expect(document.querySelector('[data-testid="sync-problems"]')).toBeNull();
    await click(one('sync-status'));
    expect(one('last-synced').textContent).toBe('Last exchange with the platform 2 minutes ago');
    expect(one('sync-all-good').textContent).toContain('Everything you changed is on the platform.');
  });

  it('never says "All changes sent" while a change is refused or in conflict', async () => {
    const refused = {
      opId: 'op1',
      table: 'sectionItems' as const,
      recordId: 'r1',
      label: 'Assets “Lake house”',
      change: 'update' as const,
      message: 'current-value is required.',
      status: 422,
      fields: { 'current-value': ['current-value is required.'] },
    };
    report({ rejected: [refused], lastSyncedAt: Date.now() });
    await nextTick();
    expect(one('sync-problems').textContent).toBe('1 to fix');
    expect(one('sync-status').textContent).not.toContain('All changes sent');
    expect(one('sync-status').getAttribute('aria-label')).toContain('1 change needs you.');

    const conflict = {
      id: 'op2',
      table: 'sectionItems' as const,
      recordId: 'r2',
      fields: { name: { base: 'a', mine: 'b', theirs: 'c' } },
      detectedAt: 1,
      label: 'Assets “Cabin”',
      deletedOnServer: false,
    };
    report({ conflicts: [conflict], lastSyncedAt: Date.now() });
    await nextTick();
    expect(one('sync-problems').textContent).toBe('1 to fix');
    expect(one('sync-status').textContent).not.toContain('All changes sent');
  });

  it('the screen reader hears when changes start and stop waiting, never a count the header has left', async () => {
    report({ pendingCount: 0 });
    await nextTick();
    report({ pendingCount: 4 });
    await nextTick();
    expect(one('sync-state').textContent).toContain('4 to send');
    expect(one('sync-announcement').textContent?.trim()).toBe('Online. Changes wait to be sent.');
    report({ pendingCount: 1 });
    await nextTick();
    expect(one('sync-state').textContent).toContain('1 to send');
    expect(one('sync-announcement').textContent?.trim()).toBe('Online. Changes wait to be sent.');
    report({ pendingCount: 0, lastSyncedAt: Date.now() });
    await nextTick();
    expect(one('sync-announcement').textContent?.trim()).toBe('Online. Nothing waits to be sent.');
  });

  it('syncing shows the progress of a long pull, x of y, in the control and the panel', async () => {
    /** A pull of 12 steps, `done` of them done, while `pending` changes wait. */
    const pulling = (done: number, pending: number) =>
      report({
        phase: 'syncing',
        message: 'Syncing with the platform…',
        pendingCount: pending,
        progress: [{ id: 'p1', label: 'Keeping offline: Ann Tester', accountId: 'a1', done, total: 12 }],
      });
    pulling(3, 4);
    await nextTick();
    // The pull is said apart from the changes: those still wait, whatever the pull does.
    expect(one('sync-update').textContent).toContain('Updating 3 of 12');
    expect(one('sync-state').textContent).toContain('4 to send');
    expect(one('sync-status').getAttribute('data-phase')).toBe('syncing');
    // The control's label has the counts; the announcement names none (each step would interrupt,
    // and a count announced once goes stale beside the header's).
    expect(one('sync-status').getAttribute('aria-label')).toContain(
      'Updating this computer from the platform: 3 of 12 done. 4 changes wait to be sent.',
    );
    expect(one('sync-announcement').textContent?.trim()).toBe(
      'Online. Updating this computer from the platform. Changes wait to be sent.',
    );
    pulling(4, 3);
    await nextTick();
    expect(one('sync-update').textContent).toContain('Updating 4 of 12');
    expect(one('sync-announcement').textContent?.trim()).toBe(
      'Online. Updating this computer from the platform. Changes wait to be sent.',
    );
    pulling(3, 4);
    await nextTick();

    await click(one('sync-status'));
    // The panel says what the control says, in the same words.
    expect(one('sync-message').textContent).toBe('Updating this computer from the platform: 3 of 12 done.');
    const progress = one('sync-progress');
    expect(progress.textContent).toContain('Updating from the platform');
    expect(progress.textContent).toContain('Keeping offline: Ann Tester');
    expect(progress.textContent).toContain('3 of 12');
    expect(progress.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('25');
    expect(document.body.textContent).not.toMatch(/Pulling|Syncing/);
  });

  it('several pulls at once: one count summed over them, that moves whichever pull moves', async () => {
    const pulls = (list: number, offline: number) => [
      { id: 'p1', label: 'Updating the account list', accountId: null, done: list, total: 2 },
      { id: 'p2', label: 'Updating the accounts kept offline', accountId: null, done: offline, total: 4 },
    ];
    report({ phase: 'syncing', message: 'Syncing with the platform…', progress: pulls(0, 0) });
    await nextTick();
    // Nothing done yet: no "0 of 6" that looks stuck; the bars move on their own.
    expect(one('sync-update').textContent?.trim()).toBe('Updating…');
    await click(one('sync-status'));
    const bars = () => [...one('sync-progress').querySelectorAll('[role="progressbar"]')];
    expect(bars().map((b) => b.classList.contains('p-progressbar-indeterminate'))).toEqual([true, true]);

    report({ phase: 'syncing', message: 'Syncing with the platform…', progress: pulls(2, 0) });
    await nextTick();
    expect(one('sync-update').textContent).toContain('Updating 2 of 6');
    report({ phase: 'syncing', message: 'Syncing with the platform…', progress: pulls(2, 3) });
    await nextTick();
    expect(one('sync-update').textContent).toContain('Updating 5 of 6');
    expect(one('sync-message').textContent).toBe('Updating this computer from the platform: 5 of 6 done.');
    expect(bars().map((b) => b.getAttribute('aria-valuenow'))).toEqual(['100', '75']);
  });

  it('sending changes, with no pull under way, says so in both places', async () => {
    report({ phase: 'syncing', message: 'Syncing with the platform…', pendingCount: 3 });
    await nextTick();
    expect(one('sync-state').textContent).toContain('Sending 3 changes');
    await click(one('sync-status'));
    expect(one('sync-message').textContent).toBe('Sending 3 changes to the platform.');
    expect(document.querySelector('[data-testid="sync-progress"]')).toBeNull();
  });

  it('sign-in needed: the button leads to sign-in and back here, and the queue is neither stopped nor dropped', async () => {
    report({
      phase: 'needs-sign-in',
      message: 'Your sign-in has expired.',
      pendingCount: 2,
    });
    await nextTick();
    expect(one('sync-state').textContent).toContain('Sign in needed');
    expect(one('sync-announcement').textContent).toContain('Sign in again to send your changes.');

    await click(one('sync-status'));
    expect(one('sign-in-needed').textContent).toContain('everything you entered stays on this computer');
    // No "send now" while the platform refuses the sign-in.
    expect(document.querySelector('[data-testid="sync-now"]')).toBeNull();
    await click(one('sign-in-again'));
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('sign-in'));
    expect(router.currentRoute.value.query.next).toBe('/accounts/x?tab=financials');
    expect(fake.stopped).toBe(0);

    // Back in the frame: the same store resumes the coordinator.
    expect(await useSyncStore().start()).toBe(true);
    expect(fake.signedIn).toBe(1);
  });

  it('a storage problem is said in plain words with a way out, before anything else', async () => {
    report({
      phase: 'idle',
      pendingCount: 1,
      storage: {
        kind: 'closed',
        message:
          'The data on this computer was closed by another Advisor Desk window, usually after an update.',
        whatToDo: 'Reload this window. Nothing that was saved is lost.',
      },
    });
    await nextTick();
    expect(one('sync-state').textContent).toContain('Cannot save on this computer');
    await click(one('sync-status'));
    const problem = one('storage-problem');
    expect(problem.textContent).toContain('closed by another Advisor Desk window');
    expect(problem.textContent).toContain('Reload this window');
    expect([...problem.querySelectorAll('button')].map((b) => b.textContent?.trim())).toContain(
      'Reload the window',
    );
  });

  it('an error stops the sync in words', async () => {
    report({ phase: 'error', message: 'Something broke in the sync.' });
    await nextTick();
    expect(one('sync-state').textContent).toContain('Sync stopped');
    await click(one('sync-status'));
    expect(one('sync-message').textContent).toBe('Something broke in the sync.');
  });
});

describe('households pulled whole', () => {
  /** One household's step as the coordinator reports it; 21 requests without a co-client. */
  const step = (
    accountId: string,
    label: string,
    purpose: 'meeting' | 'background',
    state: 'waiting' | 'getting' | 'ready' | 'failed',
    done = 0,
    reason: string | null = null,
  ) => ({ accountId, label, purpose, state, done, total: 21, reason });

  it('the background’s refresh is said without a spinner; the panel lists its queue and the time left', async () => {
    report({
      phase: 'syncing',
      message: 'Syncing with the platform…',
      households: [
        step('a1', 'Ann Tester', 'background', 'getting', 11),
        step('a2', 'Bob Lee', 'background', 'waiting'),
      ],
    });
    await nextTick();
    expect(one('sync-update').textContent?.trim()).toBe('Refreshing 2 households');
    expect(one('sync-update').querySelector('.pi-spin')).toBeNull();
    expect(one('sync-announcement').textContent?.trim()).toBe(
      'Online. Updating the households kept offline in the background. Nothing waits to be sent.',
    );

    await click(one('sync-status'));
    const listed = [...one('sync-households').querySelectorAll('[data-testid="household-step"]')];
    expect(
      listed.map((li) => [
        li.querySelector('.name')?.textContent?.trim(),
        li.querySelector('[data-testid="household-state"]')?.textContent,
      ]),
    ).toEqual([
      ['Ann Tester', 'Getting 11 of 21 parts'],
      ['Bob Lee', 'Waiting'],
    ]);
    // 10 left of the first and 21 of the second at 60 a minute: 31 s.
    expect(one('households-left').textContent).toBe(
      '2 households to go (31 requests) · less than a minute left',
    );
  });

  it('changes sent while the background refreshes: "All changes sent" at once, the refresh said apart', async () => {
    const refresh = [
      step('a1', 'Ann Tester', 'background', 'getting', 3),
      step('a2', 'Bob Lee', 'background', 'waiting'),
      step('a3', 'Cleo Park', 'background', 'waiting'),
    ];
    // Back online: 8 changes go while 3 households wait for their refresh.
    report({ phase: 'syncing', message: 'Syncing with the platform…', pendingCount: 8, households: refresh });
    await nextTick();
    expect(one('sync-state').textContent).toContain('Sending 8 changes');
    // The platform has them all; the refresh goes on for a minute more.
    report({ phase: 'syncing', message: 'Syncing with the platform…', pendingCount: 0, households: refresh });
    await nextTick();
    expect(one('sync-state').textContent?.trim()).toBe('All changes sent');
    expect(one('sync-update').textContent?.trim()).toBe('Refreshing 3 households');
    expect(one('sync-status').getAttribute('aria-label')).toContain('Nothing waits to be sent.');
    report({ phase: 'idle', pendingCount: 0, households: [] });
    await nextTick();
    expect(one('sync-state').textContent?.trim()).toBe('All changes sent');
    expect(document.querySelector('[data-testid="sync-update"]')).toBeNull();
  });

  it('a preparation comes first: the control says how far it is, the panel each household’s state', async () => {
    report({
      phase: 'syncing',
      message: 'Syncing with the platform…',
      households: [
        step('a1', 'Ann Tester', 'meeting', 'ready', 21),
        step(
          'a2',
          'Cleo Park',
          'meeting',
          'failed',
          4,
          'Assets could not be fetched: The platform had a problem.',
        ),
        step('a3', 'Dan Ode', 'meeting', 'getting', 1),
        ...Array.from({ length: 3 }, (_, i) => step(`b${i}`, `Kept ${i}`, 'background', 'waiting')),
      ],
    });
    await nextTick();
    expect(one('sync-update').textContent?.trim()).toBe('Preparing 3 of 3');
    expect(one('sync-update').querySelector('.pi-spin')).not.toBeNull();

    await click(one('sync-status'));
    const [meeting, background] = [...one('sync-households').querySelectorAll('.steps')];
    const states = [...meeting!.querySelectorAll('[data-testid="household-step"]')].map((li) =>
      li.getAttribute('data-state'),
    );
    expect(states).toEqual(['ready', 'failed', 'getting']);
    expect(meeting!.textContent).toContain('Ready offline');
    expect(meeting!.textContent).toContain(
      'Failed: Assets could not be fetched: The platform had a problem.',
    );
    expect(meeting!.querySelectorAll('[data-testid="household-retry"]')).toHaveLength(1);
    // 20 requests left of the one under way: 20 s.
    expect(meeting!.querySelector('[data-testid="households-left"]')?.textContent).toBe(
      '1 of 3 households ready offline · 1 household to go (20 requests) · less than a minute left',
    );
    // The background's three go after it: 20 + 3 × 21 = 83 s, about a minute.
    expect(background!.querySelector('[data-testid="households-left"]')?.textContent).toBe(
      '3 households to go (63 requests) · about 1 minute left',
    );
  });
});
