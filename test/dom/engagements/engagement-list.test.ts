// @vitest-environment happy-dom
// The Engagements area against a real local store, offline: every questionnaire of the team,
// newest first; typing narrows by title or member name; the state filter keeps in-progress or
// completed ones; a template narrows to it; a column header sorts by its key; a send queued
// here is listed as waiting; and a role without `engagements.completed` sees the in-progress ones
// only, told why.

import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { h } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import type { Bridge } from '@shared/bridge.ts';
import { useBridge } from '../../../renderer/src/common/bridge/index.ts';
import { useConnectivityStore } from '../../../renderer/src/common/connectivity.ts';
import { queueSendEngagement } from '../../../renderer/src/data/changes/index.ts';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import EngagementListView from '../../../renderer/src/engagements/EngagementListView.vue';
import { ENGAGEMENT_LIST_STATE } from '../../../renderer/src/sync/pull/engagement-list.ts';
import { withLayout } from '../accounts/harness.ts';
import { click, household, openDb, settle } from '../workspace/harness.ts';
import { INTAKE, RISK, engagement, user } from './harness.ts';

let restoreLayout: () => void = () => undefined;
beforeEach(() => {
  restoreLayout = withLayout(600);
  useBridge({
    api: { request: () => Promise.reject(new Error('no request is expected offline')) },
  } as unknown as Bridge);
});
afterEach(() => restoreLayout());
unmountAfterEach();

async function seed(db: AdvisorDb) {
  const smith = await household(db, 7);
  await db.accounts.update(smith.id, { meta: { ...smith.meta, clientId: 71, coclientId: 72 } });
  await db.engagements.bulkPut([
    engagement('e-1', 7, 71, {
      name: 'Ann Tester',
      created_at: '2026-09-01 09:00:00',
      status: 'COMPLETED',
      completed_at: '2026-09-05 09:00:00',
      filled: 100,
    }),
    engagement('e-2', 7, 72, {
      name: 'Bob Tester',
      template_id: INTAKE.id,
      title: INTAKE.title,
      created_at: '2026-11-01 09:00:00',
      filled: 30,
      opened_at: '2026-11-02 09:00:00',
    }),
    engagement('e-3', 8, 81, {
      name: 'Zoe Quinn',
      created_at: '2026-10-01 09:00:00',
      status: 'COMPLETED',
      completed_at: '2026-10-02 09:00:00',
      filled: 100,
    }),
  ]);
  return smith;
}

async function mountList(db: AdvisorDb) {
  useLocalDb(db);
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/engagements', name: 'engagements', component: EngagementListView },
      { path: '/engagements/:id', name: 'engagement', component: { render: () => h('div') } },
      { path: '/accounts/:id', name: 'account', component: { render: () => h('div') } },
    ],
  });
  await router.push('/engagements');
  await router.isReady();
  mount(RouterView, {
    attachTo: document.body,
    global: {
      plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }], ToastService],
      directives: { tooltip: Tooltip },
      stubs: { transition: false, 'transition-group': false },
    },
  });
  useConnectivityStore().networkUp = false;
  await settle();
  return router;
}

const ids = () =>
  [...document.querySelectorAll<HTMLElement>('[data-testid="engagement-row"]')].map(
    (r) => r.dataset.engagementId,
  );
const count = () => document.querySelector('[data-testid="engagement-count"]')?.textContent?.trim();

async function type(text: string) {
  const input = document.querySelector<HTMLInputElement>('[data-testid="engagement-search"]')!;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await new Promise((r) => setTimeout(r, 200));
  await settle();
}

async function chooseState(label: string) {
  const group = document.querySelector('[data-testid="engagement-state"]')!;
  const option = [...group.querySelectorAll<HTMLElement>('button, [role="radio"], .p-togglebutton')].find(
    (b) => b.textContent?.trim() === label,
  );
  await click(option!);
  await settle();
}

describe('the Engagements area', () => {
  it('lists every questionnaire newest first, narrows by typing and by state, and sorts by a column', async () => {
    const db = openDb();
    await user(db);
    await seed(db);
    const router = await mountList(db);
    await vi.waitFor(() => expect(ids()).toEqual(['e-2', 'e-3', 'e-1']));
    expect(count()).toBe('3 questionnaires');

    await type('bob');
    await vi.waitFor(() => expect(ids()).toEqual(['e-2']));
    expect(count()).toBe('1 questionnaire matches');
    await type('risk');
    await vi.waitFor(() => expect(ids()).toEqual(['e-3', 'e-1']));
    await type('');
    await vi.waitFor(() => expect(ids()).toHaveLength(3));

    await chooseState('Completed');
    await vi.waitFor(() => expect(ids()).toEqual(['e-3', 'e-1']));
    await chooseState('In progress');
    await vi.waitFor(() => expect(ids()).toEqual(['e-2']));
    expect(router.currentRoute.value.query).toMatchObject({ state: 'in-progress' });
    await chooseState('All');

    // "Completed" header: oldest first would be e-1, e-3; the first click reads newest first, undated last.
    await click(document.querySelector('[data-sort="completed_at"]')!);
    await vi.waitFor(() => expect(ids()).toEqual(['e-3', 'e-1', 'e-2']));
    await click(document.querySelector('[data-sort="completed_at"]')!);
    await vi.waitFor(() => expect(ids()).toEqual(['e-1', 'e-3', 'e-2']));
    expect(router.currentRoute.value.query).toMatchObject({ sort: 'completed_at' });
  });

  it('shows a questionnaire queued offline as waiting to be sent', async () => {
    const db = openDb();
    await user(db);
    const smith = await seed(db);
    await queueSendEngagement(db, {
      accountId: smith.id,
      member: 'client',
      templateId: RISK.id,
      emailNew: true,
      emailReminders: true,
      emailCompleted: true,
    });
    await mountList(db);
    await vi.waitFor(() =>
      expect(document.querySelector('[data-testid="pending-send"]')?.textContent).toContain(
        'client — will be sent when you are back online',
      ),
    );
    expect(document.querySelector('[data-testid="pending-send"]')?.textContent).toContain(RISK.title);
  });

  it('without engagements.completed, lists the in-progress ones only and says why', async () => {
    const db = openDb();
    await user(db, ['engagements.completed']);
    await seed(db);
    await mountList(db);
    await vi.waitFor(() => expect(ids()).toEqual(['e-2']));
    expect(document.querySelector('[data-testid="engagement-view-note"]')?.textContent).toContain(
      'lets you see questionnaires in progress only',
    );
  });

  it('says how current the list is, and when progress was last read whole; offline, Refresh is off and says when', async () => {
    const db = openDb();
    await user(db);
    await seed(db);
    const minute = 60_000;
    const now = Date.now();
    // Pulled 5 minutes ago (what is new and completed), read whole 3 hours ago (progress).
    await db.meta.put({
      key: ENGAGEMENT_LIST_STATE,
      value: {
        newestCreatedAt: null,
        newestCompletedAt: null,
        pulledAt: now - 5 * minute,
        sweptAt: now - 180 * minute,
      },
    });
    await mountList(db);
    const asOf = () => document.querySelector('[data-testid="engagement-as-of"]')?.textContent?.trim();
    await vi.waitFor(() => expect(asOf()).toBe('as of 5 minutes ago (progress as of 3 hours ago)'));
    const refresh = document.querySelector<HTMLButtonElement>('[data-testid="engagement-refresh"]')!;
    expect(refresh.disabled).toBe(true);
    expect(refresh.title).toBe('The questionnaires are refreshed when the platform can be reached.');

    // Read whole at the last pull: one time is said.
    await db.meta.put({
      key: ENGAGEMENT_LIST_STATE,
      value: {
        newestCreatedAt: null,
        newestCompletedAt: null,
        pulledAt: now - 5 * minute,
        sweptAt: now - 5 * minute,
      },
    });
    await vi.waitFor(() => expect(asOf()).toBe('as of 5 minutes ago'));
  });
});
