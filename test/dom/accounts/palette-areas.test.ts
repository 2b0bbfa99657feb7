// @vitest-environment happy-dom
// The command palette as an advisor lives in it (issue 23: it offered two commands): before a word
// is typed it lists every area of the navigation, the pipeline board and Settings, and "New
// account…"; Enter on an area goes there; "New account…" from another area goes to the account
// list with its "New account" form open, or says why not for a role that may not create one.

import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import Toast from 'primevue/toast';
import ToastService from 'primevue/toastservice';
import Tooltip from 'primevue/tooltip';
import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router';
import AccountListView from '../../../renderer/src/accounts/AccountListView.vue';
import type { AdvisorDb } from '../../../renderer/src/data/db.ts';
import { useLocalDb } from '../../../renderer/src/data/identity/current-store.ts';
import CommandPalette from '../../../renderer/src/shell/CommandPalette.vue';
import { AREAS } from '../../../renderer/src/shell/areas.ts';
import { unmountAfterEach } from '../../support/dom/mount.ts';
import { openDb, settle, userConfig } from './harness.ts';

let router: Router;
unmountAfterEach();

const stub = (name: string) => ({ render: () => h('div', { 'data-area': name }, name) });

async function mountFrame(db: AdvisorDb, path: string) {
  useLocalDb(db);
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/accounts', name: 'accounts', component: AccountListView },
      { path: '/accounts/board/:pipeline?', name: 'account-board', component: stub('board') },
      { path: '/accounts/:id', name: 'account', component: stub('account') },
      ...['home', 'engagements', 'forms', 'reports', 'activity', 'settings'].map((name) => ({
        path: `/${name}`,
        name,
        component: stub(name),
      })),
    ],
  });
  await router.push(path);
  await router.isReady();
  // The shell's toasts, where a refusal is said.
  const Frame = defineComponent({ render: () => h('div', [h(RouterView), h(CommandPalette), h(Toast)]) });
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

const input = () => document.querySelector<HTMLInputElement>('[data-testid="palette-input"]')!;
const options = () => [
  ...document.querySelectorAll<HTMLElement>('[data-testid="palette-options"] [role="option"]'),
];
const titles = () => options().map((o) => o.querySelector('.title')?.textContent);
const activeTitle = () =>
  document.getElementById(input().getAttribute('aria-activedescendant') ?? '')?.querySelector('.title')
    ?.textContent;

async function key(key: string, init: KeyboardEventInit = {}, target: EventTarget = window) {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  await settle();
}
async function openPalette() {
  await key('k', { ctrlKey: true, code: 'KeyK' });
  await vi.waitFor(() => expect(document.activeElement).toBe(input()));
}
async function type(words: string) {
  input().value = words;
  input().dispatchEvent(new Event('input'));
  await settle();
}

describe('the command palette, wherever the advisor is', () => {
  it('lists every area of the navigation, the board, Settings and New account before a word is typed', async () => {
    const db = openDb();
    await userConfig(db);
    await mountFrame(db, '/home');
    await openPalette();
    expect(document.querySelector('[data-testid="palette-hint"]')?.textContent).toContain(
      'Type a client’s name or email to find a household.',
    );
    const listed = titles();
    for (const area of AREAS) expect(listed, area.title).toContain(area.title);
    expect(listed).toContain('Pipeline board');
    expect(listed).toContain('Settings');
    expect(listed).toContain('New account…');
    expect(listed).toContain('Prepare for a meeting…');
    const groups = [...document.querySelectorAll('[data-testid="palette-options"] .group')].map(
      (g) => g.textContent,
    );
    expect(groups).toEqual(['Commands', 'Go to']);
  });

  it('goes to an area by its name or by what it holds', async () => {
    const db = openDb();
    await userConfig(db);
    await mountFrame(db, '/home');
    await openPalette();
    await type('settings');
    expect(activeTitle()).toBe('Settings');
    await key('Enter', {}, input());
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('settings'));

    await openPalette();
    await type('questionnaires');
    expect(titles()).toEqual(['Engagements']);
    await key('Enter', {}, input());
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('engagements'));
  });

  it('"New account…" from another area opens the account list with the new account form', async () => {
    const db = openDb();
    await userConfig(db);
    await mountFrame(db, '/activity');
    await openPalette();
    await type('new account');
    expect(activeTitle()).toBe('New account…');
    await key('Enter', {}, input());
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('accounts'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="account-form"]')).not.toBeNull());
    expect(document.querySelector('[data-testid="account-form"]')?.textContent).toContain('New account');
  });

  it('"New account…" for a role that may not create one says why, and opens no form', async () => {
    const db = openDb();
    await userConfig(db, ['accounts.prospects.create', 'accounts.clients.create']);
    await mountFrame(db, '/home');
    await openPalette();
    await type('new account');
    await key('Enter', {}, input());
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('accounts'));
    await vi.waitFor(() => expect(document.body.textContent).toContain('No new account'));
    expect(document.body.textContent).toContain(
      'Your role on the platform does not let you create prospects.',
    );
    expect(document.querySelector('[data-testid="account-form"]')).toBeNull();
  });
});
