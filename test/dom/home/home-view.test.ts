// @vitest-environment happy-dom
// Home as the advisor sees it from this computer's copy: statistics never downloaded say so (no
// zero anywhere), downloaded ones show each measure's total over the range and "as of" their
// pull; the latest activity says "Not downloaded yet" until the feed is pulled, then lists it.
// The households prepared for a meeting are still listed when the store is opened again (a
// restart), each with its readiness from what the store holds and its changes waiting.

import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import Dexie from 'dexie';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { h } from 'vue';
import { createMemoryHistory, createRouter, RouterView } from 'vue-router';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import { updateRecord } from '../../../renderer/src/data/changes/index.ts';
import { STATS_KEY } from '../../../renderer/src/data/queries/index.ts';
import { userActivityRow } from '../../../renderer/src/data/records.ts';
import HomeView from '../../../renderer/src/home/HomeView.vue';
import { presetRange, statsPullRange } from '../../../renderer/src/home/stats.ts';
import { MeetingPreparation } from '../../../renderer/src/sync/coordinator/preparation.ts';
import { emptyReport } from '../../../renderer/src/sync/pull/report.ts';
import { USER_ACTIVITY_STATE } from '../../../renderer/src/sync/pull/feed.ts';
import { clientFields, fakeIdb, openDb, syncedAccount } from '../../support/store.ts';

Object.assign(Dexie.dependencies, fakeIdb);

let wrapper: VueWrapper | null = null;
unmountAfterEach();

async function mountHome(db: AdvisorDb) {
  useLocalDb(db);
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: HomeView },
      { path: '/activity', name: 'activity', component: { render: () => h('div') } },
      { path: '/accounts/:id', name: 'account', component: { render: () => h('div') } },
    ],
  });
  await router.push('/');
  await router.isReady();
  wrapper = mount(RouterView, {
    attachTo: document.body,
    global: {
      plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }]],
      // Chart.js needs a canvas context, which happy-dom lacks: the totals and each chart's table
      // are asserted here, the drawn charts in the end-to-end screenshots.
      stubs: { Chart: true },
    },
  });
  await flushPromises();
}

const card = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;

describe('Home', () => {
  it('says "Not downloaded yet" for statistics and activity never pulled, and shows no zero', async () => {
    await mountHome(openDb());
    await vi.waitFor(() => expect(card('stats-not-downloaded')).not.toBeNull());
    expect(card('home-stats').textContent).toContain('Not downloaded yet');
    expect(card('home-stats').querySelector('[data-testid="stats-total"]')).toBeNull();
    expect(card('home-stats').textContent).not.toMatch(/\b0\b/);
    await vi.waitFor(() => expect(card('home-activity').textContent).toContain('Not downloaded yet'));
    expect(card('home-activity').textContent).not.toContain('No activity recorded');
  });

  it('shows each measure’s total over the chosen range and when it was downloaded', async () => {
    const db = openDb();
    const today = new Date();
    const pulled = statsPullRange(today);
    const days = Math.round((Date.parse(pulled.end) - Date.parse(pulled.start)) / 86_400_000) + 1;
    const perDay = (n: number) => Array.from({ length: days }, () => n);
    // One prospect a day; clients, forms sent and closed on the last day only.
    const lastOnly = (n: number) => [...Array.from({ length: days - 1 }, () => 0), n];
    const pulledAt = new Date(2026, 10, 26, 9, 30).getTime();
    await db.meta.put({
      key: STATS_KEY,
      value: {
        pulledAt,
        ...pulled,
        data: {
          prospects: perDay(1),
          clients: lastOnly(2),
          sent_forms: lastOnly(5),
          closed_forms: lastOnly(0),
        },
      },
    });
    await db.meta.put({
      key: USER_ACTIVITY_STATE,
      value: { newestCreatedAt: null, pulledAt, sweptAt: pulledAt },
    });
    await db.userActivity.put(
      userActivityRow(
        {
          id: 1,
          type: 'form.closed',
          icon: 'mdi-email-check',
          icon_color: 'success',
          title: 'Form closed',
          description: '“Annual review” of Ann Tester was closed',
          created_at: '2026-11-25 10:00:00',
        },
        pulledAt,
      )!,
    );
    await mountHome(db);
    await vi.waitFor(() => expect(card('stats-prospects')).not.toBeNull());
    const total = (m: string) => card(`stats-${m}`).querySelector('[data-testid="stats-total"]')?.textContent;
    // The default range: the last 30 days, one prospect each.
    const range = presetRange('30days', today);
    expect(range.end).toBe(pulled.end);
    expect(total('prospects')).toBe('30');
    expect(total('clients')).toBe('2');
    expect(total('sent_forms')).toBe('5');
    // A zero that was downloaded is a zero.
    expect(total('closed_forms')).toBe('0');
    expect(card('stats-as-of').textContent).toContain('as of Nov 26, 2026, 9:30 AM');

    // The last 7 days, from the same download.
    document
      .querySelectorAll<HTMLElement>(
        '[data-testid="stats-range"] [role="radio"], [data-testid="stats-range"] button',
      )
      .forEach((b) => {
        if (b.textContent?.includes('Last 7 days')) b.click();
      });
    await vi.waitFor(() => expect(total('prospects')).toBe('7'));

    await vi.waitFor(() => expect(card('home-activity').textContent).toContain('Form closed'));
    expect(card('home-activity').textContent).toContain('“Annual review” of Ann Tester was closed');
    expect(card('home-activity').textContent).toContain('Your activity as of Nov 26, 2026, 9:30 AM');
  });
});

describe('Home: the households prepared for a meeting', () => {
  const steps = () =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '[data-testid="home-meeting"] [data-testid="household-step"]',
      ),
    ].map((li) => ({
      name: li.querySelector('.name')?.textContent?.trim(),
      state: li.dataset.state,
      words: li.querySelector('[data-testid="household-state"]')?.textContent?.trim(),
      detail: li.querySelector('[data-testid="household-detail"]')?.textContent?.trim(),
    }));

  it('are still listed after the store is closed and opened again, ready or not as the store holds them', async () => {
    const name = `home-prepared-${crypto.randomUUID()}`;
    const first = openDb(name);
    const ann = await syncedAccount(first, 501, clientFields('Ann'));
    const bob = await syncedAccount(first, 502, clientFields('Bob'));
    // The preparation as this session runs it; each household's pull stores it whole (as a pull
    // of every part does: pulled now, no part missing).
    const preparation = new MeetingPreparation({
      db: first,
      now: () => Date.now(),
      canPull: () => Promise.resolve(true),
      pull: async (id) => {
        await first.accounts.update(id, { pulledAt: Date.now() });
        return emptyReport();
      },
      changed: () => undefined,
    });
    await preparation.prepare([ann.id, bob.id]);
    await preparation.saved();
    expect(preparation.households.map((h) => h.state)).toEqual(['ready', 'ready']);
    // Afterwards a part of Bob's household leaves this computer, and Ann's gets a change to send.
    await first.accounts.update(bob.id, { parts: { 'details:client': 1 } });
    await updateRecord(first, 'accounts', ann.id, { 'client.first_name': 'Anne' });
    first.close();

    const again = openDb(name, null);
    await mountHome(again);
    await vi.waitFor(() => expect(steps()).toHaveLength(2));
    const [anne, bobby] = steps();
    expect(anne).toMatchObject({ name: 'Anne Tester', state: 'ready', words: 'Ready offline' });
    expect(anne?.detail).toBe('Prepared just now · 1 change waiting to be sent');
    expect(bobby).toMatchObject({ name: 'Bob Tester', state: 'failed' });
    expect(bobby?.words).toContain('no longer on this computer');
    // Not ready: it is not said to be prepared, only when it was chosen.
    expect(bobby?.detail).toBe('Chosen just now');
    expect(card('home-meeting').textContent).not.toContain('No households prepared');

    // Clearing the list ends the preparation, in the store too: opened again, none is listed.
    card('home-prepared-clear').click();
    await vi.waitFor(() => expect(card('home-prepared-none')).not.toBeNull());
    wrapper?.unmount();
    wrapper = null;
    again.close();
    await mountHome(openDb(name, null));
    await vi.waitFor(() => expect(card('home-prepared-none')).not.toBeNull());
    expect(steps()).toEqual([]);
  });

  it('say "Prepared" from when each became ready offline, not from when it was chosen', async () => {
    const db = openDb(`home-prepared-when-${crypto.randomUUID()}`);
    const ann = await syncedAccount(db, 511, clientFields('Ann'));
    const bob = await syncedAccount(db, 512, clientFields('Bob'));
    // Chosen 20 minutes ago; Ann's pull took until 5 minutes ago, and Bob's has not ended.
    const MINUTE = 60_000;
    let clock = Date.now() - 20 * MINUTE;
    const preparation = new MeetingPreparation({
      db,
      now: () => clock,
      canPull: () => Promise.resolve(true),
      pull: async (id) => {
        if (id === bob.id) return { ...emptyReport(), stopped: true };
        clock = Date.now() - 5 * MINUTE;
        await db.accounts.update(id, { pulledAt: clock });
        return emptyReport();
      },
      changed: () => undefined,
    });
    await preparation.prepare([ann.id, bob.id]);
    await preparation.saved();
    expect(preparation.households.map((h) => h.state)).toEqual(['ready', 'waiting']);

    await mountHome(db);
    await vi.waitFor(() => expect(steps()).toHaveLength(2));
    const [first, second] = steps();
    expect(first).toMatchObject({ name: 'Ann Tester', state: 'ready', detail: 'Prepared 5 minutes ago' });
    expect(second).toMatchObject({ name: 'Bob Tester', state: 'waiting', detail: 'Chosen 20 minutes ago' });
  });
});
