// @vitest-environment happy-dom
// The command palette, keyboard only: Ctrl+K opens it with the cursor in its search; typing finds
// accounts in the local store and the places of the account on screen (tabs, sections per
// member); ↑/↓ and Enter choose; workspace commands run with their shortcut shown; Escape closes
// and the cursor is back where it was.

import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { describe, expect, it, vi } from 'vitest';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { defineComponent, h } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import CommandPalette from '../../../renderer/src/shell/CommandPalette.vue';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import AccountWorkspace from '../../../renderer/src/workspace/AccountWorkspaceView.vue';
import { meetingSummaryAccount } from '../../../renderer/src/commands/meeting-summary.ts';
import { clientFields } from '../../support/store.ts';
import { household, one, openDb, press, settle, syncedAccount, typeText } from './harness.ts';

let router: Router;
unmountAfterEach();

async function mountFrame(db: AdvisorDb, path: string) {
  useLocalDb(db);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      {
        path: '/accounts',
        name: 'accounts',
        component: { render: () => h('div', [h('button', { id: 'before' }, 'somewhere')]) },
      },
      { path: '/accounts/:id', name: 'account', component: AccountWorkspace },
    ],
  });
  await router.push(path);
  await router.isReady();
  const Frame = defineComponent({ render: () => h('div', [h(RouterView), h(CommandPalette)]) });
  mount(Frame, {
    attachTo: document.body,
    global: {
      plugins: [createPinia(), router, [PrimeVue, { theme: 'none' }], ToastService],
      directives: { tooltip: Tooltip },
      stubs: { transition: false, 'transition-group': false },
    },
  });
  await settle();
}

const input = () => one('palette-input') as HTMLInputElement;
const options = () => [
  ...document.querySelectorAll<HTMLElement>('[data-testid="palette-options"] [role="option"]'),
];
const activeOption = () => document.getElementById(input().getAttribute('aria-activedescendant') ?? '');
const isOpen = () => document.querySelector('[data-testid="command-palette"]') !== null;

async function openPalette() {
  await press('k', { ctrlKey: true });
  await vi.waitFor(() => expect(document.activeElement).toBe(input()));
}

/** Ctrl+K, the words typed, the highlighted choice checked by its title, Enter. */
async function jump(words: string, title: string): Promise<void> {
  await openPalette();
  await typeText(input(), words);
  expect(activeOption()?.querySelector('.title')?.textContent).toBe(title);
  await press('Enter', {}, input());
}

describe('the command palette', () => {
  it('finds an account by name as the user types; Enter opens it', async () => {
    const db = openDb();
    await household(db);
    const zed = await syncedAccount(db, 9, clientFields('Zed', 'zed@example.com'));
    await syncedAccount(db, 10, clientFields('Zoe', 'zoe@example.com'));
    await mountFrame(db, '/accounts');
    const before = document.getElementById('before')!;
    before.focus();

    await openPalette();
    expect(input().getAttribute('role')).toBe('combobox');
    await typeText(input(), 'z');
    await vi.waitFor(() => expect(options().map((o) => o.textContent)).toHaveLength(2));
    expect(options().every((o) => o.textContent?.startsWith('Z'))).toBe(true);

    await typeText(input(), 'zed tes');
    await vi.waitFor(() =>
      expect(options().map((o) => o.querySelector('.title')?.textContent)).toEqual(['Zed Tester']),
    );
    expect(activeOption()?.getAttribute('aria-selected')).toBe('true');
    await press('Enter', {}, input());
    await vi.waitFor(() => expect(router.currentRoute.value.params.id).toBe(zed.id));
    expect(isOpen()).toBe(false);
    // The list that had the cursor is gone: the account's title has it, not the window.
    await vi.waitFor(() => expect(document.activeElement).toBe(one('workspace-title')));
  });

  it('the co-client’s name finds the household; nothing found is said', async () => {
    const db = openDb();
    await household(db);
    await mountFrame(db, '/accounts');
    await openPalette();
    await typeText(input(), 'bob');
    await vi.waitFor(() => expect(options()[0]?.textContent).toContain('Ann Tester'));
    expect(options()[0]?.textContent).toContain('with Bob Tester');
    await typeText(input(), 'nobody');
    await vi.waitFor(() => expect(one('palette-empty').textContent).toContain('Nothing matches'));
  });

  it('Escape closes it and the cursor is back where it was', async () => {
    const db = openDb();
    await mountFrame(db, '/accounts');
    const before = document.getElementById('before')!;
    before.focus();
    await openPalette();
    await press('Escape', {}, input());
    await vi.waitFor(() => expect(isOpen()).toBe(false));
    expect(document.activeElement).toBe(before);
    expect(router.currentRoute.value.name).toBe('accounts');
  });

  it('in an account: its sections per member, by arrows and Enter', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}`);
    await vi.waitFor(() => expect(one('workspace-title').textContent).toContain('Ann'));
    await openPalette();

    // Before typing: this account's places and the commands, with their shortcuts.
    const titles = options().map((o) => o.querySelector('.title')?.textContent);
    expect(titles).toContain('Overview');
    expect(titles).toContain('Member details · Bob Tester');
    expect(titles).toContain('Employment · Ann Tester');
    const financials = options().find((o) => o.textContent?.includes('Go to the financial sections'));
    expect(financials?.querySelector('kbd')?.textContent).toBe('Alt+F');

    await typeText(input(), 'employ');
    expect(options().map((o) => o.querySelector('.title')?.textContent)).toEqual([
      'Employment · Ann Tester',
      'Employment · Bob Tester',
    ]);
    await press('ArrowDown', {}, input());
    expect(activeOption()?.textContent).toContain('Bob Tester');
    await press('ArrowDown', {}, input());
    // Wraps to the top.
    expect(activeOption()?.textContent).toContain('Ann Tester');
    await press('ArrowUp', {}, input());
    await press('Enter', {}, input());
    await vi.waitFor(() =>
      expect(router.currentRoute.value.query).toMatchObject({
        tab: 'financials',
        section: 'employment:coclient',
      }),
    );
  });

  it('runs a workspace command where the user was: add an item opens the section’s form', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}?tab=financials&section=assets`);
    await vi.waitFor(() => expect(one('section-table')).toBeTruthy());
    await openPalette();
    await typeText(input(), 'add an item');
    expect(options().map((o) => o.querySelector('.title')?.textContent)).toEqual([
      'Add an item to this section',
    ]);
    expect(options()[0]?.querySelector('kbd')?.textContent).toBe('Alt+N');
    await press('Enter', {}, input());
    // The asset form, new: its value field is there, and the cursor is in the form.
    await vi.waitFor(() =>
      expect(one('item-dialog').querySelector('[data-field="current_value"]')).not.toBeNull(),
    );
    await vi.waitFor(() => expect(one('item-dialog').contains(document.activeElement)).toBe(true));
  });
});

describe('the meeting summary from the palette', () => {
  it('is offered for the account on screen, and opens its dialog for that account', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, '/accounts');
    await openPalette();
    await typeText(input(), 'meeting summary');
    expect(options()).toEqual([]);
    await press('Escape', {}, input());

    await router.push(`/accounts/${account.id}`);
    await vi.waitFor(() => expect(one('workspace-title')).toBeTruthy());
    await jump('meeting summary', 'Meeting summary…');
    await vi.waitFor(() => expect(meetingSummaryAccount.value).toBe(account.id));
    meetingSummaryAccount.value = null;
  });

  it('Enter pressed before the results of the text are in acts on them once they are', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}`);
    await vi.waitFor(() => expect(one('workspace-title')).toBeTruthy());
    // A busy computer: the palette's read of the account on screen ends after the keys.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const get = db.accounts.get.bind(db.accounts) as (id: string) => Promise<unknown>;
    const slow = vi
      .spyOn(db.accounts, 'get')
      .mockImplementation((async (id: string) => (await gate, get(id))) as never);

    await openPalette();
    input().value = 'meeting summary';
    input().dispatchEvent(new Event('input', { bubbles: true }));
    input().dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await settle();
    expect(isOpen()).toBe(true);
    release();
    await vi.waitFor(() => expect(meetingSummaryAccount.value).toBe(account.id));
    expect(isOpen()).toBe(false);
    slow.mockRestore();
    meetingSummaryAccount.value = null;
  });
});

describe('a jump to a section lands the cursor in it', () => {
  it('from the overview, the cursor lands on the section’s "Add"', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}`);
    await vi.waitFor(() => expect(document.activeElement).toBe(one('workspace-title')));
    await jump('assets', 'Assets');

    await vi.waitFor(() =>
      expect(router.currentRoute.value.query).toMatchObject({ tab: 'financials', section: 'assets' }),
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Add asset');
  });

  it('from the members, the cursor lands in the first field of a single-record section', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}?tab=members&member=coclient`);
    await vi.waitFor(() => expect(one('single-details:coclient')).toBeTruthy());
    // The cursor in the member's form, which goes away with the tab.
    const first = one('single-details:coclient').querySelector('input') as HTMLInputElement;
    first.focus();
    await jump('fixed expenses', 'Fixed expenses');

    await vi.waitFor(() =>
      expect(router.currentRoute.value.query).toMatchObject({ tab: 'financials', section: 'expenses-fixed' }),
    );
    await vi.waitFor(() =>
      expect(document.activeElement).toBe(
        one('single-expenses-fixed').querySelector('.field[data-field="rent"] input'),
      ),
    );
  });

  it('within the financial sections, the cursor leaves the section list for the new section', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}?tab=financials&section=assets`);
    await vi.waitFor(() => expect(one('section-table')).toBeTruthy());
    // The cursor on the section list, which stays on screen through the jump.
    const link = document.querySelector<HTMLElement>('[data-section="cash"]')!;
    link.focus();
    await jump('cash', 'Cash');
    await vi.waitFor(() => expect(router.currentRoute.value.query.section).toBe('cash'));
    await vi.waitFor(() => expect(document.activeElement).toBe(one('add-item')));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Add cash account');
  });
});

describe('a jump to another tab lands the cursor in it', () => {
  it('"Overview" from the financial sections: the cursor on the overview’s heading', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}?tab=financials&section=assets`);
    await vi.waitFor(() => expect(one('section-table')).toBeTruthy());
    // The cursor on "Add", where the palette gives it back before the jump takes the tab away.
    one('add-item').focus();
    await jump('overview', 'Overview');

    await vi.waitFor(() => expect(router.currentRoute.value.query.tab).toBe('overview'));
    await vi.waitFor(() => expect(document.activeElement).toBe(one('overview-title')));
  });

  it('"Member details" from the financial sections: the cursor in that member’s first field', async () => {
    const db = openDb();
    const account = await household(db);
    await mountFrame(db, `/accounts/${account.id}?tab=financials&section=assets`);
    await vi.waitFor(() => expect(one('section-table')).toBeTruthy());
    one('add-item').focus();
    await jump('member bob', 'Member details · Bob Tester');

    await vi.waitFor(() =>
      expect(router.currentRoute.value.query).toMatchObject({ tab: 'members', member: 'coclient' }),
    );
    await vi.waitFor(() =>
      expect(document.activeElement).toBe(
        one('single-details:coclient').querySelector('.field[data-field="first_name"] input'),
      ),
    );
  });
});
