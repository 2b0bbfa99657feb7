// @vitest-environment happy-dom
// An account's activity in its workspace: the newest ten, "Show more" for older ones read from
// the store, and the filter by type offering the types the account's rows hold, in plain words.
// Past the stored entries, older ones may be on the platform (the account pull brings its newest
// page only): offered online, said to need a connection offline, not offered when the page held
// was shorter than a page (the whole list).

import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import Dexie from 'dexie';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import AccountActivity from '../../../renderer/src/activity/AccountActivity.vue';
import { accountActivityMayGoOn } from '../../../renderer/src/activity-feed/feed.ts';
import { PAGE_SIZES_STATE } from '../../../renderer/src/sync/pull/paging.ts';
import { fakeIdb, openDb, syncedAccount } from '../../support/store.ts';

// Live queries run only where Dexie finds an IndexedDB of its own: give it the fake one.
Object.assign(Dexie.dependencies, fakeIdb);

let wrapper: VueWrapper | null = null;
unmountAfterEach();

const entries = () => [...document.querySelectorAll<HTMLElement>('[data-testid="activity-entry"]')];

describe('an account’s activity', () => {
  it('shows the newest ten, then more on "Show more", and filters by type', async () => {
    const db = openDb();
    const account = await syncedAccount(db, 7);
    // 12 updates and one creation, the creation the oldest.
    const rows = Array.from({ length: 13 }, (_, i) => {
      const type = i === 0 ? 'account.created' : 'account.updated';
      const created_at = `2026-11-${String(i + 1).padStart(2, '0')} 10:00:00`;
      return {
        id: i + 1,
        accountServerId: 7,
        type,
        createdAt: created_at,
        server: { id: i + 1, type, icon: 'i_pen', description: `Change ${i + 1}`, options: {}, created_at },
        pulledAt: 1,
      };
    });
    await db.accountActivity.bulkPut(rows);
    wrapper = mount(AccountActivity, {
      props: { db, accountId: account.id },
      attachTo: document.body,
      // The workspace's entries link nowhere: no router needed.
      global: { plugins: [createPinia(), [PrimeVue, { theme: 'none' }]], stubs: { RouterLink: true } },
    });
    await flushPromises();
    await vi.waitFor(() => expect(entries()).toHaveLength(10));
    expect(entries()[0]?.textContent).toContain('Change 13');
    expect(entries()[0]?.querySelector('strong')?.textContent).toBe('Account updated');
    const more = document.querySelector<HTMLButtonElement>('[data-testid="activity-show-more"]')!;
    expect(more.textContent).toContain('Show more (3 older)');
    more.click();
    await vi.waitFor(() => expect(entries()).toHaveLength(13));
    expect(entries().at(-1)?.querySelector('strong')?.textContent).toBe('Account created');
    expect(document.querySelector('[data-testid="activity-show-more"]')).toBeNull();

    // The filter offers the types held; choosing one shows only it.
    (
      wrapper.findComponent({ name: 'Select' }).vm as unknown as { $emit: (e: string, v: string) => void }
    ).$emit('update:modelValue', 'account.created');
    await vi.waitFor(() => expect(entries()).toHaveLength(1));
    expect(entries()[0]?.dataset.type).toBe('account.created');
  });
});

describe('a questionnaire in an account’s activity', () => {
  it('says a questionnaire was sent, with its template, who sent it and to whom, from the options', async () => {
    const db = openDb();
    const account = await syncedAccount(db, 7);
    // As the version 2 document gives it: engagement.created with the options author, template, name.
    const row = (id: number, description: string) => ({
      id,
      accountServerId: 7,
      type: 'engagement.created',
      createdAt: `2026-11-0${id} 10:00:00`,
      server: {
        id,
        type: 'engagement.created',
        icon: 'i_engagement_plus',
        description,
        options: { author: 'Alex Morgan', template: 'Client intake questionnaire', name: 'Bob Tester' },
        created_at: `2026-11-0${id} 10:00:00`,
      },
      pulledAt: 1,
    });
    await db.accountActivity.bulkPut([
      row(1, 'Alex Morgan sent “Client intake questionnaire” to Bob Tester'),
      // A description that names neither: the options still do.
      row(2, 'Engagement created'),
    ]);
    wrapper = mount(AccountActivity, {
      props: { db, accountId: account.id },
      attachTo: document.body,
      global: { plugins: [createPinia(), [PrimeVue, { theme: 'none' }]], stubs: { RouterLink: true } },
    });
    await flushPromises();
    await vi.waitFor(() => expect(entries()).toHaveLength(2));
    for (const entry of entries()) {
      expect(entry.dataset.type).toBe('engagement.created');
      expect(entry.querySelector('strong')?.textContent).toBe('Questionnaire sent');
      expect(entry.querySelector('[data-testid="activity-details"]')?.textContent?.trim()).toBe(
        '“Client intake questionnaire” · by Alex Morgan · for Bob Tester',
      );
    }
    expect(entries()[1]?.textContent).toContain(
      'Alex Morgan sent “Client intake questionnaire” to Bob Tester',
    );
  });

  it('past the stored entries: older ones from the platform online, a connection needed offline, none after a short page', async () => {
    const db = openDb();
    const account = await syncedAccount(db, 9);
    await db.accountActivity.bulkPut(
      [1, 2, 3].map((id) => {
        const created_at = `2026-11-0${id} 10:00:00`;
        const server = {
          id,
          type: 'account.updated',
          icon: 'i_pen',
          description: `Change ${id}`,
          options: {},
          created_at,
        };
        return {
          id,
          accountServerId: 9,
          type: 'account.updated',
          createdAt: created_at,
          server,
          pulledAt: 1,
        };
      }),
    );
    // The account pull read pages of 3: the 3 held may be followed by older ones.
    await db.meta.put({ key: PAGE_SIZES_STATE, value: { activity: 3 } });
    const show = async () => {
      wrapper?.unmount();
      wrapper = mount(AccountActivity, {
        props: { db, accountId: account.id },
        attachTo: document.body,
        global: { plugins: [createPinia(), [PrimeVue, { theme: 'none' }]], stubs: { RouterLink: true } },
      });
      await flushPromises();
      await vi.waitFor(() => expect(entries()).toHaveLength(3));
    };
    const byId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

    await show();
    await vi.waitFor(() => expect(byId('activity-load-older')?.textContent).toContain('Show older'));
    expect(byId('activity-older-offline')).toBeNull();

    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await show();
      await vi.waitFor(() =>
        expect(byId('activity-older-offline')?.textContent?.trim()).toBe(
          'Older entries need a connection to the platform.',
        ),
      );
      expect(byId('activity-load-older')).toBeNull();
    } finally {
      onLine.mockRestore();
    }

    // Pages of 50: the 3 held were the whole list; nothing older is offered.
    await db.meta.put({ key: PAGE_SIZES_STATE, value: { activity: 50 } });
    expect(await accountActivityMayGoOn(db, account.id)).toBe(false);
    await show();
    await flushPromises();
    expect(byId('activity-load-older')).toBeNull();
    expect(byId('activity-older-offline')).toBeNull();
  });
});
