// @vitest-environment happy-dom
// The Activity screen over the local store: "Not downloaded yet" before the feed's first pull,
// then the entries in plain words, filtered by the type in the address (`?type=form.sent`). Past
// the entries stored, older ones are asked of the platform online; offline the screen says they
// need a connection instead of offering a button that cannot work.

import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { h } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import ActivityView from '../../../renderer/src/activity/ActivityView.vue';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { userActivityRow } from '../../../renderer/src/data/records.ts';
import { USER_ACTIVITY_STATE } from '../../../renderer/src/sync/pull/feed.ts';
import { openDb, withLayout } from '../accounts/harness.ts';

let wrapper: VueWrapper | null = null;
let restore: (() => void) | null = null;
afterEach(() => restore?.());
unmountAfterEach();

async function mountAt(db: AdvisorDb, path: string) {
  useLocalDb(db);
  restore = withLayout();
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/activity', name: 'activity', component: ActivityView },
      { path: '/accounts/:id', name: 'account', component: { render: () => h('div') } },
    ],
  });
  await router.push(path);
  await router.isReady();
  wrapper = mount(RouterView, {
    attachTo: document.body,
    global: { plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }]] },
  });
  await flushPromises();
}

const byTestId = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

async function feed(db: AdvisorDb) {
  const items: [string, string][] = [
    ['form.sent', '“Goals” was sent to Ann Tester'],
    ['account.client.created', 'Ann Tester was added as a client'],
    ['form.sent', '“Risk profile” was sent to Bo Berg'],
    ['account.security.reset', 'A new PIN was issued to Bo Berg'],
  ];
  await db.userActivity.bulkPut(
    items.map(([type, description], i) =>
      userActivityRow(
        {
          id: i + 1,
          type,
          icon: 'x',
          icon_color: 'x',
          title: 'x',
          description,
          created_at: `2026-11-0${i + 1} 10:00:00`,
        },
        1,
      )!,
    ),
  );
  await db.meta.put({ key: USER_ACTIVITY_STATE, value: { newestCreatedAt: null, pulledAt: 1, sweptAt: 1 } });
}

describe('the Activity screen', () => {
  it('says "Not downloaded yet" before the feed was ever pulled', async () => {
    await mountAt(openDb(), '/activity');
    await vi.waitFor(() => expect(byTestId('activity-not-downloaded')).toHaveLength(1));
    expect(byTestId('activity-entry')).toHaveLength(0);
  });

  it('lists the feed newest first in plain words, and only the type the address names', async () => {
    const db = openDb();
    await feed(db);
    await mountAt(db, '/activity');
    await vi.waitFor(() => expect(byTestId('activity-count')[0]?.textContent).toBe('4 entries'));
    await vi.waitFor(() => expect(byTestId('activity-entry')).toHaveLength(4));
    expect(byTestId('activity-entry').map((e) => e.querySelector('strong')?.textContent)).toEqual([
      'Form access reset',
      'Form sent',
      'Client added',
      'Form sent',
    ]);
    wrapper?.unmount();
    restore?.();
    document.body.innerHTML = '';

    await mountAt(db, '/activity?type=form.sent');
    await vi.waitFor(() => expect(byTestId('activity-count')[0]?.textContent).toBe('2 entries of this type'));
    await vi.waitFor(() => expect(byTestId('activity-entry')).toHaveLength(2));
    expect(byTestId('activity-entry').map((e) => e.dataset.type)).toEqual(['form.sent', 'form.sent']);
    expect(document.body.textContent).toContain('“Risk profile” was sent to Bo Berg');
  });

  it('past the entries stored, offers older ones from the platform online, and says they need a connection offline', async () => {
    const db = openDb();
    await feed(db);
    await mountAt(db, '/activity');
    await vi.waitFor(() => expect(byTestId('activity-entry')).toHaveLength(4));
    expect(byTestId('activity-load-older').map((b) => b.textContent?.trim())).toEqual(['Load older']);
    // Issue 23: "Showing 4 of 4" beside "Load older" read as a contradiction.
    expect(byTestId('activity-showing').map((e) => e.textContent?.trim())).toEqual([
      'All 4 on this computer',
    ]);
    expect(byTestId('activity-older-offline')).toEqual([]);
    wrapper?.unmount();
    restore?.();
    document.body.innerHTML = '';

    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await mountAt(db, '/activity');
      await vi.waitFor(() => expect(byTestId('activity-entry')).toHaveLength(4));
      await vi.waitFor(() => expect(byTestId('activity-older-offline')).toHaveLength(1));
      expect(byTestId('activity-older-offline').map((e) => e.textContent?.trim())).toEqual([
        'Older entries need a connection to the platform.',
      ]);
      expect(byTestId('activity-load-older')).toEqual([]);
      await vi.waitFor(() => expect(byTestId('activity-as-of')[0]?.textContent).toContain('Offline'));
    } finally {
      onLine.mockRestore();
    }
  });
});
